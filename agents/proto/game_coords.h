/*
 * game_coords.h: the mapping between reckon's game coordinates and the
 * DIS fields of an Entity State PDU. Without a geographic placement,
 * positions go straight into the DIS world-coordinate fields: one game
 * unit is one DIS "metre", game x/y/z are DIS world x/y/z, z is up. With
 * one (struct reckon_geo), the flat map lies on the local tangent plane
 * of a WGS-84 origin, game x east, y north, z up, scaled to metres, and
 * the PDU carries geocentric (ECEF) locations. Game yaw is in degrees, 0
 * along +x and 90 along +y; DIS psi is the same rotation about z in
 * radians, wrapped to [-pi, pi]. Body axes on the wire are DIS body axes,
 * x forward, y right, z down; the game's own body axes are x forward,
 * y left, z up. The rotations themselves are applied in
 * agents/role/update_espdu.c; docs/wire-format.md explains the choice.
 */
#ifndef RECKON_PROTO_GAME_COORDS_H
#define RECKON_PROTO_GAME_COORDS_H

#include "proto/espdu.h"

/* yaw (degrees, any finite value) -> psi (radians, [-pi, pi]).
 * -EINVAL if yaw is not finite; *psi is written only on success. */
int reckon_yaw_to_psi(double yaw_deg, double *psi);

/* psi (radians, any finite value) -> yaw (degrees, [0, 360)).
 * -EINVAL if psi is not finite. */
int reckon_psi_to_yaw(double psi, double *yaw_deg);

/* Sets p->pos, p->vel (world frame, for the *W algorithms) and p->ori
 * of a level game avatar without geographic placement: psi from yaw,
 * theta = 0, phi = pi (DIS body z points down, the game's world z up).
 * -EINVAL if any value is not finite; p is untouched on failure. */
int reckon_espdu_set_game_pose(struct reckon_espdu *p,
			       const struct reckon_vec3 *pos,
			       const struct reckon_vec3 *vel, double yaw_deg);

/* WGS-84 ellipsoid (NIMA TR8350.2): semi-major axis and flattening. */
#define RECKON_WGS84_A 6378137.0
#define RECKON_WGS84_F (1.0 / 298.257223563)

/* Placement of the flat game map on the earth. on = 0: none (game units
 * straight into the DIS fields). Otherwise the game origin is at geodetic
 * latitude lat, longitude lon (degrees, WGS-84) and height alt (metres
 * above the ellipsoid); game x points east, y north, z up on the tangent
 * plane there, and one game unit is scale metres. */
struct reckon_geo {
	int on;
	double lat, lon, alt;
	double scale;
};

/* 0 if g is usable: off, or lat in [-90, 90], lon in [-180, 180], |alt|
 * <= 1e7 m and scale in (0, 1e6] m/unit, all finite. -EINVAL otherwise. */
int reckon_geo_check(const struct reckon_geo *g);

/* Parses "LAT,LON,ALT" (degrees, degrees, metres) into g->lat, lon, alt
 * and sets g->on; scale is left alone. -EINVAL on anything else (g is then
 * untouched). */
int reckon_geo_parse_origin(const char *s, struct reckon_geo *g);

/* Geodetic (degrees, metres) -> ECEF metres. */
void reckon_geodetic_to_ecef(double lat, double lon, double alt,
			     double ecef[3]);
/* ECEF metres -> geodetic (degrees, metres); iterates to 1e-12 rad.
 * -EINVAL for a point within 1 km of the earth's centre. */
int reckon_ecef_to_geodetic(const double ecef[3], double *lat, double *lon,
			    double *alt);
/* Columns of m: the east, north and up unit vectors at (lat, lon) in
 * ECEF, so m maps the local tangent frame (ENU) to ECEF directions. */
void reckon_enu_to_ecef(double lat, double lon, double m[3][3]);

#endif
