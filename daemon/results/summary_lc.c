/*
 * summary_lc.c: aggregation of the fps-servers' lag-compensation metrics
 * (lagcomp-HOST.csv, one row per server and repetition; columns in
 * docs/lagcomp.md) for the summary. A group is the server's mode, its
 * parameters (ping averaging, tick rate, interpolation, lowPing) and the
 * condition; within a repetition the counts of the group's servers are
 * pooled and the figures computed from the pooled counts: SBC per 100
 * registered hits on low- and high-ping victims (Lee's Table 7.1 split),
 * hit-registration accuracy (registered among the shooters' screen
 * hits), the mean hit-result delay (a shot's arrival at the server to
 * the result sent to its shooter, which ALC delays by the victim's
 * reply; weighted by registered hits; p50/p95 the mean of the
 * servers'), and the ALC appeal outcomes
 * (denials, incorrect denials, overrules, timeouts) as counts per
 * repetition. A figure whose basis is empty in a repetition (no hit on a
 * high-ping victim) has no value there. Across repetitions each figure
 * is a mean with a 95% Student-t interval (summary_ci95).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "summary_lc.h"
#include "util.h"

/* Columns read from lagcomp-HOST.csv: the key, then counts and delays. */
enum lcol {
	L_MODE,
	L_PING,
	L_TICK,
	L_INTERP,
	L_LOW,
	L_COND,
	L_SHOTS, /* first number */
	L_SCREEN,
	L_REG,
	L_REGSCR,
	L_HLOW,
	L_HHIGH,
	L_SLOW,
	L_SHIGH,
	L_PROV,
	L_DEN,
	L_INC,
	L_OVER,
	L_TMO,
	L_DMEAN,
	L_DP50,
	L_DP95,
	L_N
};

static const char *const lcol_name[L_N] = {
	"mode",		"ping",
	"tick_hz",	"interp_ms",
	"low_ping_ms",	"condition",
	"shots",	"screen_hits",
	"registered",	"registered_screen",
	"hits_low",	"hits_high",
	"sbc_low",	"sbc_high",
	"provisional",	"denials",
	"incorrect",	"overruled",
	"timeouts",	"delay_mean_ms",
	"delay_p50_ms", "delay_p95_ms",
};

/* Figures written, in this order, each with its _ci95. */
enum lfig {
	G_SHOTS,
	G_REG,
	G_ACC,
	G_HLOW,
	G_HHIGH,
	G_SLOW,
	G_SHIGH,
	G_S100LOW,
	G_S100HIGH,
	G_PROV,
	G_DEN,
	G_INC,
	G_OVER,
	G_TMO,
	G_DMEAN,
	G_DP50,
	G_DP95,
	G_N
};

static const char *const gfig_name[G_N] = {
	"lc_shots",
	"lc_registered",
	"lc_reg_accuracy",
	"lc_hits_low",
	"lc_hits_high",
	"lc_sbc_low",
	"lc_sbc_high",
	"lc_sbc100_low",
	"lc_sbc100_high",
	"lc_provisional",
	"lc_denials",
	"lc_incorrect_denials",
	"lc_overruled",
	"lc_timeouts",
	"lc_result_delay_ms",
	"lc_result_delay_p50_ms",
	"lc_result_delay_p95_ms",
};

#define LC_FIELDS 64

struct lc_rep {
	unsigned rep, servers;
	double c[L_N]; /* pooled counts; delays: weighted sums */
};

struct lc_group {
	char predictor[32], params[160], condition[256];
	struct lc_rep *r;
	size_t n_r;
	double mean[G_N], half[G_N];
	unsigned nval[G_N];
};

struct lc_sum {
	struct lc_group *g;
	size_t n_g;
	unsigned long files, malformed;
};

struct lc_sum *lc_sum_new(void)
{
	return calloc(1, sizeof(struct lc_sum));
}

void lc_sum_free(struct lc_sum *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_g; i++)
		free(s->g[i].r);
	free(s->g);
	free(s);
}

unsigned long lc_sum_files(const struct lc_sum *s)
{
	return s->files;
}

unsigned long lc_sum_malformed(const struct lc_sum *s)
{
	return s->malformed;
}

static int nonneg(const char *t, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(t, &end);
	return !*t || errno || *end || !isfinite(*out) || *out < 0 ? -EINVAL
								   : 0;
}

static struct lc_group *group_for(struct lc_sum *s, char **f, const int *ci)
{
	char pred[32], params[160];
	struct lc_group *g;

