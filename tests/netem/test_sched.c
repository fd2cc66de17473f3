/*
 * test_sched.c: time-varying schedules and CSV traces: parsing, error
 * messages, evaluation at given times (steps, linear ramps, later events
 * overriding earlier ones), every numeric spec parameter (model switches
 * with tc's defaults, integer rounding, consistency fixes) and a link
 * following them packet by packet.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "netem.h"
#include "stats.h"

static struct netem_sched *sched_must(const char *text)
{
	struct netem_sched *s;
	char err[256];

	cr_assert_eq(netem_sched_parse(text, &s, err, sizeof(err)), 0, "%s",
		     err);
	return s;
}

static void sched_err(const char *text, const char *msg)
{
	struct netem_sched *s = (struct netem_sched *)0x1;
	char err[256];

	cr_assert_eq(netem_sched_parse(text, &s, err, sizeof(err)), -EINVAL,
		     "\"%s\" should fail", text);
	cr_expect_str_eq(err, msg);
	cr_assert_eq(s, (struct netem_sched *)0x1);
}

Test(sched, eval_steps_and_ramps)
{
	struct netem_sched *sc =
		sched_must("at 10s delay 100ms; ramp 20s 30s loss 0% 5%\n"
			   "# later events win\nat 40s delay 1ms rate 1mbit");
	struct netem_spec base, o;
	int64_t next;

	spec_must("delay 10ms", &base);
	cr_assert_eq(sc->n, 4);
	netem_sched_eval(sc, &base, 5000000000LL, &o, &next);
	cr_assert(netem_spec_equal(&o, &base));
	cr_assert_eq(next, 10000000000LL);
	netem_sched_eval(sc, &base, 10000000000LL, &o, &next);
	cr_assert_eq(o.latency_ns, 100000000);
	cr_assert_eq(o.loss_model, NETEM_LOSS_NONE);
	cr_assert_eq(next, 20000000000LL);
	netem_sched_eval(sc, &base, 25000000000LL, &o, &next);
	cr_assert_eq(o.loss_model, NETEM_LOSS_RANDOM);
	/* half way: 2.5% of UINT32_MAX, rounded */
	cr_assert(llabs((long long)o.loss - llrint(0.025 * UINT32_MAX)) <= 1,
		  "%u", o.loss);
	cr_assert_eq(next, 25000000001LL);
	netem_sched_eval(sc, &base, 35000000000LL, &o, &next);
	cr_assert_eq(o.loss, netem_prob_from_double(0.05));
	netem_sched_eval(sc, &base, 40000000000LL, &o, &next);
	cr_assert_eq(o.latency_ns, 1000000);
	cr_assert_eq(o.rate, 125000);
	cr_assert_eq(next, INT64_MAX);
	netem_sched_free(sc);
}

Test(sched, errors)
{
	sched_err("at 10 delay 5ms",
		  "line 1: at: \"10\" has no unit (write s, ms, us or ns: tc "
		  "read a bare number as us before iproute2 6.9 and as ns "
		  "after)");
	sched_err("at 1s delay 5ms\nramp 5s 3s loss 0% 1%",
		  "line 2: ramp: end time 3s is not after the start");
	sched_err("at 1s wobble 3",
		  "line 1: \"wobble\": not a schedulable parameter (delay, "
		  "jitter, loss, rate, limit, p13, gemodel-p, slot-min, ...: "
		  "see docs/netem.md)");
	sched_err("at 1s slot-packets 3000000000",
		  "line 1: slot-packets: 3000000000 is over 2147483647 "
		  "(netem's limit)");
	sched_err("at 1s slot-jitter 3s",
		  "line 1: slot-jitter: 3s is over 2147483647ns (netem's "
		  "limit)");
	sched_err("at 1s overhead 1.5",
		  "line 1: overhead: \"1.5\" is not an integer");
	sched_err("at 1s loss 120%", "line 1: loss: 120% is over 100%");
	sched_err("at 1s", "line 1: at: no parameter given");
	sched_err("ramp 1s 2s loss 5%", "line 1: loss: missing a value");
	sched_err("every 1s delay 1ms",
		  "line 1: \"every\": expected \"at\" or \"ramp\"");
	sched_err("at 1s delay", "line 1: delay: missing a value");
}

