/*
 * game_coords.h: the mapping between reckon's game coordinates and the
 * DIS fields of an Entity State PDU. Positions and velocities go straight
 * into the DIS world-coordinate fields: one game unit is one DIS "metre",
 * game x/y/z are DIS world x/y/z, z is up. The game map is flat, so it is
 * not placed on the WGS-84 earth. Game yaw is in degrees, 0 along +x and
 * 90 along +y; DIS psi is the same rotation about z in radians, wrapped to
 * [-pi, pi]. Pitch and roll (theta, phi) are 0 for game avatars.
 * docs/wire-format.md explains the choice.
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

/* Sets p->pos, p->vel and p->ori (theta = phi = 0) from a game state.
 * -EINVAL if any value is not finite; p is untouched on failure. */
int reckon_espdu_set_game_pose(struct reckon_espdu *p,
			       const struct reckon_vec3 *pos,
			       const struct reckon_vec3 *vel, double yaw_deg);

#endif
