/*
 * warfare_pcap.c: test helper for the tshark cross-checks of the Fire and
 * Detonation PDUs and of the ALC reply's Lua dissector. Writes a pcap
 * (Ethernet/IPv4/UDP) of COUNT seeded rounds, each a Fire PDU and a
 * Detonation PDU to port 3000 (DIS) and an ALC reply to port 3001, and a
 * TSV line per frame of what it must decode to. Nothing is sent.
 *
 * usage: proto_warfare_pcap OUT.pcap EXPECT.tsv [COUNT] [SEED]
 */
#include <errno.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap_frame.h"
#include "warfare_sample.h"

#define DIS_PORT     3000
#define LCREPLY_PORT 3001

static pcap_dumper_t *dumper;
static unsigned nframe;

static void dump(const uint8_t *p, size_t n, unsigned port)
{
	uint8_t f[256];
	struct pcap_pkthdr h;

	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = 1000 + nframe / 100;
	h.ts.tv_usec = (suseconds_t)(nframe % 100) * 10000;
	h.caplen = h.len =
		(bpf_u_int32)pcap_frame_udp(f, p, n, nframe, port, port);
	pcap_dump((u_char *)dumper, &h, f);
	nframe++;
}

static void id_tsv(FILE *o, const struct reckon_entity_id *e)
{
	fprintf(o, "\t%u:%u:%u", e->site, e->application, e->entity);
}

static int one_round(struct sample_rng *r, FILE *o)
{
	uint8_t b[RECKON_DETONATION_MAX_LEN];
	struct reckon_fire f;
	struct reckon_detonation d;
	struct reckon_lcreply x;
	size_t n;

	sample_fire(r, &f);
	if (reckon_fire_encode(&f, b, sizeof(b), &n))
		return -1;
	dump(b, n, DIS_PORT);
	fprintf(o, "fire");
	id_tsv(o, &f.firing);
	id_tsv(o, &f.target);
	fprintf(o, "\t%u\t%u\t%.17g\t%.17g\t%.17g\t%.17g\t%zu\n", f.event.event,
		f.mission, f.loc.x, f.vel.x, f.vel.z, f.range, n);

	sample_detonation(r, &d);
	if (reckon_detonation_encode(&d, b, sizeof(b), &n))
		return -1;
	dump(b, n, DIS_PORT);
	fprintf(o, "detonation");
	id_tsv(o, &d.firing);
	id_tsv(o, &d.target);
	fprintf(o, "\t%u\t%u\t%.17g\t%.17g\t%.17g\t%d\t%zu\n", d.event.event,
		d.result, d.loc.x, d.vel.x, d.vel.z, d.has_hit, n);

	sample_lcreply(r, &x);
	if (reckon_lcreply_encode(&x, b, sizeof(b), &n))
		return -1;
	dump(b, n, LCREPLY_PORT);
	fprintf(o,
		"lcreply\t%u\t%u\t%u\t%" PRIu32 "\t%u\t%" PRIu32
		"\t%.17g\t%.17g\t%.17g\t%u\n",
		x.verdict, x.flags, x.part, x.hit_id, x.victim, x.rendered_tick,
		x.x, x.y, x.yaw, x.crouch);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long count = argc > 3 ? strtoul(argv[3], NULL, 0) : 50;
	uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 0) : 1;
	struct sample_rng r;
	pcap_t *pd;
	FILE *tsv;

	if (argc < 3) {
		fprintf(stderr,
			"usage: %s OUT.pcap EXPECT.tsv [COUNT] [SEED]\n",
			argv[0]);
		return 2;
	}
	pd = pcap_open_dead(DLT_EN10MB, 65535);
	if (!pd || !(dumper = pcap_dump_open(pd, argv[1]))) {
		fprintf(stderr, "%s: cannot open pcap\n", argv[1]);
		return 1;
	}
	tsv = fopen(argv[2], "w");
	if (!tsv) {
		perror(argv[2]);
		return 1;
	}
	sample_seed(&r, seed);
	for (unsigned long i = 0; i < count; i++) {
		if (one_round(&r, tsv)) {
			fprintf(stderr, "encode failed in round %lu\n", i);
			return 1;
		}
	}
	pcap_dump_close(dumper);
	pcap_close(pd);
	if (fclose(tsv)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
