/*
 * units.c: unit-aware number parsing and printing for netem specs. In
 * reckon's own formats (schedules, link traces) a time needs an explicit
 * unit because tc changed the meaning of a bare number (microseconds
 * before iproute2 6.9, nanoseconds after); in a tc spec a bare time means
 * what iproute2 6.1 (Debian 12) reads: get_time()'s microseconds for delay
 * and jitter, get_time64()'s nanoseconds for slot times. Sizes follow
 * get_size() (k, m, g are powers of 1024; kbit, mbit, gbit are eighths);
 * spec integers follow get_u32()/get_s32() with base 0 (0x10 is 16, 010 is
 * 8). Rates follow tc's suffixes matched case-insensitively (so "mbps" is
 * megabytes/s); a percentage is stored as rint(p * UINT32_MAX) like
 * iproute2's set_percent(), and printed with the fewest digits that parse
 * back to the same u32.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "netem_spec.h"
#include "units.h"

/* Parse a leading number; returns the end or NULL when there is no
 * number. Refuses inf and nan, which strtod would take, and hex unless
 * hex is set (tc reads its times and sizes with strtod, so "0x10" is 16
 * there). */
static const char *num_prefix_hex(const char *tok, double *v, int hex)
{
	const char *p = tok;
	char *end;

	if (*p == '+' || *p == '-')
		p++;
	if (!((*p >= '0' && *p <= '9') ||
	      (*p == '.' && p[1] >= '0' && p[1] <= '9')))
		return NULL;
	if (!hex && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return NULL;
	*v = strtod(tok, &end);
	if (end == tok || !isfinite(*v))
		return NULL;
	return end;
}

static const char *num_prefix(const char *tok, double *v)
{
	return num_prefix_hex(tok, v, 0);
}

int netem_parse_time(const char *tok, int64_t *ns, char *why)
{
	static const struct {
		const char *u;
		double mult;
	} units[] = {
		{"s", 1e9},	{"sec", 1e9},	{"secs", 1e9}, {"ms", 1e6},
		{"msec", 1e6},	{"msecs", 1e6}, {"us", 1e3},   {"usec", 1e3},
		{"usecs", 1e3}, {"ns", 1},	{"nsec", 1},   {"nsecs", 1},
	};
	const char *u;
	double v, r;
	size_t i;

	u = num_prefix(tok, &v);
	if (!u) {
		snprintf(why, NETEM_WHY_MAX, "\"%s\" is not a time", tok);
		return -EINVAL;
	}
	if (*u == '\0') {
		snprintf(why, NETEM_WHY_MAX,
			 "\"%s\" has no unit (write s, ms, us or ns: tc read a "
			 "bare number as us before iproute2 6.9 and as ns "
			 "after)",
			 tok);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcasecmp(u, units[i].u) == 0)
			break;
	if (i == sizeof(units) / sizeof(units[0])) {
		snprintf(why, NETEM_WHY_MAX,
			 "\"%s\" has an unknown time unit \"%s\"", tok, u);
		return -EINVAL;
	}
	if (v < 0) {
		snprintf(why, NETEM_WHY_MAX, "%s is negative", tok);
		return -EINVAL;
	}
	r = rint(v * units[i].mult);
	if (r > 9.2e18) {
		snprintf(why, NETEM_WHY_MAX, "%s is too large", tok);
		return -EINVAL;
	}
	*ns = (int64_t)r;
	return 0;
}

/*
 * A time as tc reads it: strtod, times the unit in tc's base unit, kept
 * whole (get_time() keeps whole microseconds, get_time64() whole
 * nanoseconds); a bare number is one base unit. base_ns is 1000 for
 * get_time() and 1 for get_time64(). "ns" is accepted in both (tc 6.1's
 * get_time() does not know it) and kept to the nanosecond.
 */
int netem_parse_tc_time(const char *tok, int64_t base_ns, int64_t *ns,
			char *why)
{
	static const struct {
		const char *u;
		double ns;
	} units[] = {
		{"s", 1e9},	{"sec", 1e9},	{"secs", 1e9}, {"ms", 1e6},
		{"msec", 1e6},	{"msecs", 1e6}, {"us", 1e3},   {"usec", 1e3},
		{"usecs", 1e3}, {"ns", 1},	{"nsec", 1},   {"nsecs", 1},
	};
	const char *u;
	double v, whole;
	size_t i;

	u = num_prefix_hex(tok, &v, 1);
	if (!u || base_ns <= 0) {
		snprintf(why, NETEM_WHY_MAX, "\"%s\" is not a time", tok);
		return -EINVAL;
	}
	for (i = 0; *u && i < sizeof(units) / sizeof(units[0]); i++)
		if (strcasecmp(u, units[i].u) == 0)
			break;
	if (*u && i == sizeof(units) / sizeof(units[0])) {
		snprintf(why, NETEM_WHY_MAX,
			 "\"%s\" has an unknown time unit \"%s\"", tok, u);
		return -EINVAL;
	}
	if (v < 0) {
		snprintf(why, NETEM_WHY_MAX, "%s is negative", tok);
		return -EINVAL;
	}
	if (!*u)
		whole = trunc(v) * (double)base_ns;
	else if (units[i].ns < (double)base_ns)
		whole = trunc(v * units[i].ns);
	else
		whole = trunc(v * (units[i].ns / (double)base_ns)) *
			(double)base_ns;
	if (whole > 9.2e18) {
		snprintf(why, NETEM_WHY_MAX, "%s is too large", tok);
		return -EINVAL;
	}
	*ns = (int64_t)whole;
	return 0;
}

int netem_parse_size(const char *tok, uint32_t *v, char *why)
{
	static const struct {
		const char *u;
		double mult;
	} units[] = {
		{"b", 1},	     {"k", 1024},	  {"kb", 1024},
		{"m", 1048576},	     {"mb", 1048576},	  {"g", 1073741824},
		{"gb", 1073741824},  {"kbit", 128},	  {"mbit", 131072},
		{"gbit", 134217728},
	};
	const char *u;
	double x;
	size_t i = 0;

	u = num_prefix_hex(tok, &x, 1);
	if (!u) {
		snprintf(why, NETEM_WHY_MAX, "\"%s\" is not a size", tok);
		return -EINVAL;
	}
	if (*u) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (strcasecmp(u, units[i].u) == 0)
				break;
		if (i == sizeof(units) / sizeof(units[0])) {
			snprintf(why, NETEM_WHY_MAX,
				 "\"%s\" has an unknown size unit \"%s\"", tok,
				 u);
			return -EINVAL;
		}
		x *= units[i].mult;
	}
	/* get_size() keeps the integer part and refuses what a u32 cannot
	 * hold */
	if (x < 0 || floor(x) > UINT32_MAX) {
		snprintf(why, NETEM_WHY_MAX, "%s is out of range 0..4294967295",
			 tok);
		return -EINVAL;
	}
	*v = (uint32_t)floor(x);
	return 0;
}

