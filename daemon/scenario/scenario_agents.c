/*
 * scenario_agents.c: every role host's reckon-agent options. With a
 * [game], reckond builds them from the sections (the game, the
 * predictor lanes, the host's destinations and bots, the run's label)
 * and refuses in args what the sections own; with or without one, the
 * options are parsed by the agent's own parser (agent_opts_parse), the
 * maps and traces they name are read, and every agent must play the same
 * game with the same lanes as the first.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_io.h"
#include "fps_opts.h"
#include "scenario.h"
#include "scenario_int.h"
#include "world/map.h"

/* Agent options the sections own: with [game], args may not set them
 * (the hosts would disagree). */
static const struct {
	const char *opt, *owner;
} owned[] = {
	{"--map", "[game] map"},
	{"--trace", "[game] trace"},
	{"--bots", "[game] bots"},
	{"--duration", "[game] duration"},
	{"--tick-hz", "[game] tick_hz"},
	{"--topology", "[game] topology"},
	{"--seed", "[scenario] seed"},
	{"--predictor", "[predictor NAME] sections"},
	{"--to", "the host's to"},
	{"--entities", "the host's bots"},
	{"--player-index", "the host's bots"},
	{"--players", "the host's bots"},
	{"--condition", "label in [link] or [defaults]"},
};

static int add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int add(char *buf, size_t len, const char *fmt, ...)
{
	size_t o = strlen(buf);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len - o ? -E2BIG : 0;
}

static int build(const struct scenario *sc, const struct sc_host *h,
		 const struct sc_role *r, unsigned pidx, unsigned nplayers,
		 uint64_t bits, char *buf, size_t len)
{
	const struct sc_game *g = &sc->game;
	char spec[SC_TEXT_MAX], label[256];
	int rc = 0;

	buf[0] = '\0';
	if (r->truth && g->trace[0])
		rc |= add(buf, len, "--trace '%s'", g->trace);
	else if (r->truth)
		rc |= add(buf, len,
			  "--map %s --bots %u --duration %.9g "
			  "--tick-hz %u",
			  g->map, g->bots, (double)g->play_ns / 1e9,
			  g->tick_hz);
	rc |= add(buf, len, "%s--topology %s", buf[0] ? " " : "",
		  g->topology == SC_TOPO_P2P ? "p2p" : "client-server");
	for (unsigned i = 0; i < sc->npredictors; i++) {
		if (sc_predictor_spec(&sc->predictors[i], spec, sizeof(spec)) <
		    0)
			return -E2BIG;
		rc |= add(buf, len, " --predictor %s", spec);
	}
	if (r->plays && bits) {
		rc |= add(buf, len, " --entities ");
		for (unsigned b = 0, first = 1; b < 64; b++)
			if (bits & (1ULL << b)) {
				rc |= add(buf, len, "%s%u", first ? "" : ",",
					  b);
				first = 0;
			}
	} else if (r->plays) {
		rc |= add(buf, len, " --player-index %u --players %u", pidx,
			  nplayers);
	}
	for (unsigned k = 0; k < h->nto; k++)
		rc |= add(buf, len, " --to %s", sc->hosts[h->to[k]].addr);
	sc_run_label(sc, label, sizeof(label));
	rc |= add(buf, len, " --condition %s", label);
	return rc ? -E2BIG : 0;
}

/* With [game], args may not set what the sections own. */
static void check_owned(struct sc_loader *L, const struct sc_host *h,
			const struct sc_words *w, const char *sec)
{
	for (int i = 1; i < w->argc; i++) {
		const char *a = w->argv[i];
		size_t n = strcspn(a, "=");

		if (strncmp(a, "--", 2) != 0)
			continue;
		for (size_t k = 0; k < sizeof(owned) / sizeof(owned[0]); k++)
			if (strlen(owned[k].opt) == n &&
			    strncmp(a, owned[k].opt, n) == 0)
				sc_report(L, sc_host_line(L, h, "args"), sec,
					  "args",
					  "%s is set by %s, the same for "
					  "every agent; remove it from args",
					  owned[k].opt, owned[k].owner);
	}
}

/* What the agents parsed so far: each map and trace named in args is
 * read once, and the first agent's game and lanes are what the others
 * must agree with. */
#define GAME_FIELDS 7
#define LANE_TEXT   600

struct seen {
	char names[SC_MAX_HOSTS][SC_SCHED_MAX];
	unsigned n;
	char game_host[SC_NAME_MAX], lanes_host[SC_NAME_MAX];
	char game[GAME_FIELDS][SC_SCHED_MAX];
	char lanes[ROLE_MAX_LANES][LANE_TEXT];
	size_t nlanes;
};

