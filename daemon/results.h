/*
 * results.h: the results directory of a run,
 * <results_dir>/<name>-<YYYYmmdd-HHMMSS>/, and the files written into it:
 * scenario.ini (canonical, with the seed), counters.csv and counters.json
 * (per directed link), hosts.csv (every host's pid and exit status). The
 * layout is documented in docs/reckond.md.
 */
#ifndef RECKON_RESULTS_H
#define RECKON_RESULTS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include "netem.h"
#include "scenario.h"

/* Create <parent>/<name>-<stamp> (parent is created too; a "-2", "-3"...
 * suffix keeps two runs in the same second apart). */
int results_mkdir_run(const char *parent, const char *name, char *out,
		      size_t outlen);

/* snprintf into a path buffer: 0, or -ENAMETOOLONG when it did not fit. */
int results_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Atomic files: write into tmp (path with ".tmp" appended, a buffer of
 * tmplen bytes), then results_commit renames it onto path, or removes it
 * and returns -EIO / -errno when anything failed. */
FILE *results_open_tmp(const char *path, char *tmp, size_t tmplen);
int results_commit(FILE *f, const char *tmp, const char *path);

/* Split a CSV line (no quoting) in place at commas, dropping the line
 * end; returns the number of fields, or max + 1 when there are more. */
size_t results_split_csv(char *line, char **f, size_t max);

/* mkdir -p with mode 0755. */
int results_mkdirs(const char *path);

/* scenario.ini through scenario_print. */
int results_scenario(const char *dir, const struct scenario *sc);

/* counters.csv and counters.json for every directed pair of hosts;
 * c[src * nhosts + dst]. */
int results_counters(const char *dir, const struct scenario *sc, unsigned rep,
		     uint64_t seed, const struct netem_counters *c);

struct results_host {
	pid_t pid;
	int status;	     /* 0..255; 128+N for signal N */
	const char *outcome; /* ok, failed, stopped, killed, aborted */
};

/* hosts.csv: rep,host,addr,pid,status,outcome. */
int results_hosts(const char *dir, const struct scenario *sc, unsigned rep,
		  const struct results_host *h);

/* The last at most `lines` lines of a text file into out (NUL terminated,
 * each line indented by two spaces). */
int results_tail(const char *path, unsigned lines, char *out, size_t outlen);

#endif
