/*
 * update_espdu.h: the mapping between a predictor's update (struct
 * predict_update, agents/predict/update.h) and the Entity State PDU that
 * carries it (struct reckon_espdu, agents/proto/espdu.h; layout in
 * docs/wire-format.md). The update's time goes into the reckon timing
 * record (send_ns), the entity id into the DIS entity id (site 1,
 * application 1, entity number = trace entity + 1, because DIS reserves
 * 0 and 0xffff: trace entities 0..0xfffd), the team into the force id, and the
 * reason plus the predictor's blob into the reckon predictor record of the
 * lane's model. Floats other than the location travel as float32.
 * Vectors change frame here and only here (the predictors work in game
 * axes): the *B algorithms' velocity and acceleration and every angular
 * velocity travel in DIS body axes (x forward, y right, z down; the game
 * body is x forward, y left, z up), and the orientation is the DIS Euler
 * angles of those body axes. With a geographic placement (struct
 * reckon_geo, proto/game_coords.h) the location is WGS-84 geocentric,
 * world vectors are rotated to ECEF and scaled to metres, and the Euler
 * angles are relative to the geocentric frame. docs/wire-format.md. Pure.
 */
#ifndef RECKON_ROLE_UPDATE_ESPDU_H
#define RECKON_ROLE_UPDATE_ESPDU_H

#include <stdint.h>

#include "predict/update.h"
#include "proto/espdu.h"
#include "proto/game_coords.h"

#define ROLE_ENTITY_MAX 0xfffd /* largest trace entity: DIS 0xfffe */
#define ROLE_SITE	1
#define ROLE_APP	1

/* -EINVAL: t_ns < 0, entity > ROLE_ENTITY_MAX, model 0, drm not 1..9,
 * blob_len > 15, reason out of range, geo not NULL and refused by
 * reckon_geo_check. geo NULL (or off): no geographic placement. *out
 * written only on success. */
int role_update_to_espdu_geo(const struct predict_update *u, uint8_t model,
			     uint32_t seq, const struct reckon_geo *geo,
			     struct reckon_espdu *out);

/* The reverse, for a PDU the decoder accepted, with the sender's geo.
 * -EPROTO: not a reckon update (site/application, no model, blob shape,
 * send time beyond INT64_MAX); -EINVAL: bad geo. *out and *model written
 * only on success. */
int role_espdu_to_update_geo(const struct reckon_espdu *p,
			     const struct reckon_geo *geo,
			     struct predict_update *out, uint8_t *model);

/* The same without geographic placement. */
int role_update_to_espdu(const struct predict_update *u, uint8_t model,
			 uint32_t seq, struct reckon_espdu *out);
int role_espdu_to_update(const struct reckon_espdu *p,
			 struct predict_update *out, uint8_t *model);

#endif
