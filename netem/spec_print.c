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
	keep_dup = s->duplicate_corr && !s->delay_corr &&
		   !(s->loss_model == NETEM_LOSS_RANDOM && s->loss_corr) &&
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

/* ---- the spec as "tc qdisc show" prints it ---- */

/* tc 6.1 hands delays over in psched ticks of 64 ns and prints them
 * back through whole microseconds (tc_core_time2tick(),
 * tc_core_tick2time() with /proc/net/psched's 15.625 ticks per us). */
static uint32_t tc_us_shown(int64_t ns)
{
	uint32_t us = (uint32_t)(ns / 1000);
	uint32_t ticks = (uint32_t)(us * 15.625);

	return (uint32_t)(ticks / 15.625);
}

/* iproute2's print_time(): three significant digits above 1 ms. */
static void tc_time(uint32_t us, char *buf, size_t len)
{
	if (us >= 1000000)
		snprintf(buf, len, "%.3gs", us / 1e6);
	else if (us >= 1000)
		snprintf(buf, len, "%.3gms", us / 1e3);
	else
		snprintf(buf, len, "%uus", us);
}

/* iproute2's print_time64(), for slot times in ns. */
static void tc_time64(int64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000)
		snprintf(buf, len, "%.3gs", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.3gms", ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, len, "%.3gus", ns / 1e3);
	else
		snprintf(buf, len, "%lldns", (long long)ns);
}

/* iproute2's print_color_rate() without IEC units. */
static void tc_rate(uint64_t bytes_per_s, char *buf, size_t len)
{
	static const char *const units[] = {"", "K", "M", "G", "T"};
	unsigned long long rate = (unsigned long long)bytes_per_s << 3;
	size_t i;

	for (i = 0; i < 4; i++) {
		if (rate < 1000 || (rate % 1000 != 0 && rate < 1000 * 1000))
			break;
		rate /= 1000;
	}
	snprintf(buf, len, "%.0f%sbit", (double)rate, units[i]);
}

static void tc_pct(struct out *o, const char *label, uint32_t p)
{
	put(o, "%s %g%%", label, 100. * p / UINT32_MAX);
}

static void tc_loss(struct out *o, const struct netem_spec *s)
{
	if (s->loss_model == NETEM_LOSS_RANDOM && s->loss) {
		tc_pct(o, " loss", s->loss);
		if (s->loss_corr)
			tc_pct(o, "", s->loss_corr);
	} else if (s->loss_model == NETEM_LOSS_STATE) {
		tc_pct(o, " loss state p13", s->p13);
		tc_pct(o, " p31", s->p31);
		tc_pct(o, " p32", s->p32);
		tc_pct(o, " p23", s->p23);
		tc_pct(o, " p14", s->p14);
	} else if (s->loss_model == NETEM_LOSS_GEMODEL) {
		tc_pct(o, " loss gemodel p", s->ge_p);
		tc_pct(o, " r", s->ge_r);
		tc_pct(o, " 1-h", s->ge_1h);
		tc_pct(o, " 1-k", s->ge_1k);
	}
}

static void tc_rate_slot(struct out *o, const struct netem_spec *s)
{
	char a[48], b[48];

	if (s->rate) {
		tc_rate(s->rate, a, sizeof(a));
		put(o, " rate %s", a);
		if (s->packet_overhead)
			put(o, " packetoverhead %d", s->packet_overhead);
		if (s->cell_size)
			put(o, " cellsize %u", s->cell_size);
		if (s->cell_overhead)
			put(o, " celloverhead %d", s->cell_overhead);
	}
	if (s->slot) {
		if (s->slot_use_dist) {
			tc_time64(s->slot_dist_delay_ns, a, sizeof(a));
			tc_time64(s->slot_dist_jitter_ns, b, sizeof(b));
			put(o, " slot distribution %s %s", a, b);
		} else {
			tc_time64(s->slot_min_ns, a, sizeof(a));
			tc_time64(s->slot_max_ns, b, sizeof(b));
			put(o, " slot %s %s", a, b);
		}
		if (s->slot_packets)
			put(o, " packets %d", (int)s->slot_packets);
		if (s->slot_bytes)
			put(o, " bytes %d", (int)s->slot_bytes);
	}
}

int netem_spec_print_tc(const struct netem_spec *s, char *buf, size_t len)
{
	struct out o = {buf, len, 0};
	uint32_t lat = tc_us_shown(s->latency_ns);
	uint32_t jit = tc_us_shown(s->jitter_ns);
	char a[48];

	if (buf && len)
		buf[0] = '\0';
	put(&o, "limit %u", s->limit);
	if (lat) {
		tc_time(lat, a, sizeof(a));
		put(&o, " delay %s", a);
		if (jit) {
			tc_time(jit, a, sizeof(a));
			put(&o, "  %s", a);
			if (s->delay_corr)
				tc_pct(&o, "", s->delay_corr);
		}
	}
	tc_loss(&o, s);
	if (s->duplicate) {
		tc_pct(&o, " duplicate", s->duplicate);
		if (s->duplicate_corr)
			tc_pct(&o, "", s->duplicate_corr);
	}
	if (s->reorder) {
		tc_pct(&o, " reorder", s->reorder);
		if (s->reorder_corr)
			tc_pct(&o, "", s->reorder_corr);
	}
	if (s->corrupt) {
		tc_pct(&o, " corrupt", s->corrupt);
		if (s->corrupt_corr)
			tc_pct(&o, "", s->corrupt_corr);
	}
	tc_rate_slot(&o, s);
	if (s->ecn)
		put(&o, " ecn ");
	if (s->gap)
		put(&o, " gap %u", s->gap);
	return (int)o.n;
}
