/*
 * test_scenario_values.c: Criterion tests of the value layer under the
 * scenario loader: duration and size syntax, the key table's defaults
 * (each one parses and prints back as written), the typo suggestions and
 * {placeholder} expansion.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "scenario.h"
#include "scenario_int.h"

Test(values, durations_parse_exactly)
{
	static const struct {
		const char *text;
		int64_t ns;
	} ok[] = {
		{"60s", 60000000000LL},
		{"10m", 600000000000LL},
		{"500ms", 500000000LL},
		{"1.5s", 1500000000LL},
		{"0.25ms", 250000LL},
		{"2h", 7200000000000LL},
		{"7us", 7000LL},
		{"1ns", 1LL},
		{"0s", 0LL},
		{"1.000000001s", 1000000001LL},
	};
	static const char *const bad[] = {
		"10",	    "s",     "1.5ns",
		"-1s",	    "1.s",   "1e3ms",
		"10 s",	    "10sec", "99999999999999999999s",
		"9999999h", ""};
	char err[128];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int64_t v = -1;
		cr_assert_eq(
			num_parse_duration_unit(ok[i].text, &v, err, sizeof(err)), 0,
			"%s: %s", ok[i].text, err);
		cr_assert_eq(v, ok[i].ns, "%s", ok[i].text);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t v = 42;
		cr_assert_eq(num_parse_duration_unit(bad[i], &v, err, sizeof(err)),
			     -EINVAL, "'%s' accepted", bad[i]);
		cr_assert_eq(v, 42, "output written on failure for '%s'",
			     bad[i]);
		cr_assert_gt(strlen(err), 0);
	}
}

Test(values, durations_print_in_the_largest_exact_unit)
{
	static const struct {
		int64_t ns;
		const char *text;
	} cases[] = {
		{0, "0s"},
		{1500000000LL, "1500ms"},
		{90000000000LL, "90s"},
		{3600000000000LL, "1h"},
		{120000000000LL, "2m"},
		{1000001LL, "1000001ns"},
		{2000LL, "2us"},
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		num_format_duration(cases[i].ns, buf, sizeof(buf));
		cr_assert_str_eq(buf, cases[i].text);
	}
}

Test(values, every_default_parses_and_prints_back)
{
	/* A buffer big enough for any section's target struct. */
	static union {
		struct scenario sc;
		struct sc_host h;
		struct sc_capture c;
		struct sk_link_in l;
	} u;
	char err[256], buf[256];
	size_t with_default = 0;

	for (size_t i = 0; i < sk_nkeys; i++) {
		const struct sk_key *k = &sk_keys[i];
		cr_assert_not_null(k->doc);
		cr_assert_eq(sk_find(k->sec, k->name), k, "duplicate key %s",
			     k->name);
		if (k->def == NULL)
			continue;
		with_default++;
		memset(&u, 0, sizeof(u));
		cr_assert_eq(sk_parse(k, k->def, &u, err, sizeof(err)), 0,
			     "%s: %s", k->name, err);
		sk_format(k, &u, buf, sizeof(buf));
		cr_assert_str_eq(buf, k->def, "key %s", k->name);
	}
	cr_assert_geq(with_default, 10);
}

