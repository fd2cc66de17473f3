/*
 * test_scenario.c: Criterion tests of scenario_load and scenario_print:
 * the struct a known file produces (hosts, addresses, both directions of
 * every link, [defaults] pairs, sorted schedule, capture), the canonical
 * form loading back to the same scenario for every shipped scenario, and
 * docs/scenario.md's key reference matching the key table.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_test_util.h"
#include "scenario.h"
#include "scenario_int.h"

static struct netem_spec spec(const char *text)
{
	struct netem_spec s;
	char err[256];
	cr_assert_eq(netem_spec_parse(text, &s, err, sizeof(err)), 0, "%s: %s",
		     text, err);
	return s;
}

static struct scenario *load_ok(const char *text)
{
	struct scenario *sc = NULL;
	struct sc_diag d = {0};
	int rc = sc_load_text(text, &sc, &d);
	cr_assert_eq(rc, 0, "load failed: %s", d.n ? d.msg[0] : "(no message)");
	cr_assert_eq(d.n, 0);
	sc_diag_free(&d);
	return sc;
}

Test(scenario, defaults_are_explicit_and_seed_is_1)
{
	struct scenario *sc = load_ok("[host a]\nexec = true\n");

	cr_assert_eq(sc->seed, 1);
	cr_assert_eq(sc->duration_ns, 10000000000LL);
	cr_assert_eq(sc->repetitions, 1);
	cr_assert_eq(sc->backend, SC_BACKEND_USERSPACE);
	cr_assert_eq(sc->mode, SC_MODE_EMULATE);
	cr_assert_str_eq(sc->results_dir, "results");
	cr_assert_str_eq(sc->subnet, "10.77.0.0/24");
	cr_assert_str_eq(sc->hosts[0].addr, "10.77.0.1");
	cr_assert_eq(sc->capture.enabled, 0);
	cr_assert_eq(sc->capture.snaplen, 262144);
	cr_assert_eq(sc->nlinks, 0);
	cr_assert_eq(sc->nchanges, 0);
	/* the name defaults to the file name without .ini */
	cr_assert_eq(strncmp(sc->name, "reckon-sc-test-", 15), 0, "%s",
		     sc->name);
	scenario_free(sc);
}

Test(scenario, lossy_pair_fills_the_struct)
{
	struct scenario *sc = NULL;
	struct sc_diag d = {0};

	cr_assert_eq(scenario_load("scenarios/lossy-pair.ini", &sc, &d), 0);
	cr_assert_str_eq(sc->name, "lossy-pair");
	cr_assert_eq(sc->seed, 7);
	cr_assert_eq(sc->nhosts, 2);
	cr_assert_str_eq(sc->hosts[0].name, "a");
	cr_assert_str_eq(sc->hosts[1].addr, "10.77.0.2");
	cr_assert_str_eq(sc->hosts[0].exec, "ping -i 0.2 -w 29 10.77.0.2");
	cr_assert_str_eq(sc->hosts[0].exec_text, "ping -i 0.2 -w 29 {addr:b}");
	cr_assert_eq(sc->nlinks, 1);
	struct netem_spec f = spec("delay 5ms loss gemodel 5% 30% 50% 0%");
	struct netem_spec r = spec("delay 5ms");
	cr_assert(netem_spec_equal(scenario_link_spec(sc, 0, 1), &f));
	cr_assert(netem_spec_equal(scenario_link_spec(sc, 1, 0), &r));
	/* a<>b at 25s became two changes, after the 20s one */
	cr_assert_eq(sc->nchanges, 3);
	cr_assert_eq(sc->changes[0].at_ns, 20000000000LL);
	cr_assert_eq(sc->changes[1].at_ns, 25000000000LL);
	cr_assert_eq(sc->changes[2].at_ns, 25000000000LL);
	cr_assert_eq(sc->changes[1].src, 0);
	cr_assert_eq(sc->changes[2].src, 1);
	cr_assert_eq(sc->capture.enabled, 1);
	cr_assert_eq(sc->capture.snaplen, 128);
	cr_assert_eq(sc->capture.max_bytes, 16ULL << 20);
	scenario_free(sc);
	sc_diag_free(&d);
}

Test(scenario, missing_direction_is_unimpaired)
{
	struct scenario *sc =
		load_ok("[host a]\nexec = true\n[host b]\nexec = true\n"
			"[link b a]\nforward = delay 7ms\n");
	struct netem_spec none;

	netem_spec_init(&none);
	struct netem_spec f = spec("delay 7ms");
	cr_assert(netem_spec_equal(scenario_link_spec(sc, 1, 0), &f));
	cr_assert(netem_spec_equal(scenario_link_spec(sc, 0, 1), &none));
	scenario_free(sc);
}

