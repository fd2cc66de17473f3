/*
 * plot.c: the figures of a run and of a sweep, drawn by gnuplot (see
 * plot.h for which). For each figure it writes a data file and a script
 * into plots/ and runs gnuplot there once, for an SVG and a PNG
 * (pngcairo when gnuplot has it, else the libgd png terminal). gnuplot's
 * output goes to plots/gnuplot.log. Missing gnuplot is a warning, never
 * an error: the run's results are already written.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "plot.h"
#include "results.h"

#define MAX_COLS   128
#define MAX_SERIES 16
#define MAX_FIGS   (2 * 8 + 1)

const char *plot_gnuplot(void)
{
	static char found[PATH_MAX];
	const char *env = getenv("RECKON_GNUPLOT"), *path = getenv("PATH");

	if (env && *env)
		return access(env, X_OK) == 0 ? env : NULL;
	if (path == NULL)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t l = strcspn(path, ":");

		if (l > 0 &&
		    results_path(found, sizeof(found), "%.*s/gnuplot", (int)l,
				 path) == 0 &&
		    access(found, X_OK) == 0)
			return found;
		path += l + (path[l] == ':');
	}
	return NULL;
}

/* gnuplot NAME.gp in dir, output to dir/gnuplot.log. */
static int run_gnuplot(const char *gp, const char *dir, const char *script)
{
	char logp[PATH_MAX];
	int st;
	pid_t pid;

	if (results_path(logp, sizeof(logp), "%s/gnuplot.log", dir) < 0)
		return -ENAMETOOLONG;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(logp, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd < 0 || chdir(dir) < 0)
			_exit(127);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
		execl(gp, gp, script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}

/* The script of one figure: SVG, then PNG with the best PNG terminal. */
static int write_script(const char *dir, const char *name, const char *title,
			const char *xlabel, const char *ylabel,
			const char *const *series, unsigned ns, int errbars,
			int steps)
{
	char path[PATH_MAX];
	FILE *f;

	if (results_path(path, sizeof(path), "%s/%s.gp", dir, name) < 0)
		return -ENAMETOOLONG;
	if ((f = fopen(path, "w")) == NULL)
		return -errno;
	fprintf(f,
		"# %s: written by reckon (daemon/plot.c); run in this "
		"directory\n"
		"set terminal svg size 820,560 noenhanced background "
		"rgb 'white'\nset output '%s.svg'\n"
		"set title \"%s\" noenhanced\nset xlabel \"%s\" noenhanced\n"
		"set ylabel \"%s\" noenhanced\nset grid\n"
		"set key below left Left reverse noenhanced\n"
		"set offsets graph 0.03, graph 0.03, 0, 0\n%s",
		name, name, title, xlabel, ylabel,
		steps ? "set yrange [0:1]\n" : "set yrange [0:*]\n");
	fputs("plot ", f);
	for (unsigned i = 0; i < ns; i++)
		fprintf(f,
			"%s'%s.dat' index %u using 1:2%s with %s title \"%s\"",
			i ? ", \\\n     " : "", name, i, errbars ? ":3" : "",
			steps	  ? "steps"
			: errbars ? "yerrorlines"
				  : "linespoints",
			series[i]);
	fprintf(f,
		"\nif (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		"\tset terminal pngcairo size 820,560 noenhanced\n"
		"} else {\n\tset terminal png size 820,560 noenhanced\n}\n"
		"set output '%s.png'\nreplot\n",
		name);
	return fclose(f) ? -EIO : 0;
}

/* ---- CSV reading ---- */


static int col_of(char **hdr, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return (int)i;
	return -1;
}

/* ---- run: CDF of per-entity mean errors ---- */

struct vec {
	char label[160];
	double *v;
	size_t n, cap;
};

static int vec_push(struct vec *s, double x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		double *v = realloc(s->v, cap * sizeof(*v));

		if (v == NULL)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Observer rows of one metrics file: err_mean of every entity with
 * frames, per predictor and parameters. */
static void read_metrics(const char *path, struct vec *s, unsigned *ns)
{
	char *line = NULL, *f[MAX_COLS + 1], *hdr = NULL, *h[MAX_COLS + 1];
	size_t cap = 0, nh = 0;
	int cr, cp, cq, ce, cf;
	FILE *in = fopen(path, "r");

	if (in == NULL)
		return;
	if (getline(&line, &cap, in) <= 0 || (hdr = strdup(line)) == NULL)
		goto out;
	nh = results_split_csv(hdr, h, MAX_COLS);
	cr = col_of(h, nh, "role");
	cp = col_of(h, nh, "predictor");
	cq = col_of(h, nh, "params");
	ce = col_of(h, nh, "err_mean");
	cf = col_of(h, nh, "frames");
	if (nh > MAX_COLS || cr < 0 || cp < 0 || cq < 0 || ce < 0 || cf < 0)
		goto out;
	while (getline(&line, &cap, in) > 0) {
		char label[160], *end;
		double e, fr;
		unsigned k;

		if (results_split_csv(line, f, MAX_COLS) != nh || strcmp(f[cr], "observer"))
			continue;
		e = strtod(f[ce], &end);
		if (*end || !isfinite(e))
			continue;
		fr = strtod(f[cf], &end);
		if (*end || !(fr > 0))
			continue;
		snprintf(label, sizeof(label), "%s %s", f[cp], f[cq]);
		for (k = 0; k < *ns; k++)
			if (!strcmp(s[k].label, label))
				break;
		if (k == *ns) {
			if (*ns == MAX_SERIES)
				continue;
			snprintf(s[k].label, sizeof(s[k].label), "%s", label);
			(*ns)++;
		}
		vec_push(&s[k], e);
	}
out:
	free(line);
	free(hdr);
	fclose(in);
}

static void read_metrics_dir(const char *dir, struct vec *s, unsigned *ns)
{
	char path[PATH_MAX];
	struct dirent **de = NULL;
	int n = scandir(dir, &de, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		size_t l = strlen(de[i]->d_name);

		if (!strncmp(de[i]->d_name, "metrics-", 8) && l > 12 &&
		    !strcmp(de[i]->d_name + l - 4, ".csv") &&
		    results_path(path, sizeof(path), "%s/%s", dir,
				 de[i]->d_name) == 0)
			read_metrics(path, s, ns);
		free(de[i]);
	}
	free(de);
}

/* The predictor alone when no other series has the same predictor,
 * else "predictor params". Labels are "predictor params". */
static const char *short_label(struct vec *s, unsigned ns, unsigned k)
{
	size_t l = strcspn(s[k].label, " ");

	for (unsigned j = 0; j < ns; j++)
		if (j != k && strncmp(s[j].label, s[k].label, l) == 0 &&
		    s[j].label[l] == ' ')
			return s[k].label;
	s[k].label[l] = '\0';
	return s[k].label;
}

int plot_run(const char *run_dir, unsigned repetitions)
{
	static const char *const fig[] = {"error_cdf"};
	static const char *const cap[] = {
		"CDF of the mean position error of each entity as seen by "
		"each observer (game units), over all repetitions. The "
		"metrics files hold per-entity statistics, not per-frame "
		"samples, so this is the distribution of per-entity means."};
	struct vec s[MAX_SERIES];
	const char *labels[MAX_SERIES], *gp = plot_gnuplot();
	char pdir[PATH_MAX], path[PATH_MAX];
	unsigned ns = 0, nfig = 0;
	int rc = 0;

	memset(s, 0, sizeof(s));
	if (repetitions <= 1)
		read_metrics_dir(run_dir, s, &ns);
	for (unsigned r = 1; repetitions > 1 && r <= repetitions; r++)
		if (results_path(path, sizeof(path), "%s/rep-%u", run_dir, r) ==
		    0)
			read_metrics_dir(path, s, &ns);
	if (gp == NULL)
		log_warnx("plots of %s skipped: gnuplot not found (install "
			  "gnuplot-nox)",
			  run_dir);
	if (gp && ns > 0 &&
	    results_path(pdir, sizeof(pdir), "%s/plots", run_dir) == 0 &&
	    results_mkdirs(pdir) == 0 &&
	    results_path(path, sizeof(path), "%s/error_cdf.dat", pdir) == 0) {
		FILE *f = fopen(path, "w");

		if (f) {
			for (unsigned k = 0; k < ns; k++) {
				qsort(s[k].v, s[k].n, sizeof(double),
				      cmp_double);
				fprintf(f, "# %s\n", s[k].label);
				if (s[k].n)
					fprintf(f, "%.6g 0\n", s[k].v[0]);
				for (size_t i = 0; i < s[k].n; i++)
					fprintf(f, "%.6g %.6g\n", s[k].v[i],
						(double)(i + 1) /
							(double)s[k].n);
				fputs("\n\n", f);
				labels[k] = short_label(s, ns, k);
			}
			if (fclose(f) == 0 &&
			    write_script(pdir, "error_cdf",
					 "Per-entity mean position error",
					 "mean error of one entity (u)",
					 "fraction of entities", labels, ns, 0,
					 1) == 0 &&
			    run_gnuplot(gp, pdir, "error_cdf.gp") == 0)
				nfig = 1;
			else
				log_warnx("plots of %s: gnuplot failed, see "
					  "%s/gnuplot.log",
					  run_dir, pdir);
		}
	}
	for (unsigned k = 0; k < MAX_SERIES; k++)
		free(s[k].v);
	rc = plot_html(run_dir, "reckon run", fig, cap, nfig, "summary.csv",
		       -1);
	return rc;
}

/* ---- sweep: figures against each axis ---- */

struct table {
	char *hdr, *h[MAX_COLS + 1];
	size_t nh;
	char **row; /* each line, split in place */
	char ***cell;
	size_t n;
};

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->row[i]);
		free(t->cell[i]);
	}
	free(t->row);
	free(t->cell);
	free(t->hdr);
}

