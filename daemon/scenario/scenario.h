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
#include "predict/predict.h"

#define SC_NAME_MAX 32
#define SC_MAX_HOSTS 65 /* 64 players and their server */
#define SC_MAX_LINKS (SC_MAX_HOSTS * (SC_MAX_HOSTS - 1) / 2)
#define SC_TEXT_MAX 1024
/* Room for a [link] schedule's statements and a trace file's path. */
#define SC_SCHED_MAX 512

enum sc_backend { SC_BACKEND_USERSPACE, SC_BACKEND_KERNEL };
enum sc_mode { SC_MODE_EMULATE, SC_MODE_SIMULATE };
enum sc_seeds { SC_SEEDS_COMMON, SC_SEEDS_INDEPENDENT };

struct sc_host {
	char name[SC_NAME_MAX];
	char role[SC_NAME_MAX];	 /* reckon-agent role, "" when exec is set */
	char args[SC_TEXT_MAX];	 /* extra reckon-agent arguments */
	char exec[SC_TEXT_MAX];	 /* any command instead of reckon-agent */
	int nice;		 /* the command's niceness (emulation) */
	unsigned index;		 /* 0-based, in file order */
	char addr[16];		 /* dotted IPv4 address in the scenario subnet */
	/* args and exec above have their {placeholders} expanded (docs/
	 * scenario.md); these keep the text as written, for printing. */
	char args_text[SC_TEXT_MAX];
	char exec_text[SC_TEXT_MAX];
	/* Built from [game] and [predictor] (scenario_game.c): the hosts it
	 * sends to (to = names; text as written, then indices) and the
	 * bots it plays (bots = 0-3,5; "" = shared out automatically). */
	char to_text[SC_TEXT_MAX];
	char bots_text[SC_TEXT_MAX];
	unsigned to[SC_MAX_HOSTS], nto;
	char built[SC_TEXT_MAX]; /* the agent options the sections give */
	int line;		 /* where the [host] section starts */
};

/* [game] (docs/scenario.md): the one game every agent plays. */
enum sc_topology { SC_TOPO_P2P, SC_TOPO_CLIENT_SERVER };

struct sc_game {
	int present;		/* the file has a [game] section */
	char map[SC_NAME_MAX];	/* "" with trace */
	char trace_text[SC_SCHED_MAX]; /* as written */
	char trace[SC_SCHED_MAX];      /* absolute path, "" = none */
	unsigned bots;
	int64_t duration_ns;	/* as written; 0 = fit the scenario's */
	int64_t play_ns;	/* what the agents play */
	unsigned tick_hz;
	enum sc_topology topology;
	int line;
};

/* The time a default [game] play leaves free at the end of a repetition:
 * the play lasts the scenario's duration less this (agents start 0.5 s +
 * 25 ms per host into a repetition, the observer lingers 1 s, and the rest
 * is margin). */
#define SC_GAME_LEAD_NS 4000000000LL

/* [predictor NAME]: one predictor instance, its lane in every agent. */
#define SC_MAX_PREDICTORS 16

struct sc_predictor {
	char name[SC_NAME_MAX];	 /* the instance: what the summary shows */
	struct predict_params par; /* type (par.p) and every value */
	uint32_t set;		 /* bit i: parameter i given in the file */
	uint32_t fair;		 /* bit i: parameter i from the fair set */
	int line;
};

/* [defaults] fair: when the like-for-like settings apply. */
enum sc_fair { SC_FAIR_AUTO, SC_FAIR_ON, SC_FAIR_OFF };

/* Both directions of one [link A B] section; a is the "forward" source. */

