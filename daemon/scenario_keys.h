/*
 * scenario_keys.h: the one table that describes every scenario key: the
 * section it lives in, its value type, default, range, where it is stored
 * and its documentation. The loader parses with it, the printer writes
 * the canonical form from it, and docs/scenario.md's key reference is
 * rendered from it (scenario_keys_markdown), so code and docs agree.
 */
#ifndef RECKON_SCENARIO_KEYS_H
#define RECKON_SCENARIO_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"

enum sk_section {
	SS_SCENARIO,
	SS_DEFAULTS,
	SS_CAPTURE,
	SS_HOST,
	SS_LINK,
	SS_SCHEDULE,
	SS_SWEEP,
	SS_COUNT
};

enum sk_type {
	SK_NAME,     /* [A-Za-z0-9._-], up to the field size */
	SK_TEXT,     /* any text, up to the field size */
	SK_PATH,     /* a directory path */
	SK_U64,	     /* unsigned 64-bit, decimal or 0x hex */
	SK_UINT,     /* unsigned int, decimal */
	SK_DURATION, /* number + unit: ns us ms s m h */
	SK_BOOL,     /* yes/no, true/false, on/off, 1/0 */
	SK_ENUM,     /* one of choices */
	SK_SIZE,     /* bytes, optional k/M/G suffix (x1024) */
	SK_SUBNET,   /* a.b.c.d/len */
	SK_NETEM,    /* a tc-netem spec, netem_spec_parse syntax */
	SK_AXIS,     /* [sweep] axis: values or ranges (scenario_sweep.c) */
};

/* Where the value of a [link A B] section goes while it is read. */
struct sk_link_in {
	struct netem_spec fwd, rev, both;
	char sched[SC_SCHED_MAX], trace[SC_SCHED_MAX];
};

struct sk_key {
	enum sk_section sec;
	const char *name;
	enum sk_type type;
	const char *def;   /* default in file syntax; NULL: no default */
	uint64_t min, max; /* numeric range (ns for durations, bytes) */
	const char *const *choices; /* SK_ENUM, NULL-terminated */
	size_t off, size;	    /* field in the section's target struct */
	const char *doc;
};

/* The section names as written, in canonical order ("host NAME" etc.). */
extern const char *const sk_section_names[SS_COUNT];

/* The table and its length. */
extern const struct sk_key sk_keys[];
extern const size_t sk_nkeys;

/* The key called name in section sec, or NULL. */
const struct sk_key *sk_find(enum sk_section sec, const char *name);

/* Parse text into the key's field of target. An empty text is an error
 * here (the loader treats an empty value as "not set"). Returns 0 or
 * -EINVAL with a reason in err; the field is written only on success. */
int sk_parse(const struct sk_key *k, const char *text, void *target, char *err,
	     size_t errlen);

/* Write each key of section sec that has a default into target. */
int sk_defaults(enum sk_section sec, void *target);

/* The key's value in target in file syntax (snprintf semantics). */
int sk_format(const struct sk_key *k, const void *target, char *buf,
	      size_t len);

/* Value parsers shared with [schedule] and the printer. */
int sk_parse_duration(const char *s, int64_t *out, char *err, size_t errlen);
int sk_format_duration(int64_t ns, char *buf, size_t len);

/* The key reference of docs/scenario.md, as markdown. */
int scenario_keys_markdown(FILE *f);

#endif
