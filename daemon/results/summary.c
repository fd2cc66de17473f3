/*
 * summary.c: aggregation of the agents' metrics into summary.csv,
 * summary.json and the end-of-run table (see results.h). Per repetition
 * and group (predictor, parameters, condition) it pools the player rows
 * (updates and bytes sent per entity and second) and the observer rows
 * (error mean weighted by frames, p50/p95 as the mean of every observer
 * x entity percentile, max as the max, time over threshold, delivery =
 * updates received / (updates sent x observer hosts)). Across
 * repetitions each figure is a mean with a 95% Student-t confidence
 * interval (ci95.c).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "summary_lc.h"
#include "util.h"

#define SUMMARY_MAX_OBS 64 /* a scenario holds at most 64 hosts */

/* ---- reading metrics ---- */

enum fig {
	F_UPS,
	F_BPS,
	F_DELIVERY,
	F_ERR_MEAN,
	F_ERR_P50,
	F_ERR_P95,
	F_ERR_MAX,
	F_OVER,
	F_N
};

static const char *const fig_name[F_N] = {
	"updates_per_s", "bytes_per_s", "delivery", "err_mean",
	"err_p50",	 "err_p95",	"err_max",  "over_frac",
};

/* One repetition's sums for one group. */
struct rep_acc {
	unsigned rep;
	double sent, bytes, datagrams, received, duration, players;
	/* bytes: octets of the updates sent, each update counted once, like
	 * sent (not once per destination, which is datagrams) */
	double frames, err_wsum, p50_sum, p95_sum, err_max, over_s, obs_rows,
		obs_duration;
	double rows_frames; /* observer rows with at least one frame */
	char obs_host[SUMMARY_MAX_OBS][64]; /* distinct observer hosts */
	size_t n_obs;
};

struct group {
	char predictor[64], params[512], condition[256];
	struct rep_acc *r;
	size_t n_r;
};

struct agg {
	struct group *g;
	size_t n_g;
	unsigned long malformed, files;
};

enum col {
	C_ROLE,
	C_COND,
	C_PRED,
	C_PARAMS,
	C_HOST,
	C_SENT,
	C_DGRAMS,
	C_BYTES,
	C_RECV,
	C_FRAMES,
	C_ERR_MEAN,
	C_P50,
	C_P95,
	C_MAX,
	C_OVER,
	C_DUR,
	C_UBYTES,
	C_N
};

static const char *const col_name[C_N] = {
	"role",	      "condition",    "predictor",  "params",	"host",
	"sent",	      "datagrams",    "bytes_sent", "received", "frames",
	"err_mean",   "err_p50",      "err_p95",    "err_max",	"over_s",
	"duration_s", "update_bytes",
};

#define MAX_FIELDS 64

static size_t split(char *line, char **f)
{
	return results_split_csv(line, f, MAX_FIELDS);
}

