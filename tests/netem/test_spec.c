/*
 * test_spec.c: the tc-netem spec parser and printer. Round trips over many
 * specs (parse(print(s)) == s), the kernel tc-testing netem.json vectors
 * (tools/testing/selftests/tc-testing/tc-tests/qdiscs/netem.json) with the
 * fragments tc prints for them, tc's units and defaults, and the exact text
 * of error messages.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "netem.h"
#include "stats.h"

static void roundtrip(const char *text)
{
	struct netem_spec a, b;
	char p1[1024], p2[1024], err[256];
	int n;

	spec_must(text, &a);
	n = netem_spec_print(&a, p1, sizeof(p1));
	cr_assert_eq((size_t)n, strlen(p1), "print length for \"%s\"", text);
	cr_assert_eq(netem_spec_parse(p1, &b, err, sizeof(err)), 0,
		     "reparse \"%s\" (from \"%s\"): %s", p1, text, err);
	cr_assert(netem_spec_equal(&a, &b), "round trip \"%s\" -> \"%s\"", text,
		  p1);
	cr_assert_eq(memcmp(&a, &b, sizeof(a)), 0, "struct bytes \"%s\"", text);
	netem_spec_print(&b, p2, sizeof(p2));
	cr_assert_str_eq(p1, p2);
}

Test(spec, roundtrip_many)
{
	static const char *specs[] = {
		"",
		"delay 100ms 10ms 25% distribution normal loss gemodel 1% 10% "
		"70% 0.1% duplicate 1% corrupt 0.1% reorder 25% 50% gap 5 rate "
		"10mbit 20 limit 1000 slot 800us 1ms",
		"delay 1ms",
		"delay 1.5ms 0.25ms",
		"delay 7ns 3ns 0.0000001%",
		"delay 20s 2s 100%",
		"latency 5ms 1ms distribution pareto",
		"delay 5ms 1ms distribution paretonormal jitter fifo",
		"delay 5ms 1ms jitter fifo",
		"delay 5ms 1ms distribution experimental",
		"loss 1%",
		"loss random 3.3333% 12.5%",
		"drop 0.001%",
		"loss 100%",
		"loss 0%",
		"loss 33.333333333%",
		"loss state 1%",
		"loss state 1% 30%",
		"loss state 1% 30% 10%",
		"loss state 1% 30% 10% 5%",
		"loss state 1% 30% 10% 5% 0.5%",
		"loss state p13 1% p31 99% p32 0% p23 100% p14 0%",
		"loss gemodel 1%",
		"loss gemodel 1% 10% 70% 0.1% ecn",
		"loss gemodel p 2% r 20% 1-h 90% 1-k 1%",
		"loss 5% ecn",
		"duplicate 1%",
		"duplicate 1% 50%",
		"corrupt 0.1% 5%",
		"delay 10ms reorder 25%",
		"delay 10ms reorder 25% 50%",
		"delay 10ms reorder 100% gap 5",
		"delay 10ms reorder 1% gap 1",
		"rate 20000",
		"rate 8bit",
		"rate 1kbit",
		"rate 1mbps",
		"rate 2.5gbit",
		"rate 1Mbit -14",
		"rate 1mbit 20 48 5",
		"rate 56kibit 0 53",
		"limit 0",
		"limit 4294967295",
		"slot 800us 1ms",
		"slot 1ms",
		"slot 10ns 200ns packets 2000 bytes 9000",
		"slot 1ms 2ms bytes 64000",
		"slot distribution pareto 1ms 0.1ms",
		"slot distribution normal 2ms 1ms packets 42",
		"slot distribution custom_table-1.x 2ms 1ms",
	};
	size_t i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		roundtrip(specs[i]);
}

/* Every u32 probability prints to text that parses back to it. */
Test(spec, roundtrip_probabilities)
{
	struct netem_spec s;
	uint32_t p = 0;
	int i;

	netem_spec_init(&s);
	s.loss_model = NETEM_LOSS_RANDOM;
	for (i = 0; i < 20000; i++) {
		char buf[128], err[256];
		struct netem_spec t;

		s.loss = p;
		netem_spec_print(&s, buf, sizeof(buf));
		cr_assert_eq(netem_spec_parse(buf, &t, err, sizeof(err)), 0,
			     "%s", err);
		cr_assert_eq(t.loss, p, "\"%s\" gave %u, want %u", buf, t.loss,
			     p);
		p += 214748 + (uint32_t)i * 7919; /* wraps over the range */
	}
}

struct vec {
	const char *in, *canon, *tc_fragment;
};

