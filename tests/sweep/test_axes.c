/*
 * test_axes.c: the [sweep] section (daemon/scenario/scenario_axes.c): axis keys
 * and values (lists, ranges, units), errors reported as file:line:
 * [sweep] key: message (with did-you-mean for a misspelt parameter), the
 * grid order (axis 0 slowest), the scenario of a point (link specs,
 * defaults, schedule, --predictor arguments, --condition, seeds), every
 * netem parameter as an axis (the point's spec equals the spec netem
 * parses with that value), the refusal of a refinement the link lacks,
 * and the canonical form's round trip.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../scenario/sc_test_util.h"
#include "netem.h"
#include "scenario.h"
#include "scenario_int.h"

#define HOSTS                                                                  \
	"[scenario]\nname = t\nduration = 10s\nseed = 7\n"                     \
	"[host p1]\nrole = player\nargs = --map dust "                         \
	"--predictor dis:pos_threshold=20 "                                    \
	"--predictor led:eta_min=5,eta_max=35 --to {addr:obs} --condition "    \
	"c0\n"                                                                 \
	"[host obs]\nrole = observer\nargs = --map dust --predictor dis "      \
	"--predictor=led:eta_min=5\n"                                          \
	"[host x]\nexec = sleep 1\n"

static struct scenario *load_ok(const char *text)
{
	struct scenario *sc = NULL;
	struct sc_diag d = {0};
	int rc = sc_load_text(text, &sc, &d);

	for (unsigned i = 0; i < d.n; i++)
		cr_log_error("%s", d.msg[i]);
	cr_assert_eq(rc, 0, "load failed: %d", rc);
	sc_diag_free(&d);
	return sc;
}

/* The one message of a failing load must contain want. */
static void load_bad(const char *text, const char *want)
{
	struct scenario *sc = NULL;
	struct sc_diag d = {0};
	int rc = sc_load_text(text, &sc, &d), found = 0;

	cr_assert_eq(rc, -EINVAL, "rc %d for %s", rc, want);
	cr_assert_null(sc);
	for (unsigned i = 0; i < d.n; i++)
		found |= strstr(d.msg[i], want) != NULL;
	cr_assert(found, "no message with '%s' (first: %s)", want,
		  d.n ? d.msg[0] : "none");
	sc_diag_free(&d);
}

Test(sweep_axes, lists_and_ranges_expand_in_file_order)
{
	struct scenario *sc =
		load_ok(HOSTS "[sweep]\n"
			      "link.delay = 0ms 50ms 100ms 150ms\n"
			      "link.loss = 0%..5% step 1%\n"
			      "predictor.dis.pos_threshold = 5..40 "
			      "step 5\n"
			      "link.jitter = 0.1ms..0.3ms step "
			      "0.1ms 1ms\n");
	const struct sc_sweep *sw = sc->sweep;

	cr_assert_not_null(sw);
	cr_assert_eq(sw->mode, SC_MODE_SIMULATE, "sweeps simulate by default");
	cr_assert_eq(sw->seeds, SC_SEEDS_COMMON);
	cr_assert_eq(sw->naxes, 4);
	cr_assert_str_eq(sw->axes[0].key, "link.delay");
	cr_assert_eq(sw->axes[0].nvalues, 4);
	cr_assert_str_eq(sw->axes[0].values[3], "150ms");
	cr_assert_str_eq(sw->axes[1].key, "link.loss");
	cr_assert_eq(sw->axes[1].nvalues, 6);
	for (unsigned i = 0; i < 6; i++) {
		char want[8];
		snprintf(want, sizeof(want), "%u%%", i);
		cr_assert_str_eq(sw->axes[1].values[i], want);
	}
	cr_assert_eq(sw->axes[2].kind, SC_AXIS_PREDICTOR);
	cr_assert_str_eq(sw->axes[2].predictor, "dis");
	cr_assert_str_eq(sw->axes[2].pkey, "pos_threshold");
	cr_assert_eq(sw->axes[2].nvalues, 8);
	cr_assert_str_eq(sw->axes[2].values[7], "40");
	/* 0.1 + 2 * 0.1 is 0.30000000000000004 in binary: printed as 0.3 */
	cr_assert_eq(sw->axes[3].nvalues, 4);
	cr_assert_str_eq(sw->axes[3].values[2], "0.3ms");
	cr_assert_str_eq(sw->axes[3].values[3], "1ms");
	cr_assert_eq(scenario_sweep_points(sw), 4ULL * 6 * 8 * 4);
	scenario_free(sc);
}