static int num(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

static struct rep_acc *acc_for(struct agg *a, char **f, const int *ci,
			       unsigned rep)
{
	struct group *g = NULL;

	if (strlen(f[ci[C_PRED]]) >= sizeof(g->predictor) ||
	    strlen(f[ci[C_PARAMS]]) >= sizeof(g->params) ||
	    strlen(f[ci[C_COND]]) >= sizeof(g->condition) || !*f[ci[C_PRED]])
		return NULL;
	for (size_t i = 0; i < a->n_g && !g; i++)
		if (!strcmp(a->g[i].predictor, f[ci[C_PRED]]) &&
		    !strcmp(a->g[i].params, f[ci[C_PARAMS]]) &&
		    !strcmp(a->g[i].condition, f[ci[C_COND]]))
			g = &a->g[i];
	if (!g) {
		struct group *ng = realloc(a->g, (a->n_g + 1) * sizeof(*ng));

		if (!ng)
			return NULL;
		a->g = ng;
		g = &a->g[a->n_g++];
		memset(g, 0, sizeof(*g));
		strcpy(g->predictor, f[ci[C_PRED]]);
		strcpy(g->params, f[ci[C_PARAMS]]);
		strcpy(g->condition, f[ci[C_COND]]);
	}
	for (size_t i = 0; i < g->n_r; i++)
		if (g->r[i].rep == rep)
			return &g->r[i];
	struct rep_acc *nr = realloc(g->r, (g->n_r + 1) * sizeof(*nr));

	if (!nr)
		return NULL;
	g->r = nr;
	memset(&g->r[g->n_r], 0, sizeof(*nr));
	g->r[g->n_r].rep = rep;
	return &g->r[g->n_r++];
}

/* Remember an observer host: delivery counts each update once per
 * observer. */
static void note_observer(struct rep_acc *r, const char *host)
{
	for (size_t i = 0; i < r->n_obs; i++)
		if (!strcmp(r->obs_host[i], host))
			return;
	if (r->n_obs < SUMMARY_MAX_OBS && strlen(host) < sizeof(r->obs_host[0]))
		strcpy(r->obs_host[r->n_obs++], host);
}

static void add_row(struct agg *a, char **f, const int *ci, unsigned rep)
{
	double v[C_N];
	struct rep_acc *r;
	int player = !strcmp(f[ci[C_ROLE]], "player");

	if (!player && strcmp(f[ci[C_ROLE]], "observer"))
		return; /* the relay's rows are not aggregated */
	for (int c = C_SENT; c < C_N; c++)
		if (num(f[ci[c]], &v[c])) {
			a->malformed++;
			return;
		}
	r = acc_for(a, f, ci, rep);
	if (!r) {
		a->malformed++;
		return;
	}
	if (player) {
		r->sent += v[C_SENT];
		r->datagrams += v[C_DGRAMS];
		r->bytes += v[C_UBYTES];
		r->players += 1;
		if (v[C_DUR] > r->duration)
			r->duration = v[C_DUR];
		return;
	}
	r->received += v[C_RECV];
	note_observer(r, f[ci[C_HOST]]);
	r->obs_rows += 1;
	r->obs_duration += v[C_DUR];
	r->over_s += v[C_OVER];
	if (v[C_FRAMES] > 0) {
		r->frames += v[C_FRAMES];
		r->err_wsum += v[C_ERR_MEAN] * v[C_FRAMES];
		r->p50_sum += v[C_P50];
		r->p95_sum += v[C_P95];
		r->rows_frames += 1;
		if (v[C_MAX] > r->err_max)
			r->err_max = v[C_MAX];
	}
}

static int read_file(struct agg *a, const char *path, unsigned rep)
{
	char line[4096], *f[MAX_FIELDS + 1];
	int ci[C_N];
	size_t n, nh;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return -errno;
	a->files++;
	if (!fgets(line, sizeof(line), fp)) {
		fclose(fp);
		a->malformed++;
		return 0;
	}
	nh = split(line, f);
	for (int c = 0; c < C_N; c++) {
		ci[c] = -1;
		for (size_t i = 0; i < nh && i <= MAX_FIELDS; i++)
			if (!strcmp(f[i], col_name[c]))
				ci[c] = (int)i;
		if (ci[c] < 0) {
			fclose(fp);
			a->malformed++; /* not a metrics file we know */
			return 0;
		}
	}
	while (fgets(line, sizeof(line), fp)) {
		if (!strchr(line, '\n') && !feof(fp)) {
			int ch;

			while ((ch = fgetc(fp)) != EOF && ch != '\n')
				;
			a->malformed++;
			continue;
		}
		n = split(line, f);
		if (n != nh) {
			a->malformed++;
			continue;
		}
		add_row(a, f, ci, rep);
	}
	fclose(fp);
	return 0;
}

static int read_dir(struct agg *a, const char *dir, unsigned rep)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (strncmp(de->d_name, "metrics-", 8) || l < 13 ||
		    strcmp(de->d_name + l - 4, ".csv"))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(path))
			continue;
		err = read_file(a, path, rep);
	}
	closedir(d);
	return err;
}

/* ---- per-repetition figures and output ---- */

static void figures(const struct rep_acc *r, double *v)
{
	double ents = r->players > 0 ? r->players : 1;
	double dur = r->duration > 0 ? r->duration : NAN;

	v[F_UPS] = r->sent / dur / ents;
	v[F_BPS] = r->bytes / dur / ents;
	/* each update should reach every observer, whatever the topology */
	v[F_DELIVERY] = r->sent > 0 && r->n_obs > 0
				? r->received / (r->sent * (double)r->n_obs)
				: NAN;
	v[F_ERR_MEAN] = r->frames > 0 ? r->err_wsum / r->frames : NAN;
	v[F_ERR_P50] = r->rows_frames > 0 ? r->p50_sum / r->rows_frames : NAN;
	v[F_ERR_P95] = r->rows_frames > 0 ? r->p95_sum / r->rows_frames : NAN;
	v[F_ERR_MAX] = r->frames > 0 ? r->err_max : NAN;
	v[F_OVER] = r->obs_duration > 0 ? r->over_s / r->obs_duration : NAN;
}

struct row_out {
	const struct group *g;
	size_t n; /* repetitions with a value */
	double mean[F_N], half[F_N];
	unsigned nval[F_N];
};