static int table_read(const char *path, struct table *t)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if (f == NULL)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		if (t->hdr == NULL) {
			if ((t->hdr = strdup(line)) == NULL) {
				rc = -ENOMEM;
				break;
			}
			t->nh = results_split_csv(t->hdr, t->h, MAX_COLS);
			if (t->nh > MAX_COLS) {
				rc = -EINVAL;
				break;
			}
			continue;
		}
		char **r = realloc(t->row, (t->n + 1) * sizeof(*r));
		char ***c = realloc(t->cell, (t->n + 1) * sizeof(*c));

		if (r)
			t->row = r;
		if (c)
			t->cell = c;
		if (!r || !c) {
			rc = -ENOMEM;
			break;
		}
		t->row[t->n] = strdup(line);
		t->cell[t->n] = calloc(MAX_COLS + 1, sizeof(char *));
		if (!t->row[t->n] || !t->cell[t->n]) {
			free(t->row[t->n]);
			free(t->cell[t->n]);
			rc = -ENOMEM;
			break;
		}
		if (results_split_csv(t->row[t->n], t->cell[t->n], MAX_COLS) != t->nh) {
			free(t->row[t->n]);
			free(t->cell[t->n]);
			continue; /* malformed row: not plotted */
		}
		t->n++;
	}
	free(line);
	fclose(f);
	if (rc == 0 && t->hdr == NULL)
		rc = -EINVAL;
	if (rc < 0)
		table_free(t);
	return rc;
}

