/*
 * ini_man.c: regenerates the key reference of reckon.ini(5). It reads the
 * committed page (deploy/man/reckon.ini.5), keeps everything outside the
 * BEGIN KEYS / END KEYS comment lines, and writes between them the key
 * table of daemon/scenario/scenario_keys.c turned into roff: the markdown that
 * scenario_keys_markdown() renders for docs/scenario.md, one .SS per
 * section and one .TP paragraph per key. tests/deploy/man.sh diffs the
 * result against the committed page, so page and loader cannot drift.
 * Usage: reckon_ini_man PAGE > NEW_PAGE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_int.h"

#define BEGIN_MARK ".\\\" BEGIN KEYS"
#define END_MARK   ".\\\" END KEYS"
#define NCELL	   5

/* Text of one markdown cell as roff: `code` in bold, "\|" as "|", a
 * backslash as \e, and a leading '.' or '\'' guarded with \&. */
static void roff_text(FILE *out, const char *s, size_t n)
{
	int bold = 0;

	if (n > 0 && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '`') {
			fputs(bold ? "\\fR" : "\\fB", out);
			bold = !bold;
		} else if (s[i] == '\\' && i + 1 < n && s[i + 1] == '|') {
			fputc('|', out);
			i++;
		} else if (s[i] == '\\') {
			fputs("\\e", out);
		} else if (s[i] == '-') {
			fputs("\\-", out);
		} else {
			fputc(s[i], out);
		}
	}
	if (bold)
		fputs("\\fR", out);
}

/* Split "| a | b \| c | d |" into trimmed cells; returns their count. */
static int split_row(char *line, const char **cell, size_t *len, int max)
{
	char *p = line + 1, *start = p;
	int n = 0;

	for (; *p != '\0' && *p != '\n'; p++) {
		if (*p == '\\' && p[1] == '|') {
			p++;
			continue;
		}
		if (*p != '|')
			continue;
		char *a = start, *b = p;

		while (a < b && *a == ' ')
			a++;
		while (b > a && b[-1] == ' ')
			b--;
		if (n == max)
			return -1;
		cell[n] = a;
		len[n++] = (size_t)(b - a);
		start = p + 1;
	}
	return n;
}

/* One markdown line of scenario_keys_markdown() as roff. */
static int md_line(FILE *out, char *line)
{
	const char *cell[NCELL];
	size_t len[NCELL];

	if (strncmp(line, "### ", 4) == 0) {
		fputs(".SS ", out);
		roff_text(out, line + 4, strcspn(line + 4, "\n"));
		fputc('\n', out);
		return 0;
	}
	if (line[0] != '|' || strncmp(line, "| key |", 7) == 0 ||
	    strncmp(line, "|---", 4) == 0)
		return 0;
	if (split_row(line, cell, len, NCELL) != NCELL)
		return -1;
	fputs(".TP\n", out);
	roff_text(out, cell[0], len[0]);
	fputs(" (", out);
	roff_text(out, cell[1], len[1]);
	fputs("; default ", out);
	roff_text(out, cell[2], len[2]);
	fputs("; ", out);
	roff_text(out, cell[3], len[3]);
	fputs(")\n", out);
	roff_text(out, cell[4], len[4]);
	fputc('\n', out);
	return 0;
}

static int keys_roff(FILE *out)
{
	char *md = NULL, *line, *save = NULL;
	size_t mdlen = 0;
	FILE *f = open_memstream(&md, &mdlen);
	int rc = 0;

	if (f == NULL || scenario_keys_markdown(f) < 0 || fclose(f) != 0) {
		free(md);
		return -1;
	}
	for (line = strtok_r(md, "\n", &save); line != NULL && rc == 0;
	     line = strtok_r(NULL, "\n", &save))
		rc = md_line(out, line);
	free(md);
	return rc;
}

int main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	int state = 0; /* 0 before, 1 inside, 2 after the markers */
	FILE *in;

	if (argc != 2) {
		fprintf(stderr, "usage: reckon_ini_man PAGE > NEW_PAGE\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (in == NULL) {
		perror(argv[1]);
		return 1;
	}
	while (getline(&line, &cap, in) > 0) {
		if (state == 1 && strncmp(line, END_MARK, strlen(END_MARK)) != 0)
			continue;
		if (state == 1)
			state = 2;
		fputs(line, stdout);
		if (state == 0 &&
		    strncmp(line, BEGIN_MARK, strlen(BEGIN_MARK)) == 0) {
			if (keys_roff(stdout) < 0) {
				fprintf(stderr, "reckon_ini_man: cannot render "
						"the key table\n");
				return 1;
			}
			state = 1;
		}
	}
	free(line);
	fclose(in);
	if (state != 2) {
		fprintf(stderr, "reckon_ini_man: %s lacks the lines '%s' and "
				"'%s'\n", argv[1], BEGIN_MARK, END_MARK);
		return 1;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