int netem_parse_rate(const char *tok, uint64_t *bytes_per_s, char *why)
{
	/* multiplier in bits per second */
	static const struct {
		const char *u;
		double mult;
	} units[] = {
		{"bit", 1.},
		{"kbit", 1e3},
		{"mbit", 1e6},
		{"gbit", 1e9},
		{"tbit", 1e12},
		{"kibit", 1024.},
		{"mibit", 1048576.},
		{"gibit", 1073741824.},
		{"tibit", 1099511627776.},
		{"bps", 8.},
		{"kbps", 8e3},
		{"mbps", 8e6},
		{"gbps", 8e9},
		{"tbps", 8e12},
		{"kibps", 8192.},
		{"mibps", 8388608.},
		{"gibps", 8589934592.},
		{"tibps", 8796093022208.},
	};
	const char *u;
	double v, bytes;
	size_t i;

	u = num_prefix(tok, &v);
	if (!u) {
		snprintf(why, NETEM_WHY_MAX, "\"%s\" is not a rate", tok);
		return -EINVAL;
	}
	if (*u == '\0') {
		i = 0; /* bare number: bit/s, as tc */
	} else {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (strcasecmp(u, units[i].u) == 0)
				break;
		if (i == sizeof(units) / sizeof(units[0])) {
			snprintf(why, NETEM_WHY_MAX,
				 "\"%s\" has an unknown rate unit \"%s\"", tok,
				 u);
			return -EINVAL;
		}
	}
	if (v < 0) {
		snprintf(why, NETEM_WHY_MAX, "%s is negative", tok);
		return -EINVAL;
	}
	bytes = floor(v * units[i].mult / 8.);
	if (bytes < 1) {
		snprintf(why, NETEM_WHY_MAX,
			 "%s is under 8bit (netem counts whole bytes/s)", tok);
		return -EINVAL;
	}
	if (bytes > 1.8e19) {
		snprintf(why, NETEM_WHY_MAX, "%s is too large", tok);
		return -EINVAL;
	}
	*bytes_per_s = (uint64_t)bytes;
	return 0;
}