/* x of an axis value: its number when every value of the axis has the
 * same unit, else its position. */
static double axis_x(struct table *t, size_t a, size_t row, int *by_index)
{
	const char *u0 = NULL;
	char *end;

	*by_index = 0;
	for (size_t i = 0; i < t->n; i++) {
		strtod(t->cell[i][a], &end);
		if (end == t->cell[i][a] || (u0 && strcmp(u0, end)))
			*by_index = 1;
		u0 = end;
	}
	if (!*by_index)
		return strtod(t->cell[row][a], NULL);
	/* position among the distinct values, in grid order */
	double k = 0;
	for (size_t i = 0; i < row; i++) {
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(t->cell[j][a], t->cell[i][a]);
		if (!seen && strcmp(t->cell[i][a], t->cell[row][a]))
			k += 1;
		else if (!seen)
			break;
	}
	return k;
}

/* link.delay -> delay, link.a>b.loss -> a>b.loss, predictor.dis.k -> k */
static const char *short_axis(const char *key)
{
	if (!strncmp(key, "link.", 5))
		return key + 5;
	if (!strncmp(key, "predictor.", 10)) {
		const char *d = strchr(key + 10, '.');
		return d ? d + 1 : key;
	}
	return key;
}

static void safe_name(const char *key, char *out, size_t len)
{
	size_t i = 0;

	for (; *key && i + 1 < len; key++)
		out[i++] = isalnum((unsigned char)*key) ? *key : '_';
	out[i] = '\0';
}

