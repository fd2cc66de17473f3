/*
 * spec_parse.c: the tc-netem spec parser ("delay 100ms 10ms 25%
 * distribution normal loss gemodel 1% 10% 70% 0.1% ..."). It mirrors
 * iproute2's tc/q_netem.c grammar and defaults (limit 1000; gap 1 when
 * reorder is given alone; the 4-state and Gilbert-Elliott defaults) but
 * insists on explicit time units, refuses a keyword given twice and names
 * the offending token in every error. No I/O; the input is a C string.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "netem.h"
#include "units.h"

#define TOK_MAX 64

struct cursor {
	const char *p;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int fail(struct cursor *c,
						      const char *fmt, ...)
{
	va_list ap;

	if (c->err && c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Copy the next whitespace-separated token into tok; 0 at end of input,
 * 1 on a token, -EINVAL when the token is too long. Does not advance when
 * peek is set. */
static int token(struct cursor *c, char *tok, int peek)
{
	const char *s = c->p, *e;
	size_t n;

	while (*s && isspace((unsigned char)*s))
		s++;
	if (!*s) {
		if (!peek)
			c->p = s;
		return 0;
	}
	e = s;
	while (*e && !isspace((unsigned char)*e))
		e++;
	n = (size_t)(e - s);
	if (n >= TOK_MAX)
		return fail(c, "\"%.20s...\": token too long", s);
	memcpy(tok, s, n);
	tok[n] = '\0';
	if (!peek)
		c->p = e;
	return 1;
}

static int next(struct cursor *c, char *tok)
{
	return token(c, tok, 0);
}

/* The next token looks like a number (tc's NEXT_IS_NUMBER, signed). */
static int next_is_number(struct cursor *c)
{
	char tok[TOK_MAX];
	const char *t = tok;

	if (token(c, tok, 1) != 1)
		return 0;
	if (*t == '-' || *t == '+')
		t++;
	return isdigit((unsigned char)*t) ||
	       (*t == '.' && isdigit((unsigned char)t[1]));
}

static int need(struct cursor *c, const char *kw, const char *what, char *tok)
{
	int rc = next(c, tok);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return fail(c, "%s: missing %s", kw, what);
	return 0;
}

#define CHECK(expr, kw)                                                        \
	do {                                                                   \
		if ((expr) < 0)                                                \
			return fail(c, "%s: %s", kw, why);                     \
	} while (0)

static int opt_percent(struct cursor *c, const char *kw, uint32_t *v)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];

	if (!next_is_number(c))
		return 0;
	next(c, tok);
	CHECK(netem_parse_percent(tok, v, why), kw);
	return 1;
}

static int req_percent(struct cursor *c, const char *kw, const char *what,
		       uint32_t *v)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc = need(c, kw, what, tok);

	if (rc < 0)
		return rc;
	CHECK(netem_parse_percent(tok, v, why), kw);
	return 0;
}

static int req_time(struct cursor *c, const char *kw, const char *what,
		    int64_t *v)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc = need(c, kw, what, tok);

	if (rc < 0)
		return rc;
	CHECK(netem_parse_time(tok, v, why), kw);
	return 0;
}

static int req_u32(struct cursor *c, const char *kw, const char *what,
		   uint32_t *v)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc = need(c, kw, what, tok);

	if (rc < 0)
		return rc;
	CHECK(netem_parse_u32(tok, v, why), kw);
	return 0;
}

static int valid_dist_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= NETEM_DIST_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '-' && s[i] != '.')
			return 0;
	return 1;
}

