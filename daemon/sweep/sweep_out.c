/*
 * sweep_out.c: the files of a sweep directory (layout in sweep_int.h and
 * docs/sweeps.md). The head files say what the grid is; each point's
 * rows.csv is its summary.csv with the point and axis values in front;
 * sweep.csv and sweep.json are those rows concatenated in point order.
 * Everything is text copied or formatted deterministically (no clock, no
 * host, no floating-point reformatting: the summary's numbers are copied
 * as written), which is what makes a merge of shards equal to the
 * unsharded sweep byte for byte.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "scenario.h"
#include "sweep_int.h"
#include "util.h"

int sweep_shard_parse(const char *s, unsigned *i, unsigned *n)
{
	char *end;
	unsigned long a, b;

	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	a = strtoul(s, &end, 10);
	if (errno || *end != '/' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	b = strtoul(end + 1, &end, 10);
	if (errno || *end || b == 0 || b > 1000000 || a >= b)
		return -EINVAL;
	*i = (unsigned)a;
	*n = (unsigned)b;
	return 0;
}

int sweep_in_shard(uint64_t point, unsigned i, unsigned n)
{
	return n > 0 && point % n == i;
}

int sweep_point_dir(const char *dir, uint64_t point, char *buf, size_t len)
{
	return results_path(buf, len, "%s/points/p%06" PRIu64, dir, point);
}

int sweep_write_head(const char *dir, const struct scenario *sc, unsigned i,
		     unsigned n)
{
	const struct sc_sweep *sw = sc->sweep;
	char path[PATH_MAX], tmp[PATH_MAX];
	unsigned idx[SC_SWEEP_MAX_AXES];
	uint64_t np = scenario_sweep_points(sw);
	FILE *f;
	int rc;

	if ((rc = results_scenario(dir, sc)) < 0)
		return rc;
	if ((rc = results_path(path, sizeof(path), "%s/grid.csv", dir)) < 0)
		return rc;
	if ((f = results_open_tmp(path, tmp, sizeof(tmp))) == NULL)
		return -errno;
	fputs("point", f);
	for (unsigned a = 0; a < sw->naxes; a++)
		fprintf(f, ",%s", sw->axes[a].key);
	fputc('\n', f);
	for (uint64_t p = 0; p < np; p++) {
		scenario_sweep_coords(sw, p, idx);
		fprintf(f, "%" PRIu64, p);
		for (unsigned a = 0; a < sw->naxes; a++)
			fprintf(f, ",%s", sw->axes[a].values[idx[a]]);
		fputc('\n', f);
	}
	if ((rc = results_commit(f, tmp, path)) < 0)
		return rc;
	if ((rc = results_path(path, sizeof(path), "%s/shard.txt", dir)) < 0)
		return rc;
	if ((f = results_open_tmp(path, tmp, sizeof(tmp))) == NULL)
		return -errno;
	fprintf(f, "shard %u/%u\npoints %" PRIu64 "\n", i, n, np);
	return results_commit(f, tmp, path);
}

int sweep_point_rows(const char *point_dir, const char *run_dir,
		     const struct scenario *sc, uint64_t point)
{
	const struct sc_sweep *sw = sc->sweep;
	char path[PATH_MAX], tmp[PATH_MAX], *line = NULL;
	unsigned idx[SC_SWEEP_MAX_AXES];
	size_t cap = 0;
	ssize_t len;
	FILE *in, *out;
	int rc, first = 1;

	if ((rc = scenario_sweep_coords(sw, point, idx)) < 0)
		return rc;
	if ((rc = results_path(path, sizeof(path), "%s/summary.csv", run_dir)) <
	    0)
		return rc;
	if ((in = fopen(path, "r")) == NULL)
		return -errno;
	if ((rc = results_path(path, sizeof(path), "%s/rows.csv", point_dir)) <
		    0 ||
	    (out = results_open_tmp(path, tmp, sizeof(tmp))) == NULL) {
		fclose(in);
		return rc < 0 ? rc : -errno;
	}
	while ((len = getline(&line, &cap, in)) > 0) {
		if (line[len - 1] != '\n') {
			rc = -EIO; /* a summary always ends its lines */
			break;
		}
		if (first) {
			fputs("point", out);
			for (unsigned a = 0; a < sw->naxes; a++)
				fprintf(out, ",%s", sw->axes[a].key);
		} else {
			fprintf(out, "%" PRIu64, point);
			for (unsigned a = 0; a < sw->naxes; a++)
				fprintf(out, ",%s", sw->axes[a].values[idx[a]]);
		}
		fprintf(out, ",%s", line);
		first = 0;
	}
	free(line);
	fclose(in);
	if (first && rc == 0)
		rc = -EIO; /* no header: not a summary */
	if (rc < 0) {
		fclose(out);
		unlink(tmp);
		return rc;
	}
	return results_commit(out, tmp, path);
}

