/*
 * test_rep.c: whole simulated repetitions (daemon/netsim/netsim.c) on small
 * scenarios with bots generated on dust, loaded by the real loader and
 * written by the real metrics writers. Same seed gives byte-identical
 * files; another seed or repetition gives different ones; datagrams are
 * conserved from the players' metrics through the link counters to the
 * observers' (p2p and through a relay); a 10% loss is 10% within 5
 * binomial standard deviations; the duration stops hosts; a [schedule]
 * change applies, and a [link] schedule applies behind a link without
 * one; exec hosts are refused with the host named (other
 * roles and bad args are refused by the loader already); a datagram
 * whose jitter draw is below -delay arrives when it was sent, never
 * before.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "netsim.h"
#include "sim_fixture.h"

#define LANES                                                                  \
	"--predictor dis:pos_threshold=10 --predictor "                        \
	"led:eta_min=5,eta_max=35"

/* Two players (two bots each) to one observer, 6 s of truth (paths
 * shorter than 5 s are dropped by the truth). */
static void p2p_dur(char *buf, size_t len, unsigned duration_s, unsigned seed,
		    const char *link, const char *extra)
{
	snprintf(buf, len,
		 "[scenario]\n"
		 "name = simtest\n"
		 "duration = %us\n"
		 "seed = %u\n"
		 "[host p1]\n"
		 "role = player\n"
		 "args = --map dust --bots 4 --duration 6 --player-index 0 "
		 "--players 2 " LANES " --to {addr:obs}\n"
		 "[host p2]\n"
		 "role = player\n"
		 "args = --map dust --bots 4 --duration 6 --player-index 1 "
		 "--players 2 " LANES " --to {addr:obs}\n"
		 "[host obs]\n"
		 "role = observer\n"
		 "args = --map dust --bots 4 --duration 6 --linger 1 " LANES
		 "\n"
		 "%s%s%s",
		 duration_s, seed, link ? "[defaults]\nlink = " : "",
		 link ? link : "", link ? "\n" : "");
	if (extra)
		strncat(buf, extra, len - strlen(buf) - 1);
}

static void p2p_text(char *buf, size_t len, unsigned seed, const char *link,
		     const char *extra)
{
	p2p_dur(buf, len, 9, seed, link, extra);
}

TestSuite(sim_rep, .fini = fx_cleanup);

static void run(const struct scenario *sc, unsigned rep, const char *dir,
		struct sim_stats *st)
{
	int rc;

	cr_assert_eq(mkdir(dir, 0755), 0, "mkdir %s", dir);
	rc = sim_run_rep(sc, rep, dir, st);
	cr_assert_eq(rc, 0, "sim_run_rep: %d", rc);
}

static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = fx_slurp(a, &la), *y = fx_slurp(b, &lb);
	int same;

	cr_assert_not_null(x, "cannot read %s", a);
	cr_assert_not_null(y, "cannot read %s", b);
	same = la == lb && memcmp(x, y, la) == 0;
	free(x);
	free(y);
	return same;
}

static const char *const files[] = {
	"metrics-p1.csv",  "metrics-p2.csv", "metrics-obs.csv",
	"rejects-obs.csv", "counters.csv",   "hosts.csv",
};

Test(sim_rep, same_seed_same_bytes)
{
	const char *tmp = fx_tmpdir();
	char text[4096], a[PATH_MAX], b[PATH_MAX], fa[PATH_MAX * 2],
		fb[PATH_MAX * 2];
	struct sim_stats sa, sb;
	struct scenario *sc;

	p2p_text(text, sizeof(text), 3,
		 "delay 30ms 10ms 25% loss 5% duplicate 2% corrupt 1%", NULL);
	sc = fx_load(tmp, "s", text);
	snprintf(a, sizeof(a), "%s/a", tmp);
	snprintf(b, sizeof(b), "%s/b", tmp);
	run(sc, 1, a, &sa);
	run(sc, 1, b, &sb);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(fa, sizeof(fa), "%s/%s", a, files[i]);
		snprintf(fb, sizeof(fb), "%s/%s", b, files[i]);
		cr_assert(same_file(fa, fb), "%s differs between two runs",
			  files[i]);
	}
	cr_assert_eq(sa.events, sb.events);
	cr_assert_eq(sa.datagrams, sb.datagrams);
	cr_assert_eq(sa.virtual_ns, sb.virtual_ns);
	cr_assert_gt(sa.datagrams, 100, "only %llu datagrams",
		     (unsigned long long)sa.datagrams);
	scenario_free(sc);
	fx_rmdir(tmp);
}