/* tc-testing netem.json: command, our canonical form, and what tc prints
 * for it (after "qdisc netem 1: root refcnt N"). Where tc's bare number
 * would be accepted we give the unit: see docs/netem.md. */
Test(spec, tc_testing_vectors)
{
	static const struct vec v[] = {
		{"", "limit 1000", "limit 1000"},	 /* cb28 */
		{"limit 200", "limit 200", "limit 200"}, /* a089 */
		{"delay 100ms", "delay 100ms limit 1000",
		 "delay 100ms"},				    /* 3449 */
		{"delay 100ms 10ms distribution normal corrupt 1%", /* 3782 */
		 "delay 100ms 10ms distribution normal corrupt 1% limit 1000",
		 "corrupt 1%"},
		{"delay 100ms 10ms distribution normal duplicate 1%", /* 2b82 */
		 "delay 100ms 10ms distribution normal duplicate 1% limit 1000",
		 "duplicate 1%"},
		{"delay 100ms 10ms distribution pareto loss 1%", /* a932 */
		 "delay 100ms 10ms distribution pareto loss 1% limit 1000",
		 "loss 1%"},
		{"delay 100ms 10ms distribution paretonormal loss state 1", /* e01a
									     */
		 "delay 100ms 10ms distribution paretonormal loss state p13 1% "
		 "p31 99% p32 0% p23 100% p14 0% limit 1000",
		 "loss state p13 1% p31 99% p32 0% p23 100% p14 0%"},
		{"loss gemodel 1%", /* ba29 */
		 "loss gemodel p 1% r 99% 1-h 100% 1-k 0% limit 1000",
		 "loss gemodel p 1%"},
		{"delay 100ms 10ms reorder 2% gap 100", /* 0492 */
		 "delay 100ms 10ms reorder 2% gap 100 limit 1000",
		 "reorder 2%"},
		{"rate 20000", "rate 20kbit limit 1000",
		 "rate 20kbit"},			    /* 7862 */
		{"slot 10ns 200ns packets 2000 bytes 9000", /* 7235 */
		 "limit 1000 slot 10ns 200ns packets 2000 bytes 9000",
		 "slot 10ns 200ns packets 2000 bytes 9000"},
		{"slot distribution pareto 1ms 0.1ms", /* 5439 */
		 "limit 1000 slot distribution pareto 1ms 100us", "1ms 100us"},
		{"delay 100ms 10ms distribution normal loss 2%", /* 5029 */
		 "delay 100ms 10ms distribution normal loss 2% limit 1000",
		 "loss 2%"},
		{"delay 200ms 10ms", "delay 200ms 10ms limit 1000", /* 3785 */
		 "delay 200ms"},
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct netem_spec s;
		char buf[512];

		spec_must(v[i].in, &s);
		netem_spec_print(&s, buf, sizeof(buf));
		cr_expect_str_eq(buf, v[i].canon, "for \"%s\"", v[i].in);
		cr_expect(strstr(buf, v[i].tc_fragment) != NULL,
			  "\"%s\" lacks tc's \"%s\"", buf, v[i].tc_fragment);
	}
}

Test(spec, units_and_defaults)
{
	struct netem_spec s;

	spec_must("rate 20000", &s);
	cr_assert_eq(s.rate, 2500); /* bare = bit/s, stored in bytes/s */
	spec_must("rate 1mbit", &s);
	cr_assert_eq(s.rate, 125000);
	spec_must("rate 1mbps", &s);
	cr_assert_eq(s.rate, 1000000); /* mbps = megabytes/s, as tc */
	spec_must("rate 1MBPS", &s);
	cr_assert_eq(s.rate, 1000000);
	spec_must("rate 1kibit", &s);
	cr_assert_eq(s.rate, 128);
	spec_must("loss 5", &s); /* bare probability = percent */
	cr_assert_eq(s.loss, (uint32_t)rint(0.05 * UINT32_MAX));
	spec_must("loss 100%", &s);
	cr_assert_eq(s.loss, UINT32_MAX);
	spec_must("delay 1.5ms 2us", &s);
	cr_assert_eq(s.latency_ns, 1500000);
	cr_assert_eq(s.jitter_ns, 2000);
	spec_must("delay 1sec 1msecs", &s);
	cr_assert_eq(s.latency_ns, 1000000000);
	cr_assert_eq(s.jitter_ns, 1000000);
	spec_must("", &s);
	cr_assert_eq(s.limit, 1000);
	spec_must("delay 1ms reorder 5%", &s);
	cr_assert_eq(s.gap, 1); /* tc: gap 1 when reorder comes alone */
	spec_must("loss state 10%", &s);
	cr_assert_eq(s.p31, UINT32_MAX - s.p13);
	cr_assert_eq(s.p32, 0);
	cr_assert_eq(s.p23, UINT32_MAX);
	cr_assert_eq(s.p14, 0);
	spec_must("loss gemodel 10%", &s);
	cr_assert_eq(s.ge_r, UINT32_MAX - s.ge_p); /* r = 1-p (iproute2 5.2+) */
	cr_assert_eq(s.ge_1h, UINT32_MAX);
	cr_assert_eq(s.ge_1k, 0);
	spec_must("slot 1ms", &s);
	cr_assert_eq(s.slot_max_ns, 1000000);
}

