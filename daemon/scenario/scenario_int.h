/*
 * scenario_int.h: what the files of the scenario loader share and nobody
 * else uses (tests of the loader's internals aside), grouped by the file
 * that defines it. The public interface is scenario.h.
 */
#ifndef RECKON_SCENARIO_INT_H
#define RECKON_SCENARIO_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <iniparser.h>

#include "scenario.h"
#include "util.h"

/*
 * scenario_diag.c: helpers for the scenario loader's diagnostics: putting
 * the collected messages in file order, and the edit-distance search that
 * turns a misspelt key, section or host name into "did you mean 'X'?".
 */

/* Most messages one load keeps; the rest are counted in d->dropped. */
#define SC_DIAG_MAX 100

/* Stable sort of d's messages by line (INT_MAX and 0 last). */
void sc_diag_sort(struct sc_diag *d);

/* Sort, then say how many problems the cap hid. 0 or -ENOMEM. */
int sc_diag_finish(struct sc_diag *d, const char *path);

/* Levenshtein distance between a and b (bytes), capped at 255. */
unsigned sc_edit_distance(const char *a, const char *b);

/* The candidate closest to word when it is a plausible typo (distance at
 * most 2, and less than half of word's length), else NULL. With n == 0,
 * cands is NULL-terminated; otherwise exactly n entries are read. */
const char *sc_suggest(const char *word, const char *const *cands, size_t n);

/* " (did you mean 'X'?)" when sc_suggest finds X, else "". buf must hold
 * at least SC_NAME_MAX + 24 bytes. */
const char *sc_did_you_mean(const char *word, const char *const *cands,
			    size_t n, char *buf, size_t len);

/*
 * scenario_keys.c: the one table that describes every scenario key: the
 * section it lives in, its value type, default, range, where it is stored
 * and its documentation. The loader parses with it, the printer writes
 * the canonical form from it, and docs/scenario.md's key reference is
 * rendered from it (scenario_keys_markdown), so code and docs agree.
 */

enum sk_section {
	SS_SCENARIO,
	SS_DEFAULTS,
	SS_CAPTURE,
	SS_GAME,
	SS_PREDICTOR,
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
	SK_INT,	     /* int, decimal, may be negative (min, max: int64) */
	SK_DURATION, /* number + unit: ns us ms s m h */
	SK_BOOL,     /* yes/no, true/false, on/off, 1/0 */
	SK_ENUM,     /* one of choices */
	SK_SIZE,     /* bytes, optional k/M/G suffix (x1024) */
	SK_SUBNET,   /* a.b.c.d/len */
	SK_NETEM,    /* a tc-netem spec, netem_spec_parse syntax */
	SK_AXIS,     /* [sweep] axis: values or ranges (scenario_axes.c) */
};

/* Where the value of a [link A B] section goes while it is read. */
struct sk_link_in {
	struct netem_spec fwd, rev, both;
	char sched[SC_SCHED_MAX], trace[SC_SCHED_MAX];
	char label[SC_NAME_MAX];
};

/* Where the keys of a [predictor NAME] section go while it is read: the
 * type; its parameters are checked against the type's own table
 * (scenario_game.c). */