Test(sim_rep, other_seed_other_bytes)
{
	const char *tmp = fx_tmpdir();
	char text[4096], d[3][PATH_MAX], f0[PATH_MAX * 2], f1[PATH_MAX * 2];
	struct scenario *s1, *s2;

	p2p_text(text, sizeof(text), 3, "delay 30ms 10ms loss 5%", NULL);
	s1 = fx_load(tmp, "s1", text);
	p2p_text(text, sizeof(text), 4, "delay 30ms 10ms loss 5%", NULL);
	s2 = fx_load(tmp, "s2", text);
	for (int i = 0; i < 3; i++)
		snprintf(d[i], sizeof(d[i]), "%s/d%d", tmp, i);
	run(s1, 1, d[0], NULL);
	run(s2, 1, d[1], NULL);
	run(s1, 2, d[2], NULL); /* repetition 2: scenario_rep_seed */
	for (int i = 1; i < 3; i++) {
		snprintf(f0, sizeof(f0), "%s/metrics-obs.csv", d[0]);
		snprintf(f1, sizeof(f1), "%s/metrics-obs.csv", d[i]);
		cr_assert(!same_file(f0, f1), "%s equals %s", f1, f0);
		snprintf(f0, sizeof(f0), "%s/counters.csv", d[0]);
		snprintf(f1, sizeof(f1), "%s/counters.csv", d[i]);
		cr_assert(!same_file(f0, f1), "%s equals %s", f1, f0);
	}
	scenario_free(s1);
	scenario_free(s2);
	fx_rmdir(tmp);
}

/* datagrams of p = link p>obs in; link delivered = observer received for
 * p's entities (no corruption, no duplication here). */
static void check_conservation(const char *dir, uint64_t *sent_total)
{
	char f[PATH_MAX * 2], c[PATH_MAX * 2], o[PATH_MAX * 2];
	uint64_t got = 0, del = 0;

	snprintf(c, sizeof(c), "%s/counters.csv", dir);
	snprintf(o, sizeof(o), "%s/metrics-obs.csv", dir);
	*sent_total = 0;
	for (int p = 1; p <= 2; p++) {
		char name[8];
		uint64_t dg, in;

		snprintf(name, sizeof(name), "p%d", p);
		snprintf(f, sizeof(f), "%s/metrics-%s.csv", dir, name);
		dg = fx_csv_sum(f, "datagrams", NULL, NULL);
		*sent_total += fx_csv_sum(f, "sent", NULL, NULL);
		in = fx_csv_sum(c, "in", "src", name);
		cr_assert_eq(dg, in, "%s sent %llu datagrams, link in %llu",
			     name, (unsigned long long)dg,
			     (unsigned long long)in);
		del += fx_csv_sum(c, "delivered", "src", name);
	}
	got = fx_csv_sum(o, "received", NULL, NULL);
	cr_assert_eq(got, del, "observer received %llu, links delivered %llu",
		     (unsigned long long)got, (unsigned long long)del);
}

