/*
 * spec_parse.c: the tc-netem spec parser ("delay 100ms 10ms 25%
 * distribution normal loss gemodel 1% 10% 70% 0.1% ..."). It mirrors
 * iproute2 6.1's tc/q_netem.c (Debian 12's tc): its keywords matched by
 * prefix, its units (a bare delay is microseconds, a bare slot time
 * nanoseconds), its defaults (limit 1000; gap 1 when reorder is given
 * alone; the 4-state and Gilbert-Elliott defaults) and its rule that a
 * keyword given again overwrites the values it sets. It accepts a few
 * things tc does not (explicit ns units for delay, tc's print labels
 * inside loss models, "jitter fifo", "loss burst RATE LEN"), and names
 * the offending token in every error. No I/O; the input is a C string.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netem.h"
#include "units.h"

#define TOK_MAX 64

struct cursor {
	const char *p;
	char *err;
	size_t errlen;
	int corr_sent; /* a delay, loss, reorder or corrupt correlation */
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

/* A time; a bare number counts bare_ns nanoseconds (tc 6.1: us for
 * delay and jitter, ns for slot times). */
static int req_time(struct cursor *c, const char *kw, const char *what,
		    int64_t bare_ns, int64_t *v)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc = need(c, kw, what, tok);

	if (rc < 0)
		return rc;
	CHECK(netem_parse_tc_time(tok, bare_ns, v, why), kw);
	return 0;
}

#define TC_US 1000 /* get_time(): a bare number is microseconds */
#define TC_NS 1	   /* get_time64(): a bare number is nanoseconds */

static int req_u32(struct cursor *c, const char *kw, const char *what,
		   uint32_t *v)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc = need(c, kw, what, tok);

	if (rc < 0)
		return rc;
	CHECK(netem_parse_tc_u32(tok, v, why), kw);
	return 0;
}

static int req_size(struct cursor *c, const char *kw, const char *what,
		    uint32_t *v)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc = need(c, kw, what, tok);

	if (rc < 0)
		return rc;
	CHECK(netem_parse_size(tok, v, why), kw);
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

	rc = req_time(c, "delay", "a time", TC_US, &s->latency_ns);
	if (rc < 0)
		return rc;
	if (!next_is_number(c))
		return 0;
	next(c, tok);
	CHECK(netem_parse_tc_time(tok, TC_US, &s->jitter_ns, why), "delay");
	if (s->jitter_ns > INT32_MAX)
		return fail(c,
			    "delay: jitter %s is over 2147483647ns (netem's "
			    "limit)",
			    tok);
	rc = opt_percent(c, "delay", &s->delay_corr);
	c->corr_sent |= rc > 0;
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

/*
 * "loss burst RATE LEN", reckon's way to say "lose RATE of the packets in
 * bursts of LEN packets on average": the simple Gilbert model that tc
 * writes "loss gemodel p r 100% 0%". netem's loss_gilb_ell() decides a
 * packet's fate by the state it finds, so in the Bad state every packet
 * is lost and a burst lasts 1/r packets on average, while the chain
 * spends p / (p + r) of the packets in Bad. Hence r = 1 / LEN and
 * p = RATE / (LEN (1 - RATE)); p is at most 100%, so RATE is at most
 * LEN / (1 + LEN).
 */
static int parse_burst(struct cursor *c, struct netem_spec *s)
{
	char tok[TOK_MAX];
	uint32_t rate;
	double R, L, p;
	char *end;
	int rc = req_percent(c, "loss burst", "a loss rate", &rate);

	if (rc < 0)
		return rc;
	rc = need(c, "loss burst", "a mean burst length (packets)", tok);
	if (rc < 0)
		return rc;
	L = strtod(tok, &end);
	if (end == tok || *end || !(L >= 1) || L > 1e9)
		return fail(c, "loss burst: \"%s\" is not a mean burst length "
			       "(packets, at least 1)", tok);
	R = netem_prob_to_double(rate);
	if (R >= 1 || R > L / (1 + L))
		return fail(c, "loss burst: a loss rate over %.4g%% cannot come "
			       "in bursts of %s packets on average", 100 * L /
			       (1 + L), tok);
	p = R / (L * (1 - R));
	s->loss_model = NETEM_LOSS_GEMODEL;
	s->ge_p = netem_prob_from_double(p);
	s->ge_r = netem_prob_from_double(1 / L);
	s->ge_1h = UINT32_MAX;
	s->ge_1k = 0;
	return 0;
}

