/*
 * hitbox.c: capsule hitboxes and the hitscan trace of Lee's thesis
 * (Algorithm 1; section 5.2 notes that per-bone boxes made hit tests
 * "quite inaccurate" and that capsules are "more appropriate"). A body is
 * three capsules (head, torso, legs) per stance in a yaw-rotated frame at
 * the feet. The ray-capsule test solves |(o + t d) - axis point|^2 = r^2
 * on the infinite cylinder and falls back to the two end spheres when the
 * cylinder hit lies beyond the segment. Walls come from the map through
 * agents/world's grid line of sight (geom_los), so a wall between the
 * eye and the nearest body part stops the trace. The SBC test of section
 * 7.3 stores the impact offset in the body part's frame and carries it
 * onto the victim's pose at the time the hit arrives.
 */
#include <math.h>
#include <string.h>

#include "lagcomp/lagcomp.h"
#include "predict/vec3.h"
#include "world/geom.h"

static const struct lc_capsule body_default[2][LC_NPARTS] = {
	{
		[LC_PART_HEAD] = {{2, 0, 62}, {2, 0, 65}, 5},
		[LC_PART_TORSO] = {{0, 0, 40}, {0, 0, 54}, 11},
		[LC_PART_LEGS] = {{0, 0, 7}, {0, 0, 33}, 9},
	},
	{
		[LC_PART_HEAD] = {{4, 0, 45}, {4, 0, 48}, 5},
		[LC_PART_TORSO] = {{2, 0, 27}, {2, 0, 38}, 11},
		[LC_PART_LEGS] = {{0, 0, 7}, {0, 0, 18}, 9},
	},
};

void lc_body_default(struct lc_body *b)
{
	memcpy(b->part, body_default, sizeof(body_default));
	b->eye_z[0] = 64;
	b->eye_z[1] = 46;
}

static int stance(const struct lc_pose *p)
{
	return p->crouch ? 1 : 0;
}

/* world = feet + Rz(yaw) local, with c, s = cos, sin of the yaw */
static void to_world(const struct lc_pose *p, double c, double s,
		     const double l[3], double w[3])
{
	w[0] = p->x + c * l[0] - s * l[1];
	w[1] = p->y + s * l[0] + c * l[1];
	w[2] = l[2];
}

void lc_eye(const struct lc_body *b, const struct lc_pose *p, double e[3])
{
	v3_set(e, p->x, p->y, b->eye_z[stance(p)]);
}

void lc_part_world(const struct lc_body *b, const struct lc_pose *p, int part,
		   struct lc_capsule *out)
{
	const struct lc_capsule *c = &b->part[stance(p)][part];
	double co = 1, si = 0;

	/* a part on the body's vertical axis turns onto itself: the yaw
	 * only rotates zeros, so the sine and cosine are not needed */
	if (c->a[0] != 0 || c->a[1] != 0 || c->b[0] != 0 || c->b[1] != 0 ||
	    !isfinite(p->yaw)) {
		co = cos(p->yaw * M_PI / 180.0);
		si = sin(p->yaw * M_PI / 180.0);
	}

	to_world(p, co, si, c->a, out->a);
	to_world(p, co, si, c->b, out->b);
	out->r = c->r;
}

void lc_part_centre(const struct lc_body *b, const struct lc_pose *p, int part,
		    double c[3])
{
	struct lc_capsule w;

	lc_part_world(b, p, part, &w);
	v3_set(c, (w.a[0] + w.b[0]) / 2, (w.a[1] + w.b[1]) / 2,
	       (w.a[2] + w.b[2]) / 2);
}

/* Nearest t >= 0 where the ray meets the sphere (centre c, radius r). */
static double ray_sphere(const double o[3], const double d[3],
			 const double c[3], double r)
{
	double oc[3], a = v3_dot(d, d), b, cc, h, t;

	v3_sub(oc, o, c);
	b = v3_dot(d, oc);
	cc = v3_dot(oc, oc) - r * r;
	if (cc <= 0 || a <= 0)
		return -1; /* starts inside, or no direction */
	h = b * b - a * cc;
	if (h < 0)
		return -1;
	t = (-b - sqrt(h)) / a;
	return t >= 0 ? t : -1;
}