Test(sweep_axes, grid_order_is_odometer_with_last_axis_fastest)
{
	struct scenario *sc = load_ok(HOSTS "[sweep]\nlink.delay = 0ms 10ms\n"
					    "link.loss = 1% 2% 3%\n");
	unsigned idx[SC_SWEEP_MAX_AXES];
	uint64_t n = scenario_sweep_points(sc->sweep);

	cr_assert_eq(n, 6);
	for (uint64_t p = 0; p < n; p++) {
		cr_assert_eq(scenario_sweep_coords(sc->sweep, p, idx), 0);
		cr_assert_eq(idx[0], p / 3, "point %llu",
			     (unsigned long long)p);
		cr_assert_eq(idx[1], p % 3);
	}
	idx[0] = 99;
	cr_assert_eq(scenario_sweep_coords(sc->sweep, n, idx), -ERANGE);
	cr_assert_eq(idx[0], 99, "written on failure");
	scenario_free(sc);
}

Test(sweep_axes, every_link_axis_reaches_links_defaults_and_schedule)
{
	struct scenario *sc = load_ok(HOSTS "[link p1 obs]\nforward = delay "
					    "10ms loss 1%\n"
					    "[schedule]\nat 5s p1>obs = delay "
					    "30ms\n"
					    "[sweep]\nlink.delay = 0ms 80ms\n");
	struct scenario *pt = NULL;
	const struct netem_spec *s;

	cr_assert_eq(scenario_sweep_apply(sc, 1, &pt), 0);
	cr_assert_null(pt->sweep);
	cr_assert_eq(pt->mode, SC_MODE_SIMULATE);
	/* the explicit link keeps its loss, gets the delay */
	s = scenario_link_spec(pt, 0, 1);
	cr_assert_eq(s->latency_ns, 80000000);
	cr_assert_eq(s->loss, netem_prob_from_double(0.01));
	/* the direction the [link] left out, and pairs without a link */
	cr_assert_eq(scenario_link_spec(pt, 1, 0)->latency_ns, 80000000);
	cr_assert_not_null(scenario_link_spec(pt, 0, 2));
	cr_assert_eq(scenario_link_spec(pt, 2, 1)->latency_ns, 80000000);
	cr_assert_eq(pt->changes[0].spec.latency_ns, 80000000);
	/* the base scenario is untouched */
	cr_assert_eq(scenario_link_spec(sc, 0, 1)->latency_ns, 10000000);
	cr_assert_null(scenario_link_spec(sc, 0, 2));
	scenario_free(pt);
	scenario_free(sc);
}

Test(sweep_axes, directed_axis_touches_one_direction)
{
	struct scenario *sc =
		load_ok(HOSTS "[defaults]\nlink = delay 5ms\n"
			      "[sweep]\nlink.obs<p1.loss = 0% 10%\n"
			      "link.p1<>x.rate = 1mbit\n");
	struct scenario *pt = NULL;

	cr_assert_str_eq(sc->sweep->axes[0].key, "link.p1>obs.loss");
	cr_assert_eq(scenario_sweep_apply(sc, 1, &pt), 0);
	cr_assert_eq(scenario_link_spec(pt, 0, 1)->loss,
		     netem_prob_from_double(0.10));
	cr_assert_eq(scenario_link_spec(pt, 0, 1)->loss_model,
		     NETEM_LOSS_RANDOM);
	cr_assert_eq(scenario_link_spec(pt, 1, 0)->loss_model, NETEM_LOSS_NONE);
	cr_assert_eq(scenario_link_spec(pt, 0, 2)->rate, 125000);
	cr_assert_eq(scenario_link_spec(pt, 2, 0)->rate, 125000);
	cr_assert_eq(scenario_link_spec(pt, 1, 2)->rate, 0);
	scenario_free(pt);
	scenario_free(sc);
}

