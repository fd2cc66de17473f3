/*
 * scenario_lines.c: the line scan behind the scenario loader's
 * file:line messages. It classifies each logical line the way iniparser
 * 4.1's iniparser_line() does (blank, comment, [section], key = value,
 * anything else a syntax error), joins backslash-continued lines, and
 * records where every section and key is, so the loader can say which
 * line a bad value came from. Duplicates, which iniparser silently
 * merges or overwrites, are errors here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_int.h"

static void strip_lower(char *s, int lower)
{
	char *b = s, *e;

	while (*b && isspace((unsigned char)*b))
		b++;
	e = b + strlen(b);
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	memmove(s, b, (size_t)(e - b));
	s[e - b] = '\0';
	if (lower)
		for (; *s; s++)
			*s = (char)tolower((unsigned char)*s);
}

static int push(struct sc_lines *l, int line, const char *sec, const char *key)
{
	if (l->n == l->cap) {
		unsigned cap = l->cap ? l->cap * 2 : 32;
		struct sc_lent *v = realloc(l->v, cap * sizeof(*v));
		if (v == NULL)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	struct sc_lent *e = &l->v[l->n];
	e->line = line;
	e->sec = strdup(sec);
	e->key = key ? strdup(key) : NULL;
	if (e->sec == NULL || (key && e->key == NULL)) {
		free(e->sec);
		free(e->key);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

int sc_lines_section(const struct sc_lines *l, const char *sec)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i].key == NULL && strcmp(l->v[i].sec, sec) == 0)
			return l->v[i].line;
	return 0;
}

int sc_lines_key(const struct sc_lines *l, const char *sec, const char *key)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i].key && strcmp(l->v[i].sec, sec) == 0 &&
		    strcmp(l->v[i].key, key) == 0)
			return l->v[i].line;
	return 0;
}

void sc_lines_free(struct sc_lines *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		free(l->v[i].sec);
		free(l->v[i].key);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* One logical line: returns the number of problems it adds (0 or 1), or
 * -ENOMEM. sec is the current section; *insec is 0 before the first, 1 in
 * a good one, 2 in a bad one (its keys are not reported again). */
static int scan_one(struct sc_lines *l, const char *path, int lineno,
		    char *text, char *sec, size_t seclen, int *insec,
		    struct sc_diag *d)
{
	size_t len;
	char *eq;
	int prev;

	strip_lower(text, 0);
	len = strlen(text);
	if (len == 0 || text[0] == '#' || text[0] == ';')
		return 0;
	if (text[0] == '[' && text[len - 1] == ']') {
		/* iniparser takes the name up to the first ']'. */
		char *end = strchr(text + 1, ']');
		*end = '\0';
		memmove(text, text + 1, strlen(text + 1) + 1);
		strip_lower(text, 1);
		if (text[0] == '\0') {
			*insec = 2;
			return sc_diag_add(d, lineno,
					   "%s:%d: empty section name", path,
					   lineno) < 0
				       ? -ENOMEM
				       : 1;
		}
		snprintf(sec, seclen, "%s", text);
		if (strchr(sec, ':') != NULL) {
			/* iniparser joins section and key with ':' */
			*insec = 2;
			return sc_diag_add(d, lineno,
					   "%s:%d: [%s]: ':' is not "
					   "allowed in a section name",
					   path, lineno, sec) < 0
				       ? -ENOMEM
				       : 1;
		}
		*insec = 1;
		prev = sc_lines_section(l, sec);
		if (push(l, lineno, sec, NULL) < 0)
			return -ENOMEM;
		if (prev) {
			return sc_diag_add(d, lineno,
					   "%s:%d: [%s]: duplicate section "
					   "(first at line %d)",
					   path, lineno, sec, prev) < 0
				       ? -ENOMEM
				       : 1;
		}
		return 0;
	}
	eq = strchr(text, '=');
	if (eq == NULL || eq == text) {
		return sc_diag_add(d, lineno,
				   "%s:%d: syntax error: expected [section], "
				   "key = value or a comment, got '%.40s%s'",
				   path, lineno, text,
				   strlen(text) > 40 ? "..." : "") < 0
			       ? -ENOMEM
			       : 1;
	}
	*eq = '\0';
	strip_lower(text, 1);
	if (text[0] == '\0') {
		return sc_diag_add(d, lineno,
				   "%s:%d: syntax error: no key "
				   "before '='",
				   path, lineno) < 0
			       ? -ENOMEM
			       : 1;
	}
	if (*insec == 2)
		return 0; /* in a bad section, already reported */
	if (!*insec) {
		return sc_diag_add(d, lineno,
				   "%s:%d: %s: key outside any [section]", path,
				   lineno, text) < 0
			       ? -ENOMEM
			       : 1;
	}
	prev = sc_lines_key(l, sec, text);
	if (push(l, lineno, sec, text) < 0)
		return -ENOMEM;
	if (prev) {
		return sc_diag_add(d, lineno,
				   "%s:%d: [%s] %s: duplicate key (first at "
				   "line %d)",
				   path, lineno, sec, text, prev) < 0
			       ? -ENOMEM
			       : 1;
	}
	return 0;
}

