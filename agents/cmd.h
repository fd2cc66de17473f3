/*
 * cmd.h: the subcommands of reckon-agent. Each takes the arguments after
 * its name and returns an exit status: 0, 1 for a failed run, 2 for a
 * usage error; `COMMAND --help` prints its usage on stdout and returns 0.
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

/* cmd_usage.c: is --help or -h among argv[0..argc)? */
int cmd_help_asked(int argc, char *argv[]);

/* cmd_usage.c: a usage error of `reckon-agent CMD`: "reckon-agent CMD: MSG"
 * and a pointer to --help on stderr; returns 2. */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cmd_usage.c: the usage error after getopt_long (opterr = 0, optstring
 * starting with ':') returned c ('?' or ':'), naming the option. */
int cmd_option_error(const char *cmd, int c, char *argv[]);

#endif