struct sk_pred_in {
	char type[SC_NAME_MAX];
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

/* Write each key of section sec that has a default into target. */
int sk_defaults(enum sk_section sec, void *target);

/* The key reference of docs/scenario.md, as markdown. */
int scenario_keys_markdown(FILE *f);

/* scenario_values.c: the value parsers and printers of the key types. */

/* Parse text into the key's field of target. An empty text is an error
 * here (the loader treats an empty value as "not set"). Returns 0 or
 * -EINVAL with a reason in err; the field is written only on success. */
int sk_parse(const struct sk_key *k, const char *text, void *target, char *err,
	     size_t errlen);

/* The key's value in target in file syntax (snprintf semantics). */
int sk_format(const struct sk_key *k, const void *target, char *buf,
	      size_t len);

/*
 * scenario_lines.c: a line scan of a scenario file that mirrors how
 * iniparser 4.1 reads it (comments, [sections], key = value, backslash
 * continuation, lowercased and stripped names) but keeps what iniparser
 * throws away: the line of every section header and key, duplicate
 * sections and keys, and syntax errors in our own message format.
 * iniparser still provides the values; this only locates them.
 */

/* iniparser 4.1 reads lines into a 1024-byte buffer: 1022 characters,
 * the newline and the NUL. Longer lines make iniparser_load fail. */
#define SC_LINE_MAX 1022

struct sc_lent {
	int line;
	char *sec; /* lowercased, stripped, as iniparser stores it */
	char *key; /* NULL for a section header */
};

struct sc_lines {
	struct sc_lent *v;
	unsigned n, cap;
};

/* Scan f (named path in messages). Syntax errors, keys outside any
 * section and duplicates go to d. Returns the number of problems found,
 * or -ENOMEM / -EIO. */
int sc_lines_scan(FILE *f, const char *path, struct sc_lines *out,
		  struct sc_diag *d);

/* Line of the header of section sec (its first occurrence), or 0. */
int sc_lines_section(const struct sc_lines *l, const char *sec);

/* Line of key in section sec (first occurrence), or 0. */
int sc_lines_key(const struct sc_lines *l, const char *sec, const char *key);

void sc_lines_free(struct sc_lines *l);

/*
 * The loader's state while a file is loaded (scenario.c) and a classified
 * section, which every file of the loader below takes.
 */

#define HOST_NAME_MAX_LEN 15 /* fits an interface name */

struct sc_loader {
	const char *path;
	struct sc_diag *d;
	struct sc_lines lines;
	dictionary *ini;
	struct scenario *sc;
	unsigned errors;
	unsigned game_errors; /* of them, in [game] and [predictor] */
	int oom;
	size_t links_cap;
	size_t changes_cap;
};

/* One section of the file, classified. */
struct sc_section {
	const char *name; /* as iniparser stores it: lowercased */
	enum sk_section type;
	int line;
	unsigned host;			     /* SS_HOST: its index */
	char a[SC_NAME_MAX], b[SC_NAME_MAX]; /* SS_LINK: the host names */
};

struct sc_link;

/* scenario_common.c */

/* Record one problem as "file:line: [sec] key: message" (sec and key may
 * be NULL; line 0 means the whole file). */
void sc_report(struct sc_loader *L, int line, const char *sec, const char *key,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Line of key in section s, or 0. */
int sc_key_line(struct sc_loader *L, const struct sc_section *s,
		const char *key);

/* Split s into at most max blank-separated words of < SC_NAME_MAX bytes;
 * returns their number, or max + 1 when there are more or one is longer. */
unsigned sc_split_words(const char *s, char w[][SC_NAME_MAX], unsigned max);

/* scenario_hosts.c */

/* A host reference in [link] or [schedule]: its index, or -1 reported. */
int sc_resolve_host(struct sc_loader *L, int line, const char *sec,
		    const char *key, const char *name);
void sc_add_host(struct sc_loader *L, struct sc_section *s);
void sc_check_host(struct sc_loader *L, struct sc_section *s, const int *set);
void sc_assign_addrs(struct sc_loader *L, int subnet_line);
void sc_expand_host(struct sc_loader *L, const struct sc_section *s);

/* scenario_links.c */
void sc_check_link(struct sc_loader *L, struct sc_section *s, int *set,
		   struct sk_link_in *lin);
void sc_default_links(struct sc_loader *L, int line);
void sc_schedule_key(struct sc_loader *L, const char *sec, const char *key,
		     int line, const char *val);
void sc_sort_changes(struct scenario *sc);

/* scenario_sched.c */

/* Check (and make absolute) a [link] section's schedule or trace. */
void sc_check_link_sched(struct sc_loader *L, const struct sc_section *s,
			 struct sc_link *l);

/* scenario_linkparams.c: the link parameters a [sweep] axis can vary. */

/* Their number, and the name of parameter p (NULL past the end), as in
 * docs/sweeps.md. A link axis's param is an index into this list; the
 * first SC_LP_COUNT follow enum sc_link_param, the others lie past the
 * enum's last name. */
unsigned sc_sweep_link_params(void);
const char *sc_sweep_link_param(unsigned p);

/* Bound on the table's length (sc_sweep_link_params() <= it). */
#define SC_LP_TABLE_MAX 64

/* The table index of the parameter called name, or -1. */
int sc_lp_find(const char *name);

/* The parameter name of link axis a. */
const char *sc_lp_name(const struct sc_axis *a);

/* Parse value val of parameter p into out (its netem words). Returns 0,
 * or -EINVAL with a reason in err. */
int sc_lp_parse(unsigned p, const char *val, struct netem_spec *out,
		char *err, size_t errlen);

/* Write parameter p of v (its parsed words) into s. Returns 0, or
 * -EINVAL with a reason when s lacks what p refines. */
int sc_lp_set(struct netem_spec *s, unsigned p, const struct netem_spec *v,
	      char *err, size_t errlen);

/* A spec is valid when its canonical text parses back (netem's own
 * checks: reorder needs a delay, and so on). */
int sc_spec_check(const struct netem_spec *s, char *err, size_t errlen);

/* scenario_axes.c: the [sweep] section's axes. */

/* Allocate sc->sweep for the [sweep] section s, with the table defaults.
 * Returns 0, or -1 after reporting (a second [sweep], no memory). */
int sc_sweep_new(struct sc_loader *L, const struct sc_section *s);

/* One axis key ("link.delay", "link.a>b.loss", "predictor.led.eta_max")
 * and its value text: parsed into a new axis or reported. */
void sc_sweep_key(struct sc_loader *L, const char *sec, const char *key,
		  int line, const char *val);

/* The canonical [sweep] section (ranges written out as lists). */
int sc_sweep_print(FILE *f, const struct scenario *sc);

void sc_sweep_free(struct sc_sweep *sw);

/* scenario_grid.c: the grid's points. */

/* After the whole file: sort the axes by line, check every value on every
 * link it touches and every predictor against the hosts' arguments, and
 * the grid size. Problems are reported. */
void sc_sweep_check(struct sc_loader *L);

/* scenario_sched.c: a path relative to the scenario file's directory,
 * made absolute (realpath). 0 or -errno. */
int sc_resolve_path(const char *scenario_path, const char *rel, char *out,
		    size_t len);

/* scenario_predictors.c: [predictor NAME] sections. */

/* One like-for-like setting (docs/comparing.md): a parameter key and the
 * value every predictor with that key gets, and why. */
struct sc_fair_setting {
	const char *key, *value, *why;
};
extern const struct sc_fair_setting sc_fair_settings[]; /* NULL-ended */

/* The table of docs/comparing.md: each setting, the registered
 * predictors it applies to, and why. */
int scenario_fair_markdown(FILE *f);

/* Read section s (type, then every parameter against the type's table)
 * into a new instance, or report. */
void sc_predictor_section(struct sc_loader *L, const struct sc_section *s);

/* After the whole file: file order, and the fair settings applied. */
void sc_predictors_finish(struct sc_loader *L);

/* The --predictor value of an instance: [NAME=]TYPE[:k=v,...] with the
 * parameters that differ from the type's defaults. 0 or -E2BIG. */
int sc_predictor_spec(const struct sc_predictor *pr, char *buf, size_t len);

/* Parameter i of par as text (predict_params_format's). 0 or -errno. */
int sc_predictor_value(const struct predict_params *par, size_t i, char *buf,
		       size_t len);

/* scenario_roles.c: the role table. A role a host can take (sc_roles,
 * NULL-ended). */
struct sc_role {
	const char *name;
	int plays;    /* gets bots and sends updates */
	int receives; /* a destination of updates */
	int truth;    /* plays the game (needs [game]'s map or trace) */
	int own_game; /* its args hold its own game: [game] builds nothing */
};
extern const struct sc_role sc_roles[];
const struct sc_role *sc_role_find(const char *name);

/* scenario_game.c: [game] and the agents' options. */

/* [game] after its keys: map or trace, and either read. */
void sc_game_check(struct sc_loader *L, const struct sc_section *s,
		   const int *set);

/* Read a trace file as the agents would: 0 and its length in *len_ns
 * (when not NULL), or -errno with why in err. */
int sc_trace_check(const char *path, int64_t *len_ns, char *err, size_t errlen);

/* The role of h's row in the table, or NULL (exec, or no row). */
const struct sc_role *sc_role_of(const struct sc_host *h);

/* The play's length: [game] duration, the trace's, or the scenario's
 * duration less SC_GAME_LEAD_NS of start-up and linger time; reported
 * when it does not fit. */
void sc_game_play(struct sc_loader *L);

/* Line of key in h's section, else of its header. */
int sc_host_line(struct sc_loader *L, const struct sc_host *h, const char *key);

/* h's destinations (to, or the default ones of role r) into h->to. */
void sc_host_to(struct sc_loader *L, struct sc_host *h,
		const struct sc_role *r);

/* The players' named bots (bits[i]: host i's, 0 = shared out), checked
 * across the players. */
void sc_host_bots(struct sc_loader *L, uint64_t *bits);

/* The run's condition label (one for every agent). snprintf semantics. */
int sc_run_label(const struct scenario *sc, char *buf, size_t len);

/* scenario_agents.c: the agents' options. */

/* After links and addresses: predictors finished, every role host's
 * options built (with [game]) and parsed by the agent's parser. */
void sc_game_finish(struct sc_loader *L);

/* [scenario] results can be written. */
void sc_check_results(struct sc_loader *L);

#endif
