/*
 * capture.c: libpcap dump files for the bridge's before/after captures.
 * A dead pcap handle (DLT_EN10MB, nanosecond precision) gives the file
 * header; records go through pcap_dump. The byte count mirrors the file
 * layout (24-byte file header, 16-byte record header + captured bytes) so
 * the size cap is exact without stat'ing the file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "bridge_int.h"

#define PCAP_FILE_HDR 24u
#define PCAP_REC_HDR  16u

struct capture {
	pcap_t *dead;
	pcap_dumper_t *dump;
	uint32_t snaplen;
	uint64_t max_bytes;
	struct capture_counts n;
};

int capture_open(const char *path, uint32_t snaplen, uint64_t max_bytes,
		 struct capture **out)
{
	struct capture *c;

	if (path == NULL || out == NULL)
		return -EINVAL;
	if (snaplen == 0 || snaplen > 262144)
		snaplen = 65535;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	c->dead = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, (int)snaplen, PCAP_TSTAMP_PRECISION_NANO);
	if (c->dead == NULL) {
		free(c);
		return -ENOMEM;
	}
	errno = 0;
	c->dump = pcap_dump_open(c->dead, path);
	if (c->dump == NULL) {
		int e = errno ? errno : EIO;

		pcap_close(c->dead);
		free(c);
		return -e;
	}
	c->snaplen = snaplen;
	c->max_bytes = max_bytes;
	c->n.bytes = PCAP_FILE_HDR;
	*out = c;
	return 0;
}

int capture_write(struct capture *c, int64_t realtime_ns, const uint8_t *buf,
		  uint32_t len)
{
	struct pcap_pkthdr h;
	uint32_t caplen;

	if (c == NULL || buf == NULL || realtime_ns < 0)
		return -EINVAL;
	caplen = len < c->snaplen ? len : c->snaplen;
	if (c->max_bytes && c->n.bytes + PCAP_REC_HDR + caplen > c->max_bytes) {
		c->n.skipped++;
		return 1;
	}
	memset(&h, 0, sizeof(h));
	/* With nanosecond precision libpcap stores tv_usec as ns. */
	h.ts.tv_sec = (time_t)(realtime_ns / 1000000000);
	h.ts.tv_usec = (suseconds_t)(realtime_ns % 1000000000);
	h.caplen = caplen;
	h.len = len;
	pcap_dump((u_char *)c->dump, &h, buf);
	c->n.written++;
	c->n.bytes += PCAP_REC_HDR + caplen;
	return 0;
}

void capture_get_counts(const struct capture *c, struct capture_counts *out)
{
	if (c == NULL || out == NULL)
		return;
	*out = c->n;
}

int capture_flush(struct capture *c)
{
	if (c == NULL)
		return -EINVAL;
	return pcap_dump_flush(c->dump) == 0 ? 0 : -EIO;
}

void capture_close(struct capture *c)
{
	if (c == NULL)
		return;
	pcap_dump_close(c->dump);
	pcap_close(c->dead);
	free(c);
}
