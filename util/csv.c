/*
 * csv.c: strict field splitting and number parsing for every CSV reader
 * (the world's traces, events and imports; the results' summaries, rows
 * and plots). Every parser rejects trailing garbage, empty fields and
 * non-finite values, so a malformed row is reported instead of being read
 * as zero.
 */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *csv_trim(char *line)
{
	size_t n = strlen(line);

	while (n > 0 && isspace((unsigned char)line[n - 1]))
		line[--n] = '\0';
	while (*line && isspace((unsigned char)*line))
		line++;
	return line;
}

int csv_split(char *line, char **fields, int max)
{
	int n = 0;
	char *r = line, *w = line;

	for (;;) {
		char *start = w;
		int quoted = 0;

		if (n >= max)
			return -E2BIG;
		while (*r == ' ' || *r == '\t')
			r++;
		if (*r == '"') {
			quoted = 1;
			r++;
		}
		while (*r) {
			if (quoted && *r == '"') {
				if (r[1] == '"') {
					*w++ = '"';
					r += 2;
					continue;
				}
				quoted = 0;
				r++;
				continue;
			}
			if (!quoted && *r == ',')
				break;
			*w++ = *r++;
		}
		/* trim trailing blanks of an unquoted field */
		while (w > start && (w[-1] == ' ' || w[-1] == '\t'))
			w--;
		fields[n++] = start;
		if (*r == ',') {
			r++;
			*w++ = '\0';
			continue;
		}
		*w = '\0';
		return n;
	}
}

int csv_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

int csv_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno == ERANGE || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

int csv_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno == ERANGE)
		return -EINVAL;
	*out = v;
	return 0;
}

int csv_seconds_ns(const char *s, int64_t *out)
{
	int neg = 0, nfrac = 0, round_up = 0, digits = 0;
	int64_t whole = 0, frac = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	for (; isdigit((unsigned char)*s); s++, digits++) {
		if (whole > (INT64_MAX / 1000000000 - 10) / 10)
			return -ERANGE;
		whole = whole * 10 + (*s - '0');
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, digits++) {
			if (nfrac < 9) {
				frac = frac * 10 + (*s - '0');
				nfrac++;
			} else if (nfrac == 9) {
				round_up = *s >= '5';
				nfrac++;
			}
		}
	}
	if (*s || digits == 0)
		return -EINVAL;
	for (int i = nfrac < 9 ? nfrac : 9; i < 9; i++)
		frac *= 10;
	frac += round_up;
	*out = (whole * 1000000000 + frac) * (neg ? -1 : 1);
	return 0;
}

void csv_format_ns(char *buf, size_t len, int64_t t_ns)
{
	uint64_t a = t_ns < 0 ? (uint64_t)0 - (uint64_t)t_ns : (uint64_t)t_ns;

	snprintf(buf, len, "%s%llu.%09llu", t_ns < 0 ? "-" : "",
		 (unsigned long long)(a / 1000000000u),
		 (unsigned long long)(a % 1000000000u));
}
