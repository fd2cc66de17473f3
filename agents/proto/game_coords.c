/*
 * game_coords.c: game units and yaw degrees <-> DIS world coordinates and
 * psi radians (see game_coords.h and docs/wire-format.md), and the
 * WGS-84 geometry of the optional geographic placement: geodetic <-> ECEF
 * (NIMA TR8350.2 eq. 4-14; the reverse by fixed-point iteration on the
 * latitude, Bowring's starting value) and the local east-north-up basis.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "proto/game_coords.h"

#define PI 3.14159265358979323846

int reckon_yaw_to_psi(double yaw_deg, double *psi)
{
	double r;

	if (!isfinite(yaw_deg) || !psi)
		return -EINVAL;
	r = fmod(yaw_deg, 360.0); /* (-360, 360) */
	if (r > 180.0)
		r -= 360.0;
	else if (r < -180.0)
		r += 360.0;
	*psi = r * (PI / 180.0);
	return 0;
}

int reckon_psi_to_yaw(double psi, double *yaw_deg)
{
	double r;

	if (!isfinite(psi) || !yaw_deg)
		return -EINVAL;
	r = fmod(psi * (180.0 / PI), 360.0);
	if (r < 0)
		r += 360.0;
	if (r >= 360.0) /* r was a tiny negative number */
		r = 0.0;
	*yaw_deg = r;
	return 0;
}

static int vec_finite(const struct reckon_vec3 *v)
{
	return isfinite(v->x) && isfinite(v->y) && isfinite(v->z);
}

int reckon_espdu_set_game_pose(struct reckon_espdu *p,
			       const struct reckon_vec3 *pos,
			       const struct reckon_vec3 *vel, double yaw_deg)
{
	double psi;

	if (!p || !pos || !vel || !vec_finite(pos) || !vec_finite(vel))
		return -EINVAL;
	if (reckon_yaw_to_psi(yaw_deg, &psi))
		return -EINVAL;
	p->pos = *pos;
	p->vel = *vel;
	p->ori.psi = psi;
	p->ori.theta = 0;
	p->ori.phi = PI;
	return 0;
}

int reckon_geo_check(const struct reckon_geo *g)
{
	if (!g)
		return -EINVAL;
	if (!g->on)
		return 0;
	if (!(g->lat >= -90 && g->lat <= 90) ||
	    !(g->lon >= -180 && g->lon <= 180) || !(fabs(g->alt) <= 1e7) ||
	    !(g->scale > 0 && g->scale <= 1e6))
		return -EINVAL;
	return 0;
}

int reckon_geo_parse_origin(const char *s, struct reckon_geo *g)
{
	double v[3];
	char *end;

	if (!s || !g)
		return -EINVAL;
	for (int i = 0; i < 3; i++) {
		if (!*s || *s == ',' || *s == ' ')
			return -EINVAL;
		v[i] = strtod(s, &end);
		if (end == s || !isfinite(v[i]) || *end != (i < 2 ? ',' : 0))
			return -EINVAL;
		s = end + (i < 2);
	}
	if (!(v[0] >= -90 && v[0] <= 90) || !(v[1] >= -180 && v[1] <= 180) ||
	    !(fabs(v[2]) <= 1e7))
		return -EINVAL;
	g->lat = v[0];
	g->lon = v[1];
	g->alt = v[2];
	g->on = 1;
	return 0;
}

#define E2 (RECKON_WGS84_F * (2.0 - RECKON_WGS84_F)) /* e^2 */

void reckon_geodetic_to_ecef(double lat, double lon, double alt, double ecef[3])
{
	double sl = sin(lat * PI / 180), cl = cos(lat * PI / 180);
	double n = RECKON_WGS84_A / sqrt(1.0 - E2 * sl * sl);

	ecef[0] = (n + alt) * cl * cos(lon * PI / 180);
	ecef[1] = (n + alt) * cl * sin(lon * PI / 180);
	ecef[2] = (n * (1.0 - E2) + alt) * sl;
}

/* Prime vertical radius N and height above the ellipsoid at latitude phi
 * (radians) for a point at distance p from the axis and height z. */
static double height(double phi, double p, double z, double *n)
{
	double s = sin(phi), c = cos(phi);

	*n = RECKON_WGS84_A / sqrt(1.0 - E2 * s * s);
	return fabs(c) > 1e-3 ? p / c - *n : z / s - *n * (1.0 - E2);
}

int reckon_ecef_to_geodetic(const double ecef[3], double *lat, double *lon,
			    double *alt)
{
	double p = hypot(ecef[0], ecef[1]), z = ecef[2], phi, n, h;

	if (!lat || !lon || !alt || !(hypot(p, z) >= 1e3))
		return -EINVAL;
	phi = atan2(z, p * (1.0 - E2));
	for (int i = 0; i < 20; i++) {
		double prev = phi;

		h = height(phi, p, z, &n);
		phi = atan2(z, p * (1.0 - E2 * n / (n + h)));
		if (fabs(phi - prev) < 1e-12)
			break;
	}
	*alt = height(phi, p, z, &n);
	*lat = phi * 180 / PI;
	*lon = atan2(ecef[1], ecef[0]) * 180 / PI;
	return 0;
}

void reckon_enu_to_ecef(double lat, double lon, double m[3][3])
{
	double sl = sin(lat * PI / 180), cl = cos(lat * PI / 180);
	double so = sin(lon * PI / 180), co = cos(lon * PI / 180);

	/* east */
	m[0][0] = -so;
	m[1][0] = co;
	m[2][0] = 0;
	/* north */
	m[0][1] = -sl * co;
	m[1][1] = -sl * so;
	m[2][1] = cl;
	/* up */
	m[0][2] = cl * co;
	m[1][2] = cl * so;
	m[2][2] = sl;
}
