/*
 * scenario_diag.c: the diagnostics list of a scenario load. Messages are
 * collected in any order with the line they concern, then sorted into
 * file order; the list is capped so a binary file cannot flood stderr.
 * Also the small edit-distance search behind "did you mean 'X'?".
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_int.h"

void sc_diag_free(struct sc_diag *d)
{
	if (d == NULL)
		return;
	for (unsigned i = 0; i < d->n; i++)
		free(d->msg[i]);
	free(d->msg);
	free(d->line);
	d->msg = NULL;
	d->line = NULL;
	d->n = d->cap = 0;
	d->dropped = 0;
}

static int diag_push(struct sc_diag *d, int line, char *msg)
{
	if (d->n == d->cap) {
		unsigned cap = d->cap ? d->cap * 2 : 16;
		char **m = realloc(d->msg, cap * sizeof(*m));
		if (m == NULL)
			return -ENOMEM;
		d->msg = m;
		int *l = realloc(d->line, cap * sizeof(*l));
		if (l == NULL)
			return -ENOMEM;
		d->line = l;
		d->cap = cap;
	}
	d->msg[d->n] = msg;
	d->line[d->n] = line;
	d->n++;
	return 0;
}

int sc_diag_add(struct sc_diag *d, int line, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int rc;

	if (d->n >= SC_DIAG_MAX) {
		d->dropped++;
		return 0;
	}
	va_start(ap, fmt);
	rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	/* Text from a broken file must not drive the terminal. */
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	rc = diag_push(d, line, msg);
	if (rc < 0)
		free(msg);
	return rc;
}

int sc_diag_finish(struct sc_diag *d, const char *path)
{
	char *msg;

	sc_diag_sort(d);
	if (d->dropped == 0)
		return 0;
	if (asprintf(&msg, "%s: %u more problem(s) not shown", path,
		     d->dropped) < 0)
		return -ENOMEM;
	if (diag_push(d, INT_MAX, msg) < 0) {
		free(msg);
		return -ENOMEM;
	}
	d->dropped = 0;
	return 0;
}

static int sort_key(int line)
{
	return line <= 0 ? INT_MAX : line;
}

void sc_diag_sort(struct sc_diag *d)
{
	/* Insertion sort: stable, and lists are short. */
	for (unsigned i = 1; i < d->n; i++) {
		char *m = d->msg[i];
		int l = d->line[i];
		unsigned j = i;

		while (j > 0 && sort_key(d->line[j - 1]) > sort_key(l)) {
			d->msg[j] = d->msg[j - 1];
			d->line[j] = d->line[j - 1];
			j--;
		}
		d->msg[j] = m;
		d->line[j] = l;
	}
}

unsigned sc_edit_distance(const char *a, const char *b)
{
	/* Two-row dynamic programme; names are short, so cap the lengths. */
	unsigned prev[65], cur[65];
	size_t la = strnlen(a, 64), lb = strnlen(b, 64);

	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			unsigned del = prev[j] + 1, ins = cur[j - 1] + 1;
			unsigned m = sub < del ? sub : del;
			cur[j] = m < ins ? m : ins;
		}
		memcpy(prev, cur, (lb + 1) * sizeof(prev[0]));
	}
	return prev[lb] > 255 ? 255 : prev[lb];
}

const char *sc_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	unsigned bestd = 3;
	size_t len = strlen(word);

	for (size_t i = 0; n ? i < n : cands[i] != NULL; i++) {
		unsigned dist = sc_edit_distance(word, cands[i]);
		if (dist < bestd && 2 * dist < len) {
			best = cands[i];
			bestd = dist;
		}
	}
	return best;
}

const char *sc_did_you_mean(const char *word, const char *const *cands,
			    size_t n, char *buf, size_t len)
{
	const char *s = sc_suggest(word, cands, n);

	if (s == NULL)
		return "";
	snprintf(buf, len, " (did you mean '%s'?)", s);
	return buf;
}