Test(sim_rep, conservation_and_loss)
{
	const char *tmp = fx_tmpdir();
	char text[4096], d0[PATH_MAX], d1[PATH_MAX], c[PATH_MAX * 2];
	struct scenario *clean, *lossy;
	uint64_t sent0, sent1, in, del;
	double p = 0.10, f, sd;

	p2p_text(text, sizeof(text), 11, NULL, NULL);
	clean = fx_load(tmp, "clean", text);
	p2p_text(text, sizeof(text), 11, "delay 20ms 5ms loss 10%", NULL);
	lossy = fx_load(tmp, "lossy", text);
	snprintf(d0, sizeof(d0), "%s/clean", tmp);
	snprintf(d1, sizeof(d1), "%s/lossy", tmp);
	run(clean, 1, d0, NULL);
	run(lossy, 1, d1, NULL);
	check_conservation(d0, &sent0);
	check_conservation(d1, &sent1);
	/* the senders do not depend on the network (same truth, same seed) */
	cr_assert_eq(sent0, sent1, "updates sent: %llu clean, %llu lossy",
		     (unsigned long long)sent0, (unsigned long long)sent1);
	snprintf(c, sizeof(c), "%s/counters.csv", d0);
	cr_assert_eq(fx_csv_sum(c, "in", "dst", "obs"),
		     fx_csv_sum(c, "delivered", "dst", "obs"),
		     "an unimpaired link lost datagrams");
	/* loss: n Bernoulli(p) trials, the lost fraction has standard
	 * deviation sqrt(p (1 - p) / n); accept 5 of them */
	snprintf(c, sizeof(c), "%s/counters.csv", d1);
	in = fx_csv_sum(c, "in", "dst", "obs");
	del = fx_csv_sum(c, "delivered", "dst", "obs");
	cr_assert_gt(in, 400, "too few datagrams (%llu) for the check",
		     (unsigned long long)in);
	f = (double)(in - del) / (double)in;
	sd = sqrt(p * (1 - p) / (double)in);
	cr_assert(fabs(f - p) < 5 * sd, "lost %.4f of %llu, want %.2f +- %.4f",
		  f, (unsigned long long)in, p, 5 * sd);
	scenario_free(clean);
	scenario_free(lossy);
	fx_rmdir(tmp);
}

Test(sim_rep, relay_two_hops)
{
	const char *tmp = fx_tmpdir();
	char text[4096], d[PATH_MAX], f[PATH_MAX * 2], c[PATH_MAX * 2];
	struct scenario *sc;
	uint64_t in_relay, got_relay, fwd;

	snprintf(text, sizeof(text),
		 "[scenario]\nname = relaytest\nduration = 9s\nseed = 5\n"
		 "[host p]\nrole = player\n"
		 "args = --map dust --bots 2 --duration 6 " LANES
		 " --to {addr:srv} --topology client-server\n"
		 "[host srv]\nrole = relay\n"
		 "args = " LANES " --to {addr:o1} --to {addr:o2} "
		 "--stop-after 8\n"
		 "[host o1]\nrole = observer\n"
		 "args = --map dust --bots 2 --duration 6 " LANES "\n"
		 "[host o2]\nrole = observer\n"
		 "args = --map dust --bots 2 --duration 6 " LANES "\n"
		 "[defaults]\nlink = delay 10ms loss 5%%\n");
	sc = fx_load(tmp, "relay", text);
	snprintf(d, sizeof(d), "%s/r", tmp);
	run(sc, 1, d, NULL);
	snprintf(c, sizeof(c), "%s/counters.csv", d);
	snprintf(f, sizeof(f), "%s/metrics-p.csv", d);
	cr_assert_eq(fx_csv_sum(f, "datagrams", NULL, NULL),
		     fx_csv_sum(c, "in", "src", "p"));
	snprintf(f, sizeof(f), "%s/metrics-srv.csv", d);
	in_relay = fx_csv_sum(c, "delivered", "dst", "srv");
	got_relay = fx_csv_sum(f, "received", NULL, NULL);
	cr_assert_eq(got_relay, in_relay, "relay took %llu of %llu",
		     (unsigned long long)got_relay,
		     (unsigned long long)in_relay);
	cr_assert_gt(got_relay, 100, "only %llu datagrams reached the relay",
		     (unsigned long long)got_relay);
	fwd = fx_csv_sum(f, "datagrams", NULL, NULL);
	cr_assert_eq(fwd, 2 * got_relay, "relay forwarded %llu for %llu",
		     (unsigned long long)fwd, (unsigned long long)got_relay);
	for (int o = 1; o <= 2; o++) {
		char name[4];

		snprintf(name, sizeof(name), "o%d", o);
		snprintf(f, sizeof(f), "%s/metrics-%s.csv", d, name);
		cr_assert_eq(fx_csv_sum(c, "in", "dst", name), got_relay);
		cr_assert_eq(fx_csv_sum(f, "received", NULL, NULL),
			     fx_csv_sum(c, "delivered", "dst", name));
	}
	scenario_free(sc);
	fx_rmdir(tmp);
}