/* ---- assembling sweep.csv and sweep.json ---- */

#define MAX_COLS 128

/* A number as the summary wrote it, or null for an empty cell. */
static void json_numtext(FILE *f, const char *s)
{
	fputs(*s ? s : "null", f);
}

struct grid {
	char *hdr; /* grid.csv header, split into col */
	char *col[MAX_COLS + 1];
	size_t ncol; /* point + axes */
	char **line; /* each point's line, split later */
	uint64_t n;
};

static void grid_free(struct grid *g)
{
	for (uint64_t i = 0; i < g->n; i++)
		free(g->line[i]);
	free(g->line);
	free(g->hdr);
}

static int grid_read(const char *dir, struct grid *g)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int rc = 0;

	memset(g, 0, sizeof(*g));
	if ((rc = results_path(path, sizeof(path), "%s/grid.csv", dir)) < 0)
		return rc;
	if ((f = fopen(path, "r")) == NULL)
		return -errno;
	while ((len = getline(&line, &cap, f)) > 0 && rc == 0) {
		if (g->hdr == NULL) {
			g->hdr = strdup(line);
			if (g->hdr == NULL) {
				rc = -ENOMEM;
				break;
			}
			g->ncol = results_split_csv(g->hdr, g->col, MAX_COLS);
			if (g->ncol > MAX_COLS || strcmp(g->col[0], "point"))
				rc = -EINVAL;
			continue;
		}
		char **nl = realloc(g->line, (g->n + 1) * sizeof(*nl));
		char *c, *end;

		if (nl == NULL) {
			rc = -ENOMEM;
			break;
		}
		g->line = nl;
		if ((c = strdup(line)) == NULL) {
			rc = -ENOMEM;
			break;
		}
		g->line[g->n++] = c;
		errno = 0;
		if (strtoull(c, &end, 10) != g->n - 1 || *end != ',')
			rc = -EINVAL; /* points must be 0, 1, 2, ... */
	}
	free(line);
	fclose(f);
	if (rc == 0 && (g->hdr == NULL || g->n == 0))
		rc = -EINVAL;
	if (rc < 0)
		grid_free(g);
	return rc;
}

int sweep_grid_points(const char *dir, uint64_t *npoints)
{
	struct grid g;
	int rc = grid_read(dir, &g);

	if (rc < 0)
		return rc;
	*npoints = g.n;
	grid_free(&g);
	return 0;
}

/* "axes": every axis with its distinct values in grid order. */
static int json_axes(FILE *f, const struct grid *g)
{
	char *cells[MAX_COLS + 1];

	fputs("  \"axes\": [", f);
	for (size_t a = 1; a < g->ncol; a++) {
		char **seen = calloc(g->n, sizeof(*seen));
		size_t ns = 0;

		if (seen == NULL)
			return -ENOMEM;
		fprintf(f, "%s\n    {\"key\": ", a > 1 ? "," : "");
		json_fputs_str(f, g->col[a]);
		fputs(", \"values\": [", f);
		for (uint64_t p = 0; p < g->n; p++) {
			char *copy = strdup(g->line[p]);
			size_t k = 0;

			if (copy == NULL) {
				free(seen);
				return -ENOMEM;
			}
			if (results_split_csv(copy, cells, MAX_COLS) ==
			    g->ncol) {
				for (k = 0; k < ns; k++)
					if (!strcmp(seen[k], cells[a]))
						break;
				if (k == ns) {
					fputs(ns ? ", " : "", f);
					json_fputs_str(f, cells[a]);
					seen[ns++] = strdup(cells[a]);
				}
			}
			free(copy);
		}
		fputs("]}", f);
		for (size_t k = 0; k < ns; k++)
			free(seen[k]);
		free(seen);
	}
	fputs("\n  ],\n", f);
	return 0;
}

