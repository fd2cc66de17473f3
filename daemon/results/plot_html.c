/*
 * plot_html.c: index.html of a run or sweep directory. It opens with what
 * the run was (scenario, date, seed, mode, repetitions, links) and how it
 * went (complete or partial and why, the emulation's timer accuracy),
 * then a narrow summary table: one row per predictor and condition (and
 * sweep point), with updates/s and bytes/s per entity beside the mean and
 * p95 error, each as mean ± 95% CI half-width; the raw CSV and JSON are
 * linked under it. The figures plot.c drew follow in a grid that puts an
 * axis's error, updates/s and bytes/s figures side by side, each SVG
 * linked to its PNG. Every cell and text is escaped.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"

#define MAX_COLS 128

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\n':
		case '\r':
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* The metrics of the narrow table: column, heading, unit. */
static const struct {
	const char *col, *head;
} metric[] = {
	{"updates_per_s", "updates/s per entity"},
	{"bytes_per_s", "bytes/s per entity"},
	{"err_mean", "error mean (u)"},
	{"err_p95", "error p95 (u)"},
};
#define NMETRIC (sizeof(metric) / sizeof(metric[0]))

/* A CSV file (summary.csv or sweep.csv) read whole. */
struct csv {
	char *hdr, *h[MAX_COLS + 1];
	size_t nh;
	char **line;
	char ***cell;
	size_t n;
};

static void csv_free(struct csv *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->line[i]);
		free(c->cell[i]);
	}
	free(c->line);
	free(c->cell);
	free(c->hdr);
}

static int csv_load(const char *path, struct csv *c)
{
	char *buf = NULL;
	size_t cap = 0;
	FILE *in = fopen(path, "re");

	memset(c, 0, sizeof(*c));
	if (in == NULL)
		return -errno;
	while (getline(&buf, &cap, in) > 0) {
		char **l, ***k;

		if (c->hdr == NULL) {
			c->hdr = strdup(buf);
			if (c->hdr == NULL)
				break;
			c->nh = results_split_csv(c->hdr, c->h, MAX_COLS);
			continue;
		}
		l = realloc(c->line, (c->n + 1) * sizeof(*l));
		if (l)
			c->line = l;
		k = realloc(c->cell, (c->n + 1) * sizeof(*k));
		if (k)
			c->cell = k;
		if (!l || !k)
			break;
		c->line[c->n] = strdup(buf);
		c->cell[c->n] = calloc(MAX_COLS + 1, sizeof(char *));
		if (!c->line[c->n] || !c->cell[c->n] ||
		    results_split_csv(c->line[c->n], c->cell[c->n], MAX_COLS) !=
			    c->nh) {
			free(c->line[c->n]);
			free(c->cell[c->n]);
			continue; /* malformed: not shown */
		}
		c->n++;
	}
	free(buf);
	fclose(in);
	return c->hdr != NULL && c->nh <= MAX_COLS ? 0 : -EINVAL;
}

static int col(const struct csv *c, const char *name)
{
	for (size_t i = 0; i < c->nh; i++)
		if (!strcmp(c->h[i], name))
			return (int)i;
	return -1;
}

/* "mean ± half", both with the decimals that give the mean three
 * significant digits (none from 100 up, at most 4); "-" when empty. */
static void mean_ci(FILE *f, const char *m, const char *h)
{
	char *end;
	double mv = strtod(m, &end), hv;
	int dec;

	if (!*m || *end || !isfinite(mv)) {
		fputs("<td>-</td>", f);
		return;
	}
	dec = mv == 0 ? 2 : 2 - (int)floor(log10(fabs(mv)));
	dec = dec < 0 ? 0 : dec > 4 ? 4 : dec;
	fprintf(f, "<td>%.*f", dec, mv);
	hv = h ? strtod(h, &end) : NAN;
	if (h && *h && !*end && isfinite(hv))
		fprintf(f, "<span class=ci> ± %.*f</span>", dec, hv);
	fputs("</td>", f);
}

/* The parameters (k=v) of row i that some other row of its predictor
 * lacks: what tells the rows of one predictor apart ("" when none). */