/* A link follows a step at the right packet, in its own time origin. */
Test(sched, link_follows_steps)
{
	struct netem_sched *sc =
		sched_must("at 1s delay 50ms; at 2s loss 100%");
	struct netem_spec s;
	struct netem_link *l;
	struct netem_verdict v;
	struct netem_pkt p;
	int64_t origin = 5000000000LL, t;

	spec_must("delay 10ms", &s);
	cr_assert_eq(netem_link_new(&s, 1, 1, &l), 0);
	cr_assert_eq(netem_link_set_schedule(l, sc, origin), 0);
	netem_sched_free(sc); /* the link keeps its own copy */
	for (t = origin; t < origin + 3000000000LL; t += 1000000) {
		cr_assert_eq(netem_link_enqueue(l, t, 100, 0, &v), 0);
		if (t < origin + 1000000000LL)
			cr_assert_eq(v.time_ns[0], t + 10000000);
		else if (t < origin + 2000000000LL)
			cr_assert_eq(v.time_ns[0], t + 50000000);
		else
			cr_assert_eq(v.drop, NETEM_DROP_LOSS);
		while (netem_link_dequeue(l, t, &p) == 1)
			;
	}
	/* removing the schedule restores the base */
	cr_assert_eq(netem_link_set_schedule(l, NULL, 0), 0);
	cr_assert_eq(netem_link_enqueue(l, t, 100, 0, &v), 0);
	cr_assert_eq(v.time_ns[0], t + 10000000);
	netem_link_free(l);
}

/* A delay ramp moves linearly: the packet at 25% of the ramp gets 25% of
 * the way. */
Test(sched, link_follows_ramp)
{
	struct netem_sched *sc = sched_must("ramp 0s 1s delay 0ms 100ms");
	struct netem_spec s;
	struct netem_link *l;
	struct netem_verdict v;
	int i;

	netem_spec_init(&s);
	cr_assert_eq(netem_link_new(&s, 1, 1, &l), 0);
	cr_assert_eq(netem_link_set_schedule(l, sc, 0), 0);
	for (i = 0; i <= 4; i++) {
		int64_t t = i * 250000000LL;

		cr_assert_eq(netem_link_enqueue(l, t, 100, 0, &v), 0);
		cr_assert_eq(v.time_ns[0], t + i * 25000000LL, "step %d", i);
	}
	netem_link_free(l);
	netem_sched_free(sc);
}

static struct netem_sched *trace_must(const char *csv)
{
	struct netem_sched *s;
	char err[256];

	cr_assert_eq(
		netem_trace_parse_csv(csv, strlen(csv), &s, err, sizeof(err)),
		0, "%s", err);
	return s;
}

Test(sched, trace_piecewise_constant)
{
	struct netem_sched *tr =
		trace_must("# a trace\ntime_ms,delay_ms,loss_pct,rate_kbit\n"
			   "0,10,0,\n1000, 50 ,100,\n2000,20,0,800\n");
	struct netem_spec base, o;

	netem_spec_init(&base);
	netem_sched_eval(tr, &base, 500000000, &o, NULL);
	cr_assert_eq(o.latency_ns, 10000000);
	cr_assert_eq(o.loss, 0);
	cr_assert_eq(o.rate, 0);
	netem_sched_eval(tr, &base, 1500000000, &o, NULL);
	cr_assert_eq(o.latency_ns, 50000000);
	cr_assert_eq(o.loss, UINT32_MAX);
	netem_sched_eval(tr, &base, 2500000000LL, &o, NULL);
	cr_assert_eq(o.latency_ns, 20000000);
	cr_assert_eq(o.loss, 0);
	cr_assert_eq(o.rate, 100000);
	netem_sched_free(tr);

	tr = trace_must("time,delay,loss\n0s,10ms,1%\n1.5s,,2%\n");
	netem_sched_eval(tr, &base, 2000000000, &o, NULL);
	cr_assert_eq(o.latency_ns, 10000000); /* empty cell: kept */
	cr_assert_eq(o.loss, netem_prob_from_double(0.02));
	netem_sched_free(tr);
}