Test(sweep_axes, predictor_axis_rewrites_every_lane_of_that_predictor)
{
	struct scenario *sc = load_ok(HOSTS "[sweep]\n"
					    "predictor.led.eta_max = 20 50\n"
					    "link.delay = 0ms 100ms\n");
	struct scenario *pt = NULL;

	cr_assert_eq(scenario_sweep_apply(sc, 3, &pt), 0);
	cr_assert_str_eq(pt->hosts[0].args,
			 "--map dust --predictor dis:pos_threshold=20 "
			 "--predictor led:eta_min=5,eta_max=50 --to 10.77.0.2 "
			 "--condition delay=100ms");
	cr_assert_str_eq(pt->hosts[1].args,
			 "--map dust --predictor dis "
			 "--predictor=led:eta_min=5,eta_max=50 "
			 "--condition delay=100ms");
	cr_assert_str_eq(pt->hosts[0].args_text,
			 "--map dust --predictor dis:pos_threshold=20 "
			 "--predictor led:eta_min=5,eta_max=50 --to {addr:obs} "
			 "--condition delay=100ms");
	cr_assert_str_eq(pt->hosts[2].exec, "sleep 1", "exec hosts untouched");
	scenario_free(pt);
	scenario_free(sc);
}

Test(sweep_axes, seeds_common_or_independent)
{
	struct scenario *sc = load_ok(HOSTS "[sweep]\nlink.delay = 0ms 1ms\n");
	struct scenario *a, *b;

	cr_assert_eq(scenario_sweep_apply(sc, 0, &a), 0);
	cr_assert_eq(scenario_sweep_apply(sc, 1, &b), 0);
	cr_assert_eq(a->seed, 7);
	cr_assert_eq(b->seed, 7, "common random numbers");
	scenario_free(a);
	scenario_free(b);
	scenario_free(sc);
	sc = load_ok(HOSTS "[sweep]\nseeds = independent\nmode = emulate\n"
			   "link.delay = 0ms 1ms\n");
	cr_assert_eq(scenario_sweep_apply(sc, 0, &a), 0);
	cr_assert_eq(scenario_sweep_apply(sc, 1, &b), 0);
	cr_assert_eq(a->mode, SC_MODE_EMULATE);
	cr_assert_neq(a->seed, 7);
	cr_assert_neq(a->seed, b->seed);
	scenario_free(a);
	scenario_free(b);
	scenario_free(sc);
}

Test(sweep_axes, canonical_form_round_trips)
{
	struct scenario *sc =
		load_ok(HOSTS "[sweep]\nseeds = independent\n"
			      "link.obs<p1.loss = 0%..2% step 1%\n"
			      "predictor.dis.pos_threshold = 5 "
			      "10\n");
	char path[64], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct scenario *back = NULL;
	struct sc_diag d = {0};

	cr_assert_eq(scenario_print(f, sc), 0);
	fclose(f);
	cr_assert(strstr(text, "\n[sweep]\nmode = simulate\nseeds = "
			       "independent\nlink.p1>obs.loss = 0%..2% step "
			       "1%\n") != NULL,
		  "%s", text);
	sc_write_tmp(text, path, sizeof(path));
	cr_assert_eq(scenario_load(path, &back, &d), 0);
	unlink(path);
	sc_assert_same(sc, back);
	cr_assert_eq(back->sweep->naxes, 2);
	cr_assert_eq(back->sweep->seeds, SC_SEEDS_INDEPENDENT);
	for (unsigned a = 0; a < 2; a++) {
		cr_assert_str_eq(back->sweep->axes[a].key,
				 sc->sweep->axes[a].key);
		cr_assert_eq(back->sweep->axes[a].nvalues,
			     sc->sweep->axes[a].nvalues);
	}
	free(text);
	sc_diag_free(&d);
	scenario_free(back);
	scenario_free(sc);
}

