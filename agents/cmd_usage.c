/*
 * cmd_usage.c: how every reckon-agent command reports a usage error: one
 * line naming what is wrong (an unknown option by its name) and a pointer
 * to its --help, exit status 2. `--help` itself prints the usage on
 * stdout with exit status 0 (each command's own text).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

int cmd_help_asked(int argc, char *argv[])
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "reckon-agent %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'reckon-agent %s --help'\n", cmd);
	return 2;
}

int cmd_option_error(const char *cmd, int c, char *argv[])
{
	if (c == ':')
		return cmd_usage_error(cmd, "option '%s' needs a value",
				       argv[optind - 1]);
	if (optopt > 0 && optopt < 128)
		return cmd_usage_error(cmd, "unknown option '-%c'", optopt);
	return cmd_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}
