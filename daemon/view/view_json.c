/*
 * view_json.c: the run data of `reckonctl view` as the page's JSON. Frame
 * samples are grouped into one series per lane and entity and the true
 * path into one per entity; arrivals into one series per lane and entity
 * sorted by sequence number, where every missing number between two that
 * arrived is a lost update, placed at a send time interpolated between
 * its neighbours'. A series longer than max_points keeps every k-th
 * point (k = ceil(n / max_points)), losses are all kept: this is the
 * decimation that keeps the page fast on a long run. Strings go through
 * the one JSON string writer with '<' escaped, so no name can close the
 * page's script element.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "view_int.h"

static int cmp_frame(const void *a, const void *b)
{
	const struct view_frame *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->entity != y->entity)
		return x->entity < y->entity ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

static int cmp_arrival(const void *a, const void *b)
{
	const struct view_arrival *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->entity != y->entity)
		return x->entity < y->entity ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->recv < y->recv ? -1 : x->recv > y->recv;
}

static void put_safe(void *arg, const char *s, size_t n)
{
	FILE *f = arg;

	for (size_t i = 0; i < n; i++)
		if (s[i] == '<')
			fputs("\\u003c", f);
		else
			fputc(s[i], f);
}

void view_json_str(FILE *f, const char *s)
{
	json_write_str(s, put_safe, f);
}

static size_t stride(size_t n, size_t max)
{
	return max && n > max ? (n + max - 1) / max : 1;
}

/* One array of member off (a double) of rows [i, j) every k-th. */
#define ARRAY(f, name, rows, i, j, k, member, fmt)                             \
	do {                                                                   \
		fprintf(f, ",\"%s\":[", name);                                 \
		for (size_t q_ = (i); q_ < (j); q_ += (k))                     \
			fprintf(f, q_ == (i) ? fmt : "," fmt,                  \
				(rows)[q_].member);                            \
		fputc(']', f);                                                 \
	} while (0)

static void frames_json(FILE *f, struct view_data *d, size_t max)
{
	size_t first = 1;

	fputs(",\"fr\":[", f);
	for (size_t i = 0, j; i < d->n_fr; i = j) {
		size_t k;

		for (j = i; j < d->n_fr && d->fr[j].lane == d->fr[i].lane &&
			    d->fr[j].entity == d->fr[i].entity;
		     j++)
			;
		k = stride(j - i, max);
		fprintf(f, "%s{\"l\":%d,\"e\":%ld", first ? "" : ",",
			d->fr[i].lane, d->fr[i].entity);
		ARRAY(f, "t", d->fr, i, j, k, t, "%.2f");
		ARRAY(f, "x", d->fr, i, j, k, sx, "%.1f");
		ARRAY(f, "y", d->fr, i, j, k, sy, "%.1f");
		ARRAY(f, "tx", d->fr, i, j, k, tx, "%.1f");
		ARRAY(f, "ty", d->fr, i, j, k, ty, "%.1f");
		ARRAY(f, "er", d->fr, i, j, k, err, "%.1f");
		fputc('}', f);
		first = 0;
	}
	fputc(']', f);
}

/* Lost sequence numbers of rows [i, j) (sorted by seq), with their
 * interpolated send times. */
static void losses_json(FILE *f, const struct view_arrival *a, size_t i,
			size_t j, size_t *n_lost)
{
	int first = 1;

	fputs(",\"lost\":[", f);
	for (size_t q = i + 1; q < j; q++) {
		long long gap = a[q].seq - a[q - 1].seq;

		for (long long s = 1; s < gap; s++) {
			double t = a[q - 1].send + (a[q].send - a[q - 1].send) *
							   (double)s /
							   (double)gap;

			fprintf(f, first ? "%.3f" : ",%.3f", t);
			first = 0;
			(*n_lost)++;
		}
	}
	fputc(']', f);
}

