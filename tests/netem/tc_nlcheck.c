/*
 * tc_nlcheck.c: compares reckon's reading of a netem spec with what
 * iproute2's tc sent the kernel for the same words. Standard input is
 * strace's hex dump ("-e write=all") of tc's sendmsg calls; the netlink
 * RTM_NEWQDISC message in it is decoded (struct tc_netem_qopt and the
 * TCA_NETEM_* attributes, laid out as in <linux/pkt_sched.h>) and every
 * field is compared with the value netem_spec_parse() gives, converted
 * the way tc converts it (delays to psched ticks of /proc/net/psched,
 * gemodel 1-h to h). Exit 0: same; 1: a field differs (each printed);
 * 2: reckon refuses the spec; 3: no RTM_NEWQDISC in the dump (tc
 * refused it).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netem.h"

#define RTM_NEWQDISC_T 36
#define TCA_OPTIONS_T 2

enum {
	NA_CORR = 1,
	NA_DELAY_DIST,
	NA_REORDER,
	NA_CORRUPT,
	NA_LOSS,
	NA_RATE,
	NA_ECN,
	NA_RATE64,
	NA_PAD,
	NA_LATENCY64,
	NA_JITTER64,
	NA_SLOT,
	NA_SLOT_DIST,
	NA_MAX = 16
};

struct attr {
	const uint8_t *p;
	size_t n;
};

static uint8_t msg[1 << 17];
static size_t msg_len;
static int diffs;

static uint32_t u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static int64_t s64(const uint8_t *p)
{
	int64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* The bytes of the first buffer strace dumped that holds RTM_NEWQDISC. */
static int read_dump(FILE *f)
{
	char line[512];
	uint8_t buf[sizeof(msg)];
	size_t n = 0;

	while (fgets(line, sizeof(line), f)) {
		unsigned off, b[16];
		int k, i;

		if (strstr(line, "bytes in buffer")) {
			if (n >= 20 && buf[4] == RTM_NEWQDISC_T)
				break;
			n = 0;
			continue;
		}
		k = sscanf(line,
			   " | %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x",
			   &off, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6],
			   &b[7], &b[8], &b[9], &b[10], &b[11], &b[12], &b[13],
			   &b[14], &b[15]);
		for (i = 0; i < k - 1 && n < sizeof(buf); i++)
			buf[n++] = (uint8_t)b[i];
	}
	if (n < 20 || buf[4] != RTM_NEWQDISC_T)
		return -ENOENT;
	memcpy(msg, buf, n);
	msg_len = n;
	return 0;
}

/* Attributes of [p, p + n) by type (the last of a type wins). */
static void attrs(const uint8_t *p, size_t n, struct attr *tb, int max)
{
	memset(tb, 0, sizeof(*tb) * (size_t)(max + 1));
	while (n >= 4) {
		uint16_t len, type;

		memcpy(&len, p, 2);
		memcpy(&type, p + 2, 2);
		type &= 0x3fff;
		if (len < 4 || len > n)
			return;
		if (type <= max) {
			tb[type].p = p + 4;
			tb[type].n = len - 4u;
		}
		len = (uint16_t)((len + 3u) & ~3u);
		if (len >= n)
			return;
		p += len;
		n -= len;
	}
}

static void cmp(const char *what, long long tc, long long ours)
{
	if (tc == ours)
		return;
	printf("  %s: tc sent %lld, reckon has %lld\n", what, tc, ours);
	diffs++;
}

/* tc's get_time() keeps whole microseconds, tc_core_time2tick() whole
 * ticks. */
static uint32_t ticks(int64_t ns, double tick_in_usec)
{
	uint32_t us = (uint32_t)(ns / 1000);

	return (uint32_t)(us * tick_in_usec);
}

static double psched_tick_in_usec(void)
{
	unsigned t2us = 1000, us2t = 64, res = 1000000;
	FILE *f = fopen("/proc/net/psched", "r");

	if (f) {
		if (fscanf(f, "%8x%8x%8x", &t2us, &us2t, &res) != 3)
			t2us = 1000, us2t = 64, res = 1000000;
		fclose(f);
	}
	if (res == 1000000000)
		t2us = us2t;
	return (double)t2us / us2t * ((double)res / 1e6);
}

static void check_loss(const struct netem_spec *s, const struct attr *tb)
{
	struct attr lb[3];

	if (!tb[NA_LOSS].p) {
		cmp("loss model (nested attribute present)", 0,
		    s->loss_model == NETEM_LOSS_STATE ||
			    s->loss_model == NETEM_LOSS_GEMODEL);
		return;
	}
	attrs(tb[NA_LOSS].p, tb[NA_LOSS].n, lb, 2);
	if (lb[1].p && lb[1].n >= 20) { /* gimodel: p13 p31 p32 p14 p23 */
		cmp("loss state model", 1, s->loss_model == NETEM_LOSS_STATE);
		cmp("loss state p13", u32(lb[1].p), s->p13);
		cmp("loss state p31", u32(lb[1].p + 4), s->p31);
		cmp("loss state p32", u32(lb[1].p + 8), s->p32);
		cmp("loss state p14", u32(lb[1].p + 12), s->p14);
		cmp("loss state p23", u32(lb[1].p + 16), s->p23);
	}
	if (lb[2].p && lb[2].n >= 16) { /* gemodel: p r h k1 */
		cmp("loss gemodel model", 1,
		    s->loss_model == NETEM_LOSS_GEMODEL);
		cmp("loss gemodel p", u32(lb[2].p), s->ge_p);
		cmp("loss gemodel r", u32(lb[2].p + 4), s->ge_r);
		cmp("loss gemodel h", u32(lb[2].p + 8), UINT32_MAX - s->ge_1h);
		cmp("loss gemodel 1-k", u32(lb[2].p + 12), s->ge_1k);
	}
}