Test(sweep_axes, no_sweep_section_means_null)
{
	struct scenario *sc = load_ok(HOSTS);

	cr_assert_null(sc->sweep);
	cr_assert_eq(scenario_sweep_points(sc->sweep), 0);
	scenario_free(sc);
}

Test(sweep_axes, bad_axes_are_reported_with_file_and_line)
{
	/* HOSTS has 12 lines, [sweep] is line 13, its first key line 14 */
	load_bad(HOSTS "[sweep]\nlink.dealy = 1ms\n",
		 ":14: [sweep] link.dealy: 'dealy' is not a link parameter "
		 "(did you mean 'delay'?); the link parameters are delay, "
		 "jitter, delay_corr, loss, loss_corr, ge_p, ge_r, ge_1h, "
		 "ge_1k, duplicate, corrupt, reorder, rate, limit, "
		 "distribution, jitter_mode, p13, p31, p32, p23, p14, ecn, "
		 "duplicate_corr, corrupt_corr, reorder_corr, gap, overhead, "
		 "cellsize, celloverhead, slot, slot_min, slot_max, "
		 "slot_packets, slot_bytes, slot_dist, slot_delay, "
		 "slot_jitter");
	load_bad(HOSTS "[sweep]\nlink.p1>obs.cellsise = 64\n",
		 "'cellsise' is not a link parameter (did you mean "
		 "'cellsize'?)");
	load_bad(HOSTS "[sweep]\nlink.loss = 1% 200%\n",
		 ":14: [sweep] link.loss: loss: 200% is over 100%");
	load_bad(HOSTS "[sweep]\nlink.delay = 0ms..10s step 5\n",
		 "the ends and the step must have the same unit");
	load_bad(HOSTS "[sweep]\nlink.delay = 10ms..0ms step 5ms\n",
		 "needs A <= B and a step above 0");
	load_bad(HOSTS "[sweep]\nlink.delay = 0ms..10ms\n",
		 "a range is A..B step S");
	load_bad(HOSTS "[sweep]\nlink.delay = 1ms 1ms\n",
		 "'1ms' is given twice");
	load_bad(HOSTS "[sweep]\nlink.delay = 0ms..2000ms step 1ms\n",
		 "more than 1000 values");
	load_bad(HOSTS "[sweep]\nlink.p1>zz.delay = 1ms\n", "no host 'zz'");
	load_bad(HOSTS "[sweep]\nlink.p1-obs.delay = 1ms\n",
		 "'p1-obs' is not a link");
	load_bad(HOSTS "[sweep]\npredictor.hsm.k = 1 2\n",
		 ":14: [sweep] predictor.hsm.k: no host runs predictor 'hsm'");
	load_bad(HOSTS "[sweep]\npredictor.led = 1\n",
		 "expected link.PARAM, link.SRC>DST.PARAM or "
		 "predictor.NAME.KEY");
	load_bad(HOSTS "[sweep]\nlink.reorder = 10%\n",
		 "reorder: needs a delay");
	load_bad(HOSTS "[sweep]\nlink.ge_r = 10%\n", "ge_r needs gemodel loss");
	/* an axis never changes a link's loss model behind its back */
	load_bad(HOSTS "[defaults]\nlink = loss gemodel 1% 10%\n[sweep]\n"
		       "link.loss = 1% 2%\n",
		 "loss needs random loss or none on the link; it has another "
		 "loss model, which this axis would silently replace (vary "
		 "burst_rate or ge_p on a gemodel link, p13 on a 4-state one)");
	load_bad(HOSTS "[defaults]\nlink = loss 1%\n[sweep]\nlink.ge_p = 1%\n",
		 "ge_p needs gemodel loss or none on the link");
	load_bad(HOSTS "[defaults]\nlink = loss 1%\n[sweep]\n"
		       "link.burst_rate = 1%\n",
		 "burst_rate needs bursty loss on the link");
	load_bad(HOSTS "[defaults]\nlink = loss burst 2% 4\n[sweep]\n"
		       "link.burst_len = 0.5\n",
		 "\"0.5\" is not a mean burst length");
	load_bad(HOSTS "[defaults]\nlink = loss 60%\n[sweep]\n"
		       "link.burst_len = 1\n",
		 "a loss rate of 60% cannot come in bursts of 1 packets on "
		 "average (at most 50%)");
	load_bad(HOSTS "[sweep]\nmode = fast\nlink.delay = 1ms\n",
		 "[sweep] mode: 'fast' is not one of emulate, simulate");
	load_bad(HOSTS "[sweep]\nseeds = common\n", "[sweep]: no axis");
	load_bad(HOSTS "[sweep]\nlink.delay =\n", "link.delay: no values");
	load_bad(HOSTS "[sweep]\nlink.delay = 1ms\n[sweep]\n",
		 "duplicate section");
	load_bad(HOSTS "[sweep]\npredictor.dis.pos_threshold = 1,2\n",
		 "is not a value");
}

