/*
 * view_rec.c: what an observer records for `reckonctl view` when asked
 * with --samples HZ (docs/viewer.md has the formats and their size).
 * frames-HOST.csv holds, for every lane and entity, the displayed and
 * the true X-Y position and the 3-D error at one frame per 1/HZ seconds
 * (the first frame at or after each multiple of the period: decimated
 * here, before writing, so a 10-minute run stays small);
 * arrivals-HOST.csv holds every update of a known entity that arrived,
 * with its sequence number (gaps are lost updates) and what the observer
 * did with it; grid-HOST.csv holds the led trend map of each team when a
 * lane runs led reckoning. A player with --samples writes its own
 * grid-HOST.csv at the end of the run: the grid each lane's sender keeps
 * (AntReckoning's pheromone map) for the first entity it plays. The
 * files are written to temporary names while the run goes and renamed
 * when it ends.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_io.h"
#include "role/observer.h"
#include "role/player.h"

struct view_file {
	FILE *f;
	char path[PATH_MAX], tmp[PATH_MAX + 32];
};

struct view_rec {
	const struct role_truth *tr;
	size_t n_lanes;
	int64_t period_ns;
	int64_t *next; /* next frame time to record, per entity x lane */
	struct view_file frames, arrivals;
};

static const char *result_name(int r)
{
	switch (r) {
	case 0:
		return "applied";
	case -ENOENT:
		return "unmatched";
	case -ESTALE:
		return "stale";
	default:
		return "rejected";
	}
}

static void on_frame(void *arg, const struct role_frame *fr)
{
	struct view_rec *r = arg;
	long e = role_truth_entity_index(r->tr, fr->entity);
	int64_t *next;

	if (e < 0 || !r->frames.f)
		return;
	next = &r->next[(size_t)e * r->n_lanes + fr->lane];
	if (fr->t_ns < *next)
		return;
	*next = (fr->t_ns / r->period_ns + 1) * r->period_ns;
	fprintf(r->frames.f, "%u,%u,%.3f,%.1f,%.1f,%.1f,%.1f,%.2f\n",
		(unsigned)fr->lane, (unsigned)fr->entity,
		(double)fr->t_ns * 1e-9, fr->shown[0], fr->shown[1],
		fr->truth[0], fr->truth[1], fr->err);
}

static void on_arrival(void *arg, const struct role_arrival *a)
{
	struct view_rec *r = arg;

	if (!r->arrivals.f)
		return;
	fprintf(r->arrivals.f, "%u,%u,%u,%.6f,%.6f,%.1f,%.1f,%s\n",
		(unsigned)a->lane, (unsigned)a->entity, (unsigned)a->seq,
		(double)a->send_ns * 1e-9, (double)a->recv_ns * 1e-9, a->pos[0],
		a->pos[1], result_name(a->result));
}

void view_grid_header(FILE *f)
{
	fputs("grid,kind,x0,y0,x1,y1,nx,ny,ix,iy,value,u,v\n", f);
}

void view_grid_cell(FILE *f, const struct view_grid *g, int ix, int iy,
		    double value, double u, double v)
{
	fprintf(f, "%s,%s,%.1f,%.1f,%.1f,%.1f,%d,%d,%d,%d,%.4g,%.1f,%.1f\n",
		g->name, g->kind, g->x0, g->y0, g->x1, g->y1, g->nx, g->ny, ix,
		iy, value, u, v);
}

/* One trend map as grid rows: value = samples in the cell, (u, v) their
 * mean velocity. */
static void trend_rows(FILE *f, const char *name, const struct predict_trend *m)
{
	struct view_grid g = {name,  "trend", m->x0, m->y0,
			      m->x1, m->y1,   m->nx, m->ny};

	for (int iy = 0; iy < m->ny; iy++)
		for (int ix = 0; ix < m->nx; ix++) {
			size_t c = (size_t)iy * (size_t)m->nx + (size_t)ix;
			double n = (double)m->n[c];

			if (m->n[c])
				view_grid_cell(f, &g, ix, iy, n,
					       (double)m->sx[c] / 65536.0 / n,
					       (double)m->sy[c] / 65536.0 / n);
		}
}

static int uses_led(const struct shell_opts *o)
{
	for (size_t l = 0; l < o->n_lanes; l++)
		if (!strcmp(o->lanes[l].p->name, "led"))
			return 1;
	return 0;
}

/* The trend map of each team (of all teams without a team filter): the
 * run's own truth, whole, or the training session's map that every path
 * of the team got. */