static int parse_loss(struct cursor *c, struct netem_spec *s)
{
	char tok[TOK_MAX];
	int rc;

	if (token(c, tok, 1) != 1)
		return fail(c, "loss: missing a probability");
	if (strcmp(tok, "state") == 0 || strcmp(tok, "gemodel") == 0 ||
	    strcmp(tok, "burst") == 0)
		/* a model after "loss 0%": the random loss and its
		 * correlation, which only random loss reads, are gone */
		s->loss = s->loss_corr = 0;
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
	if (strcmp(tok, "burst") == 0) {
		next(c, tok);
		return parse_burst(c, s);
	}
	if (strcmp(tok, "random") == 0)
		next(c, tok);
	s->loss_model = NETEM_LOSS_RANDOM;
	rc = req_percent(c, "loss", "a probability", &s->loss);
	if (rc < 0)
		return rc;
	rc = opt_percent(c, "loss", &s->loss_corr);
	c->corr_sent |= rc > 0;
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
	CHECK(netem_parse_tc_s32(tok, &s->packet_overhead, why),
	      "rate: packet overhead");
	if (!next_is_number(c))
		return 0;
	next(c, tok);
	CHECK(netem_parse_tc_u32(tok, &s->cell_size, why), "rate: cell size");
	if (!next_is_number(c))
		return 0;
	next(c, tok);
	CHECK(netem_parse_tc_s32(tok, &s->cell_overhead, why),
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
		rc = req_time(c, "slot distribution", "a delay", TC_NS,
			      &s->slot_dist_delay_ns);
		if (rc < 0)
			return rc;
		rc = req_time(c, "slot distribution", "a jitter", TC_NS,
			      &s->slot_dist_jitter_ns);
		if (rc < 0)
			return rc;
		if (s->slot_dist_jitter_ns > INT32_MAX)
			return fail(c, "slot distribution: jitter is over "
				       "2147483647ns (netem's limit)");
	} else {
		rc = req_time(c, "slot", "a minimum delay", TC_NS,
			      &s->slot_min_ns);
		if (rc < 0)
			return rc;
		s->slot_max_ns = s->slot_min_ns;
		if (next_is_number(c)) {
			rc = req_time(c, "slot", "a maximum delay", TC_NS,
				      &s->slot_max_ns);
			if (rc < 0)
				return rc;
		}
		if (s->slot_min_ns > s->slot_max_ns)
			return fail(c,
				    "slot: minimum delay is over the maximum");
	}
	/* Once a distribution is given the kernel spaces slots by it
	 * (get_slot_next() looks at the table first), whatever MIN and MAX
	 * a later "slot" sets: the distribution form stays, and MIN and
	 * MAX, unused, are cleared. */
	if (s->slot_use_dist)
		s->slot_min_ns = s->slot_max_ns = 0;
	/* [packets N] then [bytes SIZE], in that order, as tc reads them */
	if (token(c, tok, 1) == 1 && strncmp(tok, "packets", strlen(tok)) == 0) {
		next(c, tok);
		rc = req_u32(c, "slot packets", "a count", &s->slot_packets);
		if (rc < 0)
			return rc;
	}
	if (token(c, tok, 1) == 1 && strncmp(tok, "bytes", strlen(tok)) == 0) {
		next(c, tok);
		rc = req_size(c, "slot bytes", "a size", &s->slot_bytes);
		if (rc < 0)
			return rc;
	}
	if (s->slot_packets > INT32_MAX || s->slot_bytes > INT32_MAX)
		return fail(c,
			    "slot: packets and bytes are at most 2147483647");
	return 0;
}

/* The spec's keywords. A token names the first of tc's keywords, in
 * q_netem.c's order, of which it is a prefix (iproute2's matches():
 * "del" is delay, "r" is reorder); reckon's own keywords (jitter, seed)
 * and the loss sub-keywords must be spelt out. */
enum kw {
	K_LIMIT,
	K_DELAY,
	K_LOSS,
	K_ECN,
	K_REORDER,
	K_CORRUPT,
	K_GAP,
	K_DUP,
	K_DIST,
	K_RATE,
	K_SLOT,
	K_JITTER,
	K_SEED,
	K_N
};

static int keyword(const char *tok)
{
	static const struct {
		const char *name;
		enum kw k;
	} tc[] = {
		{"limit", K_LIMIT},	    {"latency", K_DELAY},
		{"delay", K_DELAY},	    {"loss", K_LOSS},
		{"drop", K_LOSS},	    {"ecn", K_ECN},
		{"reorder", K_REORDER},	    {"corrupt", K_CORRUPT},
		{"gap", K_GAP},		    {"duplicate", K_DUP},
		{"distribution", K_DIST},   {"rate", K_RATE},
		{"slot", K_SLOT},
	};
	size_t i, n = strlen(tok);

	if (strcmp(tok, "jitter") == 0)
		return K_JITTER;
	if (strcmp(tok, "seed") == 0)
		return K_SEED;
	for (i = 0; n && i < sizeof(tc) / sizeof(tc[0]); i++)
		if (strncmp(tok, tc[i].name, n) == 0)
			return (int)tc[i].k;
	return -1;
}