/* Field k (0-based) of a CSV line without quotes, into out. */
static int csv_field(const char *line, int k, char *out, size_t len)
{
	for (; k > 0; k--) {
		line = strchr(line, ',');
		if (line == NULL)
			return -1;
		line++;
	}
	snprintf(out, len, "%.*s", (int)strcspn(line, ",\n"), line);
	return 0;
}

/* The data rows of a CSV file whose column col (named in the header)
 * reads want; -1 when a row reads anything else. */
static int col_all(const char *path, const char *col, const char *want)
{
	char *text = fx_slurp(path, NULL), *save = NULL, *line, cell[64];
	int c = -1, rows = 0, bad = 0;

	cr_assert_not_null(text, "%s", path);
	line = strtok_r(text, "\n", &save);
	for (int k = 0; line && csv_field(line, k, cell, sizeof(cell)) == 0;
	     k++)
		if (!strcmp(cell, col)) {
			c = k;
			break;
		}
	cr_assert_geq(c, 0, "%s: no column %s", path, col);
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		rows++;
		if (csv_field(line, c, cell, sizeof(cell)) < 0 ||
		    strcmp(cell, want))
			bad = 1;
	}
	free(text);
	return bad ? -1 : rows;
}

Test(sim_rep, duration_stops_and_schedule_applies)
{
	const char *tmp = fx_tmpdir();
	char text[4096], d[PATH_MAX], f[PATH_MAX * 2];
	struct scenario *sc;
	char *hosts, *changes;

	/* 4 s: the observer (6 s of truth) is stopped at 4 s */
	p2p_dur(text, sizeof(text), 4, 2, NULL,
		"[schedule]\nat 3s p1>obs = loss 100%\n");
	sc = fx_load(tmp, "dur", text);
	snprintf(d, sizeof(d), "%s/d", tmp);
	run(sc, 1, d, NULL);
	snprintf(f, sizeof(f), "%s/hosts.csv", d);
	hosts = fx_slurp(f, NULL);
	cr_assert_not_null(strstr(hosts, ",obs,10.77.0.3,0,0,ended"), "%s",
			   hosts);
	free(hosts);
	snprintf(f, sizeof(f), "%s/changes.csv", d);
	changes = fx_slurp(f, NULL);
	cr_assert_not_null(strstr(changes, "3.000000,schedule,p1,obs,\"loss "
					   "100% "),
			   "%s", changes);
	free(changes);
	snprintf(f, sizeof(f), "%s/counters.csv", d);
	cr_assert_gt(fx_csv_sum(f, "drop_loss", "src", "p1"), 0);
	cr_assert_eq(fx_csv_sum(f, "drop_loss", "src", "p2"), 0);
	/* metrics cover 3.425 s of truth: the observer stopped at 4 s, its
	 * t0 is the engine's common start, 0.5 s + 25 ms x 3 hosts */
	snprintf(f, sizeof(f), "%s/metrics-obs.csv", d);
	cr_assert_eq(col_all(f, "duration_s", "3.425000"), 8,
		     "want 8 rows (2 lanes x 4 entities) of 3.425 s");
	/* its timing file: stopped ("signal") after 3.425 of 6 s of play,
	 * which is what makes reckond call the run partial */
	snprintf(f, sizeof(f), "%s/timing-obs.csv", d);
	cr_assert_eq(col_all(f, "end", "signal"), 1);
	cr_assert_eq(col_all(f, "played_s", "3.425"), 1);
	cr_assert_eq(col_all(f, "late_max_ms", "0.000"), 1);
	scenario_free(sc);
	fx_rmdir(tmp);
}

/* The first [link] has no schedule, the second one has: the second's
 * still applies (p2's datagrams are all lost from 1 s, p1's are not). */
Test(sim_rep, link_schedule_after_a_link_without_one)
{
	const char *tmp = fx_tmpdir();
	char text[4096], d[PATH_MAX], f[PATH_MAX * 2];
	struct scenario *sc;

	p2p_dur(text, sizeof(text), 4, 2, NULL,
		"[link p1 obs]\nboth = delay 5ms\n"
		"[link p2 obs]\nschedule = \"at 1s loss 100%\"\n");
	sc = fx_load(tmp, "lsched", text);
	snprintf(d, sizeof(d), "%s/d", tmp);
	run(sc, 1, d, NULL);
	snprintf(f, sizeof(f), "%s/counters.csv", d);
	cr_assert_gt(fx_csv_sum(f, "drop_loss", "src", "p2"), 0);
	cr_assert_eq(fx_csv_sum(f, "drop_loss", "src", "p1"), 0);
	scenario_free(sc);
	fx_rmdir(tmp);
}