static void expect_error(const char *text, const char *msg)
{
	struct netem_spec s, before;
	char err[256];

	memset(&s, 0xa5, sizeof(s));
	before = s;
	cr_assert_eq(netem_spec_parse(text, &s, err, sizeof(err)), -EINVAL,
		     "\"%s\" should fail", text);
	cr_expect_str_eq(err, msg, "for \"%s\"", text);
	cr_assert_eq(memcmp(&s, &before, sizeof(s)), 0,
		     "output written on error for \"%s\"", text);
}

Test(spec, error_messages)
{
	expect_error("loss 120%", "loss: 120% is over 100%");
	expect_error("loss 120", "loss: 120% is over 100%");
	expect_error("delay -5ms", "delay: -5ms is negative");
	expect_error("delay 5 parsecs", "\"parsecs\": unknown keyword");
	expect_error("delay 10ms loss 1% loss 2%",
		     "loss: given twice (tc refuses a second loss model)");
	expect_error("limit 1x", "limit: \"1x\" has an unknown size unit \"x\"");
	expect_error("loss burst 2%", "loss burst: missing a mean burst length "
				      "(packets)");
	expect_error("loss burst 2% 0.5", "loss burst: \"0.5\" is not a mean "
					  "burst length (packets, at least 1)");
	expect_error("loss burst 60% 1", "loss burst: a loss rate over 50% "
					 "cannot come in bursts of 1 packets "
					 "on average");
	expect_error("e", "ecn: needs a loss model");
	expect_error("slot 1ms bytes 5 packets 2", "\"packets\": unknown "
						   "keyword");
	expect_error(
		"delay 5minutes",
		"delay: \"5minutes\" has an unknown time unit \"minutes\"");
	expect_error("delay fast", "delay: \"fast\" is not a time");
	expect_error("delay", "delay: missing a time");
	expect_error("delay 10ms 3s",
		     "delay: jitter 3s is over 2147483647ns (netem's limit)");
	expect_error("frobnicate 3", "\"frobnicate\": unknown keyword");
	expect_error("loss", "loss: missing a probability");
	expect_error("loss -1%", "loss: -1% is negative");
	expect_error("loss lots", "loss: \"lots\" is not a percentage");
	expect_error("loss 5%%", "loss: \"5%%\" is not a percentage");
	expect_error("loss state", "loss state: missing p13");
	expect_error("loss state 60% 50% 60%",
		     "loss state: p31 + p32 is over 100%");
	expect_error("loss state 60% 50% 0% 0% 60%",
		     "loss state: p13 + p14 is over 100%");
	expect_error("loss gemodel", "loss gemodel: missing p");
	expect_error("loss gemodel 1% 200%", "loss gemodel: 200% is over 100%");
	expect_error("gap 5", "gap: needs a reorder probability");
	expect_error("reorder 5%", "reorder: needs a delay (netem only "
				   "reorders packets it delays)");
	expect_error("delay 10ms distribution normal",
		     "distribution: needs a delay and a jitter (delay TIME "
		     "JITTER)");
	expect_error("delay 10ms 1ms distribution no/slash",
		     "distribution: \"no/slash\" is not a distribution name "
		     "(letters, digits, '.', '_', '-'; under 32 characters)");
	expect_error("ecn", "ecn: needs a loss model");
	expect_error("rate 10furlongs",
		     "rate: \"10furlongs\" has an unknown rate unit "
		     "\"furlongs\"");
	expect_error("rate 7bit", "rate: 7bit is under 8bit (netem counts "
				  "whole bytes/s)");
	expect_error("rate 1mbit 0 0 5",
		     "rate: a cell overhead needs a cell size");
	expect_error("rate 1mbit x", "\"x\": unknown keyword");
	expect_error("limit", "limit: missing a packet count");
	expect_error("limit -1", "limit: -1 is out of range 0..4294967295");
	expect_error("slot 2ms 1ms", "slot: minimum delay is over the maximum");
	expect_error("slot 1ms packets", "slot packets: missing a count");
	expect_error("jitter wobbly",
		     "jitter: \"wobbly\" is not a mode (fifo or netem)");
	expect_error("seed 42", "seed: not accepted here; every link is seeded "
				"from the scenario seed");
	expect_error("loss 0x10", "loss: \"0x10\" is not a percentage");
	expect_error("loss nan", "loss: \"nan\" is not a percentage");
	expect_error("delay inf", "delay: \"inf\" is not a time");
}