Test(scenario, defaults_link_covers_unlinked_pairs_only)
{
	struct scenario *sc =
		load_ok("[defaults]\nlink = delay 3ms\n"
			"[host a]\nexec = true\n[host b]\nexec = true\n"
			"[host c]\nexec = true\n"
			"[link a b]\nboth = delay 50ms\n");
	struct netem_spec def = spec("delay 3ms"), ab = spec("delay 50ms");

	cr_assert_eq(sc->nlinks, 3); /* a-b explicit, a-c and b-c defaults */
	cr_assert_eq(sc->links[0].from_defaults, 0);
	cr_assert(netem_spec_equal(scenario_link_spec(sc, 1, 0), &ab));
	for (unsigned s = 0; s < 2; s++) {
		cr_assert(netem_spec_equal(scenario_link_spec(sc, s, 2), &def));
		cr_assert(netem_spec_equal(scenario_link_spec(sc, 2, s), &def));
		cr_assert_eq(sc->links[1 + s].from_defaults, 1);
	}
	scenario_free(sc);

	/* Without [defaults] link an unlinked pair has no spec at all. */
	sc = load_ok("[host a]\nexec = true\n[host b]\nexec = true\n");
	cr_assert_null(scenario_link_spec(sc, 0, 1));
	cr_assert_eq(scenario_host(sc, "B"), 1);
	cr_assert_eq(scenario_host(sc, "z"), -1);
	scenario_free(sc);
}

Test(scenario, schedule_is_sorted_by_time_then_file_order)
{
	struct scenario *sc =
		load_ok("[scenario]\nduration = 1m\n"
			"[host a]\nexec = true\n[host b]\nexec = true\n"
			"[schedule]\n"
			"at 40s a>b = delay 4ms\n"
			"at 10s b<a = delay 1ms\n"
			"at 10s b>a = delay 2ms\n"
			"at 1m a<>b =\n"
			"at 500ms a>b = rate 1mbit\n");
	struct netem_spec none;

	netem_spec_init(&none);
	cr_assert_eq(sc->nchanges, 6);
	int64_t want_t[] = {500000000LL,   10000000000LL, 10000000000LL,
			    40000000000LL, 60000000000LL, 60000000000LL};
	unsigned want_src[] = {0, 0, 1, 0, 0, 1};
	for (unsigned i = 0; i < 6; i++) {
		cr_assert_eq(sc->changes[i].at_ns, want_t[i], "change %u", i);
		cr_assert_eq(sc->changes[i].src, want_src[i], "change %u", i);
		cr_assert_eq(sc->changes[i].dst, 1 - want_src[i], "change %u",
			     i);
	}
	struct netem_spec d1 = spec("delay 1ms");
	cr_assert(netem_spec_equal(&sc->changes[1].spec, &d1));
	cr_assert(netem_spec_equal(&sc->changes[4].spec, &none));
	scenario_free(sc);
}

Test(scenario, subnet_assigns_index_plus_one)
{
	struct scenario *sc = load_ok(
		"[scenario]\nsubnet = 172.16.0.0/16\n"
		"[host a]\nexec = true\n[host b]\nexec = true\n"
		"[host c]\nexec = ping {addr:a} {addr:B} {host} {index}\n");
	cr_assert_str_eq(sc->hosts[2].addr, "172.16.0.3");
	cr_assert_str_eq(sc->hosts[2].exec, "ping 172.16.0.1 172.16.0.2 c 2");
	scenario_free(sc);
}

/* Load path, print it, load the print, print again: same scenario, same
 * text (after the first line, which names the file). */
static void round_trip(const char *path)
{
	struct scenario *a = NULL, *b = NULL;
	struct sc_diag d = {0};
	char *t1 = NULL, *t2 = NULL, tmp[64];
	size_t n1, n2;

	cr_assert_eq(scenario_load(path, &a, &d), 0, "%s: %s", path,
		     d.n ? d.msg[0] : "");
	FILE *m = open_memstream(&t1, &n1);
	cr_assert_eq(scenario_print(m, a), 0);
	fclose(m);
	sc_write_tmp(t1, tmp, sizeof(tmp));
	int rc = scenario_load(tmp, &b, &d);
	unlink(tmp);
	cr_assert_eq(rc, 0, "%s: canonical form does not load: %s", path,
		     d.n ? d.msg[0] : "");
	sc_assert_same(a, b);
	m = open_memstream(&t2, &n2);
	cr_assert_eq(scenario_print(m, b), 0);
	fclose(m);
	cr_assert_str_eq(strchr(t1, '\n'), strchr(t2, '\n'), "%s", path);
	free(t1);
	free(t2);
	scenario_free(a);
	scenario_free(b);
	sc_diag_free(&d);
}

