/*
 * results.h: what a run leaves on disk: the results directory and its
 * files (results.c), the summary of the agents' metrics (summary.c) and
 * the plots and HTML page (plot.c, plot_html.c).
 */
#ifndef RECKON_RESULTS_H
#define RECKON_RESULTS_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include "netem.h"
#include "scenario.h"

/*
 * results.c: the results directory of a run,
 * <results_dir>/<name>-<YYYYmmdd-HHMMSS>/, and the files written into it:
 * scenario.ini (canonical, with the seed), counters.csv and counters.json
 * (per directed link), hosts.csv (every host's pid and exit status). The
 * layout is documented in docs/reckond.md.
 */

/* Create <parent>/<name>-<stamp> (parent is created too; a "-2", "-3"...
 * suffix keeps two runs in the same second apart). */
int results_mkdir_run(const char *parent, const char *name, char *out,
		      size_t outlen);

/* snprintf into a path buffer: 0, or -ENAMETOOLONG when it did not fit. */
int results_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Atomic files: write into tmp (path with ".tmp" appended, a buffer of
 * tmplen bytes), then results_commit renames it onto path, or removes it
 * and returns -EIO / -errno when anything failed. */
FILE *results_open_tmp(const char *path, char *tmp, size_t tmplen);
int results_commit(FILE *f, const char *tmp, const char *path);

/* One figure in summary files, %.6g: as a CSV cell (",v", or "," when not
 * finite) and as a JSON number (null when not finite). */
void results_csv_num(FILE *f, double v);
void results_json_num(FILE *f, double v);

/* Split a line of a results CSV file in place (csv_split), dropping the
 * line end; returns the number of fields, or max + 1 when there are
 * more. */
size_t results_split_csv(char *line, char **f, size_t max);

/* Does the space-separated list hold the word tok (its first n bytes)?
 * (Predictor parameters are such lists: "k=v k=v".) */
int results_has_token(const char *list, const char *tok, size_t n);

/* mkdir -p with mode 0755. */
int results_mkdirs(const char *path);

/* scenario.ini through scenario_print. */
int results_scenario(const char *dir, const struct scenario *sc);

/* counters.csv and counters.json for every directed pair of hosts;
 * c[src * nhosts + dst]. */
int results_counters(const char *dir, const struct scenario *sc, unsigned rep,
		     uint64_t seed, const struct netem_counters *c);

struct results_host {
	pid_t pid;
	int status;	     /* 0..255; 128+N for signal N */
	/* ok (exited by itself with 0), failed, ended (stopped by reckond
	 * when the duration elapsed: the planned end), stopped (before
	 * that: reckonctl stop, a signal, another host failed), killed
	 * (after the grace time), aborted */
	const char *outcome;
};

/* hosts.csv: rep,host,addr,pid,status,outcome. */
int results_hosts(const char *dir, const struct scenario *sc, unsigned rep,
		  const struct results_host *h);

/* The last at most `lines` lines of a text file into out (NUL terminated,
 * each line indented by two spaces). */
int results_tail(const char *path, unsigned lines, char *out, size_t outlen);

/* The line of a host's log that says why it failed, into out (NUL
 * terminated, no line end): the first line mentioning "error", else the
 * first line a reckon-agent wrote that is no warning or statistic (its
 * usage errors are one line), else the last non-empty line. *nlines gets
 * the number of lines of the log. 0, -ENOENT for an empty log, -errno. */
int results_error_line(const char *path, char *out, size_t outlen,
		       unsigned *nlines);

/*
 * runinfo.c: what a run was and how it went, beside its numbers: the
 * scenario, its seed, the date, the links' conditions; complete or
 * partial (interrupted, stopped, cut short by the duration, fewer
 * repetitions than asked), and why; and the accuracy of the emulation:
 * the agents' worst timer lateness (timing-HOST.csv) against one tick of
 * their play. Written to run.json, shown in the table, summary.json and
 * index.html.
 */