Test(spec, long_token_and_null)
{
	struct netem_spec s;
	char err[256], big[300];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cr_assert_eq(netem_spec_parse(big, &s, err, sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "token too long") != NULL, "%s", err);
	cr_assert_eq(netem_spec_parse(NULL, &s, err, sizeof(err)), 0);
	cr_assert_eq(s.limit, 1000);
	/* a tiny error buffer is truncated, not overrun */
	cr_assert_eq(netem_spec_parse("loss 120%", &s, err, 5), -EINVAL);
	cr_assert_str_eq(err, "loss");
}

Test(spec, print_truncates_safely)
{
	struct netem_spec s;
	char buf[8];
	char full[256];
	int n;

	spec_must("delay 100ms 10ms loss 1%", &s);
	n = netem_spec_print(&s, full, sizeof(full));
	memset(buf, 'x', sizeof(buf));
	cr_assert_eq(netem_spec_print(&s, buf, sizeof(buf)), n);
	cr_assert_eq(buf[7], '\0');
	cr_assert_eq(strncmp(buf, full, 7), 0);
	cr_assert_eq(netem_spec_print(&s, NULL, 0), n);
}

static void expect_same(const char *tc, const char *canonical)
{
	struct netem_spec a, b;
	char err[256];

	cr_assert_eq(netem_spec_parse(tc, &a, err, sizeof(err)), 0,
		     "\"%s\": %s", tc, err);
	cr_assert_eq(netem_spec_parse(canonical, &b, err, sizeof(err)), 0,
		     "\"%s\": %s", canonical, err);
	cr_expect(netem_spec_equal(&a, &b), "\"%s\" is not \"%s\"", tc,
		  canonical);
}

/* What iproute2 6.1's tc (Debian 12) reads, written the way tc reads it
 * beside the same spec in reckon's canonical form: get_time()'s bare
 * microseconds, get_time64()'s bare nanoseconds for slots, get_size()'s
 * binary suffixes for limit and slot bytes, base-0 integers, keywords
 * matched by prefix in q_netem.c's order, and a keyword given again
 * overwriting what it sets. tests/netem/tc_diff.sh checks the same
 * grammar against tc itself. */
Test(spec, tc61_grammar)
{
	expect_same("delay 100", "delay 100us");
	expect_same("delay 10ms 5", "delay 10ms 5us");
	expect_same("delay 1.5", "delay 1us");
	expect_same("delay 0.0015ms", "delay 1us");
	expect_same("slot 1.9", "slot 1ns 1ns");
	expect_same("limit 0x10", "limit 16");
	expect_same("duplicate 5% 10%", "duplicate 5%");
	expect_same("duplicate 5% 10% loss 1% 5%",
		    "loss 1% 5% duplicate 5% 10%");
	expect_same("slot 2", "slot 2ns 2ns");
	expect_same("slot 1ms 2ms bytes 64k", "slot 1ms 2ms bytes 65536");
	expect_same("slot 1ms p 0x10 b 1kbit", "slot 1ms packets 16 bytes 128");
	expect_same("limit 1k", "limit 1024");
	expect_same("limit 2m", "limit 2097152");
	expect_same("limit 1.5", "limit 1");
	expect_same("l 10 d 5ms lo 1% du 2% c 3% r 4% g 010 ra 1mbit",
		    "limit 10 delay 5ms loss 1% duplicate 2% corrupt 3% "
		    "reorder 4% gap 8 rate 1mbit");
	expect_same("la 5ms dr 1% di normal del 6ms 1ms",
		    "delay 6ms 1ms distribution normal loss 1%");
	expect_same("delay 10ms 5ms 25% delay 20ms", "delay 20ms 5ms 25%");
	expect_same("delay 10ms loss 0% loss 2%", "delay 10ms loss 2%");
	expect_same("delay 1ms reorder 5% gap 0", "delay 1ms reorder 5% gap 1");
	expect_same("delay 1ms reorder 5% reorder 7% 10%",
		    "delay 1ms reorder 7% 10%");
	expect_same("rate 1mbit 0x10 0x20 -4", "rate 1mbit 16 32 -4");
	expect_same("limit 5 limit 7", "limit 7");
}