static void trace_err(const char *csv, const char *msg)
{
	struct netem_sched *s;
	char err[256];

	cr_assert_eq(
		netem_trace_parse_csv(csv, strlen(csv), &s, err, sizeof(err)),
		-EINVAL, "\"%s\" should fail", csv);
	cr_expect_str_eq(err, msg);
}

Test(sched, trace_errors)
{
	trace_err("time,delay\n2s,1ms\n1s,2ms\n",
		  "line 3: time 1s goes backwards");
	trace_err("time,delay\n1s\n", "line 2: 1 cells, the header has 2");
	trace_err("delay,time\n", "line 1: the first column must be time");
	trace_err("time,colour\n", "line 1: column \"colour\": not time or a "
				   "schedulable parameter");
	trace_err("time,delay\n1,1ms\n",
		  "line 2: time: \"1\" has no unit (write s, ms, us or ns: tc "
		  "read a bare number as us before iproute2 6.9 and as ns "
		  "after)");
	trace_err("time_s,loss_pct\n1,150\n",
		  "line 2: loss: 150% is over 100%");
	trace_err("", "line 0: no header");
	trace_err("time_s,delay_ms\n", "line 1: no rows");
}

/* One step per parameter: each name reaches its own field, in its unit. */
Test(sched, every_parameter)
{
	static const struct {
		const char *text;
		size_t off, size;
		int64_t want;
	} c[] = {
#define F(f) offsetof(struct netem_spec, f), sizeof(((struct netem_spec *)0)->f)
		{"delay 3ms", F(latency_ns), 3000000},
		{"jitter 2ms", F(jitter_ns), 2000000},
		{"delay-corr 1%", F(delay_corr), 42949673},
		{"loss 1%", F(loss), 42949673},
		{"loss-corr 1%", F(loss_corr), 42949673},
		{"duplicate 1%", F(duplicate), 42949673},
		{"corrupt 1%", F(corrupt), 42949673},
		{"reorder 1%", F(reorder), 42949673},
		{"rate 8kbit", F(rate), 1000},
		{"limit 77", F(limit), 77},
		{"duplicate-corr 1%", F(duplicate_corr), 42949673},
		{"corrupt-corr 1%", F(corrupt_corr), 42949673},
		{"reorder-corr 1%", F(reorder_corr), 42949673},
		{"gap 7", F(gap), 7},
		{"p13 1%", F(p13), 42949673},
		{"p31 1%", F(p31), 42949673},
		{"p32 1%", F(p32), 42949673},
		{"p23 1%", F(p23), 42949673},
		{"p14 1%", F(p14), 42949673},
		{"gemodel-p 1%", F(ge_p), 42949673},
		{"gemodel-r 1%", F(ge_r), 42949673},
		{"gemodel-1-h 1%", F(ge_1h), 42949673},
		{"gemodel-1-k 1%", F(ge_1k), 42949673},
		{"overhead -14", F(packet_overhead), -14},
		{"cellsize 48", F(cell_size), 48},
		{"celloverhead -3", F(cell_overhead), -3},
		{"slot-min 1ms", F(slot_min_ns), 1000000},
		{"slot-max 2ms", F(slot_max_ns), 2000000},
		{"slot-delay 3ms", F(slot_dist_delay_ns), 3000000},
		{"slot-jitter 4ms", F(slot_dist_jitter_ns), 4000000},
		{"slot-packets 5", F(slot_packets), 5},
		{"slot-bytes 6000", F(slot_bytes), 6000},
#undef F
	};
	struct netem_spec base, o;
	char text[64];
	size_t k;

	cr_assert_eq(sizeof(c) / sizeof(c[0]), NETEM_PARAM_N);
	netem_spec_init(&base);
	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct netem_sched *sc;
		enum netem_param p;
		int64_t got = 0;

		snprintf(text, sizeof(text), "at 1s %s", c[k].text);
		sc = sched_must(text);
		cr_assert_eq(sc->n, 1);
		p = sc->ev[0].param;
		cr_assert_eq((size_t)p, k, "%s", c[k].text);
		cr_assert_eq(netem_param_lookup(netem_param_name(p), &p), 0);
		cr_assert_eq((size_t)p, k);
		netem_sched_eval(sc, &base, 1000000000, &o, NULL);
		if (c[k].size == 8)
			got = *(int64_t *)((char *)&o + c[k].off);
		else if (c[k].text[0] == 'o' || c[k].text[1] == 'e')
			got = *(int32_t *)((char *)&o + c[k].off);
		else
			got = *(uint32_t *)((char *)&o + c[k].off);
		cr_assert_eq(got, c[k].want, "%s: %lld", c[k].text,
			     (long long)got);
		netem_sched_free(sc);
	}
}