/* One figure: y column against axis a; rows of predictor `only` when it
 * is not NULL. Returns 1 when drawn, 0 when there was nothing, -errno. */
static int sweep_fig(const char *gp, const char *pdir, struct table *t,
		     size_t naxes, size_t a, const char *only, const char *y,
		     const char *ylabel, const char *name)
{
	char series[MAX_SERIES][256], path[PATH_MAX], xlabel[200];
	const char *labels[MAX_SERIES];
	int cy = col_of(t->h, t->nh, y), cp = col_of(t->h, t->nh, "predictor");
	char ci[64];
	int cc, by_index = 0;
	unsigned ns = 0;
	FILE *f;

	snprintf(ci, sizeof(ci), "%s_ci95", y);
	cc = col_of(t->h, t->nh, ci);
	if (cy < 0 || cp < 0 || t->n == 0)
		return 0;
	/* series: predictor and the values of the other axes */
	for (size_t r = 0; r < t->n; r++) {
		char s[256];
		size_t o;
		unsigned k;

		if (only && strcmp(t->cell[r][cp], only))
			continue;
		o = (size_t)snprintf(s, sizeof(s), "%s", t->cell[r][cp]);
		for (size_t b = 1; b <= naxes && o < sizeof(s); b++)
			if (b != a)
				o += (size_t)snprintf(
					s + o, sizeof(s) - o, " %s=%s",
					short_axis(t->h[b]), t->cell[r][b]);
		for (k = 0; k < ns; k++)
			if (!strcmp(series[k], s))
				break;
		if (k == ns && ns < MAX_SERIES)
			snprintf(series[ns++], sizeof(series[0]), "%s", s);
	}
	if (ns == 0)
		return 0;
	if (results_path(path, sizeof(path), "%s/%s.dat", pdir, name) < 0 ||
	    (f = fopen(path, "w")) == NULL)
		return -EIO;
	for (unsigned k = 0; k < ns; k++) {
		fprintf(f, "# %s\n", series[k]);
		for (size_t r = 0; r < t->n; r++) {
			char s[256];
			size_t o;

			if (only && strcmp(t->cell[r][cp], only))
				continue;
			o = (size_t)snprintf(s, sizeof(s), "%s",
					     t->cell[r][cp]);
			for (size_t b = 1; b <= naxes && o < sizeof(s); b++)
				if (b != a)
					o += (size_t)snprintf(
						s + o, sizeof(s) - o, " %s=%s",
						short_axis(t->h[b]),
						t->cell[r][b]);
			if (strcmp(s, series[k]) || !*t->cell[r][cy])
				continue;
			fprintf(f, "%.10g %s %s\n", axis_x(t, a, r, &by_index),
				t->cell[r][cy],
				cc >= 0 && *t->cell[r][cc] ? t->cell[r][cc]
							   : "0");
		}
		fputs("\n\n", f);
		labels[k] = series[k];
	}
	if (fclose(f))
		return -EIO;
	axis_x(t, a, 0, &by_index);
	{
		char *unit;

		strtod(t->cell[0][a], &unit);
		if (by_index)
			snprintf(xlabel, sizeof(xlabel), "%s (value index)",
				 t->h[a]);
		else if (*unit)
			snprintf(xlabel, sizeof(xlabel), "%s (%s)", t->h[a],
				 unit);
		else
			snprintf(xlabel, sizeof(xlabel), "%s", t->h[a]);
	}
	char title[300];
	snprintf(title, sizeof(title), "%s against %s", ylabel, t->h[a]);
	if (write_script(pdir, name, title, xlabel, ylabel, labels, ns, 1, 0) <
	    0)
		return -EIO;
	snprintf(path, sizeof(path), "%s.gp", name);
	return run_gnuplot(gp, pdir, path) == 0 ? 1 : -EIO;
}

