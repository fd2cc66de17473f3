/*
 * test_summary.c: daemon/results/summary.c. The Student t quantiles against
 * published table values, the confidence interval of a known sample,
 * the interval's coverage on seeded normal samples (a property of the
 * math, checked with a binomial tolerance), and summary_write on
 * hand-made metrics files of three repetitions: grouping, per-entity
 * rates, frame-weighted error, malformed rows skipped and counted;
 * bytes/s counting each update once like updates/s (not once per
 * destination), and the table telling apart two rows of one predictor
 * by the parameters that differ.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "results.h"

Test(summary, t_quantiles)
{
	/* two-sided 95% t values as printed in standard tables (4 places) */
	static const struct {
		unsigned df;
		double t;
	} tab[] = {
		{1, 12.7062}, {2, 4.3027},  {3, 3.1824},  {4, 2.7764},
		{9, 2.2622},  {19, 2.0930}, {29, 2.0452}, {120, 1.9799},
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		cr_assert_float_eq(summary_t975(tab[i].df), tab[i].t, 6e-5,
				   "df %u: %f", tab[i].df,
				   summary_t975(tab[i].df));
	/* large df tends to the normal quantile 1.959964 */
	cr_assert_float_eq(summary_t975(1000000), 1.959964, 1e-5);
	cr_assert(isnan(summary_t975(0)));
}

Test(summary, ci_of_known_sample)
{
	double x[] = {1, 2, 3, 4, 5}, m, h;

	cr_assert_eq(summary_ci95(x, 5, &m, &h), 0);
	cr_assert_float_eq(m, 3, 1e-12);
	/* s = sqrt(2.5), half = t(4) * s / sqrt(5) */
	cr_assert_float_eq(h, summary_t975(4) * sqrt(2.5) / sqrt(5), 1e-12);
	cr_assert_float_eq(h, 1.9632, 1e-4);
	cr_assert_eq(summary_ci95(x, 1, &m, &h), 0);
	cr_assert(isnan(h));
	cr_assert_eq(summary_ci95(x, 0, &m, &h), -EINVAL);
}

static uint64_t rng = 2026;

static double uni(void)
{
	uint64_t z = splitmix64(&rng);

	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * For normal data the interval covers the true mean with probability
 * 0.95 exactly. With N = 4000 intervals of n = 4 samples (seeded), the
 * coverage count is binomial: sd = sqrt(N p (1 - p)) = 13.8 intervals,
 * so it must lie within 5 sd of 0.95 N = 3800.
 */
Test(summary, ci_coverage)
{
	const int N = 4000, n = 4;
	const double p = 0.95;
	int covered = 0;

	for (int k = 0; k < N; k++) {
		double x[4], m, h;

		for (int i = 0; i < n; i++) /* Box-Muller, mean 10, sd 3 */
			x[i] = 10 + 3 * sqrt(-2 * log(uni())) *
					    cos(2 * M_PI * uni());
		cr_assert_eq(summary_ci95(x, n, &m, &h), 0);
		covered += fabs(m - 10) <= h;
	}
	double sd = sqrt(N * p * (1 - p));

	cr_assert(fabs(covered - N * p) <= 5 * sd, "covered %d of %d", covered,
		  N);
}

#define HEADER                                                                 \
	"host,role,rep,seed,condition,topology,lane,predictor,params,entity,"  \
	"sent,sent_init,datagrams,bytes_sent,received,bytes_received,applied," \
	"stale,rejected,unmatched,frames,frames_blind,err_mean,err_p50,"       \
	"err_p95,err_max,over_s,update_bytes,send_errors,duration_s\n"

static void write_file(const char *dir, const char *name, const char *body)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert(f);
	fputs(body, f);
	fclose(f);
}

/* Repetition r: dis sends 10 r updates per entity over 10 s (2
 * entities, 2000 r bytes each); the observer's two rows have error mean
 * r (100 and 300 frames), p50 1 and 3, p95 2 and 4, max r and 5, and
 * r and 3 r seconds over the threshold; two rows are malformed. */