/* Scheduling a 4-state or Gilbert-Elliott parameter on a link in another
 * model switches to it with tc's defaults, so "at 1s p13 2%" is "loss
 * state 2%" and "at 1s gemodel-p 3%" is "loss gemodel 3%"; in the model
 * already, only the named parameter moves. */
Test(sched, loss_model_switches)
{
	struct netem_spec base, o, want;
	struct netem_sched *sc;

	spec_must("delay 1ms loss 5%", &base);
	sc = sched_must("at 1s p13 2%");
	netem_sched_eval(sc, &base, 1000000000, &o, NULL);
	spec_must("delay 1ms loss state 2%", &want);
	want.loss = base.loss; /* the random loss field is left alone */
	cr_assert(netem_spec_equal(&o, &want));
	netem_sched_free(sc);

	sc = sched_must("at 1s gemodel-1-h 50% gemodel-p 3%");
	netem_sched_eval(sc, &base, 1000000000, &o, NULL);
	spec_must("delay 1ms loss gemodel 0% 100% 50%", &want);
	want.ge_p = netem_prob_from_double(0.03);
	want.loss = base.loss;
	cr_assert(netem_spec_equal(&o, &want));
	netem_sched_free(sc);

	spec_must("loss state 1% 30% 10% 5% 0.5%", &base);
	sc = sched_must("at 1s p13 2%");
	netem_sched_eval(sc, &base, 1000000000, &o, NULL);
	base.p13 = netem_prob_from_double(0.02);
	cr_assert(netem_spec_equal(&o, &base));
	netem_sched_free(sc);
}

/* Integers in a ramp round to the nearest (ties to even, llrint); sums a
 * ramp can break are repaired as netem_sched.h says. */
