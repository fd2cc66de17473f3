/*
 * plot.h: plots and index.html of results (plot.c, plot_html.c). gnuplot
 * draws every figure as SVG and PNG (pngcairo, else libgd png); without
 * gnuplot a warning is logged, the figures are skipped and index.html
 * still shows the tables. Figures: for a run, the CDF of the per-entity
 * mean position error of each predictor (the metrics files hold
 * per-entity statistics, not per-frame samples); for a sweep, the error
 * against every link axis and the updates/s and error against every
 * predictor-parameter axis, one curve per predictor and per value of the
 * other axes, with 95% confidence intervals as error bars. A figure has
 * at most 16 curves; more go into further figures NAME-2, NAME-3, ...
 */
#ifndef RECKON_PLOT_H
#define RECKON_PLOT_H

/* The gnuplot to run: $RECKON_GNUPLOT, else "gnuplot" from PATH; NULL
 * when there is none. */
const char *plot_gnuplot(void);

/* run_dir/plots/ and run_dir/index.html for a run with `repetitions`
 * repetitions (metrics in run_dir or run_dir/rep-N, summary.csv in
 * run_dir). Returns 0 (also when gnuplot is missing: figures skipped,
 * warned) or -errno. */
int plot_run(const char *run_dir, unsigned repetitions);

/* dir/plots/ and dir/index.html for a sweep directory with sweep.csv. */
int plot_sweep(const char *dir);

/* ---- plot_html.c ---- */

/* index.html of a directory: title, the figures plots/NAME.svg for each
 * of the n names (linked to the PNG), and csv (a file in dir) as a
 * table. link_col, when >= 0, is a column holding a grid point whose
 * cells link to points/pNNNNNN/index.html. 0 or -errno. */
int plot_html(const char *dir, const char *title, const char *const *figs,
	      const char *const *captions, unsigned n, const char *csv,
	      int link_col);

#endif