static int summarize(const struct group *g, struct row_out *out)
{
	double *x = malloc((g->n_r ? g->n_r : 1) * F_N * sizeof(*x));

	if (!x)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	out->g = g;
	out->n = g->n_r;
	for (size_t i = 0; i < g->n_r; i++) {
		double v[F_N];

		figures(&g->r[i], v);
		for (int k = 0; k < F_N; k++)
			x[k * g->n_r + i] = v[k];
	}
	for (int k = 0; k < F_N; k++) {
		double *col = x + k * g->n_r;
		size_t m = 0;

		for (size_t i = 0; i < g->n_r; i++)
			if (isfinite(col[i]))
				col[m++] = col[i];
		out->nval[k] = (unsigned)m;
		if (summary_ci95(col, m, &out->mean[k], &out->half[k])) {
			out->mean[k] = NAN;
			out->half[k] = NAN;
		}
	}
	free(x);
	return 0;
}

/* dir/name through a temporary file (results_open_tmp). */
static FILE *open_tmp(const char *dir, const char *name, char *path,
		      size_t plen, char *tmp, size_t tlen)
{
	if (results_path(path, plen, "%s/%s", dir, name) < 0)
		return NULL;
	return results_open_tmp(path, tmp, tlen);
}

static int write_csv(const char *dir, const struct row_out *rows, size_t n,
		     const struct lc_sum *lc)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f = open_tmp(dir, "summary.csv", path, sizeof(path), tmp,
			   sizeof(tmp));

	if (!f)
		return -EIO;
	fputs("predictor,params,condition,repetitions", f);
	for (int k = 0; k < F_N; k++)
		fprintf(f, ",%s,%s_ci95", fig_name[k], fig_name[k]);
	if (lc_sum_files(lc))
		lc_sum_csv_header(f);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s,%s,%s,%zu", rows[i].g->predictor,
			rows[i].g->params, rows[i].g->condition, rows[i].n);
		for (int k = 0; k < F_N; k++) {
			results_csv_num(f, rows[i].mean[k]);
			results_csv_num(f, rows[i].half[k]);
		}
		if (lc_sum_files(lc))
			lc_sum_csv_blank(f);
		fputc('\n', f);
	}
	lc_sum_csv_rows(lc, f, F_N);
	return results_commit(f, tmp, path);
}

static int write_json(const char *dir, const struct row_out *rows, size_t n,
		      const struct agg *a, const struct lc_sum *lc,
		      unsigned repetitions, const struct run_info *ri)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f = open_tmp(dir, "summary.json", path, sizeof(path), tmp,
			   sizeof(tmp));

	if (!f)
		return -EIO;
	fputs("{\n", f);
	if (ri)
		run_info_json_fields(f, ri);
	fprintf(f,
		"  \"repetitions\": %u,\n  \"metrics_files\": %lu,\n"
		"  \"malformed_rows\": %lu,\n  \"confidence\": 0.95,\n"
		"  \"rows\": [",
		repetitions, a->files + lc_sum_files(lc),
		a->malformed + lc_sum_malformed(lc));
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n    {\"predictor\": ", i ? "," : "");
		json_fputs_str(f, rows[i].g->predictor);
		fputs(", \"params\": ", f);
		json_fputs_str(f, rows[i].g->params);
		fputs(", \"condition\": ", f);
		json_fputs_str(f, rows[i].g->condition);
		fprintf(f, ", \"repetitions\": %zu", rows[i].n);
		for (int k = 0; k < F_N; k++) {
			fprintf(f, ",\n     \"%s\": {\"mean\": ", fig_name[k]);
			results_json_num(f, rows[i].mean[k]);
			fputs(", \"ci95\": ", f);
			results_json_num(f, rows[i].half[k]);
			fprintf(f, ", \"n\": %u}", rows[i].nval[k]);
		}
		fputs("}", f);
	}
	lc_sum_json_rows(lc, f, n == 0);
	fputs("\n  ]\n}\n", f);
	return results_commit(f, tmp, path);
}

static void cell(FILE *f, double m, double h, int prec)
{
	char buf[64];

	if (!isfinite(m))
		snprintf(buf, sizeof(buf), "-");
	else if (isfinite(h))
		snprintf(buf, sizeof(buf), "%.*f±%.*f", prec, m, prec, h);
	else
		snprintf(buf, sizeof(buf), "%.*f", prec, m);
	fprintf(f, " %16s", buf);
}

/* Rows i and j share a predictor but not its parameters. */
static int same_pred(const struct row_out *a, const struct row_out *b)
{
	return !strcmp(a->g->predictor, b->g->predictor) &&
	       strcmp(a->g->params, b->g->params);
}