static int parse_dist_name(struct cursor *c, const char *kw, enum netem_dist *d,
			   char name[NETEM_DIST_NAME_MAX])
{
	char tok[TOK_MAX];
	int rc = need(c, kw, "a distribution name", tok);

	if (rc < 0)
		return rc;
	memset(name, 0, NETEM_DIST_NAME_MAX);
	if (strcmp(tok, "uniform") == 0)
		*d = NETEM_DIST_UNIFORM;
	else if (strcmp(tok, "normal") == 0)
		*d = NETEM_DIST_NORMAL;
	else if (strcmp(tok, "pareto") == 0)
		*d = NETEM_DIST_PARETO;
	else if (strcmp(tok, "paretonormal") == 0)
		*d = NETEM_DIST_PARETONORMAL;
	else if (valid_dist_name(tok)) {
		*d = NETEM_DIST_CUSTOM;
		memcpy(name, tok, strlen(tok));
	} else {
		return fail(c,
			    "%s: \"%s\" is not a distribution name (letters, "
			    "digits, '.', '_', '-'; under %d characters)",
			    kw, tok, NETEM_DIST_NAME_MAX);
	}
	return 0;
}

static int parse_delay(struct cursor *c, struct netem_spec *s)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc;

	rc = req_time(c, "delay", "a time", &s->latency_ns);
	if (rc < 0)
		return rc;
	if (!next_is_number(c))
		return 0;
	next(c, tok);
	CHECK(netem_parse_time(tok, &s->jitter_ns, why), "delay");
	if (s->jitter_ns > INT32_MAX)
		return fail(c,
			    "delay: jitter %s is over 2147483647ns (netem's "
			    "limit)",
			    tok);
	rc = opt_percent(c, "delay", &s->delay_corr);
	return rc < 0 ? rc : 0;
}

/* One value of a "loss state"/"loss gemodel" list, with its optional tc
 * print label ("p13", "1-h", ...). Returns 1 when a value was read. */
static int model_value(struct cursor *c, const char *kw, const char *label,
		       uint32_t *v)
{
	char tok[TOK_MAX];
	int rc;

	if (token(c, tok, 1) == 1 && strcmp(tok, label) == 0) {
		next(c, tok);
		rc = req_percent(c, kw, label, v);
		return rc < 0 ? rc : 1;
	}
	return opt_percent(c, kw, v);
}

static int parse_loss(struct cursor *c, struct netem_spec *s)
{
	char tok[TOK_MAX];
	int rc;

	if (token(c, tok, 1) != 1)
		return fail(c, "loss: missing a probability");
	if (strcmp(tok, "state") == 0) {
		static const char *lab[] = {"p13", "p31", "p32", "p23", "p14"};
		uint32_t *v[] = {&s->p13, &s->p31, &s->p32, &s->p23, &s->p14};
		int i;

		next(c, tok);
		s->loss_model = NETEM_LOSS_STATE;
		/* tc's defaults when only p13 is given: Bernoulli(p13) */
		s->p31 = UINT32_MAX;
		s->p32 = 0;
		s->p23 = UINT32_MAX;
		s->p14 = 0;
		for (i = 0; i < 5; i++) {
			rc = model_value(c, "loss state", lab[i], v[i]);
			if (rc < 0)
				return rc;
			if (rc == 0 && i == 0)
				return fail(c, "loss state: missing p13");
			if (rc == 0)
				break;
			if (i == 0)
				s->p31 = UINT32_MAX - s->p13;
		}
		if ((uint64_t)s->p13 + s->p14 > UINT32_MAX)
			return fail(c, "loss state: p13 + p14 is over 100%%");
		if ((uint64_t)s->p31 + s->p32 > UINT32_MAX)
			return fail(c, "loss state: p31 + p32 is over 100%%");
		return 0;
	}
	if (strcmp(tok, "gemodel") == 0) {
		static const char *lab[] = {"p", "r", "1-h", "1-k"};
		uint32_t *v[] = {&s->ge_p, &s->ge_r, &s->ge_1h, &s->ge_1k};
		int i;

		next(c, tok);
		s->loss_model = NETEM_LOSS_GEMODEL;
		s->ge_1h = UINT32_MAX; /* tc: 1-h = 100%, 1-k = 0 */
		s->ge_1k = 0;
		for (i = 0; i < 4; i++) {
			rc = model_value(c, "loss gemodel", lab[i], v[i]);
			if (rc < 0)
				return rc;
			if (rc == 0 && i == 0)
				return fail(c, "loss gemodel: missing p");
			if (rc == 0)
				break;
			if (i == 0)
				s->ge_r = UINT32_MAX - s->ge_p; /* r = 1-p */
		}
		return 0;
	}
	if (strcmp(tok, "random") == 0)
		next(c, tok);
	s->loss_model = NETEM_LOSS_RANDOM;
	rc = req_percent(c, "loss", "a probability", &s->loss);
	if (rc < 0)
		return rc;
	rc = opt_percent(c, "loss", &s->loss_corr);
	return rc < 0 ? rc : 0;
}