static void arrivals_json(FILE *f, struct view_data *d, size_t max,
			  size_t *n_lost)
{
	size_t first = 1;

	fputs(",\"ar\":[", f);
	for (size_t i = 0, j; i < d->n_ar; i = j) {
		size_t k;

		for (j = i; j < d->n_ar && d->ar[j].lane == d->ar[i].lane &&
			    d->ar[j].entity == d->ar[i].entity;
		     j++)
			;
		k = stride(j - i, max);
		fprintf(f, "%s{\"l\":%d,\"e\":%ld", first ? "" : ",",
			d->ar[i].lane, d->ar[i].entity);
		ARRAY(f, "t", d->ar, i, j, k, recv, "%.3f");
		ARRAY(f, "s", d->ar, i, j, k, send, "%.3f");
		ARRAY(f, "x", d->ar, i, j, k, x, "%.1f");
		ARRAY(f, "y", d->ar, i, j, k, y, "%.1f");
		ARRAY(f, "r", d->ar, i, j, k, result, "%d");
		losses_json(f, d->ar, i, j, n_lost);
		fprintf(f, ",\"n\":%zu}", j - i);
		first = 0;
	}
	fputc(']', f);
}

static void grids_json(FILE *f, const struct view_data *d)
{
	fputs(",\"grids\":[", f);
	for (size_t i = 0; i < d->n_grid; i++) {
		const struct view_grid_in *g = &d->grid[i];
		int first = 1;

		fprintf(f, "%s{\"name\":", i ? "," : "");
		view_json_str(f, g->name);
		fputs(",\"kind\":", f);
		view_json_str(f, g->kind);
		fprintf(f,
			",\"x0\":%.1f,\"y0\":%.1f,\"x1\":%.1f,\"y1\":%.1f,"
			"\"nx\":%d,\"ny\":%d,\"c\":[",
			g->x0, g->y0, g->x1, g->y1, g->nx, g->ny);
		for (size_t c = 0; c < (size_t)g->nx * (size_t)g->ny; c++) {
			if (isnan(g->value[c]))
				continue;
			fprintf(f, "%s%zu,%zu,%.4g,%.1f,%.1f", first ? "" : ",",
				c % (size_t)g->nx, c / (size_t)g->nx,
				g->value[c], g->u[c], g->v[c]);
			first = 0;
		}
		fputs("]}", f);
	}
	fputc(']', f);
}

static void events_json(FILE *f, const struct view_data *d)
{
	fputs(",\"ev\":[", f);
	for (size_t i = 0; i < d->n_ev; i++) {
		const struct view_event *e = &d->ev[i];

		fprintf(f, "%s[%.3f,", i ? "," : "", e->v[0]);
		view_json_str(f, e->kind);
		fprintf(f, ",%ld,%ld", e->shooter, e->victim);
		for (int k = 1; k < 7; k++)
			fprintf(f, ",%.1f", e->v[k]);
		fputc(']', f);
	}
	fputc(']', f);
}

/* The series present: lane of observer host, with the lane's predictor. */
static void lanes_json(FILE *f, const struct view_data *d)
{
	int first = 1;

	fputs("\"lanes\":[", f);
	for (int l = 0; l < VIEW_MAX_SERIES; l++) {
		int used = 0;

		for (size_t i = 0; i < d->n_fr && !used; i++)
			used = d->fr[i].lane == l;
		if (!used)
			continue;
		fprintf(f, "%s{\"lane\":%d,\"index\":%d,\"host\":",
			first ? "" : ",", l, l % VIEW_MAX_LANES);
		view_json_str(f, d->host[l / VIEW_MAX_LANES]);
		fputs(",\"name\":", f);
		view_json_str(f, d->lane_name[l][0] ? d->lane_name[l] : "?");
		fputs(",\"params\":", f);
		view_json_str(f, d->lane_params[l]);
		fputc('}', f);
		first = 0;
	}
	fputc(']', f);
}

void view_json_write(FILE *f, struct view_data *d, size_t max_points)
{
	size_t n_lost = 0;

	if (d->n_fr)
		qsort(d->fr, d->n_fr, sizeof(*d->fr), cmp_frame);
	if (d->n_ar)
		qsort(d->ar, d->n_ar, sizeof(*d->ar), cmp_arrival);
	fputc('{', f);
	lanes_json(f, d);
	frames_json(f, d, max_points);
	arrivals_json(f, d, max_points, &n_lost);
	grids_json(f, d);
	events_json(f, d);
	fprintf(f,
		",\"counts\":{\"frames\":%zu,\"arrivals\":%zu,\"lost\":%zu,"
		"\"events\":%zu,\"bad_rows\":%zu,\"max_points\":%zu}}",
		d->n_fr, d->n_ar, n_lost, d->n_ev, d->bad_rows, max_points);
}