Test(values, sizes_booleans_and_ranges)
{
	const struct sk_key *ms = sk_find(SS_CAPTURE, "max_size");
	const struct sk_key *en = sk_find(SS_CAPTURE, "enabled");
	const struct sk_key *sn = sk_find(SS_SCENARIO, "subnet");
	const struct sk_key *be = sk_find(SS_SCENARIO, "backend");
	struct sc_capture c = {0};
	struct scenario *sc = calloc(1, sizeof(*sc));
	char err[256], buf[64];

	cr_assert_eq(sk_parse(ms, "16M", &c, err, sizeof(err)), 0);
	cr_assert_eq(c.max_bytes, 16ULL << 20);
	cr_assert_eq(sk_parse(ms, "3k", &c, err, sizeof(err)), 0);
	cr_assert_eq(c.max_bytes, 3072);
	sk_format(ms, &c, buf, sizeof(buf));
	cr_assert_str_eq(buf, "3k");
	cr_assert_eq(sk_parse(ms, "1025", &c, err, sizeof(err)), 0);
	sk_format(ms, &c, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1025");
	cr_assert_eq(sk_parse(ms, "2T", &c, err, sizeof(err)), -EINVAL);
	cr_assert_eq(sk_parse(ms, "2048G", &c, err, sizeof(err)), -EINVAL);
	cr_assert_eq(c.max_bytes, 1025, "written on failure");

	cr_assert_eq(sk_parse(en, "On", &c, err, sizeof(err)), 0);
	cr_assert_eq(c.enabled, 1);
	cr_assert_eq(sk_parse(en, "yellow", &c, err, sizeof(err)), -EINVAL);

	cr_assert_eq(sk_parse(sn, "192.168.7.0/24", sc, err, sizeof(err)), 0);
	cr_assert_str_eq(sc->subnet, "192.168.7.0/24");
	cr_assert_eq(sk_parse(sn, "192.168.7.1/24", sc, err, sizeof(err)),
		     -EINVAL);
	cr_assert(strstr(err, "192.168.7.0/24") != NULL, "%s", err);
	cr_assert_eq(sk_parse(sn, "300.1.1.0/24", sc, err, sizeof(err)),
		     -EINVAL);
	cr_assert_eq(sk_parse(sn, "10.0.0.0", sc, err, sizeof(err)), -EINVAL);

	cr_assert_eq(sk_parse(be, "KERNEL", sc, err, sizeof(err)), 0);
	cr_assert_eq(sc->backend, SC_BACKEND_KERNEL);
	cr_assert_eq(sk_parse(be, "kernal", sc, err, sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "did you mean 'kernel'") != NULL, "%s", err);
	free(sc);
}

Test(values, edit_distance_and_suggestions)
{
	static const char *const keys[] = {"duration", "repetitions", "seed",
					   "subnet", NULL};

	cr_assert_eq(sc_edit_distance("kitten", "sitting"), 3);
	cr_assert_eq(sc_edit_distance("", "abc"), 3);
	cr_assert_eq(sc_edit_distance("same", "same"), 0);
	cr_assert_str_eq(sc_suggest("duraton", keys, 0), "duration");
	cr_assert_str_eq(sc_suggest("sed", keys, 0), "seed");
	cr_assert_str_eq(sc_suggest("subent", keys, 0), "subnet");
	/* Nothing plausible: no suggestion rather than a wild guess. */
	cr_assert_null(sc_suggest("xyz", keys, 0));
	cr_assert_null(sc_suggest("ab", keys, 0));
}

Test(values, placeholders_expand)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	char out[64], err[256];

	sc->nhosts = 2;
	sc->duration_ns = 2500000000LL;
	strcpy(sc->hosts[0].name, "a");
	strcpy(sc->hosts[0].addr, "10.0.0.1");
	strcpy(sc->hosts[1].name, "b");
	strcpy(sc->hosts[1].addr, "10.0.0.2");
	sc->hosts[1].index = 1;
	const struct sc_host *h = &sc->hosts[1];

	cr_assert_eq(scenario_expand(sc, h,
				     "x {host} {index} {addr} "
				     "{addr:a} {duration_s} {{}} }",
				     out, sizeof(out), err, sizeof(err)),
		     0, "%s", err);
	cr_assert_str_eq(out, "x b 1 10.0.0.2 10.0.0.1 3 {} }");
	strcpy(out, "unchanged");
	cr_assert_eq(scenario_expand(sc, h, "{addr:c}", out, sizeof(out), err,
				     sizeof(err)),
		     -EINVAL);
	cr_assert_eq(scenario_expand(sc, h, "{bogus}", out, sizeof(out), err,
				     sizeof(err)),
		     -EINVAL);
	cr_assert(strstr(err, "{bogus}") != NULL, "%s", err);
	cr_assert_eq(scenario_expand(sc, h, "ping {addr:a", out, sizeof(out),
				     err, sizeof(err)),
		     -EINVAL);
	cr_assert_eq(scenario_expand(sc, h,
				     "{addr}{addr}{addr}{addr}{addr}"
				     "{addr}{addr}",
				     out, 32, err, sizeof(err)),
		     -EINVAL);
	free(sc);
}