/* loss burst R L is the simple Gilbert model with stationary loss R and
 * mean burst L: p / (p + r) == R and 1 / r == L, to the u32 rounding of
 * p and r (relative 2^-32 each, so 1e-8 is a safe bound). */
Test(spec, loss_burst_is_simple_gilbert)
{
	static const double rate[] = {0.01, 0.02, 0.05, 0.10};
	static const double len[] = {1, 2, 4, 10};
	struct netem_spec s;
	char text[64], err[256];
	size_t i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			double p, r;

			snprintf(text, sizeof(text), "loss burst %g%% %g",
				 100 * rate[i], len[j]);
			cr_assert_eq(netem_spec_parse(text, &s, err,
						      sizeof(err)), 0,
				     "%s: %s", text, err);
			cr_assert_eq(s.loss_model, NETEM_LOSS_GEMODEL);
			cr_assert_eq(s.ge_1h, UINT32_MAX);
			cr_assert_eq(s.ge_1k, 0);
			p = netem_prob_to_double(s.ge_p);
			r = netem_prob_to_double(s.ge_r);
			cr_expect_float_eq(p / (p + r), rate[i], 1e-8, "%s",
					   text);
			cr_expect_float_eq(1 / r, len[j], 1e-8 * len[j], "%s",
					   text);
		}
}

static void expect_tc(const char *spec, const char *shown)
{
	struct netem_spec s;
	char err[256], buf[512];

	cr_assert_eq(netem_spec_parse(spec, &s, err, sizeof(err)), 0,
		     "\"%s\": %s", spec, err);
	cr_assert_lt(netem_spec_print_tc(&s, buf, sizeof(buf)),
		     (int)sizeof(buf));
	cr_expect_str_eq(buf, shown, "for \"%s\"", spec);
}

/* What iproute2 6.1's netem_print_opt() prints for the kernel's dump of
 * each spec: "limit" first, delays through 64 ns ticks and print_time()'s
 * %.3g, jitter after two spaces, percentages with %g, rates with
 * print_color_rate()'s decimal units, slot times with print_time64(),
 * "ecn " with its trailing space, gap last. */
Test(spec, print_as_tc_shows)
{
	expect_tc("delay 50ms 10ms distribution normal loss gemodel 1% 10% "
		  "70% 0.1%",
		  "limit 1000 delay 50ms  10ms loss gemodel p 1% r 10% 1-h 70% "
		  "1-k 0.1%");
	expect_tc("delay 100ms 10ms 25% loss 0.3% 25%",
		  "limit 1000 delay 100ms  10ms 25% loss 0.3% 25%");
	expect_tc("delay 12.3456ms", "limit 1000 delay 12.3ms");
	expect_tc("delay 1.5s", "limit 1000 delay 1.5s");
	/* 250 us is 3906.25 ticks, kept as 3906, shown as 249.98 us */
	expect_tc("delay 250us", "limit 1000 delay 249us");
	expect_tc("delay 10ms 0.5", "limit 1000 delay 10ms");
	expect_tc("delay 10ms reorder 25% 50%",
		  "limit 1000 delay 10ms reorder 25% 50% gap 1");
	expect_tc("delay 1ms duplicate 1% corrupt 0.1% 5% limit 50",
		  "limit 50 delay 1ms duplicate 1% corrupt 0.1% 5%");
	expect_tc("rate 1mbit 14 64 -4",
		  "limit 1000 rate 1Mbit packetoverhead 14 cellsize 64 "
		  "celloverhead -4");
	expect_tc("rate 1500kbit", "limit 1000 rate 1500Kbit");
	expect_tc("rate 100kbps", "limit 1000 rate 800Kbit");
	expect_tc("slot 1ms 2500us packets 5 bytes 64k",
		  "limit 1000 slot 1ms 2.5ms packets 5 bytes 65536");
	expect_tc("slot distribution normal 1ms 100us",
		  "limit 1000 slot distribution 1ms 100us");
	expect_tc("loss state 1% 10%",
		  "limit 1000 loss state p13 1% p31 10% p32 0% p23 100% p14 0%");
	expect_tc("loss 1% ecn", "limit 1000 loss 1% ecn ");
}