struct sc_link {
	unsigned a, b; /* host indices */
	struct netem_spec fwd, rev;
	/* Time-varying impairment over both directions (netem_sched.h):
	 * statements as written, or a trace CSV's absolute path; "" = none. */
	char sched[SC_SCHED_MAX];
	char trace[SC_SCHED_MAX];
	char label[SC_NAME_MAX]; /* condition label; "" = from the spec */
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

/* [sweep] (docs/sweeps.md): axes of a parameter sweep. An axis is one
 * link parameter (on every link, or one direction or pair) or one
 * predictor parameter, with its values as text in file order (ranges
 * expanded). The grid is the product of the axes: axis 0 varies slowest,
 * the last axis fastest. */
#define SC_SWEEP_MAX_AXES   8
#define SC_SWEEP_MAX_VALUES 1000
#define SC_SWEEP_MAX_POINTS 1000000
#define SC_SWEEP_VAL_MAX    32
#define SC_SWEEP_KEY_MAX    (3 * SC_NAME_MAX + 16)

enum sc_axis_kind { SC_AXIS_LINK, SC_AXIS_PREDICTOR };

/* Link parameters an axis can vary (names in docs/sweeps.md). */
enum sc_link_param {
	SC_LP_DELAY,
	SC_LP_JITTER,
	SC_LP_DELAY_CORR,
	SC_LP_LOSS,
	SC_LP_LOSS_CORR,
	SC_LP_GE_P,
	SC_LP_GE_R,
	SC_LP_GE_1H,
	SC_LP_GE_1K,
	SC_LP_DUPLICATE,
	SC_LP_CORRUPT,
	SC_LP_REORDER,
	SC_LP_RATE,
	SC_LP_LIMIT,
	SC_LP_COUNT
};

struct sc_axis {
	char key[SC_SWEEP_KEY_MAX]; /* canonical: link.a>b.delay, ... */
	enum sc_axis_kind kind;
	enum sc_link_param param;   /* SC_AXIS_LINK */
	int src, dst;		    /* link: -1 = every link; else src->dst */
	int both;		    /* link: dst->src too */
	char predictor[SC_NAME_MAX], pkey[SC_NAME_MAX]; /* SC_AXIS_PREDICTOR */
	char (*values)[SC_SWEEP_VAL_MAX];
	unsigned nvalues;
	char *text;		    /* the values as written (ranges kept) */
	int line;
};

struct sc_sweep {
	enum sc_mode mode;   /* how each point runs; default simulate */
	enum sc_seeds seeds; /* common random numbers or one seed per point */
	struct sc_axis axes[SC_SWEEP_MAX_AXES]; /* sorted by line */
	unsigned naxes;
	int line;	     /* the [sweep] header */
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
	char default_label[SC_NAME_MAX]; /* [defaults] label */
	enum sc_fair fair;		 /* [defaults] fair */

	struct sc_game game;
	struct sc_predictor predictors[SC_MAX_PREDICTORS]; /* file order */
	unsigned npredictors;

	/* [sweep], or NULL when the file has none (owned, freed with sc). */
	struct sc_sweep *sweep;
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

/* scenario_load for a command (scenario_report.c): diagnostics to
 * stderr, other errors as "who: path: reason"; NULL on failure. */
struct scenario *scenario_load_report(const char *path, const char *who);

/* The words of an args text as /bin/sh would split them (blanks
 * separate words, '...' is literal, "..." keeps blanks, \ escapes);
 * text that needs a shell (expansions, lists, redirections, globs) is
 * refused. argv[0] is cmd; argv[argc] is NULL. 0, -EINVAL with the
 * reason in err, or -ENOMEM. */
struct sc_words {
	int argc;
	char **argv; /* argv[0] = cmd, argv[argc] = NULL */
	char *buf;   /* storage of the words */
};
int scenario_words_split(const char *cmd, const char *text,
			 struct sc_words *w, char *err, size_t errlen);
void scenario_words_free(struct sc_words *w);

/* The condition label of a netem spec: its canonical text with blanks
 * folded ("delay 50ms 10ms loss 2%" -> "delay50ms-10ms-loss2pct"), or
 * "none" for no impairment. snprintf semantics. */
int scenario_spec_label(const struct netem_spec *s, char *buf, size_t len);

/* Index of a host by name, or -1. */
int scenario_host(const struct scenario *sc, const char *name);

/* The spec of the directed link src->dst; NULL when the pair has neither
 * a [link] section nor a [defaults] link (traffic passes unimpaired). */
const struct netem_spec *scenario_link_spec(const struct scenario *sc,
					    unsigned src, unsigned dst);

/* The schedule of link l (its statements, or its trace file parsed), or
 * *out = NULL when it has none; the caller frees it with
 * netem_sched_free. 0 or -errno with "schedule: ..." / "trace: ..." in
 * err. */
struct netem_sched;
int scenario_link_schedule(const struct sc_link *l, struct netem_sched **out,
			   char *err, size_t len);

/* Names of the link parameters an axis can vary, by enum sc_link_param. */
extern const char *const scenario_link_param_names[SC_LP_COUNT];

/* The seed of repetition rep (1-based): the scenario seed itself for the
 * first, so one repetition reproduces a seed exactly; for rep >= 2 the
 * splitmix64 finaliser of seed + (rep - 1) * SPLITMIX64_GAMMA, which
 * spreads neighbouring repetitions over unrelated streams. */
uint64_t scenario_rep_seed(uint64_t seed, unsigned rep);

/* Number of grid points of sw (the product of its axes' lengths). */
uint64_t scenario_sweep_points(const struct sc_sweep *sw);

/* The value index on each axis of grid point `point` (axis 0 slowest).
 * -ERANGE when point is past the grid; idx is written only on success. */
int scenario_sweep_coords(const struct sc_sweep *sw, uint64_t point,
			  unsigned idx[SC_SWEEP_MAX_AXES]);

/* The scenario of grid point `point`: a deep copy of sc with every axis
 * value applied (link specs, [schedule] changes, hosts' --predictor
 * arguments), mode set to the sweep's mode and sweep NULL. Free it with
 * scenario_free. -EINVAL (no sweep), -ERANGE, -ENOMEM, -E2BIG (an args
 * text would be too long). */
int scenario_sweep_apply(const struct scenario *sc, uint64_t point,
			 struct scenario **out);

#endif