/* One rows.csv line as a JSON object. */
static void json_row(FILE *f, char **hdr, char **v, size_t n, size_t naxes,
		     int first)
{
	fprintf(f,
		"%s\n    {\"point\": %s, \"dir\": \"points/p%06llu\", "
		"\"axes\": {",
		first ? "" : ",", v[0], strtoull(v[0], NULL, 10));
	for (size_t a = 1; a <= naxes; a++) {
		fputs(a > 1 ? ", " : "", f);
		json_fputs_str(f, hdr[a]);
		fputs(": ", f);
		json_fputs_str(f, v[a]);
	}
	fputs("}", f);
	for (size_t c = naxes + 1; c < n; c++) {
		size_t l = strlen(hdr[c]);

		if (l > 5 && !strcmp(hdr[c] + l - 5, "_ci95"))
			continue; /* printed with its mean */
		fputs(", ", f);
		json_fputs_str(f, hdr[c]);
		fputs(": ", f);
		if (!strcmp(hdr[c], "predictor") || !strcmp(hdr[c], "params") ||
		    !strcmp(hdr[c], "condition")) {
			json_fputs_str(f, v[c]);
		} else if (c + 1 < n && !strncmp(hdr[c + 1], hdr[c], l) &&
			   !strcmp(hdr[c + 1] + l, "_ci95")) {
			fputs("{\"mean\": ", f);
			json_numtext(f, v[c]);
			fputs(", \"ci95\": ", f);
			json_numtext(f, v[c + 1]);
			fputs("}", f);
		} else {
			json_numtext(f, v[c]);
		}
	}
	fputs("}", f);
}

int sweep_assemble(const char *dir, uint64_t npoints, uint64_t *missing)
{
	char path[PATH_MAX], cpath[PATH_MAX], ctmp[PATH_MAX], jpath[PATH_MAX],
		jtmp[PATH_MAX], pdir[PATH_MAX];
	char *line = NULL, *hdr = NULL, *hcol[MAX_COLS + 1], *v[MAX_COLS + 1];
	size_t cap = 0, nh = 0;
	struct grid g;
	FILE *csv = NULL, *js = NULL;
	int rc, first = 1;

	if ((rc = grid_read(dir, &g)) < 0)
		return rc;
	if (g.n != npoints) {
		grid_free(&g);
		return -EINVAL;
	}
	if ((rc = results_path(cpath, sizeof(cpath), "%s/sweep.csv", dir)) <
		    0 ||
	    (rc = results_path(jpath, sizeof(jpath), "%s/sweep.json", dir)) < 0)
		goto out;
	csv = results_open_tmp(cpath, ctmp, sizeof(ctmp));
	js = results_open_tmp(jpath, jtmp, sizeof(jtmp));
	if (csv == NULL || js == NULL) {
		rc = -EIO;
		goto out;
	}
	fprintf(js, "{\n  \"points\": %" PRIu64 ",\n", npoints);
	if ((rc = json_axes(js, &g)) < 0)
		goto out;
	fputs("  \"confidence\": 0.95,\n  \"rows\": [", js);
	for (uint64_t p = 0; p < npoints && rc == 0; p++) {
		FILE *in;
		ssize_t len;
		int lno = 0;

		if ((rc = sweep_point_dir(dir, p, pdir, sizeof(pdir))) < 0 ||
		    (rc = results_path(path, sizeof(path), "%s/rows.csv",
				       pdir)) < 0)
			break;
		if ((in = fopen(path, "r")) == NULL) {
			rc = errno == ENOENT ? -ENOENT : -errno;
			if (missing)
				*missing = p;
			break;
		}
		while (rc == 0 && (len = getline(&line, &cap, in)) > 0) {
			if (lno++ == 0) {
				/* every point has the same header */
				if (hdr == NULL) {
					if ((hdr = strdup(line)) == NULL) {
						rc = -ENOMEM;
						break;
					}
					fputs(line, csv);
					nh = results_split_csv(hdr, hcol,
							       MAX_COLS);
					if (nh > MAX_COLS || nh < g.ncol)
						rc = -EINVAL;
				} else {
					char *h2 = strdup(line);
					char *c2[MAX_COLS + 1];

					if (h2 == NULL ||
					    results_split_csv(h2, c2,
							      MAX_COLS) != nh)
						rc = -EINVAL;
					else
						for (size_t c = 0; c < nh; c++)
							if (strcmp(c2[c],
								   hcol[c]))
								rc = -EINVAL;
					free(h2);
				}
				continue;
			}
			fputs(line, csv);
			if (results_split_csv(line, v, MAX_COLS) != nh) {
				rc = -EINVAL;
				break;
			}
			json_row(js, hcol, v, nh, g.ncol - 1, first);
			first = 0;
		}
		fclose(in);
		if (rc < 0 && missing)
			*missing = p;
	}
	fputs("\n  ]\n}\n", js);
out:
	free(line);
	free(hdr);
	grid_free(&g);
	if (rc == 0) {
		rc = results_commit(csv, ctmp, cpath);
		csv = NULL;
		if (rc == 0)
			rc = results_commit(js, jtmp, jpath);
		js = NULL;
	}
	if (csv) {
		fclose(csv);
		unlink(ctmp);
	}
	if (js) {
		fclose(js);
		unlink(jtmp);
	}
	return rc;
}