struct run_info {
	char scenario[64], path[PATH_MAX], mode[16];
	uint64_t seed;
	char date[40];		/* when the run started, UTC */
	unsigned repetitions;
	double duration_s;
	char links[1024];	/* "a<>b 'SPEC', ..." */
	char partial[512];	/* "" when complete, else why not */
	unsigned timing_files;	/* agents that reported their timers */
	double late_max_ms, tick_ms;
	char late_host[64];
	uint64_t bridge_lost;	/* frames the emulator lost on its own */
	int degraded;		/* late_max_ms > tick_ms, or bridge_lost */
};

/* The scenario's facts, the date now; complete until told otherwise.
 * mode: "emulation" or "simulation". */
void run_info_init(struct run_info *ri, const struct scenario *sc,
		   const char *mode);

/* Mark the run partial, adding a reason (joined with "; "). */
void run_info_partial(struct run_info *ri, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Read every timing-HOST.csv of the run (run_dir, or run_dir/rep-N):
 * the worst lateness and the tick, and mark the run partial when an
 * agent's play was cut off by a signal (and no other reason is known). */
void run_info_timing(struct run_info *ri, const char *run_dir,
		     unsigned repetitions);

/* "complete" or "partial". */
const char *run_info_status(const struct run_info *ri);

/* One sentence on the timers' accuracy (degraded, fine, not measured). */
void run_info_accuracy(const struct run_info *ri, char *buf, size_t len);

/* Its fields as members of a JSON object (each line ending ",\n"). */
void run_info_json_fields(FILE *f, const struct run_info *ri);

/* run_dir/run.json. 0 or -errno. */
int run_info_write(const char *run_dir, const struct run_info *ri);

/* The lines the terminal table gets: before it (before = 1) the partial
 * banner, after it the accuracy warning and the partial reminder. */
void run_info_print(FILE *f, const struct run_info *ri, int before);

/*
 * summary.c: the results of a run, aggregated. Every agent writes
 * metrics-HOST.csv into its repetition's directory (agents/io/metrics_io.c,
 * columns in docs/agents.md); summary_write reads them all and writes
 * summary.csv and summary.json into the run directory, one row per
 * predictor (with its parameters) and link condition: updates/s and
 * bytes/s per entity (each update counted once, not once per
 * destination), delivery ratio, mean/p50/p95/max position error and
 * the fraction of time over the error threshold, each as a mean over
 * repetitions with a 95% Student-t confidence interval, and prints the
 * same as a table (with the differing parameters when two rows share a
 * predictor). Library code: returns 0 or -errno, never logs.
 */

/* Aggregate run_dir (repetitions == 1: its metrics files; > 1: those of
 * run_dir/rep-1 .. rep-N). table_out, if not NULL, gets the table.
 * -ENOENT: no metrics file at all; -EIO, -ENOMEM. Malformed rows are
 * skipped and counted in the JSON ("malformed_rows"). */
int summary_write(const char *run_dir, unsigned repetitions, FILE *table_out);

/* The same with what the run was and how it went (ri may be NULL): its
 * fields go into summary.json, and the table says when the run is
 * partial or its emulation degraded. */
int summary_write_info(const char *run_dir, unsigned repetitions,
		       const struct run_info *ri, FILE *table_out);

/* Two-sided 95% quantile of Student's t with df degrees of freedom
 * (t such that P(T <= t) = 0.975); NAN for df == 0. */
double summary_t975(unsigned df);

/* Mean of n values and the half-width of its 95% confidence interval,
 * t975(n - 1) * s / sqrt(n) with s the sample standard deviation; the
 * half-width is NAN when n < 2. -EINVAL when n == 0. */
int summary_ci95(const double *x, size_t n, double *mean, double *half);

/*
 * plot.c, plot_html.c: plots and index.html of results. gnuplot
 * draws every figure as SVG and PNG (pngcairo, else libgd png); without
 * gnuplot a warning is logged, the figures are skipped and index.html
 * still shows the tables. Figures: for a run, the CDF of the per-entity
 * mean position error of each predictor (the metrics files hold
 * per-entity statistics, not per-frame samples); for a sweep, the mean
 * error, updates/s and bytes/s against every axis (drawn side by side),
 * one curve per predictor and per value of the other axes, with 95%
 * confidence intervals as error bars inside the y range (from 0, 8%
 * above the highest bar), x padded at both ends, on a log scale when
 * positive values span a factor of 20, and axes whose values differ in
 * unit drawn at value positions labelled with the values. A figure has
 * at most 16 curves; more go into further figures NAME-2, NAME-3, ...
 */

/* The gnuplot to run: $RECKON_GNUPLOT, else "gnuplot" from PATH; NULL
 * when there is none. */
const char *plot_gnuplot(void);

/* run_dir/plots/ and run_dir/index.html for a run with `repetitions`
 * repetitions (metrics in run_dir or run_dir/rep-N, summary.csv in
 * run_dir). Returns 0 (also when gnuplot is missing: figures skipped,
 * warned) or -errno. */
int plot_run(const char *run_dir, unsigned repetitions);

/* The same, with the run's facts on the page (ri may be NULL). */
int plot_run_info(const char *run_dir, unsigned repetitions,
		  const struct run_info *ri);

/* dir/plots/ and dir/index.html for a sweep directory with sweep.csv. */
int plot_sweep(const char *dir);

/* ---- plot_html.c ---- */

/* What index.html shows. */
struct plot_page {
	const char *title;	    /* "reckon run", "reckon sweep" */
	const struct run_info *ri;  /* the run's facts; NULL: none */
	const char *const *figs;    /* plots/NAME.svg, linked to the PNG */
	const char *const *captions;
	unsigned n;
	const char *csv;  /* summary.csv or sweep.csv (a file in dir) */
	const char *json; /* its JSON twin, linked; NULL: none */
	int link_points;  /* the first column is a sweep point: link it to
			   * points/pNNNNNN/index.html */
};

/* dir/index.html: the run's facts, the narrow summary table of pg->csv
 * (predictor x condition: updates/s, bytes/s, error mean and p95 with
 * their CIs), links to the raw files, the figures. 0 or -errno. */
int plot_html(const char *dir, const struct plot_page *pg);

/*
 * rundir.c: a run directory, opened and closed the same way by the
 * emulator and the simulator.
 */

struct results_run {
	char dir[PATH_MAX]; /* absolute once open */
	int log_fd;	    /* reckond.log, or -1 */
	struct run_info info; /* what the run is; mark it partial here */
};

/* Make sc's run directory (under sc->results_dir, relative to cwd when
 * cwd is not NULL), write scenario.ini into it and copy the log into its
 * reckond.log; run->info describes sc, mode "emulation" (the simulator
 * writes "simulation" over it). 0, or -errno (logged) when there is no
 * directory. */
int results_run_open(struct results_run *run, const struct scenario *sc,
		     const char *cwd);

/* The directory of repetition rep (1-based) into buf: rep-N/, made, when
 * nreps > 1, else the run directory. 0 or -errno (logged). */
int results_run_rep(const struct results_run *run, unsigned rep,
		    unsigned nreps, char *buf, size_t len);

/* After the last repetition with result (0, a host's exit status, or 1):
 * run.json from run->info and the agents' timing files; when 0,
 * summary.csv/json, the table on stdout and the plots, each saying when
 * the run is partial or its emulation degraded. No metrics at all
 * (-ENOENT) is no summary; any other summary error makes the result 1.
 * Logs the end (finished, PARTIAL, FAILED), releases the log; returns
 * the result. */
int results_run_close(struct results_run *run, const struct scenario *sc,
		      int result);

/* Stop copying the log into reckond.log (a run abandoned before its
 * close). */
void results_run_release(struct results_run *run);

/*
 * How a run is driven, shared by every kind of run (the emulator, the
 * simulator, a sweep's points).
 */
struct run_opts;

/* Runs sc in the emulator (reckond's run_scenario): a sweep reaches the
 * emulator through this hook, so the sweep library does not link it. */
typedef int (*run_emulate_fn)(const struct scenario *sc,
			      const struct run_opts *o, char *rundir,
			      size_t rundir_len);

struct run_opts {
	int verbose;
	int quiet;		 /* no progress line */
	const char *ctl_path;	 /* control socket; NULL = default */
	run_emulate_fn emulate;	 /* mode = emulate points; NULL: refused */
};

#endif