/* The game of o, one "--option value" per field ("" when unset). */
static void game_fields(const struct shell_opts *o,
			char f[GAME_FIELDS][SC_SCHED_MAX])
{
	memset(f, 0, GAME_FIELDS * SC_SCHED_MAX);
	if (o->map)
		snprintf(f[0], SC_SCHED_MAX, "--map %s", o->map);
	if (o->trace_path)
		snprintf(f[1], SC_SCHED_MAX, "--trace %s", o->trace_path);
	if (o->bots)
		snprintf(f[2], SC_SCHED_MAX, "--bots %d", o->bots);
	if (o->duration_s > 0)
		snprintf(f[3], SC_SCHED_MAX, "--duration %g", o->duration_s);
	if (o->tick_hz)
		snprintf(f[4], SC_SCHED_MAX, "--tick-hz %d", o->tick_hz);
	if (o->train_s > 0)
		snprintf(f[5], SC_SCHED_MAX, "--trend-train %g", o->train_s);
	if (o->train_path)
		snprintf(f[6], SC_SCHED_MAX, "--trend-trace %s", o->train_path);
}

/* Lane i of o as "NAME k=v k=v ...". */
static void lane_text(const struct shell_opts *o, size_t i, char *buf,
		      size_t len)
{
	char params[512];

	if (predict_params_format(&o->lanes[i], params, sizeof(params)) < 0)
		params[0] = '\0';
	snprintf(buf, len, "%s %s", o->lane_name[i], params);
}

/* Agents that play another game, or run other lanes, than the first
 * one: the trap of a wrong answer with exit status 0. */
static void check_agree(struct sc_loader *L, const struct sc_host *h,
			const struct shell_opts *o, int line, const char *sec,
			struct seen *s)
{
	char f[GAME_FIELDS][SC_SCHED_MAX], lane[LANE_TEXT];
	const char *key = h->args_text[0] ? "args" : NULL;

	if (o->role != SHELL_RELAY) {
		game_fields(o, f);
		if (!s->game_host[0]) {
			snprintf(s->game_host, sizeof(s->game_host), "%s",
				 h->name);
			memcpy(s->game, f, sizeof(f));
		} else {
			for (int i = 0; i < GAME_FIELDS; i++)
				if (strcmp(f[i], s->game[i]) != 0) {
					sc_report(L, line, sec, key,
						  "plays another game than "
						  "[host %s]: %s here, %s "
						  "there; every agent must "
						  "play the same game",
						  s->game_host,
						  f[i][0] ? f[i] : "no option",
						  s->game[i][0] ? s->game[i]
								: "no option");
					break;
				}
		}
	}
	if (!s->lanes_host[0]) {
		snprintf(s->lanes_host, sizeof(s->lanes_host), "%s", h->name);
		for (size_t i = 0; i < o->n_lanes; i++)
			lane_text(o, i, s->lanes[i], LANE_TEXT);
		s->nlanes = o->n_lanes;
		return;
	}
	for (size_t i = 0; i < o->n_lanes || i < s->nlanes; i++) {
		if (i < o->n_lanes)
			lane_text(o, i, lane, sizeof(lane));
		if (i < o->n_lanes && i < s->nlanes &&
		    strcmp(lane, s->lanes[i]) == 0)
			continue;
		sc_report(L, line, sec, key,
			  "lane %zu is %s here, %s in [host %s]; every agent "
			  "needs the same --predictor list in the same order",
			  i, i < o->n_lanes ? lane : "missing",
			  i < s->nlanes ? s->lanes[i] : "missing",
			  s->lanes_host);
		return;
	}
}

static int seen_before(struct seen *s, const char *kind, const char *name)
{
	char key[SC_SCHED_MAX];

	snprintf(key, sizeof(key), "%s %s", kind, name);
	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->names[i], key) == 0)
			return 1;
	if (s->n < SC_MAX_HOSTS)
		snprintf(s->names[s->n++], SC_SCHED_MAX, "%s", key);
	return 0;
}

/* A lag-compensation role's args, parsed by its own parser (the one
 * reckon-agent fps-server/fps-client and the simulator use). */
static void check_fps_agent(struct sc_loader *L, const struct sc_host *h,
			    const struct sc_words *w, const char *sec)
{
	struct fps_opts *o = calloc(1, sizeof(*o));
	char err[512];

	if (o == NULL) {
		L->oom = 1;
		return;
	}
	fps_opts_init(o, strcmp(h->role, "fps-server") == 0);
	if (fps_opts_parse(o, w->argc - 1, w->argv + 1, 0, err, sizeof(err)) <
	    0)
		sc_report(L, sc_host_line(L, h, "args"), sec, "args",
			  "reckon-agent %s: %s", h->role, err);
	free(o);
}

/* Parse h's options with the agent's own parser; read what it names. */
static void check_agent(struct sc_loader *L, const struct sc_host *h,
			const struct sc_words *w, const char *sec,
			struct seen *seen)
{
	enum shell_role role;
	struct shell_opts *o = calloc(1, sizeof(*o));
	char err[512];
	int line = h->args_text[0] ? sc_host_line(L, h, "args") : h->line;

