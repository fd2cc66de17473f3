/*
 * ctl_int.h: the subcommands of reckonctl, one function each, every one
 * taking the arguments after its name and returning an exit status.
 */
#ifndef RECKON_RECKONCTL_H
#define RECKON_RECKONCTL_H

int ctl_spec(int argc, char *argv[]);	/* ctl_spec.c */
int ctl_status(int argc, char *argv[]);	/* ctl_client.c: status [-j] */
int ctl_set(int argc, char *argv[]);	/* ctl_client.c: set A>B SPEC */
int ctl_stop(int argc, char *argv[]);	/* ctl_client.c: stop */
int ctl_run(int argc, char *argv[]);	/* ctl_client.c: run FILE */
int ctl_shutdown(int argc, char *argv[]); /* ctl_client.c: shutdown */

#endif