/* Label of row i: the parameters (k=v) of its predictor that not every
 * other row of the same predictor has, so that two rows of one predictor
 * can be told apart; "" when no other row has other parameters. */
static void params_label(const struct row_out *rows, size_t n, size_t i,
			 char *buf, size_t len)
{
	const char *p = rows[i].g->params;
	size_t used = 0;

	buf[0] = '\0';
	while (*p) {
		size_t l = strcspn(p, " ");
		int differs = 0;

		for (size_t j = 0; j < n && !differs; j++)
			differs = j != i && same_pred(&rows[i], &rows[j]) &&
				  !results_has_token(rows[j].g->params, p, l);
		if (differs && used + l + 2 < len) {
			if (used)
				buf[used++] = ' ';
			memcpy(buf + used, p, l);
			used += l;
			buf[used] = '\0';
		}
		p += l;
		p += strspn(p, " ");
	}
}

static void write_table(FILE *f, const struct row_out *rows, size_t n)
{
	int labels = 0;
	char label[128];

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			labels |= same_pred(&rows[i], &rows[j]);
	fprintf(f, "%-10s ", "predictor");
	if (labels)
		fprintf(f, "%-28s ", "params (differing)");
	fprintf(f, "%-24s %4s %16s %16s %16s %16s %16s\n", "condition", "reps",
		"upd/s/entity", "bytes/s/entity", "err_mean", "err_p95",
		"err_max");
	for (size_t i = 0; i < n; i++) {
		const struct row_out *r = &rows[i];

		fprintf(f, "%-10s ", r->g->predictor);
		if (labels) {
			params_label(rows, n, i, label, sizeof(label));
			fprintf(f, "%-28.28s ", label[0] ? label : "-");
		}
		fprintf(f, "%-24.24s %4zu", r->g->condition, r->n);
		cell(f, r->mean[F_UPS], r->half[F_UPS], 2);
		cell(f, r->mean[F_BPS], r->half[F_BPS], 0);
		cell(f, r->mean[F_ERR_MEAN], r->half[F_ERR_MEAN], 2);
		cell(f, r->mean[F_ERR_P95], r->half[F_ERR_P95], 2);
		cell(f, r->mean[F_ERR_MAX], r->half[F_ERR_MAX], 2);
		fputc('\n', f);
	}
	fprintf(f, "(mean ± 95%% CI half-width over repetitions, Student t; "
		   "updates and bytes per entity count each update once, "
		   "whatever the number of destinations; errors in game "
		   "units)\n");
}

static void agg_free(struct agg *a)
{
	for (size_t i = 0; i < a->n_g; i++)
		free(a->g[i].r);
	free(a->g);
}

int summary_write(const char *run_dir, unsigned repetitions, FILE *table_out)
{
	return summary_write_info(run_dir, repetitions, NULL, table_out);
}

int summary_write_info(const char *run_dir, unsigned repetitions,
		       const struct run_info *ri, FILE *table_out)
{
	struct agg a = {0};
	struct row_out *rows = NULL;
	struct lc_sum *lc = lc_sum_new();
	char dir[PATH_MAX];
	int err = lc ? 0 : -ENOMEM;

	if (!run_dir) {
		lc_sum_free(lc);
		return -EINVAL;
	}
	for (unsigned r = 1; !err && r <= (repetitions > 1 ? repetitions : 1);
	     r++) {
		if (repetitions <= 1)
			snprintf(dir, sizeof(dir), "%s", run_dir);
		else if (snprintf(dir, sizeof(dir), "%s/rep-%u", run_dir, r) >=
			 (int)sizeof(dir))
			err = -ENAMETOOLONG;
		if (!err)
			err = read_dir(&a, dir, r);
		if (!err)
			err = lc_sum_read_dir(lc, dir, r);
	}
	if (!err && a.files == 0 && lc_sum_files(lc) == 0)
		err = -ENOENT;
	if (!err)
		err = lc_sum_finish(lc);
	if (!err) {
		rows = calloc(a.n_g ? a.n_g : 1, sizeof(*rows));
		if (!rows)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < a.n_g; i++)
		err = summarize(&a.g[i], &rows[i]);
	if (!err)
		err = write_csv(run_dir, rows, a.n_g, lc);
	if (!err)
		err = write_json(run_dir, rows, a.n_g, &a, lc, repetitions, ri);
	if (!err && table_out) {
		if (ri)
			run_info_print(table_out, ri, 1);
		if (a.n_g || !lc_sum_files(lc))
			write_table(table_out, rows, a.n_g);
		lc_sum_table(lc, table_out);
		if (ri)
			run_info_print(table_out, ri, 0);
	}
	free(rows);
	agg_free(&a);
	lc_sum_free(lc);
	return err;
}
