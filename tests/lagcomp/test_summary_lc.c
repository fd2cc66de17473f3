/*
 * test_summary_lc.c: the lag-compensation part of the results summary
 * (daemon/results/summary_lc.c) on hand-written lagcomp-HOST.csv files
 * with known answers: two servers of one mode pooled within a
 * repetition, SBC per 100 hits from the pooled counts, a figure without
 * a basis left out of its repetition's sample, the Student-t interval
 * over three repetitions, a row per mode, malformed rows counted, and
 * the predictor columns kept alone when no server wrote metrics.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"

#define HDR                                                                    \
	"host,rep,seed,condition,mode,ping,tick_hz,interp_ms,low_ping_ms,"     \
	"shots,screen_hits,server_hits,registered,registered_screen,"          \
	"reg_accuracy,hits_low,hits_high,sbc_low,sbc_high,sbc_unknown,"        \
	"sbc100_low,sbc100_high,provisional,confirmed,denials,upheld,"         \
	"overruled,incorrect,timeouts,pending,delay_mean_ms,delay_p50_ms,"     \
	"delay_p95_ms,rewind_mean,duration_s\n"

/* One server row: counts that matter here, the rest zero. */
static void put(const char *dir, const char *host, const char *mode, int screen,
		int regscr, int reg, int hlow, int hhigh, int slow, int shigh,
		double dmean, const char *extra)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/lagcomp-%s.csv", dir, host);
	f = fopen(path, "w");
	cr_assert(f);
	fputs(HDR, f);
	fprintf(f,
		"%s,1,1,c0,%s,ue4,60,0.000,50.000,100,%d,%d,%d,%d,0.5,%d,%d,"
		"%d,%d,0,0,0,0,0,0,0,0,0,0,0,%.3f,0,0,1,30\n",
		host, mode, screen, reg, reg, regscr, hlow, hhigh, slow, shigh,
		dmean);
	if (extra)
		fputs(extra, f);
	fclose(f);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *b = calloc(1, 1 << 16);

	cr_assert(f && b);
	fread(b, 1, (1 << 16) - 1, f);
	fclose(f);
	return b;
}

/* The value of column name in the row that starts with key. */
static double cell(const char *csv, const char *key, const char *name)
{
	char *copy = strdup(csv), *save = NULL, *line, *hdr;
	int want = -1;
	double v = NAN;

	hdr = strtok_r(copy, "\n", &save);
	for (int i = 0; hdr && i < 200; i++) {
		size_t l = strcspn(hdr, ",");

		if (l == strlen(name) && !strncmp(hdr, name, l))
			want = i;
		if (!hdr[l])
			break;
		hdr += l + 1;
	}
	cr_assert_geq(want, 0, "no column %s", name);
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (strncmp(line, key, strlen(key)))
			continue;
		for (int i = 0; i < want; i++)
			line += strcspn(line, ",") +
				(line[strcspn(line, ",")] != 0);
		v = *line && *line != ',' ? strtod(line, NULL) : NAN;
	}
	free(copy);
	return v;
}

Test(summary_lc, pools_servers_and_gives_cis)
{
	char dir[] = "/tmp/reckon-sumlc-XXXXXX", sub[600], path[700];

	cr_assert(mkdtemp(dir));
	for (int r = 1; r <= 3; r++) {
		snprintf(sub, sizeof(sub), "%s/rep-%d", dir, r);
		cr_assert_eq(mkdir(sub, 0755), 0);
		/* two TLC servers: 100 hits each on low-ping victims, r and
		 * 3r of them SBC -> pooled 4r per 200 = 2r per 100 hits */
		put(sub, "s1", "tlc", 50, 40, 150, 100, 50, r, 0, 0, NULL);
		put(sub, "s2", "tlc", 50, 45, 150, 100, 50, 3 * r, 5, 0,
		    "s2,1,1,c0,tlc,ue4,60,0,50,broken\n");
		/* ALC: no high-ping hit in repetition 2 */
		put(sub, "s3", "alc", 100, 80, 100, 60, r == 2 ? 0 : 40, 0,
		    r == 2 ? 0 : 2, 4.0 * r, NULL);
	}
	cr_assert_eq(summary_write(dir, 3, NULL), 0);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	char *csv = slurp(path);
	double t2 = summary_t975(2);

	/* 2r per 100 for r = 1, 2, 3: mean 4, sd 2, half t(2) * 2 / sqrt 3 */
	cr_assert_float_eq(cell(csv, "lagcomp-tlc,", "lc_sbc100_low"), 4, 1e-9);
	cr_assert_float_eq(cell(csv, "lagcomp-tlc,", "lc_sbc100_low_ci95"),
			   t2 * 2 / sqrt(3), 1e-5);
	/* 5 of 100 high-ping hits in every repetition: CI 0 */
	cr_assert_float_eq(cell(csv, "lagcomp-tlc,", "lc_sbc100_high"), 5,
			   1e-9);
	cr_assert_float_eq(cell(csv, "lagcomp-tlc,", "lc_sbc100_high_ci95"), 0,
			   1e-12);
	/* accuracy from pooled counts: (40 + 45) / (50 + 50) */
	cr_assert_float_eq(cell(csv, "lagcomp-tlc,", "lc_reg_accuracy"), 0.85,
			   1e-9);
	/* ALC high: 5 per 100 in reps 1 and 3, none in 2: n = 2, CI 0 */
	cr_assert_float_eq(cell(csv, "lagcomp-alc,", "lc_sbc100_high"), 5,
			   1e-9);
	/* delay mean 4r ms: mean 8, half t(2) * 4 / sqrt 3 */
	cr_assert_float_eq(cell(csv, "lagcomp-alc,", "lc_result_delay_ms"), 8,
			   1e-9);
	cr_assert_float_eq(cell(csv, "lagcomp-alc,", "lc_result_delay_ms_ci95"),
			   t2 * 4 / sqrt(3), 1e-5);
	cr_assert(isnan(cell(csv, "lagcomp-alc,", "err_mean")));
	free(csv);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	csv = slurp(path);
	cr_assert(strstr(csv, "\"malformed_rows\": 3"), "%s", csv);
	cr_assert(strstr(csv, "\"lc_sbc100_high\": {\"mean\": 5, \"ci95\": 0, "
			      "\"n\": 2}"));
	free(csv);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	cr_assert_eq(system(path), 0);
}