static void check_pairs(const struct netem_spec *s, const struct attr *tb)
{
	if (tb[NA_CORR].p && tb[NA_CORR].n >= 12) {
		cmp("delay correlation", u32(tb[NA_CORR].p), s->delay_corr);
		/* only random loss reads it (netem's loss_4state and
		 * loss_gilb_ell do not) */
		if (s->loss_model == NETEM_LOSS_RANDOM)
			cmp("loss correlation", u32(tb[NA_CORR].p + 4),
			    s->loss_corr);
		cmp("duplicate correlation", u32(tb[NA_CORR].p + 8),
		    s->duplicate_corr);
	} else {
		cmp("delay correlation", 0, s->delay_corr);
		cmp("loss correlation", 0, s->loss_corr);
		cmp("duplicate correlation", 0, s->duplicate_corr);
	}
	if (tb[NA_REORDER].p && tb[NA_REORDER].n >= 8) {
		cmp("reorder", u32(tb[NA_REORDER].p), s->reorder);
		cmp("reorder correlation", u32(tb[NA_REORDER].p + 4),
		    s->reorder_corr);
	} else {
		cmp("reorder", 0, s->reorder);
	}
	if (tb[NA_CORRUPT].p && tb[NA_CORRUPT].n >= 8) {
		cmp("corrupt", u32(tb[NA_CORRUPT].p), s->corrupt);
		cmp("corrupt correlation", u32(tb[NA_CORRUPT].p + 4),
		    s->corrupt_corr);
	} else {
		cmp("corrupt", 0, s->corrupt);
	}
}

static void check_rate_slot(const struct netem_spec *s, const struct attr *tb)
{
	if (tb[NA_RATE].p && tb[NA_RATE].n >= 16) {
		uint64_t r = u32(tb[NA_RATE].p);

		if (tb[NA_RATE64].p && tb[NA_RATE64].n >= 8)
			r = (uint64_t)s64(tb[NA_RATE64].p);
		cmp("rate (bytes/s)", (long long)r, (long long)s->rate);
		cmp("rate packet overhead", (int32_t)u32(tb[NA_RATE].p + 4),
		    s->packet_overhead);
		cmp("rate cell size", u32(tb[NA_RATE].p + 8), s->cell_size);
		cmp("rate cell overhead", (int32_t)u32(tb[NA_RATE].p + 12),
		    s->cell_overhead);
	} else {
		cmp("rate (bytes/s)", 0, (long long)s->rate);
	}
	cmp("ecn", tb[NA_ECN].p ? (long long)u32(tb[NA_ECN].p) : 0, s->ecn);
	cmp("distribution table sent", tb[NA_DELAY_DIST].p != NULL,
	    s->dist != NETEM_DIST_UNIFORM);
	if (tb[NA_SLOT].p && tb[NA_SLOT].n >= 40) {
		const uint8_t *p = tb[NA_SLOT].p;

		cmp("slot", 1, s->slot);
		if (s->slot_use_dist) {
			cmp("slot distribution delay", s64(p + 24),
			    s->slot_dist_delay_ns);
			cmp("slot distribution jitter", s64(p + 32),
			    s->slot_dist_jitter_ns);
		} else {
			cmp("slot min delay", s64(p), s->slot_min_ns);
			cmp("slot max delay", s64(p + 8), s->slot_max_ns);
		}
		cmp("slot packets", (int32_t)u32(p + 16), s->slot_packets);
		cmp("slot bytes", (int32_t)u32(p + 20), s->slot_bytes);
	} else {
		cmp("slot", 0, s->slot);
	}
}

int main(int argc, char **argv)
{
	struct netem_spec s;
	struct attr tb[NA_MAX + 1], top[8];
	char err[256];
	const uint8_t *q;
	double tick;

	if (argc != 2) {
		fprintf(stderr, "usage: tc_nlcheck SPEC < strace-dump\n");
		return 64;
	}
	if (netem_spec_parse(argv[1], &s, err, sizeof(err))) {
		printf("  reckon refuses: %s\n", err);
		return 2;
	}
	if (read_dump(stdin))
		return 3;
	attrs(msg + 36, msg_len - 36, top, 7);
	if (!top[TCA_OPTIONS_T].p || top[TCA_OPTIONS_T].n < 24) {
		printf("  no netem options in tc's message\n");
		return 1;
	}
	q = top[TCA_OPTIONS_T].p;
	tick = psched_tick_in_usec();
	cmp("latency (ticks)", u32(q), ticks(s.latency_ns, tick));
	cmp("limit", u32(q + 4), s.limit);
	cmp("loss", u32(q + 8),
	    s.loss_model == NETEM_LOSS_RANDOM ? s.loss : 0);
	cmp("gap", u32(q + 12), s.gap);
	cmp("duplicate", u32(q + 16), s.duplicate);
	cmp("jitter (ticks)", u32(q + 20), ticks(s.jitter_ns, tick));
	attrs(q + 24, top[TCA_OPTIONS_T].n - 24, tb, NA_MAX);
	check_loss(&s, tb);
	check_pairs(&s, tb);
	check_rate_slot(&s, tb);
	return diffs ? 1 : 0;
}