static void params_label(const struct csv *c, int cp, int cq, size_t i,
			 char *buf, size_t len)
{
	const char *p = c->cell[i][cq];
	size_t used = 0;

	buf[0] = '\0';
	while (*p) {
		size_t l = strcspn(p, " ");
		int differs = 0;

		for (size_t j = 0; j < c->n && !differs; j++)
			differs = j != i &&
				  !strcmp(c->cell[j][cp], c->cell[i][cp]) &&
				  !results_has_token(c->cell[j][cq], p, l);
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

/* Where the narrow table's columns are in the CSV. */
struct cols {
	int pred, params, cond, reps;
	int mean[NMETRIC], ci[NMETRIC]; /* -1: not in the file */
};

static int find_cols(const struct csv *c, struct cols *k)
{
	k->pred = col(c, "predictor");
	k->params = col(c, "params");
	k->cond = col(c, "condition");
	k->reps = col(c, "repetitions");
	for (size_t m = 0; m < NMETRIC; m++) {
		char ci[64];

		snprintf(ci, sizeof(ci), "%s_ci95", metric[m].col);
		k->mean[m] = col(c, metric[m].col);
		k->ci[m] = col(c, ci);
	}
	return k->pred < 0 || k->params < 0 || k->cond < 0 || k->reps < 0
		       ? -EINVAL
		       : 0;
}

static void table_head(FILE *f, const struct csv *c, const struct cols *k)
{
	fputs("<tr>", f);
	for (int i = 0; i < k->pred; i++) {
		fputs("<th class=key>", f);
		esc(f, c->h[i]);
		fputs("</th>", f);
	}
	fputs("<th class=key>predictor</th><th class=key>condition</th>"
	      "<th>reps</th>",
	      f);
	for (size_t m = 0; m < NMETRIC; m++)
		if (k->mean[m] >= 0)
			fprintf(f, "<th>%s</th>", metric[m].head);
	fputs("</tr>\n", f);
}

/* Row i: the sweep point (linked) and axes, the predictor with the
 * parameters that tell its rows apart (a sweep's predictor axes already
 * do), condition, repetitions, the metrics. */
static void table_row(FILE *f, const struct csv *c, const struct cols *k,
		      size_t i, int link_points)
{
	char **r = c->cell[i], label[512];

	fputs("<tr>", f);
	for (int j = 0; j < k->pred; j++) {
		fputs("<td class=key>", f);
		if (j == 0 && link_points)
			fprintf(f, "<a href=\"points/p%06llu/index.html\">",
				strtoull(r[j], NULL, 10));
		esc(f, r[j]);
		fputs(j == 0 && link_points ? "</a></td>" : "</td>", f);
	}
	fputs("<td class=key>", f);
	esc(f, r[k->pred]);
	params_label(c, k->pred, k->params, i, label, sizeof(label));
	if (label[0] && k->pred == 0) {
		fputs("<div class=params>", f);
		esc(f, label);
		fputs("</div>", f);
	}
	fputs("</td><td class=key>", f);
	esc(f, r[k->cond]);
	fputs("</td><td>", f);
	esc(f, r[k->reps]);
	fputs("</td>", f);
	for (size_t m = 0; m < NMETRIC; m++)
		if (k->mean[m] >= 0)
			mean_ci(f, r[k->mean[m]],
				k->ci[m] >= 0 ? r[k->ci[m]] : NULL);
	fputs("</tr>\n", f);
}

/* The narrow table of c (k found in it), or why there is none. */
static void narrow_table(FILE *f, const struct csv *c, const struct cols *k,
			 int ok, const char *csv, int link_points)
{
	if (!ok) {
		fputs("<p>(no summary: ", f);
		esc(f, csv);
		fputs(" is missing, unreadable or no summary)</p>\n", f);
		return;
	}
	fputs("<table id=summary>\n", f);
	table_head(f, c, k);
	for (size_t i = 0; i < c->n; i++)
		table_row(f, c, k, i, link_points);
	fputs("</table>\n", f);
}

/* The distinct conditions of the summary, in order, comma-separated. */
static void conditions(const struct csv *c, const struct cols *k, char *buf,
		       size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n; i++) {
		const char *v = c->cell[i][k->cond];
		size_t j = 0;

		while (j < i && strcmp(c->cell[j][k->cond], v))
			j++;
		if (j < i || used + strlen(v) + 3 >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", v);
	}
}

static void fact(FILE *f, const char *name, const char *value)
{
	fprintf(f, "<dt>%s</dt><dd>", name);
	esc(f, value);
	fputs("</dd>\n", f);
}

/* What the run was and how it went; conds: its conditions. */
static void facts(FILE *f, const struct run_info *ri, const char *conds)
{
	char buf[600];

	if (ri->partial[0]) {
		fputs("<p class=partial><b>Partial run:</b> ", f);
		esc(f, ri->partial);
		fputs(". The numbers cover only what ran.</p>\n", f);
	}
	if (ri->degraded) {
		run_info_accuracy(ri, buf, sizeof(buf));
		fputs("<p class=partial><b>Emulation accuracy degraded:</b> ",
		      f);
		esc(f, buf);
		fputs(".</p>\n", f);
	}
	fputs("<dl class=facts>\n", f);
	fact(f, "scenario", ri->scenario);
	if (ri->path[0])
		fact(f, "file", ri->path);
	if (ri->date[0])
		fact(f, "date", ri->date);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)ri->seed);
	fact(f, "seed", buf);
	snprintf(buf, sizeof(buf), "%s, %u repetition(s) of %.1f s", ri->mode,
		 ri->repetitions, ri->duration_s);
	fact(f, "run", buf);
	if (conds[0])
		fact(f, "conditions", conds);
	fact(f, "links", ri->links[0] ? ri->links : "(none)");
	if (strcmp(ri->mode, "sweep") != 0) {
		snprintf(buf, sizeof(buf), "%s%s%s", run_info_status(ri),
			 ri->partial[0] ? ": " : "", ri->partial);
		fact(f, "status", buf);
		run_info_accuracy(ri, buf, sizeof(buf));
		fact(f, "timers", buf);
	}
	fputs("</dl>\n", f);
}

