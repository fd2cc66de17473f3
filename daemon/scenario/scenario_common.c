/*
 * scenario_common.c: the helpers every part of the scenario loader calls:
 * the message reporter ("file:line: [section] key: message" into the
 * diagnostics list), the line of a key, the blank-separated word splitter
 * and the host lookup by name. It calls only the diagnostics list and the
 * line scan, so the loader's files form no ring through it.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scenario.h"
#include "scenario_int.h"

void sc_report(struct sc_loader *L, int line, const char *sec, const char *key,
	       const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	L->errors++;
	if (rc < 0) {
		L->oom = 1;
		return;
	}
	char where[64] = "";
	if (line > 0)
		snprintf(where, sizeof(where), ":%d", line);
	if (sec && key)
		rc = sc_diag_add(L->d, line, "%s%s: [%s] %s: %s", L->path,
				 where, sec, key, msg);
	else if (sec)
		rc = sc_diag_add(L->d, line, "%s%s: [%s]: %s", L->path, where,
				 sec, msg);
	else
		rc = sc_diag_add(L->d, line, "%s%s: %s", L->path, where, msg);
	if (rc < 0)
		L->oom = 1;
	free(msg);
}

unsigned sc_split_words(const char *s, char w[][SC_NAME_MAX], unsigned max)
{
	unsigned n = 0;

	while (*s) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		const char *e = s;
		while (*e && !isspace((unsigned char)*e))
			e++;
		if (n == max || (size_t)(e - s) >= SC_NAME_MAX)
			return max + 1;
		memcpy(w[n], s, (size_t)(e - s));
		w[n][e - s] = '\0';
		n++;
		s = e;
	}
	return n;
}

int sc_key_line(struct sc_loader *L, const struct sc_section *s,
		const char *key)
{
	return sc_lines_key(&L->lines, s->name, key);
}

int scenario_host(const struct scenario *sc, const char *name)
{
	for (unsigned i = 0; i < sc->nhosts; i++)
		if (strcasecmp(sc->hosts[i].name, name) == 0)
			return (int)i;
	return -1;
}