/* ---- the table at the end of a sweep ---- */

/* "m±h" with prec decimals; "m" without an interval, "-" without a
 * number (the summary's style). */
static void table_cell(char *buf, size_t len, const char *m, const char *h,
		       int prec)
{
	char *e1, *e2;
	double x = strtod(m, &e1), y = h ? strtod(h, &e2) : 0;

	if (!*m || *e1)
		snprintf(buf, len, "-");
	else if (h && *h && !*e2)
		snprintf(buf, len, "%.*f±%.*f", prec, x, prec, y);
	else
		snprintf(buf, len, "%.*f", prec, x);
}

/* A column title: link.delay -> delay, predictor.dis.k -> dis.k. */
static const char *short_key(const char *t)
{
	if (!strncmp(t, "link.", 5))
		return t + 5;
	if (!strncmp(t, "predictor.", 10))
		return t + 10;
	return t;
}

/* Display width of s: "±" is two bytes and one column. */
static int cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void put_cell(FILE *f, const char *s, int width, int left)
{
	int pad = width - cols(s);

	if (!left)
		for (; pad > 0; pad--)
			fputc(' ', f);
	fputs(s, f);
	if (left)
		for (; pad > 0; pad--)
			fputc(' ', f);
}

int sweep_table(FILE *f, const char *dir, size_t max_rows)
{
	static const struct {
		const char *col, *title;
		int prec;
	} fig[] = {
		{"updates_per_s", "upd/s/entity", 2},
		{"delivery", "delivery", 3},
		{"err_mean", "err_mean", 2},
		{"err_p95", "err_p95", 2},
	};
	enum { NF = sizeof(fig) / sizeof(fig[0]) };
	char path[PATH_MAX], *hdr = NULL, *line = NULL, *h[MAX_COLS + 1],
			     *v[MAX_COLS + 1], buf[96];
	size_t cap = 0, nh, naxes = 0, rows = 0, more = 0;
	int ci[NF], cc[NF], cp, w[MAX_COLS + NF + 2] = {0}, rc = 0;
	FILE *in;

	if ((rc = results_path(path, sizeof(path), "%s/sweep.csv", dir)) < 0)
		return rc;
	if ((in = fopen(path, "r")) == NULL)
		return -errno;
	if (getline(&line, &cap, in) <= 0 || (hdr = strdup(line)) == NULL) {
		rc = -EINVAL;
		goto out;
	}
	hdr[strcspn(hdr, "\n")] = '\0';
	nh = results_split_csv(hdr, h, MAX_COLS);
	while (naxes + 1 < nh && strcmp(h[naxes + 1], "predictor"))
		naxes++;
	cp = (int)naxes + 1;
	if (nh > MAX_COLS || cp >= (int)nh) {
		rc = -EINVAL;
		goto out;
	}
	for (int k = 0; k < NF; k++) {
		char name[64];

		ci[k] = cc[k] = -1;
		snprintf(name, sizeof(name), "%s_ci95", fig[k].col);
		for (size_t c = 0; c < nh; c++) {
			if (!strcmp(h[c], fig[k].col))
				ci[k] = (int)c;
			if (!strcmp(h[c], name))
				cc[k] = (int)c;
		}
	}
	/* two passes: the widths, then the rows */
	for (int pass = 0; pass < 2 && rc == 0; pass++) {
		if (pass == 1) {
			for (size_t c = 0; c <= naxes + 1; c++) {
				const char *t = c == 0 ? "point" : h[c];

				t = short_key(t);
				fputs(c ? "  " : "", f);
				put_cell(f, t, w[c], c > 0);
			}
			for (int k = 0; k < NF; k++) {
				fputs("  ", f);
				put_cell(f, fig[k].title, w[naxes + 2 + k], 0);
			}
			fputc('\n', f);
		} else {
			for (size_t c = 0; c <= naxes + 1; c++) {
				const char *t = c == 0 ? "point" : h[c];

				t = short_key(t);
				w[c] = cols(t);
			}
			for (int k = 0; k < NF; k++)
				w[naxes + 2 + k] = cols(fig[k].title);
		}
		rewind(in);
		if (getline(&line, &cap, in) <= 0)
			break;
		rows = more = 0;
		while (getline(&line, &cap, in) > 0) {
			line[strcspn(line, "\n")] = '\0';
			if (results_split_csv(line, v, MAX_COLS) != nh)
				continue;
			if (rows == max_rows) {
				more++;
				continue;
			}
			rows++;
			for (size_t c = 0; c <= naxes + 1; c++) {
				if (pass == 0) {
					if (cols(v[c]) > w[c])
						w[c] = cols(v[c]);
					continue;
				}
				fputs(c ? "  " : "", f);
				put_cell(f, v[c], w[c], c > 0);
			}
			for (int k = 0; k < NF; k++) {
				table_cell(buf, sizeof(buf),
					   ci[k] >= 0 ? v[ci[k]] : "",
					   cc[k] >= 0 ? v[cc[k]] : NULL,
					   fig[k].prec);
				if (pass == 0) {
					if (cols(buf) > w[naxes + 2 + k])
						w[naxes + 2 + k] = cols(buf);
					continue;
				}
				fputs("  ", f);
				put_cell(f, buf, w[naxes + 2 + k], 0);
			}
			if (pass == 1)
				fputc('\n', f);
		}
	}
	if (more)
		fprintf(f, "... %zu more rows in %s\n", more, path);
	fprintf(f, "(mean ± 95%% CI half-width over repetitions, Student t; "
		   "errors in game units)\n");
	if (ferror(f))
		rc = -EIO;
out:
	free(line);
	free(hdr);
	fclose(in);
	return rc;
}