Test(sweep_axes, grid_size_is_capped)
{
	/* 4 axes of 1000 values: 10^12 points */
	load_bad(HOSTS "[sweep]\nlink.delay = 1ms..1000ms step 1ms\n"
		       "link.jitter = 1ms..1000ms step 1ms\n"
		       "link.limit = 1..1000 step 1\n"
		       "link.rate = 1kbit..1000kbit step 1kbit\n",
		 "the grid has more than 1000000 points");
}

/* The point's spec of p1>obs for a sweep over one axis: value v. */
static struct netem_spec point_spec(const char *links, const char *axis,
				    unsigned v)
{
	char text[2048];
	struct scenario *sc, *pt = NULL;
	struct netem_spec s;

	snprintf(text, sizeof(text), HOSTS "%s[sweep]\n%s\n", links, axis);
	sc = load_ok(text);
	cr_assert_eq(scenario_sweep_apply(sc, v, &pt), 0, "%s", axis);
	s = *scenario_link_spec(pt, 0, 1);
	scenario_free(pt);
	scenario_free(sc);
	return s;
}

static struct netem_spec parsed(const char *text)
{
	struct netem_spec s;
	char err[256];

	cr_assert_eq(netem_spec_parse(text, &s, err, sizeof(err)), 0, "%s: %s",
		     text, err);
	return s;
}

/* Every netem parameter is an axis: the point's spec equals the spec
 * netem parses from the base spec with that one value changed. */
