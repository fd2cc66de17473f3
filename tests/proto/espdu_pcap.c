/*
 * espdu_pcap.c: test helper for the tshark cross-check. Writes a pcap file
 * (libpcap, Ethernet) of IPv4/UDP datagrams from 10.0.0.1:3000 to
 * 10.0.0.2:3000, each carrying one seeded random Entity State PDU encoded
 * by reckon, and a TSV of what each frame must decode to (entity id,
 * velocity, DR algorithm, marking, PDU length, send time in hex). Nothing is
 * sent on any network.
 *
 * usage: proto_espdu_pcap OUT.pcap EXPECT.tsv [COUNT] [SEED]
 */
#include <errno.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "espdu_sample.h"
#include "pcap_frame.h"
#include "proto/espdu.h"

#define DIS_PORT 3000

int main(int argc, char **argv)
{
	unsigned long count = argc > 3 ? strtoul(argv[3], NULL, 0) : 100;
	uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 0) : 1;
	uint8_t pdu[RECKON_ESPDU_MAX_LEN], f[RECKON_ESPDU_MAX_LEN + 64];
	struct sample_rng r;
	struct reckon_espdu p;
	struct pcap_pkthdr h;
	pcap_dumper_t *d;
	pcap_t *pd;
	FILE *tsv;
	unsigned long i;
	size_t len;
	int err;

	if (argc < 3) {
		fprintf(stderr,
			"usage: %s OUT.pcap EXPECT.tsv [COUNT] [SEED]\n",
			argv[0]);
		return 2;
	}
	pd = pcap_open_dead(DLT_EN10MB, 65535);
	if (!pd) {
		fprintf(stderr, "pcap_open_dead failed\n");
		return 1;
	}
	d = pcap_dump_open(pd, argv[1]);
	if (!d) {
		fprintf(stderr, "%s: %s\n", argv[1], pcap_geterr(pd));
		return 1;
	}
	tsv = fopen(argv[2], "w");
	if (!tsv) {
		perror(argv[2]);
		return 1;
	}
	sample_seed(&r, seed);
	for (i = 0; i < count; i++) {
		sample_espdu_printable(&r, &p);
		p.send_ns = 1000000000ull + i * 50000000ull; /* 20 Hz */
		err = reckon_espdu_encode(&p, pdu, sizeof(pdu), &len);
		if (err) {
			fprintf(stderr, "encode %lu: %s\n", i, strerror(-err));
			return 1;
		}
		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = (time_t)(p.send_ns / 1000000000ull);
		h.ts.tv_usec = (suseconds_t)(p.send_ns % 1000000000ull / 1000);
		h.caplen = h.len = (bpf_u_int32)pcap_frame_udp(
			f, pdu, len, (unsigned)i, DIS_PORT, DIS_PORT);
		pcap_dump((u_char *)d, &h, f);
		fprintf(tsv,
			"%u\t%u\t%u\t%u\t%.17g\t%.17g\t%.17g\t%u\t%s\t%zu\t"
			"%016" PRIx64 "\n",
			1u, p.id.site, p.id.application, p.id.entity, p.vel.x,
			p.vel.y, p.vel.z, p.dr_alg, p.marking, len, p.send_ns);
	}
	pcap_dump_close(d);
	pcap_close(pd);
	if (fclose(tsv)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
