/*
 * bundle_pcap.c: writes a pcap of fps snapshot bundles for tshark
 * (tshark_bundle.sh). Frame k (k = 0..NFRAMES-1) carries one UDP
 * datagram to port 3000 holding sizes[k] Entity State PDUs back to back,
 * as fps_server.c packs them: players 0..n-1 (DIS entity 1..n), server
 * tick 100 + k. The expect file gets one line per frame: the frame
 * number, the PDU count, the UDP payload length and the entity numbers
 * in order (comma-separated).
 *
 * usage: lagcomp_bundle_pcap OUT.pcap EXPECT.tsv
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "pcap_frame.h"
#include "role/fps.h"

static const int sizes[] = {1, 2, 5, 9};
#define NFRAMES (int)(sizeof(sizes) / sizeof(sizes[0]))

/* One bundle of n players; its length, 0 on an encoding failure. */
static size_t bundle(uint8_t *buf, int n, uint32_t tick)
{
	size_t at = 0;

	for (int i = 0; i < n; i++) {
		struct fps_state st = {{64.0 * i, 128, 45, i % 2}, 10, 0, 1,
				       1 + i % 2};
		struct reckon_espdu e;
		size_t len;

		if (fps_state_to_espdu(i, &st, 1000000ull * tick, tick, &e) ||
		    reckon_espdu_encode(&e, buf + at, FPS_DGRAM_MAX - at,
					&len))
			return 0;
		at += len;
	}
	return at;
}

int main(int argc, char **argv)
{
	uint8_t b[FPS_DGRAM_MAX], f[FPS_DGRAM_MAX + PCAP_FRAME_OVERHEAD];
	struct pcap_pkthdr h;
	pcap_dumper_t *d;
	pcap_t *pd;
	FILE *ex;

	if (argc != 3) {
		fprintf(stderr, "usage: %s OUT.pcap EXPECT.tsv\n", argv[0]);
		return 2;
	}
	pd = pcap_open_dead(DLT_EN10MB, 65535);
	d = pd ? pcap_dump_open(pd, argv[1]) : NULL;
	ex = fopen(argv[2], "w");
	if (!d || !ex) {
		fprintf(stderr, "cannot write %s or %s\n", argv[1], argv[2]);
		return 1;
	}
	for (int k = 0; k < NFRAMES; k++) {
		size_t n = bundle(b, sizes[k], 100 + (uint32_t)k);

		if (!n) {
			fprintf(stderr, "bundle %d did not encode\n", k);
			return 1;
		}
		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = 1700000000 + k;
		h.caplen = h.len = (bpf_u_int32)pcap_frame_udp(
			f, b, n, (unsigned)k + 1, 3000, 3000);
		pcap_dump((u_char *)d, &h, f);
		fprintf(ex, "%d\t%d\t%zu\t", k + 1, sizes[k], n);
		for (int i = 0; i < sizes[k]; i++)
			fprintf(ex, "%s%d", i ? "," : "", i + 1);
		fputc('\n', ex);
	}
	pcap_dump_close(d);
	pcap_close(pd);
	return fclose(ex) ? 1 : 0;
}
