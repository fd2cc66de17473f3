/*
 * plot.c: the figures of a run and of a sweep, drawn by gnuplot (see
 * results.h for which). For each figure it writes a data file and a script
 * into plots/ and runs gnuplot there once, for an SVG and a PNG
 * (pngcairo when gnuplot has it, else the libgd png terminal). gnuplot's
 * output goes to plots/gnuplot.log. A figure holds at most
 * PLOT_MAX_CURVES curves; more are split over several figures (NAME,
 * NAME-2, ...), never dropped. Missing gnuplot is a warning, never an
 * error: the run's results are already written.
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
#include "results.h"

#define MAX_COLS	128
#define PLOT_MAX_CURVES 16 /* per figure: more are not legible */

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

struct fig_spec {
	const char *name, *title, *xlabel, *ylabel, *caption;
	int errbars, steps;
	int logx; /* log x axis; x below PLOT_LOGX_MIN drawn at it */
	/* explicit ranges (set: 1), so that error bars and the points at
	 * the ends never touch the frame; else gnuplot's autoscale */
	int xset, yset;
	double xlo, xhi, ylo, yhi;
	const char *xtics; /* gnuplot tic list "(...)", or NULL/"" */
};

/* The range lines of a figure's script. */
static void put_ranges(FILE *f, const struct fig_spec *fs)
{
	if (fs->steps && !fs->logx)
		fputs("set yrange [0:1]\nset xrange [0:*]\n", f); /* errors */
	else if (fs->steps)
		fputs("set yrange [0:1]\n", f);
	else if (fs->yset)
		fprintf(f, "set yrange [%.10g:%.10g]\n", fs->ylo, fs->yhi);
	else
		fputs("set yrange [0:*]\n", f);
	if (fs->logx)
		fputs("set logscale x\nset offsets 0, 0, 0, 0\n", f);
	if (fs->xset)
		fprintf(f, "set offsets 0, 0, 0, 0\nset xrange [%.10g:%.10g]\n",
			fs->xlo, fs->xhi);
	if (fs->xtics && fs->xtics[0])
		fprintf(f, "set xtics %s\n", fs->xtics);
}

