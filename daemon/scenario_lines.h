/*
 * scenario_lines.h: a line scan of a scenario file that mirrors how
 * iniparser 4.1 reads it (comments, [sections], key = value, backslash
 * continuation, lowercased and stripped names) but keeps what iniparser
 * throws away: the line of every section header and key, duplicate
 * sections and keys, and syntax errors in our own message format.
 * iniparser still provides the values; this only locates them.
 */
#ifndef RECKON_SCENARIO_LINES_H
#define RECKON_SCENARIO_LINES_H

#include <stdio.h>

#include "scenario.h"

/* iniparser 4.1 reads lines into a 1024-byte buffer: 1022 characters,
 * the newline and the NUL. Longer lines make iniparser_load fail. */
#define SC_LINE_MAX 1022

struct sc_lent {
	int line;
	char *sec; /* lowercased, stripped, as iniparser stores it */
	char *key; /* NULL for a section header */
};

struct sc_lines {
	struct sc_lent *v;
	unsigned n, cap;
};

/* Scan f (named path in messages). Syntax errors, keys outside any
 * section and duplicates go to d. Returns the number of problems found,
 * or -ENOMEM / -EIO. */
int sc_lines_scan(FILE *f, const char *path, struct sc_lines *out,
		  struct sc_diag *d);

/* Line of the header of section sec (its first occurrence), or 0. */
int sc_lines_section(const struct sc_lines *l, const char *sec);

/* Line of key in section sec (first occurrence), or 0. */
int sc_lines_key(const struct sc_lines *l, const char *sec, const char *key);

void sc_lines_free(struct sc_lines *l);

#endif