Test(scenario, canonical_form_round_trips)
{
	glob_t g;
	size_t total = 0;
	const char *pats[] = {"scenarios/*.ini", "tests/scenario/valid/*.ini"};

	for (size_t p = 0; p < 2; p++) {
		int rc = glob(pats[p], 0, NULL, &g);
		cr_assert_eq(rc, 0,
			     "no files match %s (run from the source "
			     "directory)",
			     pats[p]);
		for (size_t i = 0; i < g.gl_pathc; i++)
			round_trip(g.gl_pathv[i]);
		total += g.gl_pathc;
		globfree(&g);
	}
	cr_assert_geq(total, 5);
}

/* The generated part of a doc (between begin and end) equals want. */
static void doc_matches(const char *path, const char *begin, const char *end,
			int (*render)(FILE *))
{
	char *want = NULL, *doc = NULL;
	size_t wn, dn = 0;
	FILE *m = open_memstream(&want, &wn);

	cr_assert_eq(render(m), 0);
	fclose(m);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s (run from the source dir)", path);
	cr_assert_eq(getdelim(&doc, &dn, '\0', f) > 0, 1);
	fclose(f);
	char *b = strstr(doc, begin), *e = strstr(doc, end);
	cr_assert(b && e && e > b, "%s lacks the markers %s", path, begin);
	b += strlen(begin);
	*e = '\0';
	cr_assert_str_eq(b, want, "%s is stale: regenerate it with %s", path,
			 begin);
	free(want);
	free(doc);
}

Test(scenario, docs_key_reference_matches_the_table)
{
	doc_matches("docs/scenario.md",
		    "<!-- BEGIN KEYS: generated by scenario_keys_md -->\n",
		    "<!-- END KEYS -->", scenario_keys_markdown);
}

/* The like-for-like table of docs/comparing.md follows sc_fair_settings
 * and the registry (a predictor added later shows up in it). */
Test(scenario, docs_fair_settings_match_the_table)
{
	doc_matches(
		"docs/comparing.md",
		"<!-- BEGIN FAIR: generated by scenario_keys_md --fair -->\n",
		"<!-- END FAIR -->", scenario_fair_markdown);
}

/* ---- experiment sections ---- */

#define GAME "[scenario]\nduration = 20s\n[game]\nmap = dust\nbots = 6\n"
#define HOSTS3                                                                 \
	"[host p1]\nrole = player\n[host p2]\nrole = player\n"                 \
	"[host obs]\nrole = observer\n"

static double param(const struct sc_predictor *pr, const char *key)
{
	double v;

	cr_assert_eq(predict_params_get(&pr->par, key, &v), 0, "%s", key);
	return v;
}

/* The like-for-like settings fill what a comparison leaves unset, never
 * what it sets, and only when two or more instances are compared (or
 * fair = on). */
Test(scenario, fair_settings_apply_when_predictors_are_compared)
{
	struct scenario *sc = load_ok(GAME "[predictor dis]\nblend = 1\n"
					   "[predictor led]\n" HOSTS3);

	cr_assert_eq(sc->npredictors, 2);
	cr_assert_eq(param(&sc->predictors[0], "orient_threshold"), 0);
	cr_assert_eq(param(&sc->predictors[0], "blend"), 1, "set: kept");
	cr_assert_eq(param(&sc->predictors[1], "heartbeat"), 5);
	cr_assert_eq(param(&sc->predictors[1], "trigger"), 1, "projection");
	scenario_free(sc);

	sc = load_ok(GAME "[predictor led]\n" HOSTS3);
	cr_assert_eq(param(&sc->predictors[0], "heartbeat"), 0, "alone");
	scenario_free(sc);

	sc = load_ok(GAME "[defaults]\nfair = on\n[predictor led]\n" HOSTS3);
	cr_assert_eq(param(&sc->predictors[0], "heartbeat"), 5, "fair = on");
	scenario_free(sc);

	sc = load_ok(GAME "[defaults]\nfair = off\n[predictor dis]\n"
			  "[predictor led]\n" HOSTS3);
	cr_assert_eq(param(&sc->predictors[0], "orient_threshold"), 3);
	cr_assert_eq(param(&sc->predictors[1], "heartbeat"), 0, "fair = off");
	scenario_free(sc);
}

