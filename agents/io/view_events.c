/*
 * view_events.c: an fps-server's shots as the viewer's events file,
 * RUN_DIR/events-HOST.csv (format in docs/viewer.md): one row per
 * verdict with the ray the server traced (shooter's eye to impact, or
 * to the trace distance on a miss) and the victim's judged position, so
 * that `reckonctl view` draws shots behind cover as rays on the map.
 */
#include <limits.h>
#include <stdio.h>

#include "lagcomp_io.h"

/* sbc: a registered hit the victim saw from behind cover (its SBC test
 * on arrival said so); hit: registered; denied: a victim, not registered;
 * miss: no victim. */
static const char *kind(const struct lc_verdict *v)
{
	if (v->victim < 0)
		return "miss";
	if (!v->registered)
		return "denied";
	return v->sbc == 1 ? "sbc" : "hit";
}

int lagcomp_events_write(const struct shell_opts *o, const struct lc_server *s)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	FILE *f;
	int err =
		open_tmp(o, "events", path, sizeof(path), tmp, sizeof(tmp), &f);

	if (err)
		return err;
	fputs("t_s,kind,shooter,victim,x0,y0,x1,y1,vx,vy\n", f);
	for (size_t i = 0; i < s->nv; i++) {
		const struct lc_verdict *v = &s->v[i];
		const double *at = v->victim >= 0 ? v->victim_xy : v->end;

		fprintf(f, "%.3f,%s,%d,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n",
			(double)v->recv_ns * 1e-9, kind(v), v->shooter,
			v->victim, v->eye[0], v->eye[1], v->end[0], v->end[1],
			at[0], at[1]);
	}
	return close_rename(f, tmp, path);
}
