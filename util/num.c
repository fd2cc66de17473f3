/*
 * num.c: the one grammar for the numbers a user writes, on a command line
 * or in a scenario file, in every program (reckond, reckonctl,
 * reckon-agent):
 *   integers   decimal, or hexadecimal after 0x; a leading zero is still
 *              decimal ("010" is ten), and no sign or blank is taken;
 *   durations  a decimal number with an optional fraction and a unit, ns
 *              us ms s m h ("600s" = "10m"); a bare number is refused, or
 *              taken in the unit the caller names (seconds on command
 *              lines, so "--duration 600" is "600s"); fractions finer than
 *              1 ns are refused;
 *   sizes      a decimal number with an optional k, M or G (x1024).
 * The whole text must be the number; the output is written only on
 * success. The netem spec language keeps tc's own units (netem/units.c).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct {
	const char *name;
	uint64_t ns;
} time_units[] = {
	{"h", 3600000000000ULL}, {"m", 60000000000ULL}, {"s", 1000000000ULL},
	{"ms", 1000000ULL},	 {"us", 1000ULL},	{"ns", 1ULL},
};
#define NUNITS (sizeof(time_units) / sizeof(time_units[0]))

/* Digits of a decimal number with an optional fraction; returns the
 * length consumed or 0. */
static size_t scan_decimal(const char *s, int allow_fraction)
{
	size_t i = 0, digits = 0;

	while (isdigit((unsigned char)s[i])) {
		i++;
		digits++;
	}
	if (allow_fraction && s[i] == '.' && digits) {
		size_t j = i + 1;
		while (isdigit((unsigned char)s[j]))
			j++;
		if (j > i + 1)
			i = j;
	}
	return digits ? i : 0;
}

int num_parse_duration(const char *s, int64_t bare_ns, int64_t *out, char *err,
		       size_t errlen)
{
	size_t n = scan_decimal(s, 1);
	const char *unit = s + n;
	uint64_t mult = 0, whole = 0, frac_ns = 0;

	if (n == 0) {
		snprintf(err, errlen,
			 "'%s' is not a duration (a number and a "
			 "unit: 60s, 10m, 500ms)",
			 s);
		return -EINVAL;
	}
	for (size_t i = 0; i < NUNITS; i++)
		if (strcmp(unit, time_units[i].name) == 0)
			mult = time_units[i].ns;
	if (mult == 0 && *unit == '\0' && bare_ns > 0)
		mult = (uint64_t)bare_ns;
	if (mult == 0) {
		if (*unit == '\0')
			snprintf(err, errlen,
				 "'%s' needs a unit (ns, us, ms, "
				 "s, m, h)",
				 s);
		else
			snprintf(err, errlen,
				 "'%s': unknown unit '%s' (ns, us, "
				 "ms, s, m, h)",
				 s, unit);
		return -EINVAL;
	}
	/* whole part */
	const char *p = s;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			goto range;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (whole > (uint64_t)INT64_MAX / mult)
		goto range;
	/* fraction: exact in ns or refused */
	if (*p == '.') {
		uint64_t scale = mult;
		for (p++; isdigit((unsigned char)*p); p++) {
			if (scale % 10) {
				if (*p != '0') {
					snprintf(err, errlen,
						 "'%s' is finer "
						 "than 1ns",
						 s);
					return -EINVAL;
				}
				continue;
			}
			scale /= 10;
			frac_ns += scale * (uint64_t)(*p - '0');
		}
	}
	if (whole * mult > (uint64_t)INT64_MAX - frac_ns)
		goto range;
	*out = (int64_t)(whole * mult + frac_ns);
	return 0;
range:
	snprintf(err, errlen, "'%s' is too large", s);
	return -EINVAL;
}

int num_format_duration(int64_t ns, char *buf, size_t len)
{
	if (ns == 0)
		return snprintf(buf, len, "0s");
	for (size_t i = 0; i < NUNITS; i++)
		if ((uint64_t)ns % time_units[i].ns == 0)
			return snprintf(buf, len, "%" PRIu64 "%s",
					(uint64_t)ns / time_units[i].ns,
					time_units[i].name);
	return snprintf(buf, len, "%" PRId64 "ns", ns);
}

int num_parse_u64(const char *s, uint64_t *out)
{
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
	} else if (!isdigit((unsigned char)s[0])) {
		return -EINVAL;
	}
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

int num_parse_size(const char *s, uint64_t *out)
{
	size_t n = scan_decimal(s, 0);
	uint64_t v = 0, mult = 1;

	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (s[n] != '\0') {
		if (s[n + 1] != '\0')
			return -EINVAL;
		switch (tolower((unsigned char)s[n])) {
		case 'k':
			mult = 1ULL << 10;
			break;
		case 'm':
			mult = 1ULL << 20;
			break;
		case 'g':
			mult = 1ULL << 30;
			break;
		default:
			return -EINVAL;
		}
	}
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int num_parse_duration_unit(const char *s, int64_t *out, char *err,
			    size_t errlen)
{
	return num_parse_duration(s, 0, out, err, errlen);
}
