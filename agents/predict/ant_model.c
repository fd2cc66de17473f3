/*
 * ant_model.c: the kinematics of AntReckoning and of its baseline (paper
 * 001): the exponentially weighted estimates of velocity and
 * acceleration of eq. 3 (the weight on the newest sample; acceleration
 * from the smoothed velocities), and the second-order motion equation
 * of eq. 5, x + v d + ((1 - alpha) a + alpha F / m) d^2 / 2, with the
 * optional post-processing of §5.3: a cap on the force's displacement
 * (extraction §6.18: |alpha F d^2 / 2m| <= kappa |v d|), a speed cap and
 * truncation at the first obstacle. Pure.
 */
#include <math.h>
#include <string.h>

#include "predict/ant.h"
#include "predict/vec3.h"

void ant_ewma_step(struct ant_ewma *e, const double x[2], double dt, double av,
		   double aa)
{
	double v[2];

	if (e->n == 0 || !(dt > 0)) {
		if (e->n == 0)
			memset(e, 0, sizeof(*e));
		e->x[0] = x[0];
		e->x[1] = x[1];
		e->n++;
		return;
	}
	for (int i = 0; i < 2; i++) {
		v[i] = av * (x[i] - e->x[i]) / dt + (1.0 - av) * e->v[i];
		e->a[i] = aa * (v[i] - e->v[i]) / dt + (1.0 - aa) * e->a[i];
		e->v[i] = v[i];
		e->x[i] = x[i];
	}
	e->n++;
}

/* Shorten the displacement d (from pos) to stop before the first wall:
 * the largest visible fraction found by 10 bisections (1/1024). */
static void truncate_at_wall(const struct ant_motion *m,
			     const struct predict_map_view *map, double d[2])
{
	double to[3] = {m->pos[0] + d[0], m->pos[1] + d[1], m->pos[2]};
	double lo = 0, hi = 1;

	if (!map || !map->los || map->los(map->world, m->pos, to))
		return;
	for (int it = 0; it < 10; it++) {
		double f = 0.5 * (lo + hi);

		to[0] = m->pos[0] + f * d[0];
		to[1] = m->pos[1] + f * d[1];
		if (map->los(map->world, m->pos, to))
			lo = f;
		else
			hi = f;
	}
	d[0] *= lo;
	d[1] *= lo;
}

void ant_motion_eval(const struct ant_motion *m, const struct ant_post *pp,
		     double tau, double out[3], double vel[3])
{
	double fd[2], d[2], h = 0.5 * tau * tau;

	for (int i = 0; i < 2; i++)
		fd[i] = m->force[i] * h;
	if (pp && pp->on) {
		double lim = pp->kappa * hypot(m->vel[0], m->vel[1]) * tau;
		double n = hypot(fd[0], fd[1]);

		if (n > lim) {
			fd[0] *= n > 0 ? lim / n : 0;
			fd[1] *= n > 0 ? lim / n : 0;
		}
	}
	for (int i = 0; i < 2; i++)
		d[i] = m->vel[i] * tau + m->acc[i] * h + fd[i];
	if (pp && pp->on) {
		double n = hypot(d[0], d[1]), lim = pp->v_max * tau;

		if (pp->v_max > 0 && n > lim) {
			d[0] *= lim / n;
			d[1] *= lim / n;
		}
		truncate_at_wall(m, pp->map, d);
	}
	out[0] = m->pos[0] + d[0];
	out[1] = m->pos[1] + d[1];
	out[2] = m->pos[2] + m->vel[2] * tau;
	if (vel) {
		for (int i = 0; i < 2; i++)
			vel[i] = m->vel[i] + (m->acc[i] + m->force[i]) * tau;
		vel[2] = m->vel[2];
	}
}
