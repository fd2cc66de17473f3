/*
 * capture.h: one libpcap dump file written by the bridge, with
 * nanosecond timestamps (pcap_open_dead_with_tstamp_precision, NANO), the
 * scenario's snap length and a size cap: once the next record would take
 * the file over max_bytes nothing more is written and the skipped records
 * are counted instead. The files open in Wireshark and tshark.
 */
#ifndef RECKON_CAPTURE_H
#define RECKON_CAPTURE_H

#include <stdint.h>

struct capture;

struct capture_counts {
	uint64_t written; /* records in the file */
	uint64_t skipped; /* records not written: size cap or I/O error */
	uint64_t bytes;	  /* file size so far (header included) */
};

/* Create (truncate) path as an Ethernet pcap. snaplen 0 means 65535.
 * max_bytes 0 means unlimited. Returns 0 or -errno (-EIO when libpcap
 * cannot open the file; errno is kept where libpcap left it). */
int capture_open(const char *path, uint32_t snaplen, uint64_t max_bytes,
		 struct capture **out);

/* Append one frame with a CLOCK_REALTIME timestamp in ns. Returns 0 when
 * written, 1 when skipped because of the size cap, -EINVAL on bad input. */
int capture_write(struct capture *c, int64_t realtime_ns, const uint8_t *buf,
		  uint32_t len);

void capture_get_counts(const struct capture *c, struct capture_counts *out);

/* Flush buffered records to the file (the file stays open). */
int capture_flush(struct capture *c);

/* Flush and close; NULL is a no-op. */
void capture_close(struct capture *c);

#endif