static int parse_rate(struct cursor *c, struct netem_spec *s)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc = need(c, "rate", "a rate", tok);

	if (rc < 0)
		return rc;
	CHECK(netem_parse_rate(tok, &s->rate, why), "rate");
	if (!next_is_number(c))
		return 0;
	next(c, tok);
	CHECK(netem_parse_s32(tok, &s->packet_overhead, why),
	      "rate: packet overhead");
	if (!next_is_number(c))
		return 0;
	next(c, tok);
	CHECK(netem_parse_u32(tok, &s->cell_size, why), "rate: cell size");
	if (!next_is_number(c))
		return 0;
	next(c, tok);
	CHECK(netem_parse_s32(tok, &s->cell_overhead, why),
	      "rate: cell overhead");
	return 0;
}

static int parse_slot(struct cursor *c, struct netem_spec *s)
{
	char tok[TOK_MAX];
	int rc;

	s->slot = 1;
	if (token(c, tok, 1) == 1 && strcmp(tok, "distribution") == 0) {
		next(c, tok);
		s->slot_use_dist = 1;
		rc = parse_dist_name(c, "slot distribution", &s->slot_dist,
				     s->slot_dist_name);
		if (rc < 0)
			return rc;
		rc = req_time(c, "slot distribution", "a delay",
			      &s->slot_dist_delay_ns);
		if (rc < 0)
			return rc;
		rc = req_time(c, "slot distribution", "a jitter",
			      &s->slot_dist_jitter_ns);
		if (rc < 0)
			return rc;
		if (s->slot_dist_jitter_ns > INT32_MAX)
			return fail(c, "slot distribution: jitter is over "
				       "2147483647ns (netem's limit)");
	} else {
		rc = req_time(c, "slot", "a minimum delay", &s->slot_min_ns);
		if (rc < 0)
			return rc;
		s->slot_max_ns = s->slot_min_ns;
		if (next_is_number(c)) {
			rc = req_time(c, "slot", "a maximum delay",
				      &s->slot_max_ns);
			if (rc < 0)
				return rc;
		}
		if (s->slot_min_ns > s->slot_max_ns)
			return fail(c,
				    "slot: minimum delay is over the maximum");
	}
	for (;;) {
		if (token(c, tok, 1) != 1)
			break;
		if (strcmp(tok, "packets") == 0) {
			next(c, tok);
			rc = req_u32(c, "slot packets", "a count",
				     &s->slot_packets);
		} else if (strcmp(tok, "bytes") == 0) {
			next(c, tok);
			rc = req_u32(c, "slot bytes", "a count",
				     &s->slot_bytes);
		} else {
			break;
		}
		if (rc < 0)
			return rc;
	}
	if (s->slot_packets > INT32_MAX || s->slot_bytes > INT32_MAX)
		return fail(c,
			    "slot: packets and bytes are at most 2147483647");
	return 0;
}

