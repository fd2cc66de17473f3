/*
 * cmd.h: the subcommands of reckon-agent. Each takes the arguments after
 * its name and returns an exit status.
 */
#ifndef RECKON_AGENT_CMD_H
#define RECKON_AGENT_CMD_H

int cmd_trace(int argc, char *argv[]);	/* cmd_trace.c: gen, check, stats, import */
int cmd_replay(int argc, char *argv[]);	/* cmd_replay.c: offline predictor replay */

#endif