	if (o == NULL) {
		L->oom = 1;
		return;
	}
	if (agent_role_parse(h->role, &role) < 0)
		goto out;
	agent_opts_init(o, role, h->name);
	if (agent_opts_parse(o, w->argc, w->argv, 0, err, sizeof(err)) < 0) {
		sc_report(L, line, sec, h->args_text[0] ? "args" : NULL,
			  "reckon-agent %s: %s", h->role, err);
		goto out;
	}
	check_agree(L, h, o, line, sec, seen);
	if (L->sc->game.present)
		goto out; /* [game] checked the map or trace */
	if (o->map && !o->trace_path && !seen_before(seen, "map", o->map)) {
		struct map m;

		if (agent_map_load(o->map, &m, err, sizeof(err)) == 0)
			map_free(&m);
		else
			sc_report(L, line, sec, "args", "--map: %s", err);
	}
	if (o->trace_path && !seen_before(seen, "trace", o->trace_path) &&
	    sc_trace_check(o->trace_path, NULL, err, sizeof(err)) < 0)
		sc_report(L, line, sec, "args", "--trace: %s: %s",
			  o->trace_path, err);
out:
	free(o);
}

void sc_game_finish(struct sc_loader *L)
{
	struct scenario *sc = L->sc;
	uint64_t *bits = calloc(SC_MAX_HOSTS, sizeof(*bits));
	struct seen *seen = calloc(1, sizeof(*seen));
	unsigned nplayers = 0, pidx = 0;
	unsigned errors = L->errors;

	if (bits == NULL || seen == NULL) {
		L->oom = 1;
		goto out;
	}
	sc_predictors_finish(L);
	if (sc->npredictors && !sc->game.present)
		sc_report(L, sc->predictors[0].line, NULL, NULL,
			  "[predictor %s]: predictor sections need a [game] "
			  "section (the game every agent plays)",
			  sc->predictors[0].name);
	if (sc->game.present) {
		sc_game_play(L);
		for (unsigned i = 0; i < sc->nhosts; i++) {
			const struct sc_role *r = sc_role_of(&sc->hosts[i]);

			nplayers += r && r->plays;
			if (r && (r->plays || r->receives) &&
			    strcmp(r->name, "observer") != 0)
				sc_host_to(L, &sc->hosts[i], r);
		}
		if (nplayers == 0)
			sc_report(L, sc->game.line, "game", NULL,
				  "no host plays it: add a host with role = "
				  "player");
		sc_host_bots(L, bits);
	}
	for (unsigned i = 0; sc->game.present && i < sc->nhosts; i++) {
		const struct sc_host *h = &sc->hosts[i];
		char sec[SC_NAME_MAX + 8], err[256];
		struct sc_words w;

		snprintf(sec, sizeof(sec), "host %s", h->name);
		if (sc_role_of(h) == NULL || sc_role_of(h)->own_game)
			continue;
		if (scenario_words_split(h->role, h->args, &w, err,
					 sizeof(err)) < 0) {
			sc_report(L, sc_host_line(L, h, "args"), sec, "args",
				  "%s", err);
			continue;
		}
		check_owned(L, h, &w, sec);
		scenario_words_free(&w);
	}
	if (L->errors != errors || (sc->game.present && L->game_errors))
		goto out; /* the options would repeat what is reported */
	for (unsigned i = 0; i < sc->nhosts; i++) {
		struct sc_host *h = &sc->hosts[i];
		const struct sc_role *r = sc_role_of(h);
		char sec[SC_NAME_MAX + 8], err[256], all[SC_TEXT_MAX];
		struct sc_words w;

		if (!h->role[0])
			continue;
		snprintf(sec, sizeof(sec), "host %s", h->name);
		if (r == NULL && sc->game.present) {
			sc_report(L, sc_host_line(L, h, "role"), sec, "role",
				  "role '%s' has no row in the role table "
				  "(daemon/scenario/scenario_roles.c), so "
				  "[game] cannot build its options",
				  h->role);
			continue;
		}
		if (scenario_words_split(h->role, h->args, &w, err,
					 sizeof(err)) < 0) {
			sc_report(L, sc_host_line(L, h, "args"), sec, "args",
				  "%s", err);
			continue;
		}
		if (r && r->own_game) {
			check_fps_agent(L, h, &w, sec);
			scenario_words_free(&w);
			continue;
		}
		if (r && sc->game.present) {
			scenario_words_free(&w);
			if (build(sc, h, r, pidx, nplayers, bits[i], h->built,
				  sizeof(h->built)) < 0 ||
			    (size_t)snprintf(all, sizeof(all), "%s%s%s",
					     h->built, h->args[0] ? " " : "",
					     h->args) >= sizeof(all)) {
				sc_report(L, h->line, sec, NULL,
					  "the agent's options are longer "
					  "than %d characters",
					  SC_TEXT_MAX - 1);
				continue;
			}
			pidx += r->plays;
			memcpy(h->args, all, sizeof(all));
			if (scenario_words_split(h->role, h->args, &w, err,
						 sizeof(err)) < 0) {
				sc_report(L, h->line, sec, NULL, "%s", err);
				continue;
			}
		}
		check_agent(L, h, &w, sec, seen);
		scenario_words_free(&w);
	}
out:
	free(bits);
	free(seen);
}