	if (snprintf(pred, sizeof(pred), "lagcomp-%s", f[ci[L_MODE]]) >=
		    (int)sizeof(pred) ||
	    snprintf(params, sizeof(params),
		     "ping=%s tick_hz=%s interp_ms=%s low_ping_ms=%s",
		     f[ci[L_PING]], f[ci[L_TICK]], f[ci[L_INTERP]],
		     f[ci[L_LOW]]) >= (int)sizeof(params) ||
	    strlen(f[ci[L_COND]]) >= sizeof(g->condition))
		return NULL;
	for (size_t i = 0; i < s->n_g; i++) {
		g = &s->g[i];
		if (!strcmp(g->predictor, pred) && !strcmp(g->params, params) &&
		    !strcmp(g->condition, f[ci[L_COND]]))
			return g;
	}
	g = realloc(s->g, (s->n_g + 1) * sizeof(*g));
	if (!g)
		return NULL;
	s->g = g;
	g = &s->g[s->n_g++];
	memset(g, 0, sizeof(*g));
	strcpy(g->predictor, pred);
	strcpy(g->params, params);
	strcpy(g->condition, f[ci[L_COND]]);
	return g;
}

static struct lc_rep *rep_for(struct lc_group *g, unsigned rep)
{
	struct lc_rep *r;

	for (size_t i = 0; i < g->n_r; i++)
		if (g->r[i].rep == rep)
			return &g->r[i];
	r = realloc(g->r, (g->n_r + 1) * sizeof(*r));
	if (!r)
		return NULL;
	g->r = r;
	r = &g->r[g->n_r++];
	memset(r, 0, sizeof(*r));
	r->rep = rep;
	return r;
}

static void add_row(struct lc_sum *s, char **f, const int *ci, unsigned rep)
{
	double v[L_N];
	struct lc_group *g;
	struct lc_rep *r;

	for (int c = L_SHOTS; c < L_N; c++)
		if (nonneg(f[ci[c]], &v[c])) {
			s->malformed++;
			return;
		}
	if ((g = group_for(s, f, ci)) == NULL ||
	    (r = rep_for(g, rep)) == NULL) {
		s->malformed++;
		return;
	}
	r->servers++;
	for (int c = L_SHOTS; c < L_DMEAN; c++)
		r->c[c] += v[c];
	r->c[L_DMEAN] += v[L_DMEAN] * v[L_REG]; /* weighted by hits */
	r->c[L_DP50] += v[L_DP50];
	r->c[L_DP95] += v[L_DP95];
}

static int header(char *line, char **f, int *ci)
{
	size_t nh = results_split_csv(line, f, LC_FIELDS);

	for (int c = 0; c < L_N; c++) {
		ci[c] = -1;
		for (size_t i = 0; i < nh && i < LC_FIELDS; i++)
			if (!strcmp(f[i], lcol_name[c]))
				ci[c] = (int)i;
		if (ci[c] < 0)
			return -1;
	}
	return (int)nh;
}

static int read_file(struct lc_sum *s, const char *path, unsigned rep)
{
	char line[4096], *f[LC_FIELDS + 1];
	int ci[L_N], nh;
	FILE *fp = fopen(path, "re");

	if (!fp)
		return -errno;
	s->files++;
	if (!fgets(line, sizeof(line), fp) || (nh = header(line, f, ci)) < 0) {
		s->malformed++; /* empty, or not a file we know */
		fclose(fp);
		return 0;
	}
	while (fgets(line, sizeof(line), fp)) {
		if (!strchr(line, '\n') && !feof(fp)) {
			s->malformed++; /* too long: the rest is refused too */
			break;
		}
		if (results_split_csv(line, f, LC_FIELDS) != (size_t)nh)
			s->malformed++;
		else
			add_row(s, f, ci, rep);
	}
	fclose(fp);
	return 0;
}

int lc_sum_read_dir(struct lc_sum *s, const char *dir, unsigned rep)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (strncmp(de->d_name, "lagcomp-", 8) || l < 13 ||
		    strcmp(de->d_name + l - 4, ".csv"))
			continue;
		if (results_path(path, sizeof(path), "%s/%s", dir,
				 de->d_name) == 0)
			err = read_file(s, path, rep);
	}
	closedir(d);
	return err;
}

static double ratio(double a, double b, double scale)
{
	return b > 0 ? scale * a / b : NAN;
}

static void figures(const struct lc_rep *r, double *v)
{
	const double *c = r->c;

	v[G_SHOTS] = c[L_SHOTS];
	v[G_REG] = c[L_REG];
	v[G_ACC] = ratio(c[L_REGSCR], c[L_SCREEN], 1);
	v[G_HLOW] = c[L_HLOW];
	v[G_HHIGH] = c[L_HHIGH];
	v[G_SLOW] = c[L_SLOW];
	v[G_SHIGH] = c[L_SHIGH];
	v[G_S100LOW] = ratio(c[L_SLOW], c[L_HLOW], 100);
	v[G_S100HIGH] = ratio(c[L_SHIGH], c[L_HHIGH], 100);
	v[G_PROV] = c[L_PROV];
	v[G_DEN] = c[L_DEN];
	v[G_INC] = c[L_INC];
	v[G_OVER] = c[L_OVER];
	v[G_TMO] = c[L_TMO];
	v[G_DMEAN] = ratio(c[L_DMEAN], c[L_REG], 1);
	v[G_DP50] = c[L_REG] > 0 ? c[L_DP50] / r->servers : NAN;
	v[G_DP95] = c[L_REG] > 0 ? c[L_DP95] / r->servers : NAN;
}

