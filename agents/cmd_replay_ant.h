/*
 * cmd_replay_ant.h: the AntReckoning experiments of `reckon-agent replay
 * --experiment ant` (cmd_replay_ant.c).
 */
#ifndef RECKON_AGENT_CMD_REPLAY_ANT_H
#define RECKON_AGENT_CMD_REPLAY_ANT_H

#include "predict/predict.h"
#include "predict/replay.h"

/* Print the accuracy and bandwidth tables for set with what w gives;
 * extra ("k=v,k=v" or NULL) is applied to every configuration. Returns
 * an exit status. */
int replay_ant_experiment(const struct replay_set *set,
			  const struct replay_world *w, const char *trace,
			  const char *extra);

#endif
