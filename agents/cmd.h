/*
 * cmd.h: the subcommands of reckon-agent. Each takes the arguments after
 * its name and returns an exit status.
 */
#ifndef RECKON_AGENT_CMD_H
#define RECKON_AGENT_CMD_H

int cmd_trace(int argc,
	      char *argv[]); /* cmd_trace.c: gen, check, stats, import */
int cmd_replay(int argc,
	       char *argv[]); /* cmd_replay.c: offline predictor replay */
int cmd_player(int argc,
	       char *argv[]); /* cmd_role.c: replays entities over UDP */
int cmd_observer(int argc, char *argv[]); /* cmd_role.c: receives, measures */
int cmd_relay(int argc, char *argv[]);	  /* cmd_role.c: client-server relay */
int cmd_now(int argc, char *argv[]);	  /* cmd_role.c: CLOCK_MONOTONIC ns */
int cmd_fps_server(int argc, char *argv[]); /* cmd_fps.c: lag comp. */
int cmd_fps_client(int argc, char *argv[]); /* cmd_fps.c: a player */

#endif