static double min_pos(double a, double b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

double lc_ray_capsule(const double o[3], const double d[3],
		      const struct lc_capsule *c)
{
	double ba[3], oa[3], baba, bard, baoa, rdoa, oaoa, dd, a, b, k, h, t, y;

	v3_sub(ba, c->b, c->a);
	v3_sub(oa, o, c->a);
	baba = v3_dot(ba, ba);
	bard = v3_dot(ba, d);
	baoa = v3_dot(ba, oa);
	rdoa = v3_dot(d, oa);
	oaoa = v3_dot(oa, oa);
	dd = v3_dot(d, d);
	if (baba <= 0)
		return ray_sphere(o, d, c->a, c->r);
	/* inside the capsule: closest axis point within r */
	y = fmax(0, fmin(1, baoa / baba));
	{
		double q[3];

		v3_axpy(q, c->a, y, ba);
		if (v3_dist(o, q) <= c->r)
			return -1;
	}
	a = baba * dd - bard * bard;
	b = baba * rdoa - baoa * bard;
	k = baba * oaoa - baoa * baoa - c->r * c->r * baba;
	if (a > 1e-12 * baba * dd) {
		h = b * b - a * k;
		if (h < 0)
			return -1; /* misses the infinite cylinder */
		t = (-b - sqrt(h)) / a;
		y = baoa + t * bard;
		if (t >= 0 && y > 0 && y < baba)
			return t;
	}
	/* the side was missed or hit beyond an end: the end spheres */
	return min_pos(ray_sphere(o, d, c->a, c->r),
		       ray_sphere(o, d, c->b, c->r));
}

void lc_aim_dir(double yaw, double pitch, double d[3])
{
	double cy = cos(yaw * M_PI / 180.0), sy = sin(yaw * M_PI / 180.0);
	double cp = cos(pitch * M_PI / 180.0), sp = sin(pitch * M_PI / 180.0);

	v3_set(d, cp * cy, cp * sy, sp);
}

/* How far from a pose's vertical axis any of b's parts reaches. */
static double body_reach(const struct lc_body *b)
{
	double reach = 0;

	for (int st = 0; st < 2; st++)
		for (int k = 0; k < LC_NPARTS; k++) {
			const struct lc_capsule *c = &b->part[st][k];
			double r = fmax(hypot(c->a[0], c->a[1]),
					hypot(c->b[0], c->b[1])) +
				   c->r;

			reach = fmax(reach, r);
		}
	return reach;
}

/* Whether the ray from o along d stays, in the ground plane, farther than
 * reach from the point (x, y): then it meets no part of a body standing
 * there. The margin of a unit is far above the rounding of the capsule
 * test, so a body this passes over could not have been hit; a
 * non-finite pose is never passed over. */
static int passes_far(const double o[3], const double d[3], double x, double y,
		      double reach)
{
	double px = x - o[0], py = y - o[1], l2 = d[0] * d[0] + d[1] * d[1];
	double s = l2 > 0 ? (px * d[0] + py * d[1]) / l2 : 0, qx, qy;

	if (s < 0)
		s = 0;
	qx = px - s * d[0];
	qy = py - s * d[1];
	return qx * qx + qy * qy > (reach + 1) * (reach + 1);
}

int lc_trace(const struct map *m, const struct lc_body *b, const double eye[3],
	     const double dir[3], double maxd, const struct lc_pose *poses,
	     const uint8_t *alive, int n, int skip, struct lc_trace_hit *out)
{
	struct lc_trace_hit best = {.victim = -1, .t = maxd};
	double reach = body_reach(b);

	for (int i = 0; i < n; i++) {
		if (i == skip || (alive && !alive[i]) ||
		    passes_far(eye, dir, poses[i].x, poses[i].y, reach))
			continue;
		for (int k = 0; k < LC_NPARTS; k++) {
			struct lc_capsule c;
			double t;

			lc_part_world(b, &poses[i], k, &c);
			t = lc_ray_capsule(eye, dir, &c);
			if (t >= 0 && t <= best.t) {
				best.victim = i;
				best.part = k;
				best.t = t;
			}
		}
	}
	if (best.victim < 0)
		return 0;
	v3_axpy(best.point, eye, best.t, dir);
	/* walls are full height: the ground-plane segment must be clear */
	if (!geom_los(m, eye[0], eye[1], best.point[0], best.point[1]))
		return 0;
	*out = best;
	return 1;
}

void lc_offset_local(const struct lc_body *b, const struct lc_pose *judged,
		     int part, const double point[3], double v_local[3])
{
	double c0[3], v[3], cy, sy;

	lc_part_centre(b, judged, part, c0);
	v3_sub(v, point, c0);
	cy = cos(judged->yaw * M_PI / 180.0);
	sy = sin(judged->yaw * M_PI / 180.0);
	/* R(-yaw) v */
	v_local[0] = cy * v[0] + sy * v[1];
	v_local[1] = -sy * v[0] + cy * v[1];
	v_local[2] = v[2];
}

void lc_offset_apply(const struct lc_body *b, const struct lc_pose *now,
		     int part, const double v_local[3], double point[3])
{
	double c[3], cy = cos(now->yaw * M_PI / 180.0),
		     sy = sin(now->yaw * M_PI / 180.0);

	lc_part_centre(b, now, part, c);
	point[0] = c[0] + cy * v_local[0] - sy * v_local[1];
	point[1] = c[1] + sy * v_local[0] + cy * v_local[1];
	point[2] = c[2] + v_local[2];
}

int lc_sbc(const struct map *m, const struct lc_body *b,
	   const struct lc_pose *victim_now, int part, const double v_local[3],
	   const double shooter_eye[3])
{
	double b1[3];

	lc_offset_apply(b, victim_now, part, v_local, b1);
	return !geom_los(m, shooter_eye[0], shooter_eye[1], b1[0], b1[1]);
}
