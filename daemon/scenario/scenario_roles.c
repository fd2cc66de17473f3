/*
 * scenario_roles.c: the roles a [host] can take (role = NAME), as one
 * table: what each role does in an experiment (plays bots and sends,
 * receives, needs the game). The loader checks role names against it and
 * builds each agent's options from it (scenario_game.c); a new agent role
 * is a new row.
 */
#include <string.h>

#include "scenario_int.h"

/* The roles a host can take. plays: gets bots and sends updates;
 * receives: a destination of players (observer) or of players and
 * forwarding to observers (relay); truth: needs the game; own_game: the
 * lag-compensation roles (docs/lagcomp.md) take their match from their
 * own args, checked by their own parser (fps_opts_parse). */
const struct sc_role sc_roles[] = {
	{"player", 1, 0, 1, 0},
	{"observer", 0, 1, 1, 0},
	{"relay", 0, 1, 0, 0},
	{"fps-server", 0, 0, 0, 1},
	{"fps-client", 0, 0, 0, 1},
	{NULL, 0, 0, 0, 0},
};

const struct sc_role *sc_role_find(const char *name)
{
	for (const struct sc_role *r = sc_roles; r->name; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}