static void write_rep(const char *dir, unsigned r)
{
	char body[4096];

	snprintf(body, sizeof(body),
		 HEADER
		 "p,player,%u,1,c1,p2p,0,dis,a=1,0,%u,1,%u,%u,0,0,0,0,0,0,0,0,"
		 "0,0,0,0,0,%u,0,10\n"
		 "p,player,%u,1,c1,p2p,0,dis,a=1,1,%u,1,%u,%u,0,0,0,0,0,0,0,0,"
		 "0,0,0,0,0,%u,0,10\n",
		 r, 10 * r, 10 * r, 2000 * r, 2000 * r, r, 10 * r, 10 * r,
		 2000 * r, 2000 * r);
	write_file(dir, "metrics-p.csv", body);
	snprintf(body, sizeof(body),
		 HEADER
		 "o,observer,%u,1,c1,p2p,0,dis,a=1,0,0,0,0,0,%u,0,0,0,0,0,100,"
		 "0,%u,1,2,%u,%u,0,0,10\n"
		 "o,observer,%u,1,c1,p2p,0,dis,a=1,1,0,0,0,0,%u,0,0,0,0,0,300,"
		 "0,%u,3,4,5,%u,0,0,10\n"
		 "o,observer,%u,1,c1,p2p,0,dis,a=1,1,not,a,number\n"
		 "o,observer,%u,1,c1,p2p,0,dis,a=1,1,0,0,0,0,x,0,0,0,0,0,1,"
		 "0,1,1,1,1,1,0,0,10\n",
		 r, 10 * r, r, r, r, r, 10 * r, r, 3 * r, r, r);
	write_file(dir, "metrics-o.csv", body);
	write_file(dir, "metrics-relay.csv",
		   HEADER "s,relay,1,1,c1,p2p,0,dis,a=1,0,0,0,99,99,99,0,0,0,0,"
			  "0,0,0,0,0,0,0,0,0,0,0\n");
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[16384];
	size_t n;

	cr_assert(f, "%s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void rm_rf(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(summary, aggregates_three_repetitions)
{
	char dir[] = "/tmp/reckon-summary-XXXXXX", sub[600], path[600];
	FILE *table = tmpfile();

	cr_assert(mkdtemp(dir));
	for (unsigned r = 1; r <= 3; r++) {
		snprintf(sub, sizeof(sub), "%s/rep-%u", dir, r);
		cr_assert_eq(mkdir(sub, 0755), 0);
		write_rep(sub, r);
	}
	cr_assert_eq(summary_write(dir, 3, table), 0);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	char *csv = slurp(path);
	char *line2 = strchr(csv, '\n');

	cr_assert(line2);
	/*
	 * updates/s per entity: 10 r / 10 s = r -> reps 1, 2, 3: mean 2,
	 * half = t(2) * 1 / sqrt(3) = 2.48414. bytes/s = 200 r -> 400 and
	 * 496.828. delivery = received / datagrams = 20 r / 20 r = 1, CI 0.
	 * err_mean = (100 r + 300 r) / 400 = r; p50 = mean(1, 3) = 2 with
	 * CI 0; p95 = 3; max = max(r, 5) = 5; over = 4 r / 20 s = 0.2 r.
	 */
	double half = summary_t975(2) / sqrt(3);
	char want[1024];

	snprintf(want, sizeof(want),
		 "dis,a=1,c1,3,%.6g,%.6g,%.6g,%.6g,1,0,%.6g,%.6g,2,0,3,0,5,0,"
		 "%.6g,%.6g\n",
		 2.0, half, 400.0, 200 * half, 2.0, half, 0.4, 0.2 * half);
	cr_assert_str_eq(line2 + 1, want);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	char *json = slurp(path);

	/* two malformed rows in each of three repetitions */
	cr_assert(strstr(json, "\"malformed_rows\": 6"), "%s", json);
	cr_assert(strstr(json, "\"repetitions\": 3"));
	cr_assert(strstr(json, "\"predictor\": \"dis\""));
	rewind(table);
	char tline[512];

	cr_assert(fgets(tline, sizeof(tline), table));
	cr_assert(strstr(tline, "predictor"));
	cr_assert(fgets(tline, sizeof(tline), table));
	cr_assert(strstr(tline, "dis") && strstr(tline, "c1"), "%s", tline);
	fclose(table);
	rm_rf(dir);
}

Test(summary, single_repetition_and_missing)
{
	char dir[] = "/tmp/reckon-summary-XXXXXX", path[600];

	cr_assert(mkdtemp(dir));
	cr_assert_eq(summary_write(dir, 1, NULL), -ENOENT);
	write_rep(dir, 2);
	cr_assert_eq(summary_write(dir, 1, NULL), 0);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	char *csv = strchr(slurp(path), '\n') + 1;

	/* one repetition: values without a confidence interval */
	cr_assert_eq(strncmp(csv, "dis,a=1,c1,1,2,,400,,1,,2,,", 27), 0, "%s",
		     csv);
	rm_rf(dir);
}

/* Client-server with two observers: each update should arrive twice, so
 * delivery = received / (sent x observer hosts) = (9 + 8) / (10 x 2). */
Test(summary, delivery_counts_every_observer)
{
	char dir[] = "/tmp/reckon-summary-XXXXXX", path[600];

	cr_assert(mkdtemp(dir));
	write_file(dir, "metrics-p.csv",
		   HEADER "p,player,1,1,cs,client-server,0,dis,a=1,0,10,1,10,"
			  "1600,0,0,0,0,0,0,0,0,0,0,0,0,0,1600,0,5\n");
	write_file(dir, "metrics-o1.csv",
		   HEADER "o1,observer,1,1,cs,client-server,0,dis,a=1,0,0,0,0,"
			  "0,9,0,9,0,0,0,10,0,1,1,1,1,0,0,0,5\n");
	write_file(dir, "metrics-o2.csv",
		   HEADER "o2,observer,1,1,cs,client-server,0,dis,a=1,0,0,0,0,"
			  "0,8,0,8,0,0,0,10,0,1,1,1,1,0,0,0,5\n");
	cr_assert_eq(summary_write(dir, 1, NULL), 0);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	char *csv = strchr(slurp(path), '\n') + 1;

	/* updates/s per entity 10 / 5 s = 2, bytes/s 320, delivery 0.85 */
	cr_assert_eq(strncmp(csv, "dis,a=1,cs,1,2,,320,,0.85,,", 27), 0, "%s",
		     csv);
	rm_rf(dir);
}

/*
 * p2p to two observers: every update goes out twice. updates/s counts
 * each update once (10 / 5 s = 2), and so must bytes/s: update_bytes
 * 1600 / 5 s = 320, not bytes_sent (both copies) 3200 / 5 s = 640.
 */
Test(summary, bytes_count_each_update_once)
{
	char dir[] = "/tmp/reckon-summary-XXXXXX", path[600];

	cr_assert(mkdtemp(dir));
	write_file(dir, "metrics-p.csv",
		   HEADER "p,player,1,1,c,p2p,0,dis,a=1,0,10,1,20,3200,0,0,"
			  "0,0,0,0,0,0,0,0,0,0,0,1600,0,5\n");
	write_file(dir, "metrics-o1.csv",
		   HEADER "o1,observer,1,1,c,p2p,0,dis,a=1,0,0,0,0,0,10,0,10,"
			  "0,0,0,10,0,1,1,1,1,0,0,0,5\n");
	write_file(dir, "metrics-o2.csv",
		   HEADER "o2,observer,1,1,c,p2p,0,dis,a=1,0,0,0,0,0,10,0,10,"
			  "0,0,0,10,0,1,1,1,1,0,0,0,5\n");
	cr_assert_eq(summary_write(dir, 1, NULL), 0);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	char *csv = strchr(slurp(path), '\n') + 1;

	cr_assert_eq(strncmp(csv, "dis,a=1,c,1,2,,320,,1,,", 23), 0, "%s", csv);
	rm_rf(dir);
}

/* Read the table of dir into buf. */
static void table_of(const char *dir, char *buf, size_t len)
{
	FILE *t = tmpfile();
	size_t n;

	cr_assert(t);
	cr_assert_eq(summary_write(dir, 1, t), 0);
	rewind(t);
	n = fread(buf, 1, len - 1, t);
	buf[n] = '\0';
	fclose(t);
}

/*
 * Two rows of one predictor (dis with two thresholds) are told apart by
 * the parameters that differ; parameters they share are left out. With
 * one row per predictor the table has no parameters column.
 */
Test(summary, table_labels_rows_that_share_a_predictor)
{
	char dir[] = "/tmp/reckon-summary-XXXXXX", buf[4096];

	cr_assert(mkdtemp(dir));
	write_file(dir, "metrics-p.csv",
		   HEADER "p,player,1,1,c,p2p,0,dis,thr=10 hb=5,0,10,1,10,1600,"
			  "0,0,0,0,0,0,0,0,0,0,0,0,0,1600,0,5\n"
			  "p,player,1,1,c,p2p,1,dis,thr=20 hb=5,0,5,1,5,800,"
			  "0,0,0,0,0,0,0,0,0,0,0,0,0,800,0,5\n"
			  "p,player,1,1,c,p2p,2,led,eta=5 hb=5,0,5,1,5,800,"
			  "0,0,0,0,0,0,0,0,0,0,0,0,0,800,0,5\n");
	table_of(dir, buf, sizeof(buf));
	cr_assert(strstr(buf, "params"), "%s", buf);
	char *a = strstr(buf, "\ndis "),
	     *b = a ? strstr(a + 1, "\ndis ") : NULL;
	char *l = strstr(buf, "\nled ");

	cr_assert(a && b && l, "%s", buf);
	cr_assert(strstr(a, "thr=10") && strstr(a, "thr=10") < b, "%s", buf);
	cr_assert(strstr(b, "thr=20") && strstr(b, "thr=20") < l, "%s", buf);
	/* hb=5 is the same in both dis rows; led has one row */
	cr_assert_null(strstr(buf, "hb=5"), "%s", buf);
	cr_assert_null(strstr(buf, "eta=5"), "%s", buf);
	rm_rf(dir);

	char dir2[] = "/tmp/reckon-summary-XXXXXX";

	cr_assert(mkdtemp(dir2));
	write_file(dir2, "metrics-p.csv",
		   HEADER "p,player,1,1,c,p2p,0,dis,thr=10,0,10,1,10,1600,"
			  "0,0,0,0,0,0,0,0,0,0,0,0,0,1600,0,5\n"
			  "p,player,1,1,c,p2p,1,led,eta=5,0,5,1,5,800,"
			  "0,0,0,0,0,0,0,0,0,0,0,0,0,800,0,5\n");
	table_of(dir2, buf, sizeof(buf));
	cr_assert_null(strstr(buf, "params"), "%s", buf);
	cr_assert_null(strstr(buf, "thr=10"), "%s", buf);
	rm_rf(dir2);
}