Test(sweep_axes, every_netem_parameter_is_an_axis)
{
	static const struct {
		const char *base, *axis, *want;
	} c[] = {
		{"delay 10ms 5ms", "link.distribution = uniform pareto",
		 "delay 10ms 5ms distribution pareto"},
		{"delay 10ms 5ms", "link.jitter_mode = netem fifo",
		 "delay 10ms 5ms jitter fifo"},
		{"delay 10ms", "link.p13 = 1% 5%", "delay 10ms loss state 5%"},
		{"loss burst 2% 4", "link.burst_rate = 1% 5%",
		 "loss burst 5% 4"},
		{"loss burst 2% 4", "link.burst_len = 2 8", "loss burst 2% 8"},
		{"delay 10ms loss 3%", "link.burst_len = 2 4",
		 "delay 10ms loss burst 3% 4"},
		{"loss state 1% 2% 3% 4% 0.5%", "link.p31 = 10% 20%",
		 "loss state 1% 20% 3% 4% 0.5%"},
		{"loss state 1% 2% 3% 4% 0.5%", "link.p32 = 10% 30%",
		 "loss state 1% 2% 30% 4% 0.5%"},
		{"loss state 1% 2% 3% 4% 0.5%", "link.p23 = 10% 40%",
		 "loss state 1% 2% 3% 40% 0.5%"},
		{"loss state 1% 2% 3% 4% 0.5%", "link.p14 = 0% 0.1%",
		 "loss state 1% 2% 3% 4% 0.1%"},
		{"loss 2%", "link.ecn = off on", "loss 2% ecn"},
		{"loss 2% ecn", "link.ecn = on off", "loss 2%"},
		{"duplicate 1%", "link.duplicate_corr = 0% 25%",
		 "duplicate 1% 25%"},
		{"corrupt 1%", "link.corrupt_corr = 0% 25%", "corrupt 1% 25%"},
		{"delay 10ms reorder 5%", "link.reorder_corr = 0% 50%",
		 "delay 10ms reorder 5% 50%"},
		{"delay 10ms reorder 5%", "link.gap = 1 5",
		 "delay 10ms reorder 5% gap 5"},
		{"rate 1mbit", "link.overhead = -4..4 step 8", "rate 1mbit 4"},
		{"rate 1mbit 14", "link.cellsize = 0 48", "rate 1mbit 14 48"},
		{"rate 1mbit 14 48", "link.celloverhead = 0 5",
		 "rate 1mbit 14 48 5"},
		{"delay 1ms", "link.slot = 1ms 2ms", "delay 1ms slot 2ms 2ms"},
		{"slot 1ms 5ms packets 4", "link.slot = 1ms 2ms",
		 "slot 2ms 2ms packets 4"},
		{"slot distribution normal 2ms 1ms bytes 900",
		 "link.slot = 1ms 3ms", "slot 3ms 3ms bytes 900"},
		{"slot 1ms 5ms", "link.slot_min = 0ms 2ms", "slot 2ms 5ms"},
		{"slot 1ms 5ms", "link.slot_max = 5ms 9ms", "slot 1ms 9ms"},
		{"slot 1ms 5ms", "link.slot_packets = 0 8",
		 "slot 1ms 5ms packets 8"},
		{"slot 1ms 5ms", "link.slot_bytes = 0 3000",
		 "slot 1ms 5ms bytes 3000"},
		{"slot distribution normal 2ms 1ms",
		 "link.slot_dist = normal pareto",
		 "slot distribution pareto 2ms 1ms"},
		{"slot distribution normal 2ms 1ms",
		 "link.slot_delay = 2ms 4ms",
		 "slot distribution normal 4ms 1ms"},
		{"slot distribution normal 2ms 1ms",
		 "link.slot_jitter = 1ms 3ms",
		 "slot distribution normal 2ms 3ms"},
		{"delay 10ms 5ms 25% loss gemodel 1% 10% 70% 0.1%",
		 "link.ge_1k = 0.1% 1%",
		 "delay 10ms 5ms 25% loss gemodel 1% 10% 70% 1%"},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char links[256], axis[128];
		struct netem_spec got, want = parsed(c[i].want);

		/* the axis on p1>obs only: other pairs stay unimpaired */
		snprintf(links, sizeof(links), "[link p1 obs]\nforward = %s\n",
			 c[i].base);
		snprintf(axis, sizeof(axis), "link.p1>obs.%s",
			 c[i].axis + strlen("link."));
		got = point_spec(links, axis, 1);
		cr_assert(netem_spec_equal(&got, &want), "%s on '%s': not '%s'",
			  c[i].axis, c[i].base, c[i].want);
	}
}

/* A parameter that refines something the link lacks is refused at load
 * time, naming what is missing; so are values netem refuses. */
Test(sweep_axes, refinements_need_what_they_refine)
{
	static const struct {
		const char *axis, *want;
	} c[] = {
		{"link.p31 = 10%", "p31 needs 4-state loss on the link"},
		{"link.p14 = 10%", "p14 needs 4-state loss on the link"},
		{"link.loss_corr = 10%", "loss_corr needs random loss"},
		{"link.gap = 5", "gap needs reordering on the link"},
		{"link.overhead = 14", "overhead needs a rate on the link"},
		{"link.cellsize = 48", "cellsize needs a rate on the link"},
		{"link.celloverhead = 4", "celloverhead needs a rate"},
		{"link.slot_packets = 4",
		 "slot_packets needs slots on the link"},
		{"link.slot_min = 1ms", "slot_min needs slot MIN MAX"},
		{"link.slot_jitter = 1ms",
		 "slot_jitter needs slot distribution"},
		{"link.ecn = on", "ecn: needs a loss model"},
		{"link.ecn = yes", "ecn: 'yes' is not on or off"},
		{"link.distribution = normal",
		 "distribution: needs a delay and "
		 "a jitter"},
		{"link.distribution = mytable", "'mytable' is not a built-in "
						"distribution"},
		{"link.jitter_mode = lifo", "is not a mode (fifo or netem)"},
		{"link.p13 = 60%\nlink.p14 = 50%", "p13 + p14 is over 100%"},
		{"link.slot = 2ms\nlink.slot_max = 1ms",
		 "slot: minimum delay is over the maximum"},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char text[1024];

		snprintf(text, sizeof(text), HOSTS "[sweep]\n%s\n", c[i].axis);
		load_bad(text, c[i].want);
	}
}

