/*
 * reckonctl.h: the subcommands of reckonctl, one function each, every one
 * taking the arguments after its name and returning an exit status.
 */
#ifndef RECKON_RECKONCTL_H
#define RECKON_RECKONCTL_H

int ctl_spec(int argc, char *argv[]);	/* ctl_spec.c */

#endif