int plot_sweep(const char *dir)
{
	char path[PATH_MAX], pdir[PATH_MAX];
	char names[MAX_FIGS][128], caps[MAX_FIGS][256];
	const char *fig[MAX_FIGS], *cap[MAX_FIGS], *gp = plot_gnuplot();
	struct table t;
	size_t naxes;
	unsigned nf = 0;
	int rc;

	if (results_path(path, sizeof(path), "%s/sweep.csv", dir) < 0)
		return -ENAMETOOLONG;
	if ((rc = table_read(path, &t)) < 0)
		return rc;
	naxes = 0;
	while (naxes + 1 < t.nh && strcmp(t.h[naxes + 1], "predictor"))
		naxes++;
	if (gp == NULL)
		log_warnx("plots of %s skipped: gnuplot not found (install "
			  "gnuplot-nox)",
			  dir);
	else if (results_path(pdir, sizeof(pdir), "%s/plots", dir) < 0 ||
		 results_mkdirs(pdir) < 0)
		gp = NULL;
	for (size_t a = 1; gp && a <= naxes && nf + 2 <= MAX_FIGS; a++) {
		char sn[100], pred[64] = "";
		int link = !strncmp(t.h[a], "link.", 5);

		safe_name(t.h[a], sn, sizeof(sn));
		if (!link) {
			const char *p = t.h[a] + strlen("predictor.");
			snprintf(pred, sizeof(pred), "%.*s",
				 (int)strcspn(p, "."), p);
		}
		for (int k = 0; k < (link ? 1 : 2); k++) {
			const char *y = k ? "updates_per_s" : "err_mean";

			snprintf(names[nf], sizeof(names[nf]), "%s_vs_%s",
				 k ? "updates" : "error", sn);
			rc = sweep_fig(gp, pdir, &t, naxes, a,
				       link ? NULL : pred, y,
				       k ? "updates/s per entity"
					 : "mean position error (u)",
				       names[nf]);
			if (rc < 0)
				log_warnx("plot %s/%s failed, see "
					  "%s/gnuplot.log",
					  pdir, names[nf], pdir);
			if (rc <= 0)
				continue;
			snprintf(caps[nf], sizeof(caps[nf]),
				 "%s against %s: mean over repetitions, "
				 "error bars are 95%% confidence intervals.",
				 k ? "Updates/s per entity" : "Mean error",
				 t.h[a]);
			fig[nf] = names[nf];
			cap[nf] = caps[nf];
			nf++;
		}
	}
	table_free(&t);
	return plot_html(dir, "reckon sweep", fig, cap, nf, "sweep.csv", 0);
}