/* The script of one figure: SVG, then PNG with the best PNG terminal. */
static int write_script(const char *dir, const char *name, const char *title,
			const struct fig_spec *fs, const char *const *series,
			unsigned ns)
{
	char path[PATH_MAX];
	FILE *f;

	if (results_path(path, sizeof(path), "%s/%s.gp", dir, name) < 0)
		return -ENAMETOOLONG;
	if ((f = fopen(path, "w")) == NULL)
		return -errno;
	fprintf(f,
		"# %s: written by reckon (daemon/results/plot.c); run in this "
		"directory\n"
		"set terminal svg size 640,480 font \",12\" noenhanced background "
		"rgb 'white'\nset output '%s.svg'\n"
		"set title \"%s\" noenhanced\nset xlabel \"%s\" noenhanced\n"
		"set ylabel \"%s\" noenhanced\nset grid\n"
		"set key below left Left reverse noenhanced\n"
		"set offsets graph 0.03, graph 0.03, 0, 0\n",
		name, name, title, fs->xlabel, fs->ylabel);
	put_ranges(f, fs);
	fputs("plot ", f);
	for (unsigned i = 0; i < ns; i++)
		fprintf(f,
			"%s'%s.dat' index %u using 1:2%s with %s title \"%s\"",
			i ? ", \\\n     " : "", name, i,
			fs->errbars ? ":3" : "",
			fs->steps     ? "steps"
			: fs->errbars ? "yerrorlines"
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

/* ---- figures of several parts ---- */

/* The figures drawn so far, for index.html. */
struct figs {
	char (*name)[128];
	char (*cap)[400];
	unsigned n, cap_n;
};

static int figs_add(struct figs *f, const char *name, const char *cap)
{
	if (f->n == f->cap_n) {
		unsigned c = f->cap_n ? 2 * f->cap_n : 8;
		void *a = realloc(f->name, c * sizeof(*f->name));

		if (a == NULL)
			return -ENOMEM;
		f->name = a;
		a = realloc(f->cap, c * sizeof(*f->cap));
		if (a == NULL)
			return -ENOMEM;
		f->cap = a;
		f->cap_n = c;
	}
	snprintf(f->name[f->n], sizeof(f->name[0]), "%s", name);
	snprintf(f->cap[f->n], sizeof(f->cap[0]), "%s", cap);
	f->n++;
	return 0;
}

static void figs_free(struct figs *f)
{
	free(f->name);
	free(f->cap);
}

/* index.html of dir with the figures drawn. */
static int figs_html(const char *dir, const char *title, const struct figs *f,
		     const struct run_info *ri, const char *csv,
		     const char *json, int link_points)
{
	const char **name = calloc(f->n + 1, sizeof(*name));
	const char **cap = calloc(f->n + 1, sizeof(*cap));
	int rc = -ENOMEM;

	if (name && cap) {
		for (unsigned i = 0; i < f->n; i++) {
			name[i] = f->name[i];
			cap[i] = f->cap[i];
		}
		struct plot_page pg = {
			.title = title,
			.ri = ri,
			.figs = name,
			.captions = cap,
			.n = f->n,
			.csv = csv,
			.json = json,
			.link_points = link_points,
		};

		rc = plot_html(dir, &pg);
	}
	free(name);
	free(cap);
	return rc;
}

/* Writes the data lines of curve k. */
typedef void (*put_curve_fn)(FILE *f, unsigned k, void *ctx);

/* Where a log axis starts: errors of 0.01 u and below are drawn there. */
#define PLOT_LOGX_MIN 0.01

/* Draw the ns curves of one figure, PLOT_MAX_CURVES per part: parts
 * NAME, NAME-2, ... each with its .dat, .gp, .svg and .png, added to
 * figs. Returns the parts drawn, or -errno. */
static int draw_parts(const char *gp, const char *pdir,
		      const struct fig_spec *fs, const char *const *labels,
		      unsigned ns, put_curve_fn put, void *ctx,
		      struct figs *figs)
{
	unsigned parts = (ns + PLOT_MAX_CURVES - 1) / PLOT_MAX_CURVES;
	int drawn = 0;

	if (parts > 1)
		log_info("plot %s: %u curves, drawn as %u figures of at most "
			 "%d",
			 fs->name, ns, parts, PLOT_MAX_CURVES);
	for (unsigned p = 0; p < parts; p++) {
		unsigned k0 = p * PLOT_MAX_CURVES, k1 = k0 + PLOT_MAX_CURVES;
		char name[128], path[PATH_MAX], title[400], cap[400];
		FILE *f;

		if (k1 > ns)
			k1 = ns;
		if (p == 0)
			snprintf(name, sizeof(name), "%s", fs->name);
		else
			snprintf(name, sizeof(name), "%s-%u", fs->name, p + 1);
		if (results_path(path, sizeof(path), "%s/%s.dat", pdir, name) <
			    0 ||
		    (f = fopen(path, "w")) == NULL)
			return -EIO;
		for (unsigned k = k0; k < k1; k++) {
			fprintf(f, "# %s\n", labels[k]);
			put(f, k, ctx);
			fputs("\n\n", f);
		}
		if (fclose(f))
			return -EIO;
		if (parts > 1) {
			snprintf(title, sizeof(title), "%s (%u of %u)",
				 fs->title, p + 1, parts);
			snprintf(cap, sizeof(cap),
				 "%s Curves %u to %u of %u (figure %u of %u).",
				 fs->caption, k0 + 1, k1, ns, p + 1, parts);
		} else {
			snprintf(title, sizeof(title), "%s", fs->title);
			snprintf(cap, sizeof(cap), "%s", fs->caption);
		}
		if (write_script(pdir, name, title, fs, labels + k0, k1 - k0) <
		    0)
			return -EIO;
		snprintf(path, sizeof(path), "%s.gp", name);
		if (run_gnuplot(gp, pdir, path) < 0)
			return -EIO;
		if (figs_add(figs, name, cap) < 0)
			return -ENOMEM;
		drawn++;
	}
	return drawn;
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

/* The curves of the CDF: one per predictor and parameters. */
struct vecs {
	struct vec *v;
	unsigned n, cap;
};

static struct vec *vecs_get(struct vecs *s, const char *label)
{
	for (unsigned k = 0; k < s->n; k++)
		if (!strcmp(s->v[k].label, label))
			return &s->v[k];
	if (s->n == s->cap) {
		unsigned c = s->cap ? 2 * s->cap : 8;
		struct vec *v = realloc(s->v, c * sizeof(*v));

		if (v == NULL)
			return NULL;
		s->v = v;
		s->cap = c;
	}
	memset(&s->v[s->n], 0, sizeof(s->v[0]));
	snprintf(s->v[s->n].label, sizeof(s->v[0].label), "%s", label);
	return &s->v[s->n++];
}

static void vecs_free(struct vecs *s)
{
	for (unsigned k = 0; k < s->n; k++)
		free(s->v[k].v);
	free(s->v);
}

/* The values of column value in one CSV file, per predictor and
 * parameters. With observers_only, only rows of role observer with
 * frames count (metrics-HOST.csv); errcdf-HOST.csv has no such rows. */
static void read_curves(const char *path, struct vecs *s, const char *value,
			int observers_only)
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
	ce = col_of(h, nh, value);
	cf = col_of(h, nh, "frames");
	if (nh > MAX_COLS || cp < 0 || cq < 0 || ce < 0 ||
	    (observers_only && (cr < 0 || cf < 0)))
		goto out;
	while (getline(&line, &cap, in) > 0) {
		char label[160], *end;
		struct vec *v;
		double e, fr;

		if (results_split_csv(line, f, MAX_COLS) != nh ||
		    (observers_only && strcmp(f[cr], "observer")))
			continue;
		e = strtod(f[ce], &end);
		if (*end || !isfinite(e))
			continue;
		if (observers_only) {
			fr = strtod(f[cf], &end);
			if (*end || !(fr > 0))
				continue;
		}
		snprintf(label, sizeof(label), "%s %s", f[cp], f[cq]);
		if ((v = vecs_get(s, label)) != NULL)
			vec_push(v, e);
	}
out:
	free(line);
	free(hdr);
	fclose(in);
}

/* err_mean of every observed entity (metrics-HOST.csv). */
static void read_metrics(const char *path, struct vecs *s)
{
	read_curves(path, s, "err_mean", 1);
}

/* The quantiles of one errcdf-HOST.csv (agents/io/metrics_io.c).
 * Quantiles at equal steps, pooled over observers and repetitions, give
 * the CDF of their equal-weight mixture: every observer and repetition
 * counts the same. */
static void read_errcdf(const char *path, struct vecs *s)
{
	read_curves(path, s, "error", 0);
}

/* Every PREFIX-HOST.csv of dir through read. */
static void read_dir(const char *dir, const char *prefix,
		     void (*read)(const char *, struct vecs *), struct vecs *s)
{
	char path[PATH_MAX];
	struct dirent **de = NULL;
	int n = scandir(dir, &de, NULL, alphasort);
	size_t pl = strlen(prefix);

	for (int i = 0; i < n; i++) {
		size_t l = strlen(de[i]->d_name);

		if (!strncmp(de[i]->d_name, prefix, pl) && l > pl + 4 &&
		    !strcmp(de[i]->d_name + l - 4, ".csv") &&
		    results_path(path, sizeof(path), "%s/%s", dir,
				 de[i]->d_name) == 0)
			read(path, s);
		free(de[i]);
	}
	free(de);
}

/* Does series label b ("predictor params") have the predictor of a,
 * whose name is l bytes long? */
static int same_predictor(const char *a, const char *b, size_t l)
{
	return strncmp(a, b, l) == 0 && (b[l] == ' ' || b[l] == '\0');
}

/* Label k shortened: its predictor, then those of its parameters (k=v)
 * that some other series of the same predictor lacks, so the legend
 * tells them apart without every parameter; into out. */
static void short_label(const struct vec *s, unsigned ns, unsigned k, char *out,
			size_t len)
{
	const char *lab = s[k].label, *p;
	size_t l = strcspn(lab, " "), used;

	used = (size_t)snprintf(out, len, "%.*s", (int)l, lab);
	for (p = lab + l + strspn(lab + l, " "); *p && used < len;) {
		size_t t = strcspn(p, " ");
		int differs = 0;

		for (unsigned j = 0; j < ns && !differs; j++)
			differs = j != k &&
				  same_predictor(lab, s[j].label, l) &&
				  !results_has_token(s[j].label + l, p, t);
		if (differs && used + t + 2 < len) {
			out[used++] = ' ';
			memcpy(out + used, p, t);
			used += t;
			out[used] = '\0';
		}
		p += t;
		p += strspn(p, " ");
	}
}

/* The steps of the empirical CDF of curve k (sorted), after its full
 * label. */
static void put_cdf(FILE *f, unsigned k, void *ctx)
{
	const struct vec *v = &((const struct vecs *)ctx)->v[k];

	fprintf(f, "# %s\n", v->label);
	if (v->n)
		fprintf(f, "%.6g 0\n", v->v[0]);
	for (size_t i = 0; i < v->n; i++)
		fprintf(f, "%.6g %.6g\n", v->v[i],
			(double)(i + 1) / (double)v->n);
}

/* The same with x at least PLOT_LOGX_MIN, for a log axis. */
static void put_cdf_logx(FILE *f, unsigned k, void *ctx)
{
	const struct vec *v = &((const struct vecs *)ctx)->v[k];

	fprintf(f, "# %s\n", v->label);
	if (v->n)
		fprintf(f, "%.6g 0\n", fmax(v->v[0], PLOT_LOGX_MIN));
	for (size_t i = 0; i < v->n; i++)
		fprintf(f, "%.6g %.6g\n", fmax(v->v[i], PLOT_LOGX_MIN),
			(double)(i + 1) / (double)v->n);
}

/* One CDF figure of the curves read by read from PREFIX-HOST.csv files
 * of the run (every rep-N/ with several repetitions). */
static void cdf_figure(const char *run_dir, unsigned repetitions,
		       const char *gp, const char *pdir,
		       const struct fig_spec *fs, const char *prefix,
		       void (*read)(const char *, struct vecs *),
		       struct figs *figs)
{
	struct vecs s = {0};
	const char **labels = NULL;
	char path[PATH_MAX], (*shortl)[160] = NULL;

	if (repetitions <= 1)
		read_dir(run_dir, prefix, read, &s);
	for (unsigned r = 1; repetitions > 1 && r <= repetitions; r++)
		if (results_path(path, sizeof(path), "%s/rep-%u", run_dir, r) ==
		    0)
			read_dir(path, prefix, read, &s);
	if (s.n > 0 && results_mkdirs(pdir) == 0 &&
	    (labels = calloc(s.n, sizeof(*labels))) != NULL &&
	    (shortl = calloc(s.n, sizeof(*shortl))) != NULL) {
		for (unsigned k = 0; k < s.n; k++) {
			qsort(s.v[k].v, s.v[k].n, sizeof(double), cmp_double);
			short_label(s.v, s.n, k, shortl[k], sizeof(shortl[k]));
			labels[k] = shortl[k];
		}
		if (draw_parts(gp, pdir, fs, labels, s.n,
			       fs->logx ? put_cdf_logx : put_cdf, &s, figs) < 0)
			log_warnx("plots of %s: gnuplot failed, see "
				  "%s/gnuplot.log",
				  run_dir, pdir);
	}
	free(labels);
	free(shortl);
	vecs_free(&s);
}

static void lc_run_figures(const char *run_dir, const char *gp,
			   const char *pdir, struct figs *figs);

int plot_run(const char *run_dir, unsigned repetitions)
{
	return plot_run_info(run_dir, repetitions, NULL);
}

int plot_run_info(const char *run_dir, unsigned repetitions,
		  const struct run_info *ri)
{
	static const struct fig_spec frame_fs = {
		.name = "error_frame_cdf",
		.title = "Position error per frame",
		.xlabel = "position error (u, log scale)",
		.ylabel = "fraction of frames",
		.caption = "CDF of the position error of every frame each "
			   "observer displayed (game units, log scale; errors "
			   "of 0.01 u and less at 0.01), from the 201 "
			   "quantiles each observer writes per predictor "
			   "(errcdf-HOST.csv), every observer and repetition "
			   "weighted alike.",
		.steps = 1,
		.logx = 1,
	};
	static const struct fig_spec entity_fs = {
		.name = "error_cdf",
		.title = "Per-entity mean position error",
		.xlabel = "mean error of one entity (u)",
		.ylabel = "fraction of entities",
		.caption = "CDF of the mean position error of each entity as "
			   "seen by each observer (game units), over all "
			   "repetitions.",
		.steps = 1,
	};
	struct figs figs = {0};
	const char *gp = plot_gnuplot();
	char pdir[PATH_MAX];
	int rc;

	if (gp == NULL)
		log_warnx("plots of %s skipped: gnuplot not found (install "
			  "gnuplot-nox)",
			  run_dir);
	if (gp && results_path(pdir, sizeof(pdir), "%s/plots", run_dir) == 0) {
		cdf_figure(run_dir, repetitions, gp, pdir, &frame_fs, "errcdf-",
			   read_errcdf, &figs);
		cdf_figure(run_dir, repetitions, gp, pdir, &entity_fs,
			   "metrics-", read_metrics, &figs);
		lc_run_figures(run_dir, gp, pdir, &figs);
	}
	rc = figs_html(run_dir, "reckon run", &figs, ri, "summary.csv",
		       "summary.json", 0);
	figs_free(&figs);
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
		if (results_split_csv(t->row[t->n], t->cell[t->n], MAX_COLS) !=
		    t->nh) {
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

/* x of every row on axis a, into x[0..t->n): the value's number when
 * every value of the axis has the same unit, else the value's position
 * among the axis's distinct values in grid order. Returns 1 when the x
 * are positions, 0 when numbers, -ENOMEM. */
static int axis_xs(const struct table *t, size_t a, double *x)
{
	const char *u0 = NULL, **seen;
	size_t ns = 0;
	char *end;
	int by_index = 0;

	for (size_t i = 0; i < t->n; i++) {
		x[i] = strtod(t->cell[i][a], &end);
		if (end == t->cell[i][a] || (u0 && strcmp(u0, end)))
			by_index = 1;
		u0 = end;
	}
	if (!by_index)
		return 0;
	if ((seen = calloc(t->n ? t->n : 1, sizeof(*seen))) == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		size_t k = 0;

		while (k < ns && strcmp(seen[k], t->cell[i][a]))
			k++;
		if (k == ns)
			seen[ns++] = t->cell[i][a];
		x[i] = (double)k;
	}
	free(seen);
	return 1;
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

/* The curves of one sweep figure: for each row its curve (-1: not in
 * the figure), the x of each row, and the y and ci columns. */
struct sweep_curves {
	const struct table *t;
	int *curve;
	double *x;
	int cy, cc;
};

/* The data of curve k: "x y ci" for each of its rows. */
static void put_sweep(FILE *f, unsigned k, void *ctx)
{
	const struct sweep_curves *c = ctx;
	const struct table *t = c->t;

	for (size_t r = 0; r < t->n; r++)
		if (c->curve[r] == (int)k && *t->cell[r][c->cy])
			fprintf(f, "%.10g %s %s\n", c->x[r], t->cell[r][c->cy],
				c->cc >= 0 && *t->cell[r][c->cc]
					? t->cell[r][c->cc]
					: "0");
}

/* Ranges of a sweep figure that hold every error bar and keep the
 * points at the ends off the frame: y from 0 (or below, when a bar
 * reaches under it) to 8% over the highest bar; x padded by 5% of its
 * span, half a step for value positions, and on a log scale when the
 * values are positive and span a factor of 20 or more. */
static void sweep_ranges(const struct sweep_curves *c, int by_index,
			 struct fig_spec *fs)
{
	const struct table *t = c->t;
	double lo = INFINITY, hi = -INFINITY, xlo = INFINITY, xhi = -INFINITY;
	double span, pad;

	for (size_t r = 0; r < t->n; r++) {
		double y, h = 0;
		char *end;

		if (c->curve[r] < 0 || !*t->cell[r][c->cy])
			continue;
		y = strtod(t->cell[r][c->cy], &end);
		if (*end || !isfinite(y))
			continue;
		if (c->cc >= 0 && *t->cell[r][c->cc])
			h = strtod(t->cell[r][c->cc], NULL);
		if (!isfinite(h) || h < 0)
			h = 0;
		lo = fmin(lo, y - h);
		hi = fmax(hi, y + h);
		xlo = fmin(xlo, c->x[r]);
		xhi = fmax(xhi, c->x[r]);
	}
	if (!isfinite(lo) || !isfinite(hi))
		return;
	lo = fmin(lo, 0);
	span = hi - lo > 0 ? hi - lo : fmax(fabs(hi), 1);
	fs->yset = 1;
	fs->ylo = lo < 0 ? lo - 0.05 * span : 0;
	fs->yhi = hi + 0.08 * span;
	fs->xset = 1;
	if (by_index) {
		fs->xlo = xlo - 0.5;
		fs->xhi = xhi + 0.5;
	} else if (xlo > 0 && xhi / xlo >= 20) {
		fs->logx = 1;
		fs->xlo = xlo / 1.25;
		fs->xhi = xhi * 1.25;
	} else {
		pad = xhi > xlo ? 0.05 * (xhi - xlo) : fmax(fabs(xlo) * 0.1, 1);
		fs->xlo = xlo - pad;
		fs->xhi = xhi + pad;
	}
}

/* s as a gnuplot tic label, which gnuplot reads as a format: every %
 * doubled (loss=5% would be a bad format character). */
static void tic_label(const char *s, char *out, size_t len)
{
	size_t o = 0;

	for (; *s && o + 2 < len; s++) {
		if (*s == '%')
			out[o++] = '%';
		out[o++] = *s;
	}
	out[o] = '\0';
}

/* Tics at the value positions of axis a, labelled with the values:
 * gnuplot's set xtics ("V" X, ...). */
static void index_tics(const struct table *t, size_t a, const double *x,
		       char *out, size_t len)
{
	size_t o = (size_t)snprintf(out, len, "(");
	double done = -1;
	char label[256];

	for (size_t r = 0; r < t->n && o < len; r++) {
		if (x[r] <= done)
			continue; /* positions are first seen in order */
		done = x[r];
		if (strchr(t->cell[r][a], '"'))
			continue;
		tic_label(t->cell[r][a], label, sizeof(label));
		o += (size_t)snprintf(out + o, len - o, "%s\"%s\" %g",
				      o > 1 ? ", " : "", label, x[r]);
	}
	if (o + 2 < len)
		snprintf(out + o, len - o, ")");
	else
		out[0] = '\0'; /* too many values: numbered tics */
}

/* The figures of y against axis a (rows of predictor `only` when it is
 * not NULL): one curve per predictor and values of the other axes, in
 * parts of PLOT_MAX_CURVES. Returns the parts drawn (0: nothing to
 * plot) or -errno. */
static int sweep_fig(const char *gp, const char *pdir, struct table *t,
		     size_t naxes, size_t a, const char *only, const char *y,
		     const char *ylabel, const char *name, const char *caption,
		     struct figs *figs)
{
	struct sweep_curves c = {.t = t};
	char **labels = NULL, xlabel[200], title[300], ci[64], *unit;
	char xtics[2048] = "";
	int cp = col_of(t->h, t->nh, "predictor"), by_index, rc = 0;
	unsigned ns = 0, cap = 0;

	c.cy = col_of(t->h, t->nh, y);
	snprintf(ci, sizeof(ci), "%s_ci95", y);
	c.cc = col_of(t->h, t->nh, ci);
	if (c.cy < 0 || cp < 0 || t->n == 0)
		return 0;
	c.curve = calloc(t->n, sizeof(*c.curve));
	c.x = calloc(t->n, sizeof(*c.x));
	if (c.curve == NULL || c.x == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	/* curves: predictor and the values of the other axes, in the
	 * order they first appear */
	for (size_t r = 0; r < t->n; r++) {
		char s[256];
		size_t o;
		unsigned k;

		c.curve[r] = -1;
		if ((only && strcmp(t->cell[r][cp], only)) ||
		    !*t->cell[r][c.cy])
			continue; /* another predictor, or no value */
		o = (size_t)snprintf(s, sizeof(s), "%s", t->cell[r][cp]);
		for (size_t b = 1; b <= naxes && o < sizeof(s); b++)
			if (b != a)
				o += (size_t)snprintf(
					s + o, sizeof(s) - o, " %s=%s",
					short_axis(t->h[b]), t->cell[r][b]);
		for (k = 0; k < ns; k++)
			if (!strcmp(labels[k], s))
				break;
		if (k == ns) {
			if (ns == cap) {
				unsigned nc = cap ? 2 * cap : 16;
				char **l = realloc(labels, nc * sizeof(*l));

				if (l == NULL) {
					rc = -ENOMEM;
					goto out;
				}
				labels = l;
				cap = nc;
			}
			if ((labels[ns] = strdup(s)) == NULL) {
				rc = -ENOMEM;
				goto out;
			}
			ns++;
		}
		c.curve[r] = (int)k;
	}
	if (ns == 0)
		goto out;
	if ((by_index = axis_xs(t, a, c.x)) < 0) {
		rc = by_index;
		goto out;
	}
	strtod(t->cell[0][a], &unit);
	if (by_index)
		snprintf(xlabel, sizeof(xlabel), "%s", t->h[a]);
	else if (*unit)
		snprintf(xlabel, sizeof(xlabel), "%s (%s)", t->h[a], unit);
	else
		snprintf(xlabel, sizeof(xlabel), "%s", t->h[a]);
	snprintf(title, sizeof(title), "%s against %s", ylabel, t->h[a]);
	{
		struct fig_spec fs = {
			.name = name,
			.title = title,
			.xlabel = xlabel,
			.ylabel = ylabel,
			.caption = caption,
			.errbars = 1,
			.xtics = xtics,
		};

		sweep_ranges(&c, by_index, &fs);
		if (by_index)
			index_tics(t, a, c.x, xtics, sizeof(xtics));
		rc = draw_parts(gp, pdir, &fs, (const char *const *)labels, ns,
				put_sweep, &c, figs);
	}
out:
	for (unsigned k = 0; k < ns; k++)
		free(labels[k]);
	free(labels);
	free(c.curve);
	free(c.x);
	return rc;
}

/* ---- lag compensation: SBC and hit accuracy against the condition ---- */

/* Keep the rows of t with a value in column c. */
static void table_keep(struct table *t, int c)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (c >= 0 && *t->cell[i][c]) {
			t->row[k] = t->row[i];
			t->cell[k++] = t->cell[i];
			continue;
		}
		free(t->row[i]);
		free(t->cell[i]);
	}
	t->n = k;
}

/* The lag-compensation figures of y against axis a of t, which holds
 * only lag-compensation rows (predictor = lagcomp-MODE): one curve per
 * mode and values of the other axes. */
static void lc_figures(const char *gp, const char *pdir, struct table *t,
		       size_t naxes, size_t a, struct figs *figs)
{
	static const struct {
		const char *y, *name, *ylabel, *what;
	} f[] = {
		{"lc_sbc100_low", "sbc_low", "SBC per 100 hits (low ping)",
		 "Shots behind cover per 100 registered hits on low-ping "
		 "victims"},
		{"lc_sbc100_high", "sbc_high", "SBC per 100 hits (high ping)",
		 "Shots behind cover per 100 registered hits on high-ping "
		 "victims"},
		{"lc_reg_accuracy", "hit_accuracy", "hit-registration accuracy",
		 "Hit-registration accuracy (registered among the shooters' "
		 "screen hits)"},
	};
	char sn[100], name[160], cap[400];

	safe_name(t->h[a], sn, sizeof(sn));
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		snprintf(name, sizeof(name), "%s_vs_%s", f[k].name, sn);
		snprintf(cap, sizeof(cap),
			 "%s against %s, one curve per lag-compensation mode: "
			 "mean over repetitions, error bars are 95%% "
			 "confidence intervals.",
			 f[k].what, t->h[a]);
		if (sweep_fig(gp, pdir, t, naxes, a, NULL, f[k].y,
			      f[k].ylabel, name, cap, figs) < 0)
			log_warnx("plot %s/%s failed, see %s/gnuplot.log", pdir,
				  name, pdir);
	}
}

/* A run's summary.csv: SBC and hit accuracy against its conditions,
 * when fps-servers wrote lag-compensation metrics. */
static void lc_run_figures(const char *run_dir, const char *gp,
			   const char *pdir, struct figs *figs)
{
	char path[PATH_MAX], *tmp;
	struct table t;
	int cc;

	if (results_path(path, sizeof(path), "%s/summary.csv", run_dir) < 0 ||
	    table_read(path, &t) < 0)
		return;
	table_keep(&t, col_of(t.h, t.nh, "lc_sbc100_low"));
	cc = col_of(t.h, t.nh, "condition");
	if (t.n > 0 && cc > 1 && results_mkdirs(pdir) == 0) {
		/* the condition as the one axis, column 1 */
		tmp = t.h[1];
		t.h[1] = t.h[cc];
		t.h[cc] = tmp;
		for (size_t i = 0; i < t.n; i++) {
			tmp = t.cell[i][1];
			t.cell[i][1] = t.cell[i][cc];
			t.cell[i][cc] = tmp;
		}
		lc_figures(gp, pdir, &t, 1, 1, figs);
	}
	table_free(&t);
}

int plot_sweep(const char *dir)
{
	static const struct {
		const char *name, *col, *what, *ylabel;
	} fig[] = {
		{"error", "err_mean", "Mean error", "mean position error (u)"},
		{"updates", "updates_per_s", "Updates/s per entity",
		 "updates/s per entity"},
		{"bytes", "bytes_per_s", "Bytes/s per entity",
		 "bytes/s per entity"},
	};
	char path[PATH_MAX], pdir[PATH_MAX];
	const char *gp = plot_gnuplot();
	struct figs figs = {0};
	struct sc_diag diag = {0};
	struct scenario *sc = NULL;
	struct run_info ri;
	struct table t;
	size_t naxes;
	int rc, have_ri = 0;

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
	for (size_t a = 1; gp && a <= naxes; a++) {
		char sn[100], pred[64] = "", name[128], cap[256];
		int link = !strncmp(t.h[a], "link.", 5);

		safe_name(t.h[a], sn, sizeof(sn));
		if (!link) {
			const char *p = t.h[a] + strlen("predictor.");
			snprintf(pred, sizeof(pred), "%.*s",
				 (int)strcspn(p, "."), p);
		}
		/* error, then what it cost in updates and bytes, side by
		 * side on the page */
		for (size_t k = 0; k < sizeof(fig) / sizeof(fig[0]); k++) {
			snprintf(name, sizeof(name), "%s_vs_%s", fig[k].name,
				 sn);
			snprintf(cap, sizeof(cap),
				 "%s against %s: mean over repetitions, "
				 "error bars are 95%% confidence intervals.",
				 fig[k].what, t.h[a]);
			rc = sweep_fig(gp, pdir, &t, naxes, a,
				       link ? NULL : pred, fig[k].col,
				       fig[k].ylabel, name, cap, &figs);
			if (rc < 0)
				log_warnx("plot %s/%s failed, see "
					  "%s/gnuplot.log",
					  pdir, name, pdir);
		}
	}
	/* lag compensation, when the sweep's runs had fps-servers */
	table_keep(&t, col_of(t.h, t.nh, "lc_sbc100_low"));
	for (size_t a = 1; gp && t.n > 0 && a <= naxes; a++)
		lc_figures(gp, pdir, &t, naxes, a, &figs);
	table_free(&t);
	/* the sweep's scenario, as its directory keeps it */
	if (results_path(path, sizeof(path), "%s/scenario.ini", dir) == 0 &&
	    scenario_load(path, &sc, &diag) == 0) {
		/* no date or path: a sweep merged from shards must give
		 * the same page as the whole sweep (docs/sweeps.md) */
		run_info_init(&ri, sc, "sweep");
		ri.date[0] = ri.path[0] = '\0';
		scenario_free(sc);
		have_ri = 1;
	}
	sc_diag_free(&diag);
	rc = figs_html(dir, "reckon sweep", &figs, have_ri ? &ri : NULL,
		       "sweep.csv", "sweep.json", 1);
	figs_free(&figs);
	return rc;
}
