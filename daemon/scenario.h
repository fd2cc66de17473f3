/*
 * scenario.h: the in-memory model of a scenario INI file. scenario_load
 * parses and validates a file completely (every error reported, with
 * file:line: [section] key: message), then hands back a struct scenario
 * that the runtime consumes and that scenario_print writes back as the
 * canonical INI. The schema is documented in docs/scenario.md; one key
 * table in scenario_keys.c drives parsing, defaults, ranges and the docs.
 */
#ifndef RECKON_SCENARIO_H
#define RECKON_SCENARIO_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "netem.h"

#define SC_NAME_MAX 32
#define SC_MAX_HOSTS 64
#define SC_MAX_LINKS (SC_MAX_HOSTS * (SC_MAX_HOSTS - 1) / 2)
#define SC_TEXT_MAX 1024

enum sc_backend { SC_BACKEND_USERSPACE, SC_BACKEND_KERNEL };
enum sc_mode { SC_MODE_EMULATE, SC_MODE_SIMULATE };

struct sc_host {
	char name[SC_NAME_MAX];
	char role[SC_NAME_MAX];	 /* reckon-agent role, "" when exec is set */
	char args[SC_TEXT_MAX];	 /* extra reckon-agent arguments */
	char exec[SC_TEXT_MAX];	 /* any command instead of reckon-agent */
	unsigned index;		 /* 0-based, in file order */
	char addr[16];		 /* dotted IPv4 address in the scenario subnet */
	/* args and exec above have their {placeholders} expanded (docs/
	 * scenario.md); these keep the text as written, for printing. */
	char args_text[SC_TEXT_MAX];
	char exec_text[SC_TEXT_MAX];
	int line;		 /* where the [host] section starts */
};

/* Both directions of one [link A B] section; a is the "forward" source. */
struct sc_link {
	unsigned a, b; /* host indices */
	struct netem_spec fwd, rev;
	int line;      /* where the section starts, for messages */
	int from_defaults; /* made from [defaults] link, not a [link] section */
};

/* One timed change from [schedule]: at at_ns after start, the directed
 * link src->dst gets spec (a full replacement). */
struct sc_change {
	int64_t at_ns;
	unsigned src, dst;
	struct netem_spec spec;
	int line;	/* where the [schedule] key is */
};

struct sc_capture {
	int enabled;
	int before, after;	/* capture before / after impairment */
	uint32_t snaplen;
	uint64_t max_bytes;	/* per file; 0 = unlimited */
};

struct scenario {
	char path[PATH_MAX];	   /* file it came from */
	char name[SC_NAME_MAX];
	uint64_t seed;
	int64_t duration_ns;
	unsigned repetitions;
	enum sc_backend backend;
	enum sc_mode mode;
	char results_dir[PATH_MAX]; /* parent of <name>-<time>/ */
	char subnet[20];	    /* e.g. "10.77.0.0/24" */

	struct sc_host hosts[SC_MAX_HOSTS];
	unsigned nhosts;
	struct sc_link *links;	    /* nlinks entries */
	unsigned nlinks;
	struct sc_change *changes;  /* sorted by at_ns */
	unsigned nchanges;
	struct sc_capture capture;

	/* [defaults] link: applied to both directions of every host pair that
	 * has no [link] section (those pairs appear in links[] with
	 * from_defaults set). */
	int has_default_link;
	struct netem_spec default_link;
};

/* Diagnostics collected while loading: every problem, in file order. */
struct sc_diag {
	char **msg;
	unsigned n, cap;
	int *line;	/* line of each message (INT_MAX: whole file), for sorting */
	unsigned dropped; /* problems past the cap, counted but not kept */
};

void sc_diag_free(struct sc_diag *d);

/* Load and validate. Returns 0 and *out, or -EINVAL with every problem in
 * d (each "file:line: [section] key: message"), or another -errno. */
int scenario_load(const char *path, struct scenario **out, struct sc_diag *d);
void scenario_free(struct scenario *sc);

/* The canonical INI: every key, defaults made explicit, seed included. */
int scenario_print(FILE *f, const struct scenario *sc);

/* Add one message (printf format) to d; line orders it (0 or INT_MAX for
 * whole-file messages, which sort last). Returns 0 or -ENOMEM. */
int sc_diag_add(struct sc_diag *d, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Expand the {placeholders} of an exec or args text for host h (see
 * docs/scenario.md). Returns 0, or -EINVAL with a reason in err
 * (unknown placeholder or host, result longer than outlen). */
int scenario_expand(const struct scenario *sc, const struct sc_host *h,
		    const char *text, char *out, size_t outlen, char *err,
		    size_t errlen);

/* Index of a host by name, or -1. */
int scenario_host(const struct scenario *sc, const char *name);

/* The spec of the directed link src->dst; NULL when the pair has neither
 * a [link] section nor a [defaults] link (traffic passes unimpaired). */
const struct netem_spec *scenario_link_spec(const struct scenario *sc,
					    unsigned src, unsigned dst);

#endif