int netem_spec_parse(const char *text, struct netem_spec *out, char *err,
		     size_t errlen)
{
	struct cursor cur = {text ? text : "", err, errlen};
	struct cursor *c = &cur;
	struct netem_spec s;
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	/* which keywords were seen, to refuse repeats */
	enum {
		K_DELAY,
		K_DIST,
		K_JITTER,
		K_LOSS,
		K_ECN,
		K_DUP,
		K_CORRUPT,
		K_REORDER,
		K_GAP,
		K_RATE,
		K_LIMIT,
		K_SLOT,
		K_N
	};
	static const char *kname[K_N] = {"delay",   "distribution", "jitter",
					 "loss",    "ecn",	    "duplicate",
					 "corrupt", "reorder",	    "gap",
					 "rate",    "limit",	    "slot"};
	int seen[K_N] = {0};
	int rc, k;

	if (err && errlen)
		err[0] = '\0';
	if (!out)
		return fail(c, "no output spec");
	netem_spec_init(&s);
	for (;;) {
		rc = next(c, tok);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
		if (strcmp(tok, "delay") == 0 || strcmp(tok, "latency") == 0)
			k = K_DELAY;
		else if (strcmp(tok, "distribution") == 0)
			k = K_DIST;
		else if (strcmp(tok, "jitter") == 0)
			k = K_JITTER;
		else if (strcmp(tok, "loss") == 0 || strcmp(tok, "drop") == 0)
			k = K_LOSS;
		else if (strcmp(tok, "ecn") == 0)
			k = K_ECN;
		else if (strcmp(tok, "duplicate") == 0)
			k = K_DUP;
		else if (strcmp(tok, "corrupt") == 0)
			k = K_CORRUPT;
		else if (strcmp(tok, "reorder") == 0)
			k = K_REORDER;
		else if (strcmp(tok, "gap") == 0)
			k = K_GAP;
		else if (strcmp(tok, "rate") == 0)
			k = K_RATE;
		else if (strcmp(tok, "limit") == 0)
			k = K_LIMIT;
		else if (strcmp(tok, "slot") == 0)
			k = K_SLOT;
		else if (strcmp(tok, "seed") == 0)
			return fail(c, "seed: not accepted here; every link is "
				       "seeded from the scenario seed");
		else
			return fail(c, "\"%s\": unknown keyword", tok);
		if (seen[k])
			return fail(c, "%s: given twice", kname[k]);
		seen[k] = 1;

		switch (k) {
		case K_DELAY:
			rc = parse_delay(c, &s);
			break;
		case K_DIST:
			rc = parse_dist_name(c, "distribution", &s.dist,
					     s.dist_name);
			break;
		case K_JITTER:
			rc = need(c, "jitter", "a mode (fifo or netem)", tok);
			if (rc < 0)
				break;
			if (strcmp(tok, "fifo") == 0)
				s.jitter_mode = NETEM_JITTER_FIFO;
			else if (strcmp(tok, "netem") == 0)
				s.jitter_mode = NETEM_JITTER_NETEM;
			else
				rc = fail(c,
					  "jitter: \"%s\" is not a mode "
					  "(fifo or netem)",
					  tok);
			break;
		case K_LOSS:
			rc = parse_loss(c, &s);
			break;
		case K_ECN:
			s.ecn = 1;
			rc = 0;
			break;
		case K_DUP:
			rc = req_percent(c, "duplicate", "a probability",
					 &s.duplicate);
			if (rc == 0)
				rc = opt_percent(c, "duplicate",
						 &s.duplicate_corr);
			break;
		case K_CORRUPT:
			rc = req_percent(c, "corrupt", "a probability",
					 &s.corrupt);
			if (rc == 0)
				rc = opt_percent(c, "corrupt", &s.corrupt_corr);
			break;
		case K_REORDER:
			rc = req_percent(c, "reorder", "a probability",
					 &s.reorder);
			if (rc == 0)
				rc = opt_percent(c, "reorder", &s.reorder_corr);
			if (rc >= 0 && token(c, tok, 1) == 1 &&
			    strcmp(tok, "gap") == 0) {
				next(c, tok);
				seen[K_GAP] = 1;
				rc = req_u32(c, "gap", "a distance", &s.gap);
			}
			break;
		case K_GAP:
			rc = req_u32(c, "gap", "a distance", &s.gap);
			break;
		case K_RATE:
			rc = parse_rate(c, &s);
			break;
		case K_LIMIT:
			rc = need(c, "limit", "a packet count", tok);
			if (rc < 0)
				break;
			rc = netem_parse_u32(tok, &s.limit, why);
			if (rc < 0)
				return fail(c, "limit: %s", why);
			break;
		case K_SLOT:
			rc = parse_slot(c, &s);
			break;
		default:
			rc = -EINVAL;
		}
		if (rc < 0)
			return rc;
	}

	/* cross-keyword checks, as tc does them (or stricter, see docs) */
	if (seen[K_REORDER] && s.reorder) {
		if (s.latency_ns == 0 && s.jitter_ns == 0)
			return fail(c, "reorder: needs a delay (netem only "
				       "reorders packets it delays)");
		if (!seen[K_GAP])
			s.gap = 1;
		if (s.gap == 0)
			return fail(c, "gap: 0 turns reordering off; use at "
				       "least 1");
	} else if (seen[K_GAP]) {
		return fail(c, "gap: needs a reorder probability");
	}
	if (s.dist != NETEM_DIST_UNIFORM &&
	    (s.latency_ns == 0 || s.jitter_ns == 0))
		return fail(c, "distribution: needs a delay and a jitter "
			       "(delay TIME JITTER)");
	if (s.ecn && s.loss_model == NETEM_LOSS_NONE)
		return fail(c, "ecn: needs a loss model");
	if (s.cell_size == 0 && s.cell_overhead != 0)
		return fail(c, "rate: a cell overhead needs a cell size");
	*out = s;
	return 0;
}