/* A model-switching axis lets the refining axes after it run on links
 * that had none, and writes the condition label with the new names. */
Test(sweep_axes, switching_axes_enable_their_refinements)
{
	struct scenario *sc = load_ok(HOSTS "[defaults]\nlink = delay 5ms\n"
					    "[sweep]\nlink.p13 = 1% 2%\n"
					    "link.p31 = 50%\n"
					    "link.rate = 1mbit\n"
					    "link.overhead = -4 14\n"
					    "link.slot = 1ms\n"
					    "link.slot_packets = 2\n");
	struct scenario *pt = NULL;
	const struct netem_spec *s;

	cr_assert_eq(scenario_sweep_points(sc->sweep), 4);
	cr_assert_str_eq(sc->sweep->axes[3].key, "link.overhead");
	cr_assert_str_eq(sc->sweep->axes[3].values[0], "-4");
	cr_assert_eq(scenario_sweep_apply(sc, 3, &pt), 0);
	s = scenario_link_spec(pt, 1, 0);
	cr_assert_eq(s->loss_model, NETEM_LOSS_STATE);
	cr_assert_eq(s->p13, netem_prob_from_double(0.02));
	cr_assert_eq(s->p31, netem_prob_from_double(0.50));
	cr_assert_eq(s->packet_overhead, 14);
	cr_assert_eq(s->slot_min_ns, 1000000);
	cr_assert_eq(s->slot_packets, 2);
	cr_assert(strstr(pt->hosts[0].args,
			 "--condition p13=2%_p31=50%_rate=1mbit_overhead=14_"
			 "slot=1ms_slot_packets=2") != NULL,
		  "%s", pt->hosts[0].args);
	scenario_free(pt);
	scenario_free(sc);
}

/* Each failing axis is reported once, on its own line, and does not hide
 * or take the blame for another axis's problem. */
Test(sweep_axes, each_failing_axis_is_reported_on_its_line)
{
	struct scenario *sc = NULL;
	struct sc_diag d = {0};
	int rc = sc_load_text(HOSTS "[defaults]\nlink = delay 5ms\n"
				    "[sweep]\n"
				    "link.delay = 1ms 2ms\n"
				    "link.ge_r = 10%\n"
				    "predictor.dis.pos_threshold = 5 10\n"
				    "link.overhead = 14\n",
			      &sc, &d);

	/* HOSTS has 12 lines, [defaults] 13-14, [sweep] 15, axes 16-19 */
	cr_assert_eq(rc, -EINVAL);
	cr_assert_eq(d.n, 2, "%u messages, first: %s", d.n,
		     d.n ? d.msg[0] : "none");
	cr_assert(strstr(d.msg[0],
			 ":17: [sweep] link.ge_r: 10% on "
			 "[defaults] link: ge_r needs gemodel loss") != NULL,
		  "%s", d.msg[0]);
	cr_assert(strstr(d.msg[1],
			 ":19: [sweep] link.overhead: 14 on "
			 "[defaults] link: overhead needs a rate") != NULL,
		  "%s", d.msg[1]);
	sc_diag_free(&d);
}

/* The parameter list starts with enum sc_link_param's names, in order,
 * and names every parameter once. */
Test(sweep_axes, parameter_table_extends_the_enum)
{
	unsigned n = sc_sweep_link_params();

	cr_assert_eq(n, 39);
	for (unsigned i = 0; i < SC_LP_COUNT; i++)
		cr_assert_str_eq(sc_sweep_link_param(i),
				 scenario_link_param_names[i]);
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			cr_assert_str_neq(sc_sweep_link_param(i),
					  sc_sweep_link_param(j));
	cr_assert_null(sc_sweep_link_param(n));
}
