/*
 * dist.c: generation of netem's built-in delay distribution tables, the
 * .dist text parser and tabledist(), which picks the table entry or the
 * uniform offset with rnd % range exactly as the kernel does. Table
 * formulas follow iproute2's netem/normal.c, pareto.c and paretonormal.c
 * (from NIST Net): normal is the inverse of Phi(x) = 0.5 + 0.5 erf(x /
 * sqrt 2) sampled on a 5e-5 grid over [-10, 10.05) into 16384 bins, every
 * 4th bin kept; pareto (a = 3) is u^(-1/a) - 1.5 scaled by 4/3 for
 * u = i/65536, i = 65536, 65520, ..., 16; paretonormal is (normal +
 * 3 pareto) / 4 with C integer division. Values are scaled by
 * NETEM_DIST_SCALE and clipped to the s16 range.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netem_dist.h"

#define NORMAL_BINS 16384
#define GRID_LO	    -10.0
#define GRID_STEP   0.00005
#define GRID_N	    401000 /* x = -10 + k*5e-5 < 10.05 */

static double phi(double x)
{
	return .5 + .5 * erf(x / sqrt(2.0));
}

static int clip16(double v)
{
	if (v < -32768)
		return -32768;
	if (v > 32767)
		return 32767;
	return (int)v;
}

/* iproute2 records, for each bin i, the last grid x with
 * rint(16384 * Phi(x)) == i, i.e. the largest x with 16384 Phi(x) < i + .5.
 * Phi is monotone, so a bisection over the grid finds it. */