/* ---- files ---- */

static int copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in = open(src, O_RDONLY | O_CLOEXEC), out, rc = 0;

	if (in < 0)
		return -errno;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode & 0777);
	if (out < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t o = 0; o < n;) {
			ssize_t w = write(out, buf + o, (size_t)(n - o));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				rc = -errno;
				break;
			}
			o += w;
		}
		if (rc)
			break;
	}
	if (n < 0)
		rc = -errno;
	if (close(out) && rc == 0)
		rc = -errno;
	close(in);
	return rc;
}

int sweep_copy_file(const char *src, const char *dst)
{
	return copy_file(src, dst, 0644);
}

int sweep_copy_tree(const char *src, const char *dst)
{
	char s[PATH_MAX], d[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int rc;

	if ((rc = results_mkdirs(dst)) < 0)
		return rc;
	if ((dir = opendir(src)) == NULL)
		return -errno;
	while ((de = readdir(dir)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((rc = results_path(s, sizeof(s), "%s/%s", src,
				       de->d_name)) < 0 ||
		    (rc = results_path(d, sizeof(d), "%s/%s", dst,
				       de->d_name)) < 0)
			break;
		if (lstat(s, &st) < 0) {
			rc = -errno;
			break;
		}
		if (S_ISDIR(st.st_mode))
			rc = sweep_copy_tree(s, d);
		else if (S_ISREG(st.st_mode))
			rc = copy_file(s, d, st.st_mode);
		if (rc < 0)
			break;
	}
	closedir(dir);
	return rc;
}

int sweep_file_cmp(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int rc = 0, ca, cb;

	if (fa == NULL || fb == NULL) {
		rc = -errno;
		goto out;
	}
	do {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb) {
			rc = 1;
			break;
		}
	} while (ca != EOF);
out:
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return rc;
}
