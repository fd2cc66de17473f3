/*
 * update_espdu.c: struct predict_update <-> struct reckon_espdu (see
 * update_espdu.h). The predictor record's blob is the update's reason in
 * its first octet followed by the predictor's own blob (up to 15 octets,
 * the size of the DIS "DR other parameters" field it was sized for). The
 * DIS DR other parameters field itself stays type 0 (none).
 *
 * Frames. G is the game world (x, y, z up), B the game body (x forward,
 * y left, z up), R0 = dr_r0(ori) the G -> B rotation, C = diag(1, -1, -1)
 * the game body -> DIS body (x forward, y right, z down) rotation (a half
 * turn about x). Without geographic placement the DIS world is G itself;
 * with it, a point p of G is o + s F p in ECEF (o the origin, s metres per
 * unit, F = reckon_enu_to_ecef, game x/y/z = east/north/up). On the wire:
 *   location          o + s F p            (p without placement)
 *   velocity  *W      s F v                *B: s C R0 v (IEEE 1278.1
 *   accel.    *W      s F a                *B: s C A_b   body axes)
 *   angular velocity  C w
 *   orientation       Euler angles of M = C R0 F' (the world -> DIS body
 *                     rotation); without placement F = I and M = C R0 is
 *                     (psi, theta, phi + pi) exactly, so that is used.
 * The reverse undoes each step; R0 of the reverse comes from the decoded
 * orientation.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "predict/dr.h"
#include "predict/vec3.h"
#include "role/update_espdu.h"

struct frame {
	int geo;
	double o[3], f[3][3], s;
};

static int frame_of(const struct reckon_geo *g, struct frame *fr)
{
	memset(fr, 0, sizeof(*fr));
	fr->s = 1;
	if (!g || !g->on)
		return 0;
	if (reckon_geo_check(g))
		return -EINVAL;
	fr->geo = 1;
	fr->s = g->scale;
	reckon_geodetic_to_ecef(g->lat, g->lon, g->alt, fr->o);
	reckon_enu_to_ecef(g->lat, g->lon, fr->f);
	return 0;
}

/* DIS body <-> game body: the half turn about x is its own inverse. */
static void flip(double o[3], const double a[3], double k)
{
	v3_set(o, k * a[0], -k * a[1], -k * a[2]);
}

/* game world vector -> DIS world (k = s for a scaled vector, 1 else) */
static void world_out(const struct frame *fr, const double a[3], double k,
		      double o[3])
{
	double t[3];

	if (fr->geo)
		m3_mul_v(t, fr->f, a);
	else
		v3_copy(t, a);
	v3_set(o, k * t[0], k * t[1], k * t[2]);
}

static void world_in(const struct frame *fr, const double a[3], double k,
		     double o[3])
{
	double t[3];

	if (fr->geo)
		m3_tmul_v(t, fr->f, a);
	else
		v3_copy(t, a);
	v3_set(o, t[0] / k, t[1] / k, t[2] / k);
}

