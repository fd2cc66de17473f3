/*
 * test_sched.c: time-varying schedules and CSV traces: parsing, error
 * messages, evaluation at given times (steps, linear ramps, later events
 * overriding earlier ones) and a link following them packet by packet.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
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
		  "jitter, delay-corr, loss, loss-corr, duplicate, corrupt, "
		  "reorder, rate, limit)");
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