int netem_parse_percent(const char *tok, uint32_t *p, char *why)
{
	const char *u;
	double v;

	u = num_prefix(tok, &v);
	if (!u || (*u != '\0' && strcmp(u, "%") != 0)) {
		snprintf(why, NETEM_WHY_MAX, "\"%s\" is not a percentage", tok);
		return -EINVAL;
	}
	if (v < 0) {
		snprintf(why, NETEM_WHY_MAX, "%s is negative", tok);
		return -EINVAL;
	}
	if (v > 100) {
		snprintf(why, NETEM_WHY_MAX, "%s%s is over 100%%", tok,
			 *u ? "" : "%");
		return -EINVAL;
	}
	*p = netem_prob_from_double(v / 100.);
	return 0;
}

static int parse_integer(const char *tok, int base, long long lo,
			 long long hi, long long *v, char *why)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(tok, &end, base);
	if (end == tok || *end != '\0' || errno) {
		snprintf(why, NETEM_WHY_MAX, "\"%s\" is not an integer", tok);
		return -EINVAL;
	}
	if (x < lo || x > hi) {
		snprintf(why, NETEM_WHY_MAX, "%s is out of range %lld..%lld",
			 tok, lo, hi);
		return -EINVAL;
	}
	*v = x;
	return 0;
}

static int parse_u32(const char *tok, int base, uint32_t *v, char *why)
{
	long long x;
	int rc = parse_integer(tok, base, 0, UINT32_MAX, &x, why);

	if (rc == 0)
		*v = (uint32_t)x;
	return rc;
}

static int parse_s32(const char *tok, int base, int32_t *v, char *why)
{
	long long x;
	int rc = parse_integer(tok, base, INT32_MIN, INT32_MAX, &x, why);

	if (rc == 0)
		*v = (int32_t)x;
	return rc;
}

int netem_parse_u32(const char *tok, uint32_t *v, char *why)
{
	return parse_u32(tok, 10, v, why);
}

int netem_parse_s32(const char *tok, int32_t *v, char *why)
{
	return parse_s32(tok, 10, v, why);
}

int netem_parse_tc_u32(const char *tok, uint32_t *v, char *why)
{
	return parse_u32(tok, 0, v, why);
}

int netem_parse_tc_s32(const char *tok, int32_t *v, char *why)
{
	return parse_s32(tok, 0, v, why);
}

uint32_t netem_prob_from_double(double p)
{
	if (!(p > 0))
		return 0;
	if (p >= 1)
		return UINT32_MAX;
	return (uint32_t)rint(p * UINT32_MAX);
}

double netem_prob_to_double(uint32_t p)
{
	return (double)p / UINT32_MAX;
}

void netem_fmt_time(int64_t ns, char *buf, size_t len)
{
	if (ns != 0 && ns % 1000000000 == 0)
		snprintf(buf, len, "%" PRId64 "s", ns / 1000000000);
	else if (ns != 0 && ns % 1000000 == 0)
		snprintf(buf, len, "%" PRId64 "ms", ns / 1000000);
	else if (ns != 0 && ns % 1000 == 0)
		snprintf(buf, len, "%" PRId64 "us", ns / 1000);
	else
		snprintf(buf, len, "%" PRId64 "ns", ns);
}

void netem_fmt_rate(uint64_t bytes_per_s, char *buf, size_t len)
{
	/* bytes -> bits can overflow u64 only above 2.3e18 B/s */
	if (bytes_per_s > UINT64_MAX / 8) {
		snprintf(buf, len, "%" PRIu64 "bps", bytes_per_s);
		return;
	}
	uint64_t bits = bytes_per_s * 8;

	if (bits % 1000000000 == 0)
		snprintf(buf, len, "%" PRIu64 "gbit", bits / 1000000000);
	else if (bits % 1000000 == 0)
		snprintf(buf, len, "%" PRIu64 "mbit", bits / 1000000);
	else if (bits % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 "kbit", bits / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "bit", bits);
}

void netem_fmt_percent(uint32_t p, char *buf, size_t len)
{
	double pct = (double)p / UINT32_MAX * 100.;
	int dec;

	/* fewest decimals that parse back to the same u32; 2^-32 needs at
	 * most 10 */
	for (dec = 0; dec <= 12; dec++) {
		snprintf(buf, len, "%.*f%%", dec, pct);
		if (netem_prob_from_double(strtod(buf, NULL) / 100.) == p)
			return;
	}
}