static int parse_jitter_mode(struct cursor *c, struct netem_spec *s)
{
	char tok[TOK_MAX];
	int rc = need(c, "jitter", "a mode (fifo or netem)", tok);

	if (rc < 0)
		return rc;
	if (strcmp(tok, "fifo") == 0)
		s->jitter_mode = NETEM_JITTER_FIFO;
	else if (strcmp(tok, "netem") == 0)
		s->jitter_mode = NETEM_JITTER_NETEM;
	else
		return fail(c, "jitter: \"%s\" is not a mode (fifo or netem)",
			    tok);
	return 0;
}

/* PROBABILITY [CORRELATION]; sends tells whether tc counts the
 * correlation toward sending TCA_NETEM_CORR (reorder and corrupt do,
 * duplicate does not). */
static int parse_pair(struct cursor *c, const char *kw, uint32_t *p,
		      uint32_t *corr, int sends)
{
	int rc = req_percent(c, kw, "a probability", p);

	if (rc == 0)
		rc = opt_percent(c, kw, corr);
	if (sends)
		c->corr_sent |= rc > 0;
	return rc < 0 ? rc : 0;
}

static int parse_limit(struct cursor *c, struct netem_spec *s)
{
	char tok[TOK_MAX], why[NETEM_WHY_MAX];
	int rc = need(c, "limit", "a packet count", tok);

	if (rc < 0)
		return rc;
	CHECK(netem_parse_size(tok, &s->limit, why), "limit");
	return 0;
}

/* One keyword and its values. A keyword given again overwrites what it
 * sets, as tc does; only a second loss model is refused, as tc refuses
 * it. */
static int parse_keyword(struct cursor *c, enum kw k, struct netem_spec *s)
{
	char why[NETEM_WHY_MAX];

	switch (k) {
	case K_LIMIT:
		return parse_limit(c, s);
	case K_DELAY:
		return parse_delay(c, s);
	case K_LOSS:
		if (s->loss_model != NETEM_LOSS_NONE &&
		    !(s->loss_model == NETEM_LOSS_RANDOM && s->loss == 0))
			return fail(c, "loss: given twice (tc refuses a "
				       "second loss model)");
		return parse_loss(c, s);
	case K_ECN:
		s->ecn = 1;
		return 0;
	case K_REORDER:
		return parse_pair(c, "reorder", &s->reorder, &s->reorder_corr, 1);
	case K_CORRUPT:
		return parse_pair(c, "corrupt", &s->corrupt, &s->corrupt_corr, 1);
	case K_GAP: {
		char tok[TOK_MAX];
		int rc = need(c, "gap", "a distance", tok);

		if (rc < 0)
			return rc;
		CHECK(netem_parse_tc_u32(tok, &s->gap, why), "gap");
		return 0;
	}
	case K_DUP:
		return parse_pair(c, "duplicate", &s->duplicate,
				  &s->duplicate_corr, 0);
	case K_DIST:
		return parse_dist_name(c, "distribution", &s->dist,
				       s->dist_name);
	case K_RATE:
		return parse_rate(c, s);
	case K_SLOT:
		return parse_slot(c, s);
	case K_JITTER:
		return parse_jitter_mode(c, s);
	case K_SEED:
		return fail(c, "seed: not accepted here; every link is "
			       "seeded from the scenario seed");
	default:
		return -EINVAL;
	}
}

int netem_spec_parse(const char *text, struct netem_spec *out, char *err,
		     size_t errlen)
{
	struct cursor cur = {text ? text : "", err, errlen, 0};
	struct cursor *c = &cur;
	struct netem_spec s;
	char tok[TOK_MAX];
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
		k = keyword(tok);
		if (k < 0)
			return fail(c, "\"%s\": unknown keyword", tok);
		rc = parse_keyword(c, (enum kw)k, &s);
		if (rc < 0)
			return rc;
	}

	/* tc 6.1 sends struct tc_netem_corr, which holds the duplicate
	 * correlation, only when a delay, loss, reorder or corrupt
	 * correlation was given: alone, a duplicate correlation never
	 * reaches the kernel */
	if (!c->corr_sent)
		s.duplicate_corr = 0;

	/* cross-keyword checks, as tc does them (or stricter, see docs) */
	if (s.reorder) {
		if (s.latency_ns == 0 && s.jitter_ns == 0)
			return fail(c, "reorder: needs a delay (netem only "
				       "reorders packets it delays)");
		if (s.gap == 0)
			s.gap = 1; /* tc: gap 1 when none (or 0) is given */
	} else if (s.gap) {
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