static void head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
	      "<meta name=viewport content=\"width=device-width\">\n<title>",
	      f);
	esc(f, title);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:1em;max-width:1180px}\n"
	      "table{border-collapse:collapse;font-size:small;"
	      "margin-bottom:0.5em}\n"
	      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
	      "td.key,th.key{text-align:left}\n"
	      "#summary td{white-space:nowrap}\n"
	      "#summary td.key{white-space:normal}\n"
	      "dl.facts{display:grid;grid-template-columns:max-content auto;"
	      "gap:2px 1em;font-size:small}\n"
	      "dl.facts dt{font-weight:bold}dl.facts dd{margin:0;"
	      "overflow-wrap:anywhere}\n"
	      ".params{font-size:smaller;color:#555;max-width:18em;"
	      "overflow-wrap:anywhere}\n"
	      ".ci{color:#666}\n"
	      ".partial{background:#fde2e1;border:1px solid #c33;"
	      "padding:0.4em}\n"
	      ".figs{display:grid;grid-template-columns:"
	      "repeat(auto-fill,minmax(360px,1fr));gap:0.5em}\n"
	      "figure{margin:0}figure img{width:100%;height:auto}\n"
	      "figcaption{font-size:small}\n"
	      "</style>\n</head><body>\n",
	      f);
}

int plot_html(const char *dir, const struct plot_page *pg)
{
	char path[PATH_MAX], tmp[PATH_MAX], src[PATH_MAX], title[400];
	char conds[400] = "";
	struct csv c = {0};
	struct cols k;
	int ok;
	FILE *f;

	if (results_path(path, sizeof(path), "%s/index.html", dir) < 0 ||
	    results_path(tmp, sizeof(tmp), "%s/index.html.tmp", dir) < 0)
		return -ENAMETOOLONG;
	if ((f = fopen(tmp, "we")) == NULL)
		return -errno;
	ok = results_path(src, sizeof(src), "%s/%s", dir, pg->csv) == 0 &&
	     csv_load(src, &c) == 0 && find_cols(&c, &k) == 0;
	if (ok)
		conditions(&c, &k, conds, sizeof(conds));
	if (pg->ri)
		snprintf(title, sizeof(title), "%s: %s%s%s%s", pg->title,
			 pg->ri->scenario, pg->ri->date[0] ? ", " : "",
			 pg->ri->date, pg->ri->partial[0] ? " (partial)" : "");
	else
		snprintf(title, sizeof(title), "%s", pg->title);
	head(f, title);
	fputs("<h1>", f);
	esc(f, title);
	fputs("</h1>\n", f);
	if (pg->ri)
		facts(f, pg->ri, conds);
	fputs("<h2>Summary</h2>\n<p>Mean over repetitions ± the half-width "
	      "of its 95% Student-t confidence interval. Updates and bytes "
	      "are per entity and second, each update counted once; errors "
	      "in game units.</p>\n",
	      f);
	narrow_table(f, &c, &k, ok, pg->csv, pg->link_points);
	csv_free(&c);
	fputs("<p>Every column: <a href=\"", f);
	esc(f, pg->csv);
	fputs("\">", f);
	esc(f, pg->csv);
	fputs("</a>", f);
	if (pg->json) {
		fputs(", <a href=\"", f);
		esc(f, pg->json);
		fputs("\">", f);
		esc(f, pg->json);
		fputs("</a>", f);
	}
	fputs(".</p>\n<h2>Figures</h2>\n", f);
	if (pg->n == 0)
		fputs("<p>No figures (gnuplot missing or nothing to plot; "
		      "see the log).</p>\n",
		      f);
	else
		fputs("<div class=figs>\n", f);
	for (unsigned i = 0; i < pg->n; i++) {
		fputs("<figure><a href=\"plots/", f);
		esc(f, pg->figs[i]);
		fputs(".png\"><img src=\"plots/", f);
		esc(f, pg->figs[i]);
		fputs(".svg\" alt=\"", f);
		esc(f, pg->figs[i]);
		fputs("\"></a><figcaption>", f);
		esc(f, pg->captions[i]);
		fputs("</figcaption></figure>\n", f);
	}
	if (pg->n)
		fputs("</div>\n", f);
	fputs("</body></html>\n", f);
	if (ferror(f) | fclose(f) || rename(tmp, path) < 0) {
		unlink(tmp);
		return -EIO;
	}
	return 0;
}