void netem_spec_init(struct netem_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->limit = 1000;
}

int netem_spec_equal(const struct netem_spec *a, const struct netem_spec *b)
{
	return a->latency_ns == b->latency_ns && a->jitter_ns == b->jitter_ns &&
	       a->delay_corr == b->delay_corr && a->dist == b->dist &&
	       strncmp(a->dist_name, b->dist_name, NETEM_DIST_NAME_MAX) == 0 &&
	       a->jitter_mode == b->jitter_mode &&
	       a->loss_model == b->loss_model && a->loss == b->loss &&
	       a->loss_corr == b->loss_corr && a->p13 == b->p13 &&
	       a->p31 == b->p31 && a->p32 == b->p32 && a->p23 == b->p23 &&
	       a->p14 == b->p14 && a->ge_p == b->ge_p && a->ge_r == b->ge_r &&
	       a->ge_1h == b->ge_1h && a->ge_1k == b->ge_1k &&
	       a->ecn == b->ecn && a->duplicate == b->duplicate &&
	       a->duplicate_corr == b->duplicate_corr &&
	       a->corrupt == b->corrupt && a->corrupt_corr == b->corrupt_corr &&
	       a->reorder == b->reorder && a->reorder_corr == b->reorder_corr &&
	       a->gap == b->gap && a->rate == b->rate &&
	       a->packet_overhead == b->packet_overhead &&
	       a->cell_size == b->cell_size &&
	       a->cell_overhead == b->cell_overhead && a->limit == b->limit &&
	       a->slot == b->slot && a->slot_use_dist == b->slot_use_dist &&
	       a->slot_min_ns == b->slot_min_ns &&
	       a->slot_max_ns == b->slot_max_ns &&
	       a->slot_dist == b->slot_dist &&
	       strncmp(a->slot_dist_name, b->slot_dist_name,
		       NETEM_DIST_NAME_MAX) == 0 &&
	       a->slot_dist_delay_ns == b->slot_dist_delay_ns &&
	       a->slot_dist_jitter_ns == b->slot_dist_jitter_ns &&
	       a->slot_packets == b->slot_packets &&
	       a->slot_bytes == b->slot_bytes;
}
