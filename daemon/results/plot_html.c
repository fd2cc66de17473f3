/*
 * plot_html.c: index.html of a run or sweep directory: the figures that
 * plot.c drew (each SVG inline as an <img>, linked to its PNG) with
 * their captions, then a CSV of the directory (summary.csv or sweep.csv)
 * as an HTML table, every cell escaped. In a sweep the point column
 * links to each point's own index.html.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"

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

/* Columns of a table shown; a sweep's rows have its axes and the summary's
 * columns, far fewer. */
#define TABLE_COLS 256

static void table(FILE *f, const char *path, int link_col)
{
	char *line = NULL;
	size_t cap = 0;
	int first = 1;
	FILE *in = fopen(path, "r");

	if (in == NULL) {
		fputs("<p>(no table: ", f);
		esc(f, path);
		fputs(" is missing)</p>\n", f);
		return;
	}
	fputs("<table>\n", f);
	while (getline(&line, &cap, in) > 0) {
		char *cell[TABLE_COLS];
		size_t n = results_split_csv(line, cell, TABLE_COLS);

		fputs("<tr>", f);
		for (size_t col = 0; col < n && col < TABLE_COLS; col++) {
			fputs(first ? "<th>" : "<td>", f);
			if (!first && (int)col == link_col) {
				fprintf(f,
					"<a "
					"href=\"points/p%06llu/index.html\">",
					strtoull(cell[col], NULL, 10));
				esc(f, cell[col]);
				fputs("</a>", f);
			} else {
				esc(f, cell[col]);
			}
			fputs(first ? "</th>" : "</td>", f);
		}
		fputs("</tr>\n", f);
		first = 0;
	}
	fputs("</table>\n", f);
	free(line);
	fclose(in);
}

int plot_html(const char *dir, const char *title, const char *const *figs,
	      const char *const *captions, unsigned n, const char *csv,
	      int link_col)
{
	char path[PATH_MAX], tmp[PATH_MAX], src[PATH_MAX];
	FILE *f;

	if (results_path(path, sizeof(path), "%s/index.html", dir) < 0 ||
	    results_path(tmp, sizeof(tmp), "%s/index.html.tmp", dir) < 0 ||
	    results_path(src, sizeof(src), "%s/%s", dir, csv) < 0)
		return -ENAMETOOLONG;
	if ((f = fopen(tmp, "w")) == NULL)
		return -errno;
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>",
	      f);
	esc(f, title);
	fputs("</title>\n<style>body{font-family:sans-serif;margin:1em}"
	      "table{border-collapse:collapse;font-size:small}"
	      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
	      "figure{display:inline-block;margin:0.5em}"
	      "figcaption{max-width:820px}</style>\n</head><body>\n<h1>",
	      f);
	esc(f, title);
	fputs("</h1>\n", f);
	if (n == 0)
		fputs("<p>No figures (gnuplot missing or nothing to plot; "
		      "see the log).</p>\n",
		      f);
	for (unsigned i = 0; i < n; i++) {
		fputs("<figure><a href=\"plots/", f);
		esc(f, figs[i]);
		fputs(".png\"><img src=\"plots/", f);
		esc(f, figs[i]);
		fputs(".svg\" width=\"820\" alt=\"", f);
		esc(f, figs[i]);
		fputs("\"></a><figcaption>", f);
		esc(f, captions[i]);
		fputs("</figcaption></figure>\n", f);
	}
	fputs("<h2>", f);
	esc(f, csv);
	fputs("</h2>\n<p>Means over repetitions; *_ci95 columns are the "
	      "half-widths of 95% Student-t confidence intervals.</p>\n",
	      f);
	table(f, src, link_col);
	fputs("</body></html>\n", f);
	if (ferror(f) | fclose(f) || rename(tmp, path) < 0) {
		unlink(tmp);
		return -EIO;
	}
	return 0;
}
