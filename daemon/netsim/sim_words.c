/*
 * sim_words.c: sh-style word splitting of a host's args for the simulator
 * (see netsim_int.h). One pass over the text writes the unquoted words
 * into a buffer no longer than the text; argv points into it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netsim_int.h"

static int refuse(char *err, size_t errlen, const char *what, char c)
{
	if (err && errlen)
		snprintf(err, errlen,
			 "'%c' (%s) needs a shell; the simulator only splits "
			 "words and quotes",
			 c, what);
	return -EINVAL;
}

/* What an unquoted special character would make sh do, or NULL. */
static const char *shell_meaning(char c)
{
	switch (c) {
	case '$':
		return "expansion";
	case '`':
		return "command substitution";
	case ';':
	case '&':
	case '|':
		return "command list";
	case '<':
	case '>':
		return "redirection";
	case '(':
	case ')':
		return "subshell";
	case '*':
	case '?':
	case '[':
		return "glob";
	case '#':
		return "comment";
	}
	return NULL;
}

int sim_words_split(const char *cmd, const char *text, struct sim_words *w,
		    char *err, size_t errlen)
{
	size_t len = strlen(text), cap = len / 2 + 3, n = 1, o = 0;
	char *buf = malloc(len + 1);
	char **argv = malloc(cap * sizeof(*argv));
	const char *p = text;
	int rc = -EINVAL;

	if (buf == NULL || argv == NULL) {
		rc = -ENOMEM;
		goto fail;
	}
	argv[0] = (char *)cmd;
	for (;;) {
		int in_word = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		argv[n] = buf + o;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			const char *why;

			in_word = 1;
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');

				if (q == NULL) {
					snprintf(err, errlen,
						 "unterminated ' quote");
					goto fail;
				}
				memcpy(buf + o, p + 1, (size_t)(q - p - 1));
				o += (size_t)(q - p - 1);
				p = q + 1;
			} else if (*p == '"') {
				for (p++; *p && *p != '"'; p++) {
					if (*p == '$' || *p == '`') {
						rc = refuse(err, errlen,
							    shell_meaning(*p),
							    *p);
						goto fail;
					}
					if (*p == '\\' &&
					    strchr("\\\"$`\n", p[1]) && p[1]) {
						p++;
						if (*p == '\n')
							continue;
					}
					buf[o++] = *p;
				}
				if (*p != '"') {
					snprintf(err, errlen,
						 "unterminated \" quote");
					goto fail;
				}
				p++;
			} else if (*p == '\\') {
				if (p[1] == '\0') {
					p++;
					break;
				}
				if (p[1] != '\n')
					buf[o++] = p[1];
				p += 2;
			} else if ((why = shell_meaning(*p)) != NULL &&
				   (*p != '#' || buf + o == argv[n])) {
				rc = refuse(err, errlen, why, *p);
				goto fail;
			} else {
				buf[o++] = *p++;
			}
		}
		if (!in_word)
			continue;
		buf[o++] = '\0';
		if (++n == cap) {
			char **a = realloc(argv, 2 * cap * sizeof(*argv));

			if (a == NULL) {
				rc = -ENOMEM;
				goto fail;
			}
			argv = a;
			cap *= 2;
		}
	}
	argv[n] = NULL;
	w->argc = (int)n;
	w->argv = argv;
	w->buf = buf;
	return 0;
fail:
	free(buf);
	free(argv);
	return rc;
}

void sim_words_free(struct sim_words *w)
{
	free(w->argv);
	free(w->buf);
	w->argv = NULL;
	w->buf = NULL;
	w->argc = 0;
}