/* game Euler angles -> DIS Euler angles of the DIS body */
static void ori_out(const struct frame *fr, const double g[3], double d[3])
{
	double r0[3][3], m[3][3], c[3][3] = {{1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
	double cr0[3][3];

	if (!fr->geo) {
		v3_set(d, g[0], g[1], angle_wrap(g[2] + M_PI));
		return;
	}
	dr_r0(g, r0);
	m3_mul(cr0, c, r0);
	for (int i = 0; i < 3; i++) /* m = C R0 F' */
		for (int j = 0; j < 3; j++)
			m[i][j] = cr0[i][0] * fr->f[j][0] +
				  cr0[i][1] * fr->f[j][1] +
				  cr0[i][2] * fr->f[j][2];
	dr_euler(m, d);
}

static void ori_in(const struct frame *fr, const double d[3], double g[3])
{
	double m[3][3], cm[3][3], r0[3][3];
	double c[3][3] = {{1, 0, 0}, {0, -1, 0}, {0, 0, -1}};

	if (!fr->geo) {
		v3_set(g, d[0], d[1], angle_wrap(d[2] - M_PI));
		return;
	}
	dr_r0(d, m);
	m3_mul(cm, c, m);
	m3_mul(r0, cm, fr->f); /* R0 = C M F */
	dr_euler(r0, g);
}

static void vec_out(const double a[3], struct reckon_vec3 *v)
{
	*v = (struct reckon_vec3){a[0], a[1], a[2]};
}

static void vec_in(const struct reckon_vec3 *v, double a[3])
{
	v3_set(a, v->x, v->y, v->z);
}

/* Every float of the update mapped onto the PDU. */
static void kinematics_out(const struct frame *fr,
			   const struct predict_update *u,
			   struct reckon_espdu *p)
{
	double t[3], r0[3][3], ori[3];

	v3_copy(t, u->pos);
	if (fr->geo) {
		world_out(fr, u->pos, fr->s, t);
		v3_axpy(t, t, 1.0, fr->o);
	}
	vec_out(t, &p->pos);
	if (dr_is_body(u->drm)) {
		dr_r0(u->ori, r0);
		m3_mul_v(t, r0, u->vel);
		flip(t, t, fr->s);
		vec_out(t, &p->vel);
		flip(t, u->acc, fr->s);
		vec_out(t, &p->acc);
	} else {
		world_out(fr, u->vel, fr->s, t);
		vec_out(t, &p->vel);
		world_out(fr, u->acc, fr->s, t);
		vec_out(t, &p->acc);
	}
	flip(t, u->angvel, 1.0);
	vec_out(t, &p->angvel);
	ori_out(fr, u->ori, ori);
	p->ori = (struct reckon_euler){ori[0], ori[1], ori[2]};
}

static void kinematics_in(const struct frame *fr, const struct reckon_espdu *p,
			  struct predict_update *u)
{
	double t[3], r0[3][3], d[3] = {p->ori.psi, p->ori.theta, p->ori.phi};

	ori_in(fr, d, u->ori);
	vec_in(&p->pos, t);
	if (fr->geo) {
		v3_sub(t, t, fr->o);
		world_in(fr, t, fr->s, t);
	}
	v3_copy(u->pos, t);
	if (dr_is_body(u->drm)) {
		vec_in(&p->vel, t);
		flip(t, t, 1.0 / fr->s);
		dr_r0(u->ori, r0);
		m3_tmul_v(u->vel, r0, t);
		vec_in(&p->acc, t);
		flip(u->acc, t, 1.0 / fr->s);
	} else {
		vec_in(&p->vel, t);
		world_in(fr, t, fr->s, u->vel);
		vec_in(&p->acc, t);
		world_in(fr, t, fr->s, u->acc);
	}
	vec_in(&p->angvel, t);
	flip(u->angvel, t, 1.0);
}

int role_update_to_espdu_geo(const struct predict_update *u, uint8_t model,
			     uint32_t seq, const struct reckon_geo *geo,
			     struct reckon_espdu *out)
{
	struct reckon_espdu p;
	struct frame fr;

	if (frame_of(geo, &fr))
		return -EINVAL;
	if (!u || !out || u->t_ns < 0 || u->entity > ROLE_ENTITY_MAX ||
	    model == 0 || u->drm < 1 || u->drm > 9 ||
	    u->blob_len > PREDICT_BLOB_MAX || u->reason >= PREDICT_REASON_COUNT)
		return -EINVAL;
	reckon_espdu_init(&p);
	p.send_ns = (uint64_t)u->t_ns;
	p.seq = seq;
	p.id.site = ROLE_SITE;
	p.id.application = ROLE_APP;
	p.id.entity = (uint16_t)(u->entity + 1);
	p.force = u->team;
	kinematics_out(&fr, u, &p);
	p.dr_alg = u->drm;
	p.model = model;
	p.blob_len = (uint8_t)(1 + u->blob_len);
	p.blob[0] = u->reason;
	memcpy(p.blob + 1, u->blob, u->blob_len);
	*out = p;
	return 0;
}

int role_espdu_to_update_geo(const struct reckon_espdu *p,
			     const struct reckon_geo *geo,
			     struct predict_update *out, uint8_t *model)
{
	struct predict_update u;
	struct frame fr;

	if (!p || !out || !model || frame_of(geo, &fr))
		return -EINVAL;
	if (p->id.site != ROLE_SITE || p->id.application != ROLE_APP ||
	    p->model == 0 || p->blob_len < 1 ||
	    p->blob_len > 1 + PREDICT_BLOB_MAX ||
	    p->blob[0] >= PREDICT_REASON_COUNT || p->send_ns > INT64_MAX ||
	    p->dr_alg < 1 || p->dr_alg > 9)
		return -EPROTO;
	memset(&u, 0, sizeof(u));
	u.t_ns = (int64_t)p->send_ns;
	u.entity = (uint32_t)p->id.entity - 1;
	u.team = p->force;
	u.drm = p->dr_alg;
	u.reason = p->blob[0];
	u.blob_len = (uint8_t)(p->blob_len - 1);
	memcpy(u.blob, p->blob + 1, u.blob_len);
	kinematics_in(&fr, p, &u);
	*out = u;
	*model = p->model;
	return 0;
}

int role_update_to_espdu(const struct predict_update *u, uint8_t model,
			 uint32_t seq, struct reckon_espdu *out)
{
	return role_update_to_espdu_geo(u, model, seq, NULL, out);
}

int role_espdu_to_update(const struct reckon_espdu *p,
			 struct predict_update *out, uint8_t *model)
{
	return role_espdu_to_update_geo(p, NULL, out, model);
}