static double normal_inverse_bin(int i)
{
	long lo = 0, hi = GRID_N - 1, mid;

	if (NORMAL_BINS * phi(GRID_LO) >= i + .5)
		return GRID_LO;
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (rint(NORMAL_BINS * phi(GRID_LO + mid * GRID_STEP)) <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	return GRID_LO + lo * GRID_STEP;
}

/* unclipped: paretonormal mixes the raw value, then clips the mix */
static int normal_raw(int j)
{
	return (int)rint(normal_inverse_bin(4 * j) * NETEM_DIST_SCALE);
}

static int pareto_value(int j)
{
	double u = (double)(65536 - 16 * j) / 65536.;
	double v = (1.0 / pow(u, 1.0 / 3.0) - 1.5) * (4.0 / 3.0) *
		   NETEM_DIST_SCALE;

	if (v > 32767)
		v = 32767;
	return (int)rint(v);
}

int netem_dist_builtin(enum netem_dist d, int16_t *out)
{
	int j;

	switch (d) {
	case NETEM_DIST_NORMAL:
		for (j = 0; j < NETEM_DIST_BUILTIN_SIZE; j++)
			out[j] = (int16_t)clip16(normal_raw(j));
		return 0;
	case NETEM_DIST_PARETO:
		for (j = 0; j < NETEM_DIST_BUILTIN_SIZE; j++)
			out[j] = (int16_t)pareto_value(j);
		return 0;
	case NETEM_DIST_PARETONORMAL:
		for (j = 0; j < NETEM_DIST_BUILTIN_SIZE; j++)
			out[j] = (int16_t)clip16(
				(normal_raw(j) + 3 * pareto_value(j)) / 4);
		return 0;
	default:
		return -EINVAL;
	}
}

int netem_dist_parse(const char *buf, size_t len, int16_t *out, size_t max,
		     size_t *n, char *err, size_t errlen)
{
	size_t pos = 0, count = 0, line = 1;
	char tok[32];

	if (max > NETEM_DIST_TABLE_MAX)
		max = NETEM_DIST_TABLE_MAX;
	while (pos < len) {
		size_t start, tl;
		char *end;
		long v;

		if (buf[pos] == '\n') {
			line++;
			pos++;
			continue;
		}
		if (buf[pos] == ' ' || buf[pos] == '\t' || buf[pos] == '\r') {
			pos++;
			continue;
		}
		if (buf[pos] == '#') {
			while (pos < len && buf[pos] != '\n')
				pos++;
			continue;
		}
		start = pos;
		while (pos < len && buf[pos] != ' ' && buf[pos] != '\t' &&
		       buf[pos] != '\r' && buf[pos] != '\n')
			pos++;
		tl = pos - start;
		if (tl >= sizeof(tok)) {
			snprintf(err, errlen, "line %zu: token too long", line);
			return -EINVAL;
		}
		memcpy(tok, buf + start, tl);
		tok[tl] = '\0';
		if (memchr(tok, '\0', tl)) {
			snprintf(err, errlen, "line %zu: NUL byte", line);
			return -EINVAL;
		}
		errno = 0;
		v = strtol(tok, &end, 10);
		if (*end != '\0' || end == tok || errno) {
			snprintf(err, errlen,
				 "line %zu: \"%s\" is not an integer", line,
				 tok);
			return -EINVAL;
		}
		if (v < -32768 || v > 32767) {
			snprintf(err, errlen,
				 "line %zu: %s is out of range -32768..32767",
				 line, tok);
			return -EINVAL;
		}
		if (count == max) {
			snprintf(err, errlen, "line %zu: more than %zu values",
				 line, max);
			return -EINVAL;
		}
		count++;
	}
	if (count == 0) {
		snprintf(err, errlen, "no values (a table needs 1..%d)",
			 NETEM_DIST_TABLE_MAX);
		return -EINVAL;
	}
	/* second pass: everything is valid, write the output */
	count = 0;
	pos = 0;
	while (pos < len) {
		if (buf[pos] == '#') {
			while (pos < len && buf[pos] != '\n')
				pos++;
			continue;
		}
		if (buf[pos] == '-' || (buf[pos] >= '0' && buf[pos] <= '9') ||
		    buf[pos] == '+') {
			size_t start = pos, tl;

			while (pos < len && buf[pos] != ' ' &&
			       buf[pos] != '\t' && buf[pos] != '\r' &&
			       buf[pos] != '\n')
				pos++;
			tl = pos - start;
			memcpy(tok, buf + start, tl);
			tok[tl] = '\0';
			out[count++] = (int16_t)strtol(tok, NULL, 10);
			continue;
		}
		pos++;
	}
	*n = count;
	return 0;
}

const struct netem_dist_table *
netem_dist_lookup(const struct netem_dist_registry *reg, const char *name)
{
	size_t i;

	if (!reg)
		return NULL;
	for (i = 0; i < reg->n; i++)
		if (reg->tables[i].name &&
		    strcmp(reg->tables[i].name, name) == 0)
			return &reg->tables[i];
	return NULL;
}

void netem_dist_moments(const int16_t *t, size_t n, double *mean, double *sd)
{
	double s = 0, s2 = 0, m;
	size_t i;

	for (i = 0; i < n; i++)
		s += t[i];
	m = s / n;
	for (i = 0; i < n; i++)
		s2 += (t[i] - m) * (t[i] - m);
	*mean = m / NETEM_DIST_SCALE;
	*sd = sqrt(s2 / n) / NETEM_DIST_SCALE;
}

int64_t netem_tabledist(int64_t mu, int32_t sigma, uint32_t rnd,
			const int16_t *t, uint32_t n)
{
	int64_t x, v;

	if (sigma == 0)
		return mu;
	/* the kernel's u32 arithmetic: 2 * sigma <= 2^32 - 2 */
	if (!t)
		return (int64_t)(rnd % (2 * (uint32_t)sigma)) + mu - sigma;
	/* the same entry as rnd % n; 4096-entry tables skip the divide */
	v = t[(n & (n - 1)) ? rnd % n : rnd & (n - 1)];
	x = (int64_t)(sigma % NETEM_DIST_SCALE) * v;
	if (x >= 0)
		x += NETEM_DIST_SCALE / 2;
	else
		x -= NETEM_DIST_SCALE / 2;
	return x / NETEM_DIST_SCALE + (int64_t)(sigma / NETEM_DIST_SCALE) * v +
	       mu;
}