int sc_lines_scan(FILE *f, const char *path, struct sc_lines *out,
		  struct sc_diag *d)
{
	struct sc_lines l = {0};
	char *buf = NULL, *logical = NULL;
	size_t bufcap = 0, loglen = 0;
	char sec[SC_LINE_MAX + 2] = "";
	int insec = 0, lineno = 0, start = 0, problems = 0, rc = 0;
	ssize_t n;

	while ((n = getline(&buf, &bufcap, f)) != -1) {
		lineno++;
		if (memchr(buf, '\0', (size_t)n) != NULL) {
			rc = sc_diag_add(d, lineno, "%s:%d: NUL byte in line",
					 path, lineno);
			if (rc < 0)
				goto out;
			problems++;
			continue;
		}
		if (lineno == 1 && n >= 3 &&
		    memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
			rc = sc_diag_add(d, lineno,
					 "%s:1: the file starts with "
					 "a UTF-8 byte-order mark, which "
					 "iniparser cannot read; remove it",
					 path);
			if (rc < 0)
				goto out;
			problems++;
			memmove(buf, buf + 3, (size_t)n - 2);
			n -= 3;
		}
		/* Strip the newline and trailing blanks, as iniparser does. */
		while (n > 0 && isspace((unsigned char)buf[n - 1]))
			buf[--n] = '\0';
		char *nl = realloc(logical, loglen + (size_t)n + 1);
		if (nl == NULL) {
			rc = -ENOMEM;
			goto out;
		}
		logical = nl;
		if (loglen == 0)
			start = lineno;
		memcpy(logical + loglen, buf, (size_t)n + 1);
		loglen += (size_t)n;
		if (loglen > 0 && logical[loglen - 1] == '\\') {
			/* continuation: the backslash goes, the next line
			 * is appended */
			logical[--loglen] = '\0';
			continue;
		}
		if (loglen > SC_LINE_MAX) {
			rc = sc_diag_add(
				d, start,
				"%s:%d: line too long (%zu characters, "
				"iniparser reads at most %d)",
				path, start, loglen, SC_LINE_MAX);
			if (rc < 0)
				goto out;
			problems++;
		} else {
			rc = scan_one(&l, path, start, logical, sec,
				      sizeof(sec), &insec, d);
			if (rc < 0)
				goto out;
			problems += rc;
		}
		loglen = 0;
	}
	if (ferror(f)) {
		rc = -EIO;
		goto out;
	}
	if (loglen > 0) {
		rc = scan_one(&l, path, start, logical, sec, sizeof(sec),
			      &insec, d);
		if (rc < 0)
			goto out;
		problems += rc;
	}
	rc = problems;
out:
	free(buf);
	free(logical);
	if (rc < 0)
		sc_lines_free(&l);
	else
		*out = l;
	return rc;
}