/* Every registered predictor, and every parameter of its own table at
 * its default, is a valid [predictor] section: nothing in the loader
 * lists predictors or their keys. */
Test(scenario, every_registered_predictor_and_parameter_is_accepted)
{
	const struct predictor *all[64];
	size_t n = predict_list(all, 64);

	cr_assert_gt(n, 0);
	for (size_t i = 0; i < n && i < 64; i++) {
		char text[8192], vals[2048], *save = NULL;
		struct predict_params def;
		size_t o;

		predict_params_init(&def, all[i]);
		cr_assert_eq(predict_params_format(&def, vals, sizeof(vals)),
			     0);
		o = (size_t)snprintf(text, sizeof(text),
				     GAME "[predictor x%zu]\ntype = %s\n", i,
				     all[i]->name);
		for (char *kv = strtok_r(vals, " ", &save); kv;
		     kv = strtok_r(NULL, " ", &save))
			o += (size_t)snprintf(text + o, sizeof(text) - o,
					      "%s\n", kv);
		snprintf(text + o, sizeof(text) - o, "%s", HOSTS3);
		struct scenario *sc = load_ok(text);
		cr_assert_eq(sc->predictors[0].par.p, all[i]);
		char want[32];
		snprintf(want, sizeof(want), "x%zu", i);
		cr_assert_str_eq(sc->predictors[0].name, want);
		scenario_free(sc);
	}
}

/* Hosts built from one [game] cannot disagree: the players' options are
 * the same up to their share of the bots, and the observer gets the same
 * game and lanes. */
Test(scenario, hosts_built_from_one_game_agree)
{
	struct scenario *sc = load_ok(GAME "[predictor dis20]\ntype = dis\n"
					   "[predictor led]\n" HOSTS3);
	const char *p1 = sc->hosts[0].built, *p2 = sc->hosts[1].built;
	const char *ob = sc->hosts[2].built;
	size_t game = strstr(p1, " --player-index") - p1;

	cr_assert_gt(game, 0);
	cr_assert_eq(strncmp(p1, p2, game), 0, "%s\n%s", p1, p2);
	cr_assert_eq(strncmp(p1, ob, game), 0, "%s\n%s", p1, ob);
	cr_assert_not_null(strstr(p1, "--map dust --bots 6 --duration 16 "));
	cr_assert_not_null(strstr(p1, "--predictor dis20=dis:"));
	cr_assert_not_null(strstr(p1, " --player-index 0 --players 2 "));
	cr_assert_not_null(strstr(p2, " --player-index 1 --players 2 "));
	cr_assert_not_null(strstr(ob, "--condition none"), "%s", ob);
	scenario_free(sc);
}

/* A sweep axis names a [predictor] instance, and rewrites its lane only. */
Test(scenario, sweep_axis_on_a_predictor_instance)
{
	struct scenario *sc = load_ok(
		GAME "[predictor dis20]\ntype = dis\n[predictor dis]\n" HOSTS3
		     "[sweep]\npredictor.dis20.pos_threshold = 10 30\n");
	struct scenario *pt = NULL;

	cr_assert_eq(scenario_sweep_apply(sc, 1, &pt), 0);
	cr_assert_not_null(strstr(pt->hosts[0].args,
				  "--predictor dis20=dis:orient_threshold=0,"
				  "convergence=pvb,blend=0.25,pos_threshold=30 "
				  "--predictor dis:orient_threshold=0,"),
			   "%s", pt->hosts[0].args);
	scenario_free(pt);
	scenario_free(sc);
}

Test(scenario, condition_labels_fold_the_spec)
{
	char buf[128];
	struct netem_spec s = spec("delay 50ms 10ms loss 2%");

	scenario_spec_label(&s, buf, sizeof(buf));
	cr_assert_str_eq(buf, "delay50ms-10ms-loss2pct");
	s = spec("delay 150ms loss gemodel 0.5102% 25% 100% 0% limit 50");
	scenario_spec_label(&s, buf, sizeof(buf));
	/* a word that starts with a digit is a value: 1-h is one */
	cr_assert_str_eq(buf,
			 "delay150ms-loss-gemodel-p0.5102pct-r25pct-"
			 "1-h-100pct-1-k-0pct-limit50",
			 "%s", buf);
	scenario_spec_label(NULL, buf, sizeof(buf));
	cr_assert_str_eq(buf, "none");
}
