/*
 * trace_import.h: read somebody else's movement CSV into a trace through
 * a column mapping ("t=time,x=pos_x,y=pos_y,entity=name"). Entity and
 * team columns may hold numbers or names (names are numbered in order of
 * first appearance). Missing velocities are finite differences, a missing
 * yaw follows the velocity. Malformed rows are counted and skipped, not
 * fatal; a bad header or mapping is.
 */
#ifndef RECKON_WORLD_TRACE_IMPORT_H
#define RECKON_WORLD_TRACE_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"

enum timp_field {
	TI_T,
	TI_ENTITY,
	TI_TEAM,
	TI_ALIVE,
	TI_X,
	TI_Y,
	TI_Z,
	TI_VX,
	TI_VY,
	TI_VZ,
	TI_YAW,
	TI_HEALTH,
	TI_ARMOR,
	TI_AMMO,
	TI_NFIELDS
};

struct trace_import_opts {
	char col[TI_NFIELDS][64]; /* source column per field, "" unmapped */
	double time_scale;	  /* seconds per unit of the time column */
	double pos_scale;	  /* multiplies x, y, z, vx, vy, vz */
	int64_t tick_ns;	  /* without a time column: row period */
	char map[64];
};

struct trace_import_report {
	size_t rows, rejected, duplicates;
	uint32_t first_bad_line[8];
	char first_bad_why[8][64];
	size_t nbad;
};

void trace_import_defaults(struct trace_import_opts *o);
/* "t=time,x=pos_x,..." into o->col; -EINVAL with a message on error. */
int trace_import_mapping(const char *spec, struct trace_import_opts *o,
			 char *err, size_t errlen);
int trace_import_csv(FILE *f, const struct trace_import_opts *o,
		     struct trace *out, struct trace_import_report *rep,
		     char *err, size_t errlen);

#endif