Test(sim_rep, refusals_name_the_host)
{
	const char *tmp = fx_tmpdir();
	char text[4096], err[600], d[PATH_MAX];
	struct scenario *sc;

	snprintf(text, sizeof(text),
		 "[scenario]\nname = ex\n[host a]\nrole = observer\n"
		 "args = --map dust\n[host pinger]\nexec = ping -c 1 "
		 "{addr:a}\n");
	sc = fx_load(tmp, "ex", text);
	cr_assert_eq(sim_check(sc, err, sizeof(err)), -ENOTSUP);
	cr_assert_not_null(strstr(err, "host pinger: runs a command"), "%s",
			   err);
	snprintf(d, sizeof(d), "%s/ex", tmp);
	cr_assert_eq(mkdir(d, 0755), 0);
	cr_assert_eq(sim_run_rep(sc, 1, d, NULL), -ENOTSUP);
	scenario_free(sc);

	/* What the loader refuses never reaches the simulator: a role
	 * outside the role table, and args the agent's own parser rejects
	 * or that need a shell (reckond -n reports them at the args key). */
	cr_assert_eq(fx_load_fail(tmp, "ro",
				  "[scenario]\nname = ro\n[host t]\n"
				  "role = replay\n",
				  err, sizeof(err)),
		     -EINVAL);
	cr_assert_not_null(strstr(err, "[host t] role: unknown role 'replay'"),
			   "%s", err);
	cr_assert_eq(
		fx_load_fail(tmp, "ba",
			     "[scenario]\nname = ba\n[host o]\n"
			     "role = observer\nargs = --map dust --bots 0\n",
			     err, sizeof(err)),
		-EINVAL);
	cr_assert_not_null(strstr(err, "[host o] args: reckon-agent observer: "
				       "bad --bots (1..64) '0'"),
			   "%s", err);
	cr_assert_eq(fx_load_fail(tmp, "sh",
				  "[scenario]\nname = sh\n[host o]\n"
				  "role = observer\nargs = --map $MAP\n",
				  err, sizeof(err)),
		     -EINVAL);
	cr_assert_not_null(strstr(err, "[host o] args: '$' (expansion)"), "%s",
			   err);
	fx_rmdir(tmp);
}

/* delay 0ms 30ms: half the draws are negative, and netem sends such a
 * packet at once (tfifo: its time to send has passed), so no update
 * arrives before it was sent: recv_s >= send_s in every row of the
 * observer's arrivals-obs.csv (--samples). */
Test(sim_rep, no_arrival_before_send)
{
	const char *tmp = fx_tmpdir();
	char base[4096], text[4200], d[PATH_MAX], f[PATH_MAX * 2], *csv, *line,
		*save;
	double send, recv, worst = INFINITY;
	struct scenario *sc;
	unsigned n = 0, lane, ent, seq;

	p2p_text(base, sizeof(base), 5, "delay 0ms 30ms", NULL);
	/* the observer records its arrivals */
	line = strstr(base, "--linger 1 ");
	cr_assert_not_null(line);
	snprintf(text, sizeof(text), "%.*s--samples 5 %s", (int)(line - base),
		 base, line);
	sc = fx_load(tmp, "jit", text);
	snprintf(d, sizeof(d), "%s/jit", tmp);
	run(sc, 1, d, NULL);
	snprintf(f, sizeof(f), "%s/arrivals-obs.csv", d);
	csv = fx_slurp(f, NULL);
	cr_assert_not_null(csv, "no %s", f);
	save = NULL;
	for (line = strtok_r(csv, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%u,%u,%u,%lf,%lf", &lane, &ent, &seq, &send,
			   &recv) != 5)
			continue; /* the header */
		worst = fmin(worst, recv - send);
		n++;
	}
	free(csv);
	cr_assert_gt(n, 100, "too few arrivals (%u) for the check", n);
	cr_assert_geq(worst, 0, "an update arrived %.3f s before it was sent",
		      -worst);
	scenario_free(sc);
	fx_rmdir(tmp);
}
