/*
 * game_coords.c: game units and yaw degrees <-> DIS world coordinates and
 * psi radians (see game_coords.h and docs/wire-format.md). Identity on
 * positions and velocities; angle wrapping with fmod.
 */
#include <errno.h>
#include <math.h>

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
	p->ori.phi = 0;
	return 0;
}