Test(sched, integer_ramps_and_repairs)
{
	struct netem_sched *sc =
		sched_must("ramp 0s 1s limit 10 20 gap 1 4 slot-packets 1 3 "
			   "overhead -10 10");
	struct netem_spec base, o;

	netem_spec_init(&base);
	netem_sched_eval(sc, &base, 250000000, &o, NULL);
	cr_assert_eq(o.limit, 12);	 /* 12.5 */
	cr_assert_eq(o.gap, 2);		 /* 1.75 */
	cr_assert_eq(o.slot_packets, 2); /* 1.5 */
	cr_assert_eq(o.packet_overhead, -5);
	netem_sched_eval(sc, &base, 750000000, &o, NULL);
	cr_assert_eq(o.limit, 18);	 /* 17.5 */
	cr_assert_eq(o.gap, 3);		 /* 3.25 */
	cr_assert_eq(o.slot_packets, 2); /* 2.5 */
	cr_assert_eq(o.packet_overhead, 5);
	netem_sched_free(sc);

	spec_must("slot 1ms 2ms loss state 60% 40% 50% 10% 30%", &base);
	sc = sched_must("at 1s slot-min 5ms p13 90% p32 70%");
	netem_sched_eval(sc, &base, 1000000000, &o, NULL);
	cr_assert_eq(o.slot_min_ns, 5000000);
	cr_assert_eq(o.slot_max_ns, 5000000);
	cr_assert_eq(o.p13, netem_prob_from_double(0.9));
	cr_assert_eq(o.p14, UINT32_MAX - o.p13);
	cr_assert_eq(o.p32, netem_prob_from_double(0.7));
	cr_assert_eq(o.p31, UINT32_MAX - o.p32);
	netem_sched_free(sc);
}

/* A schedule can turn a slot on: from 1 s on, "slot-min 10ms slot-max
 * 10ms slot-packets 1" lets one packet leave every 10 ms. */
Test(sched, link_follows_slot_schedule)
{
	struct netem_sched *sc =
		sched_must("at 1s slot-min 10ms slot-max 10ms slot-packets 1");
	struct netem_spec s;
	struct netem_link *l;
	struct netem_verdict v;
	struct netem_pkt p;
	int64_t t;
	int i, n = 0;

	spec_must("delay 1ms", &s);
	cr_assert_eq(netem_link_new(&s, 1, 1, &l), 0);
	cr_assert_eq(netem_link_set_schedule(l, sc, 0), 0);
	netem_sched_free(sc);
	/* before: no slot, each packet leaves after its 1 ms */
	cr_assert_eq(netem_link_enqueue(l, 0, 100, 0, &v), 0);
	cr_assert_eq(netem_link_next_time(l), 1000000);
	cr_assert_eq(netem_link_dequeue(l, 1000000, &p), 1);
	for (i = 0; i < 5; i++)
		cr_assert_eq(netem_link_enqueue(l, 1000000000, 100, i, &v), 0);
	while ((t = netem_link_next_time(l)) != INT64_MAX) {
		if (netem_link_dequeue(l, t, &p) != 1)
			continue;
		/* the first slot starts when the first packet is queued, at
		 * 1 s (netem runs its dequeue right after an enqueue), and
		 * each lasts 10 ms */
		cr_assert_eq(t, 1000000000 + (int64_t)(n + 1) * 10000000,
			     "packet %d at %lld", n, (long long)t);
		n++;
	}
	cr_assert_eq(n, 5);
	netem_link_free(l);
}

Test(sched, trace_new_columns)
{
	struct netem_sched *tr = trace_must(
		"time_ms,p13_pct,gap,overhead,slot-min_ms,gemodel-p_pct\n"
		"0,1,,,,\n1000,,3,-14,2,\n2000,,,,,5\n");
	struct netem_spec base, o;

	spec_must("delay 10ms reorder 10%", &base);
	netem_sched_eval(tr, &base, 1500000000, &o, NULL);
	cr_assert_eq(o.loss_model, NETEM_LOSS_STATE);
	cr_assert_eq(o.p13, netem_prob_from_double(0.01));
	cr_assert_eq(o.gap, 3);
	cr_assert_eq(o.packet_overhead, -14);
	cr_assert_eq(o.slot, 1);
	cr_assert_eq(o.slot_min_ns, 2000000);
	cr_assert_eq(o.slot_max_ns, 2000000);
	netem_sched_eval(tr, &base, 2000000000, &o, NULL);
	cr_assert_eq(o.loss_model, NETEM_LOSS_GEMODEL);
	cr_assert_eq(o.ge_p, netem_prob_from_double(0.05));
	netem_sched_free(tr);
}
