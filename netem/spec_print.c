/*
 * spec_print.c: the canonical text form of a struct netem_spec. Keywords
 * come in a fixed order, times in the largest unit that is exact, rates in
 * the largest exact bit unit, probabilities with the fewest digits that
 * parse back to the same u32, and the 4-state and Gilbert-Elliott values
 * with tc's labels, so netem_spec_parse() of the output gives back the same
 * struct.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "netem.h"
#include "units.h"

struct out {
	char *buf;
	size_t len;
	size_t n; /* length the full text needs */
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o,
						      const char *fmt, ...)
{
	va_list ap;
	int r;

	/* every item starts with a separating space except the first */
	if (o->n == 0 && fmt[0] == ' ')
		fmt++;
	va_start(ap, fmt);
	r = vsnprintf(o->n < o->len ? o->buf + o->n : NULL,
		      o->n < o->len ? o->len - o->n : 0, fmt, ap);
	va_end(ap);
	if (r > 0)
		o->n += (size_t)r;
}

static const char *dist_name(enum netem_dist d, const char *custom)
{
	switch (d) {
	case NETEM_DIST_NORMAL:
		return "normal";
	case NETEM_DIST_PARETO:
		return "pareto";
	case NETEM_DIST_PARETONORMAL:
		return "paretonormal";
	case NETEM_DIST_CUSTOM:
		return custom;
	default:
		return "uniform";
	}
}

int netem_spec_print(const struct netem_spec *s, char *buf, size_t len)
{
	struct out o = {buf, len, 0};
	char a[48], b[48];
	int keep_dup;

	if (buf && len)
		buf[0] = '\0';
	if (s->latency_ns || s->jitter_ns || s->delay_corr) {
		netem_fmt_time(s->latency_ns, a, sizeof(a));
		put(&o, " delay %s", a);
		if (s->jitter_ns || s->delay_corr) {
			netem_fmt_time(s->jitter_ns, a, sizeof(a));
			put(&o, " %s", a);
		}
		if (s->delay_corr) {
			netem_fmt_percent(s->delay_corr, a, sizeof(a));
			put(&o, " %s", a);
		}
	}
	if (s->dist != NETEM_DIST_UNIFORM)
		put(&o, " distribution %s", dist_name(s->dist, s->dist_name));
	if (s->jitter_mode == NETEM_JITTER_FIFO)
		put(&o, " jitter fifo");
	switch (s->loss_model) {
	case NETEM_LOSS_RANDOM:
		netem_fmt_percent(s->loss, a, sizeof(a));
		put(&o, " loss %s", a);
		if (s->loss_corr) {
			netem_fmt_percent(s->loss_corr, a, sizeof(a));
			put(&o, " %s", a);
		}
		break;
	case NETEM_LOSS_STATE: {
		static const char *lab[] = {"p13", "p31", "p32", "p23", "p14"};
		const uint32_t v[] = {s->p13, s->p31, s->p32, s->p23, s->p14};
		int i;

		put(&o, " loss state");
		for (i = 0; i < 5; i++) {
			netem_fmt_percent(v[i], a, sizeof(a));
			put(&o, " %s %s", lab[i], a);
		}
		break;
	}
	case NETEM_LOSS_GEMODEL: {
		static const char *lab[] = {"p", "r", "1-h", "1-k"};
		const uint32_t v[] = {s->ge_p, s->ge_r, s->ge_1h, s->ge_1k};
		int i;

		put(&o, " loss gemodel");
		for (i = 0; i < 4; i++) {
			netem_fmt_percent(v[i], a, sizeof(a));
			put(&o, " %s %s", lab[i], a);
		}
		break;
	}
	default:
		break;
	}
	if (s->ecn)
		put(&o, " ecn");
	if (s->duplicate || s->duplicate_corr) {
		netem_fmt_percent(s->duplicate, a, sizeof(a));
		put(&o, " duplicate %s", a);
		if (s->duplicate_corr) {
			netem_fmt_percent(s->duplicate_corr, b, sizeof(b));
			put(&o, " %s", b);
		}
	}
	/* tc takes a duplicate correlation only beside another correlation
	 * (spec_parse.c): when all the others are 0, an explicit corrupt
	 * correlation of 0% keeps it */
	keep_dup = s->duplicate_corr && !s->delay_corr && !s->loss_corr &&
		   !s->reorder_corr && !s->corrupt_corr;
	if (s->corrupt || s->corrupt_corr || keep_dup) {
		netem_fmt_percent(s->corrupt, a, sizeof(a));
		put(&o, " corrupt %s", a);
		if (s->corrupt_corr || keep_dup) {
			netem_fmt_percent(s->corrupt_corr, b, sizeof(b));
			put(&o, " %s", b);
		}
	}
	if (s->reorder || s->reorder_corr) {
		netem_fmt_percent(s->reorder, a, sizeof(a));
		put(&o, " reorder %s", a);
		if (s->reorder_corr) {
			netem_fmt_percent(s->reorder_corr, b, sizeof(b));
			put(&o, " %s", b);
		}
		if (s->reorder && s->gap != 1)
			put(&o, " gap %u", s->gap);
	}
	if (s->rate) {
		netem_fmt_rate(s->rate, a, sizeof(a));
		put(&o, " rate %s", a);
		if (s->packet_overhead || s->cell_size || s->cell_overhead)
			put(&o, " %d", s->packet_overhead);
		if (s->cell_size || s->cell_overhead)
			put(&o, " %u", s->cell_size);
		if (s->cell_overhead)
			put(&o, " %d", s->cell_overhead);
	}
	put(&o, " limit %u", s->limit);
	if (s->slot) {
		if (s->slot_use_dist) {
			netem_fmt_time(s->slot_dist_delay_ns, a, sizeof(a));
			netem_fmt_time(s->slot_dist_jitter_ns, b, sizeof(b));
			put(&o, " slot distribution %s %s %s",
			    dist_name(s->slot_dist, s->slot_dist_name), a, b);
		} else {
			netem_fmt_time(s->slot_min_ns, a, sizeof(a));
			netem_fmt_time(s->slot_max_ns, b, sizeof(b));
			put(&o, " slot %s %s", a, b);
		}
		if (s->slot_packets)
			put(&o, " packets %u", s->slot_packets);
		if (s->slot_bytes)
			put(&o, " bytes %u", s->slot_bytes);
	}
	return (int)o.n;
}