static int finish_group(struct lc_group *g)
{
	double *x = malloc((g->n_r ? g->n_r : 1) * sizeof(*x));

	if (!x)
		return -ENOMEM;
	for (int k = 0; k < G_N; k++) {
		size_t m = 0;

		for (size_t i = 0; i < g->n_r; i++) {
			double v[G_N];

			figures(&g->r[i], v);
			if (isfinite(v[k]))
				x[m++] = v[k];
		}
		g->nval[k] = (unsigned)m;
		if (summary_ci95(x, m, &g->mean[k], &g->half[k]))
			g->mean[k] = g->half[k] = NAN;
	}
	free(x);
	return 0;
}

int lc_sum_finish(struct lc_sum *s)
{
	int err = 0;

	for (size_t i = 0; !err && i < s->n_g; i++)
		err = finish_group(&s->g[i]);
	return err;
}

void lc_sum_csv_header(FILE *f)
{
	for (int k = 0; k < G_N; k++)
		fprintf(f, ",%s,%s_ci95", gfig_name[k], gfig_name[k]);
}

void lc_sum_csv_blank(FILE *f)
{
	for (int k = 0; k < G_N; k++)
		fputs(",,", f);
}

void lc_sum_csv_rows(const struct lc_sum *s, FILE *f, unsigned npred)
{
	for (size_t i = 0; i < s->n_g; i++) {
		const struct lc_group *g = &s->g[i];

		fprintf(f, "%s,%s,%s,%zu", g->predictor, g->params,
			g->condition, g->n_r);
		for (unsigned k = 0; k < npred; k++)
			fputs(",,", f);
		for (int k = 0; k < G_N; k++) {
			results_csv_num(f, g->mean[k]);
			results_csv_num(f, g->half[k]);
		}
		fputc('\n', f);
	}
}

void lc_sum_json_rows(const struct lc_sum *s, FILE *f, int first)
{
	for (size_t i = 0; i < s->n_g; i++) {
		const struct lc_group *g = &s->g[i];

		fprintf(f, "%s\n    {\"predictor\": ", first && !i ? "" : ",");
		json_fputs_str(f, g->predictor);
		fputs(", \"params\": ", f);
		json_fputs_str(f, g->params);
		fputs(", \"condition\": ", f);
		json_fputs_str(f, g->condition);
		fprintf(f, ", \"repetitions\": %zu", g->n_r);
		for (int k = 0; k < G_N; k++) {
			fprintf(f, ",\n     \"%s\": {\"mean\": ", gfig_name[k]);
			results_json_num(f, g->mean[k]);
			fputs(", \"ci95\": ", f);
			results_json_num(f, g->half[k]);
			fprintf(f, ", \"n\": %u}", g->nval[k]);
		}
		fputs("}", f);
	}
}

static void cell(FILE *f, const struct lc_group *g, int k, int prec)
{
	char buf[64];

	if (!isfinite(g->mean[k]))
		snprintf(buf, sizeof(buf), "-");
	else if (isfinite(g->half[k]))
		snprintf(buf, sizeof(buf), "%.*f±%.*f", prec, g->mean[k], prec,
			 g->half[k]);
	else
		snprintf(buf, sizeof(buf), "%.*f", prec, g->mean[k]);
	fprintf(f, " %14s", buf);
}

void lc_sum_table(const struct lc_sum *s, FILE *f)
{
	if (s->n_g == 0)
		return;
	fprintf(f, "\n%-12s %-24s %4s %14s %14s %14s %14s %14s %14s\n",
		"lag comp.", "condition", "reps", "SBC/100 low", "SBC/100 high",
		"hit accuracy", "result ms", "denials", "timeouts");
	for (size_t i = 0; i < s->n_g; i++) {
		const struct lc_group *g = &s->g[i];

		fprintf(f, "%-12s %-24.24s %4zu", g->predictor + 8,
			g->condition, g->n_r);
		cell(f, g, G_S100LOW, 2);
		cell(f, g, G_S100HIGH, 2);
		cell(f, g, G_ACC, 3);
		cell(f, g, G_DMEAN, 1);
		cell(f, g, G_DEN, 1);
		cell(f, g, G_TMO, 1);
		fputc('\n', f);
	}
	fprintf(f, "(lag compensation per server mode: SBC per 100 "
		   "registered hits on low-/high-ping victims, registered "
		   "among screen hits, shot-to-result delay; ALC counts per "
		   "repetition; mean ± 95%% CI half-width)\n");
}