static int trend_grids(const struct shell_opts *o, const struct role_truth *tr)
{
	const struct replay_set *set = &tr->set;
	int trained = o->train_path || o->train_s > 0;
	struct view_file g;
	int seen[256] = {0}, err = 0;

	err = open_tmp(o, "grid", g.path, sizeof(g.path), g.tmp, sizeof(g.tmp),
		       &g.f);
	if (err)
		return err;
	view_grid_header(g.f);
	for (size_t i = 0; !err && i < set->n_paths; i++) {
		int team = tr->opts.team_filter ? set->path[i].team : -1;
		struct predict_trend m;
		char name[48];

		if (seen[team & 0xff]++)
			continue;
		if (team >= 0)
			snprintf(name, sizeof(name), "led trend team %d", team);
		else
			snprintf(name, sizeof(name), "led trend");
		if (trained) {
			trend_rows(g.f, name, &tr->trend[i]);
			continue;
		}
		err = replay_trend_build(set, team, &tr->opts, &m);
		if (!err) {
			trend_rows(g.f, name, &m);
			predict_trend_free(&m);
		}
	}
	if (err) {
		fclose(g.f);
		unlink(g.tmp);
		return err;
	}
	return close_rename(g.f, g.tmp, g.path);
}

/* One sender grid as rows: value = the cell's value, no vector. */
static void sender_rows(FILE *f, const char *name,
			const struct predict_grid *pg)
{
	struct view_grid g = {name,   pg->kind, pg->x0, pg->y0,
			      pg->x1, pg->y1,	pg->nx, pg->ny};

	for (int iy = 0; iy < pg->ny; iy++)
		for (int ix = 0; ix < pg->nx; ix++) {
			double v = pg->v[(size_t)iy * (size_t)pg->nx + ix];

			if (v != 0)
				view_grid_cell(f, &g, ix, iy, v, 0, 0);
		}
}

int view_player_grids(const struct shell_opts *o, const struct role_player *pl)
{
	struct predict_grid pg[ROLE_MAX_LANES];
	uint32_t ent[ROLE_MAX_LANES];
	int have[ROLE_MAX_LANES] = {0}, any = 0, err;
	struct view_file g;

	if (!(o->samples_hz > 0) || !pl)
		return 0;
	for (size_t l = 0; l < o->n_lanes && l < ROLE_MAX_LANES; l++)
		any |= have[l] = !role_player_grid(pl, l, &pg[l], &ent[l]);
	if (!any)
		return 0;
	err = open_tmp(o, "grid", g.path, sizeof(g.path), g.tmp, sizeof(g.tmp),
		       &g.f);
	if (err)
		return err;
	view_grid_header(g.f);
	for (size_t l = 0; l < o->n_lanes && l < ROLE_MAX_LANES; l++) {
		char name[96];

		if (!have[l])
			continue;
		snprintf(name, sizeof(name), "%s %s entity %u", o->lane_name[l],
			 pg[l].kind, (unsigned)ent[l]);
		sender_rows(g.f, name, &pg[l]);
	}
	return close_rename(g.f, g.tmp, g.path);
}

static void file_drop(struct view_file *v)
{
	if (v->f) {
		fclose(v->f);
		unlink(v->tmp);
		v->f = NULL;
	}
}

int view_rec_open(const struct shell_opts *o, const struct role_truth *tr,
		  struct view_rec **out)
{
	struct view_rec *r;
	size_t n = (tr->n_entities ? tr->n_entities : 1) * o->n_lanes;
	int err;

	*out = NULL;
	if (o->role != SHELL_OBSERVER || !(o->samples_hz > 0))
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->next = calloc(n, sizeof(*r->next)))) {
		free(r);
		return -ENOMEM;
	}
	r->tr = tr;
	r->n_lanes = o->n_lanes;
	r->period_ns = (int64_t)(1e9 / o->samples_hz);
	if (r->period_ns < 1)
		r->period_ns = 1;
	err = open_tmp(o, "frames", r->frames.path, sizeof(r->frames.path),
		       r->frames.tmp, sizeof(r->frames.tmp), &r->frames.f);
	if (!err)
		err = open_tmp(o, "arrivals", r->arrivals.path,
			       sizeof(r->arrivals.path), r->arrivals.tmp,
			       sizeof(r->arrivals.tmp), &r->arrivals.f);
	if (!err && uses_led(o))
		err = trend_grids(o, tr);
	if (err) {
		view_rec_close(r, 0);
		return err;
	}
	fputs("lane,entity,t_s,shown_x,shown_y,true_x,true_y,err\n",
	      r->frames.f);
	fputs("lane,entity,seq,send_s,recv_s,x,y,result\n", r->arrivals.f);
	*out = r;
	return 0;
}

void view_rec_hook(struct view_rec *r, struct role_observer *ob)
{
	if (r)
		role_observer_watch(ob, on_frame, r, on_arrival, r);
}

int view_rec_close(struct view_rec *r, int commit)
{
	struct view_file *v[2];
	int err = 0;

	if (!r)
		return 0;
	v[0] = &r->frames;
	v[1] = &r->arrivals;
	for (size_t i = 0; i < 2; i++) {
		if (!commit || err) {
			file_drop(v[i]);
			continue;
		}
		if (v[i]->f)
			err = close_rename(v[i]->f, v[i]->tmp, v[i]->path);
		v[i]->f = NULL;
	}
	free(r->next);
	free(r);
	return err;
}
