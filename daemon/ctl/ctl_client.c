/*
 * ctl_client.c: the reckonctl subcommands that talk to reckond (status,
 * set, stop, run, shutdown). Each builds one request line, sends it over
 * the control socket (control.c) and prints the reply: the body to stdout
 * on "ok", to stderr with exit status 1 on "error".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "ctl_int.h"

static int request(const char *line)
{
	char path[PATH_MAX];
	char *body = NULL;
	int ok = 0, err;

	err = control_default_path(path, sizeof(path));
	if (err == 0)
		err = control_request(path, line, &ok, &body);
	if (err < 0) {
		fprintf(stderr, "reckonctl: %s: %s%s\n", path, strerror(-err),
			err == -ENOENT || err == -ECONNREFUSED
				? " (is reckond running? -s PATH picks "
				  "another socket)"
				: "");
		return 1;
	}
	fputs(body, ok ? stdout : stderr);
	free(body);
	return ok ? 0 : 1;
}

int ctl_status(int argc, char *argv[])
{
	if (argc == 0)
		return request("status");
	if (argc == 1 && strcmp(argv[0], "-j") == 0)
		return request("status -j");
	fprintf(stderr, "usage: reckonctl status [-j]\n");
	return 2;
}

int ctl_set(int argc, char *argv[])
{
	char line[CONTROL_LINE_MAX];
	size_t o;

	if (argc < 2) {
		fprintf(stderr, "usage: reckonctl set A>B 'SPEC'\n");
		return 2;
	}
	/* SPEC may come as one quoted word or as several words. */
	o = (size_t)snprintf(line, sizeof(line), "set %s", argv[0]);
	for (int i = 1; i < argc && o < sizeof(line); i++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, " %s",
				      argv[i]);
	if (o >= sizeof(line) || strchr(line, '\n') != NULL) {
		fprintf(stderr, "reckonctl: set: spec too long or has a "
				"newline\n");
		return 2;
	}
	return request(line);
}

int ctl_stop(int argc, char *argv[])
{
	(void)argv;
	if (argc != 0) {
		fprintf(stderr, "usage: reckonctl stop\n");
		return 2;
	}
	return request("stop");
}

int ctl_shutdown(int argc, char *argv[])
{
	(void)argv;
	if (argc != 0) {
		fprintf(stderr, "usage: reckonctl shutdown\n");
		return 2;
	}
	return request("shutdown");
}

int ctl_run(int argc, char *argv[])
{
	char file[PATH_MAX], cwd[PATH_MAX], line[CONTROL_LINE_MAX];
	int n;

	if (argc != 1) {
		fprintf(stderr, "usage: reckonctl run FILE\n");
		return 2;
	}
	if (realpath(argv[0], file) == NULL) {
		fprintf(stderr, "reckonctl: %s: %s\n", argv[0],
			strerror(errno));
		return 1;
	}
	if (getcwd(cwd, sizeof(cwd)) == NULL) {
		fprintf(stderr, "reckonctl: getcwd: %s\n", strerror(errno));
		return 1;
	}
	if (strpbrk(file, "\t\n") != NULL || strpbrk(cwd, "\t\n") != NULL) {
		fprintf(stderr, "reckonctl: paths with tabs or newlines cannot "
				"be sent\n");
		return 1;
	}
	n = snprintf(line, sizeof(line), "run %s\t%s", file, cwd);
	if (n < 0 || (size_t)n >= sizeof(line)) {
		fprintf(stderr, "reckonctl: path too long\n");
		return 1;
	}
	return request(line);
}
