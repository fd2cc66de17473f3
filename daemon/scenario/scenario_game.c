/*
 * scenario_game.c: the experiment a scenario describes, turned into the
 * options of every reckon-agent. [game] is the one game, [predictor]
 * sections the lanes (scenario_predictors.c), and each role host adds
 * its role (a row of sc_roles, scenario_roles.c), the hosts it sends to
 * (`to`) and the bots it plays (`bots`, or a share of them); reckond
 * builds each agent's options from these, so every agent plays the same
 * game with the same predictors by construction. The options any role host ends
 * up with, built or written in `args`, are then parsed by the agent's
 * own parser (agent_opts_parse) and the maps and traces they name are
 * read, so `reckond -n` reports what the agents would refuse.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_io.h"
#include "scenario.h"
#include "scenario_int.h"
#include "world/map.h"
#include "world/trace.h"

static const struct sc_role *role_of(const struct sc_host *h)
{
	return h->role[0] ? sc_role_find(h->role) : NULL;
}

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

int scenario_spec_label(const struct netem_spec *s, char *buf, size_t len)
{
	char text[1024], *save = NULL;
	size_t o = 0;
	int prev_kw = 0, n;
	struct netem_spec none;

	netem_spec_init(&none);
	if (s == NULL || netem_spec_equal(s, &none))
		return snprintf(buf, len, "none");
	n = netem_spec_print(s, text, sizeof(text));
	if (n < 0 || (size_t)n >= sizeof(text))
		return -EOVERFLOW;
	if (len)
		buf[0] = '\0';
	for (char *w = strtok_r(text, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		/* tc's default queue limit says nothing about the condition */
		if (strcmp(w, "limit") == 0 && s->limit == none.limit) {
			strtok_r(NULL, " ", &save);
			continue;
		}
		int kw = !isdigit((unsigned char)w[0]) && w[0] != '-' &&
			 w[0] != '.';
		const char *sep = o == 0 || (prev_kw && !kw) ? "" : "-";

		prev_kw = kw;
		n = snprintf(o < len ? buf + o : NULL, o < len ? len - o : 0,
			     "%s", sep);
		o += (size_t)n;
		for (; *w; w++) {
			const char *c = *w == '%' ? "pct" : NULL;
			char one[2] = {*w, '\0'};

			n = snprintf(o < len ? buf + o : NULL,
				     o < len ? len - o : 0, "%s", c ? c : one);
			o += (size_t)n;
		}
	}
	return (int)o;
}

/* ---- [game] ---- */

/* " (did you mean 'X'?)" over the maps there are, or "". */
static const char *map_hint(const char *name, char *buf, size_t len)
{
	char names[64][AGENT_MAP_NAME_MAX];
	const char *cands[65];
	size_t n = agent_map_names(names, 64);

	for (size_t i = 0; i < n; i++)
		cands[i] = names[i];
	cands[n] = NULL; /* n == 0: an empty NULL-ended list */
	return sc_did_you_mean(name, cands, n, buf, len);
}

void sc_game_check(struct sc_loader *L, const struct sc_section *s,
		   const int *set)
{
	struct sc_game *g = &L->sc->game;
	int map = set[sk_find(SS_GAME, "map") - sk_keys];
	int trace = set[sk_find(SS_GAME, "trace") - sk_keys];
	char err[512], dym[SC_NAME_MAX + 32];
	int rc;

	g->line = s->line;
	if (map && trace) {
		sc_report(L, sc_key_line(L, s, "trace"), s->name, "trace",
			  "map and trace are exclusive: bots play a map, a "
			  "trace replays recorded movement");
		return;
	}
	if (!map && !trace) {
		sc_report(L, s->line, s->name, NULL,
			  "needs map = NAME (bots on a map) or trace = FILE");
		return;
	}
	if (map) {
		struct map m;

		rc = agent_map_load(g->map, &m, err, sizeof(err));
		if (rc == 0)
			map_free(&m);
		else
			sc_report(L, sc_key_line(L, s, "map"), s->name, "map",
				  "%s%s", err,
				  rc == -ENOENT
					  ? map_hint(g->map, dym, sizeof(dym))
					  : "");
		return;
	}
	rc = sc_resolve_path(L->path, g->trace_text, g->trace,
			     sizeof(g->trace));
	if (rc < 0) {
		sc_report(L, sc_key_line(L, s, "trace"), s->name, "trace",
			  "%s: %s", g->trace_text, strerror(-rc));
		g->trace[0] = '\0';
		return;
	}
	if (set[sk_find(SS_GAME, "duration") - sk_keys])
		sc_report(L, sc_key_line(L, s, "duration"), s->name, "duration",
			  "a trace plays its own length; duration is for "
			  "bots on a map");
	if (sc_trace_check(g->trace, &g->play_ns, err, sizeof(err)) < 0)
		sc_report(L, sc_key_line(L, s, "trace"), s->name, "trace",
			  "%s: %s", g->trace_text, err);
	/* the canonical form names it absolute, as [link] trace does */
	memcpy(g->trace_text, g->trace, sizeof(g->trace));
}

int sc_trace_check(const char *path, int64_t *len_ns, char *err, size_t errlen)
{
	char why[256] = "";
	struct trace t;
	FILE *f = fopen(path, "r");
	int rc;

	if (f == NULL) {
		rc = -errno;
		snprintf(err, errlen, "%s", strerror(-rc));
		return rc;
	}
	trace_init(&t);
	rc = trace_read_csv(f, &t, why, sizeof(why));
	fclose(f);
	if (rc < 0)
		snprintf(err, errlen, "%s",
			 rc == -EINVAL ? why : strerror(-rc));
	if (rc >= 0 && len_ns)
		*len_ns = t.n ? t.s[t.n - 1].t_ns - t.s[0].t_ns + t.tick_ns : 0;
	if (rc >= 0)
		trace_free(&t);
	return rc;
}

/* The play's length: [game] duration, or the scenario's less the lead. */
static void game_play(struct sc_loader *L)
{
	struct scenario *sc = L->sc;
	struct sc_game *g = &sc->game;
	/* agents start 0.5 s + 25 ms per host in; the observer lingers 1 s */
	int64_t need = 1500000000LL + 25000000LL * sc->nhosts;
	char a[32], b[32];

	if (g->trace[0]) {
		if (g->play_ns + need > sc->duration_ns) {
			num_format_duration(g->play_ns, a, sizeof(a));
			num_format_duration(sc->duration_ns, b, sizeof(b));
			sc_report(L, sc_lines_key(&L->lines, "game", "trace"),
				  "game", "trace",
				  "the trace's %s of play does not fit the "
				  "scenario's %s: the agents start 0.5 s + "
				  "25 ms per host in and the observer lingers "
				  "1 s",
				  a, b);
		}
		return;
	}
	if (g->duration_ns == 0) {
		g->play_ns = sc->duration_ns - SC_GAME_LEAD_NS;
		if (g->play_ns < 1000000000LL) {
			num_format_duration(sc->duration_ns, a, sizeof(a));
			sc_report(L, g->line, "game", NULL,
				  "the scenario's duration %s leaves less "
				  "than 1s of play after the 4s lead: set "
				  "[game] duration or a longer [scenario] "
				  "duration",
				  a);
		}
		return;
	}
	g->play_ns = g->duration_ns;
	if (g->duration_ns + need > sc->duration_ns) {
		num_format_duration(g->duration_ns, a, sizeof(a));
		num_format_duration(sc->duration_ns, b, sizeof(b));
		sc_report(L, sc_lines_key(&L->lines, "game", "duration"),
			  "game", "duration",
			  "%s of play does not fit the scenario's %s: the "
			  "agents start 0.5 s + 25 ms per host in and the "
			  "observer lingers 1 s (leave it unset to fit)",
			  a, b);
	}
}

/* ---- hosts: to and bots ---- */

static int host_line(struct sc_loader *L, const struct sc_host *h,
		     const char *key)
{
	char sec[SC_NAME_MAX + 8];
	int line;

	snprintf(sec, sizeof(sec), "host %s", h->name);
	line = sc_lines_key(&L->lines, sec, key);
	return line ? line : h->line;
}

static void host_to(struct sc_loader *L, struct sc_host *h,
		    const struct sc_role *r)
{
	struct scenario *sc = L->sc;
	char sec[SC_NAME_MAX + 8], buf[SC_TEXT_MAX], *save = NULL;
	int line = host_line(L, h, "to");
	int relays = sc->game.topology == SC_TOPO_CLIENT_SERVER && r->plays;

	snprintf(sec, sizeof(sec), "host %s", h->name);
	h->nto = 0;
	if (h->to_text[0] == '\0') {
		for (unsigned i = 0; i < sc->nhosts; i++) {
			const char *want = relays ? "relay" : "observer";

			if (strcmp(sc->hosts[i].role, want) == 0)
				h->to[h->nto++] = i;
		}
		if (h->nto == 0)
			sc_report(L, h->line, sec, NULL,
				  "no %s to send to: add a host with role = "
				  "%s, or set to",
				  relays ? "relay" : "observer",
				  relays ? "relay" : "observer");
		return;
	}
	snprintf(buf, sizeof(buf), "%s", h->to_text);
	for (char *w = strtok_r(buf, " ,\t", &save); w;
	     w = strtok_r(NULL, " ,\t", &save)) {
		int i = sc_resolve_host(L, line, sec, "to", w);
		const struct sc_role *tr;

		if (i < 0)
			continue;
		tr = role_of(&sc->hosts[i]);
		if ((unsigned)i == h->index) {
			sc_report(L, line, sec, "to",
				  "%s cannot send to itself", w);
			continue;
		}
		if (tr == NULL || !tr->receives ||
		    (!r->plays && strcmp(tr->name, "observer") != 0)) {
			sc_report(L, line, sec, "to",
				  "%s is %s%s: a %s sends to %s", w,
				  tr ? "a " : "not a reckon-agent host",
				  tr ? tr->name : "", h->role,
				  r->plays ? "observers or a relay"
					   : "observers");
			continue;
		}
		for (unsigned k = 0; k < h->nto; k++)
			if (h->to[k] == (unsigned)i) {
				sc_report(L, line, sec, "to", "%s named twice",
					  w);
				i = -1;
				break;
			}
		if (i >= 0)
			h->to[h->nto++] = (unsigned)i;
	}
}

/* "0-3,6" into bit set bits (ids below max). 0, or -1 with why. */
static int parse_bots(const char *text, unsigned max, uint64_t *bits, char *why,
		      size_t len)
{
	char buf[SC_TEXT_MAX], *save = NULL;

	*bits = 0;
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *w = strtok_r(buf, ", \t", &save); w;
	     w = strtok_r(NULL, ", \t", &save)) {
		char *end, *dash = strchr(w, '-');
		unsigned long a, b;

		errno = 0;
		a = strtoul(w, &end, 10);
		if (end == w || (dash ? end != dash : *end != '\0') ||
		    !isdigit((unsigned char)w[0]))
			goto bad;
		b = a;
		if (dash) {
			if (!isdigit((unsigned char)dash[1]))
				goto bad;
			b = strtoul(dash + 1, &end, 10);
			if (*end != '\0' || b < a)
				goto bad;
		}
		if (errno || b >= max) {
			snprintf(why, len,
				 "bot %lu does not exist: [game] has %u bots "
				 "(0-%u)",
				 b, max, max - 1);
			return -1;
		}
		for (unsigned long i = a; i <= b; i++)
			*bits |= 1ULL << i;
		continue;
	bad:
		snprintf(why, len,
			 "'%s' is not a bot id or range (ids and ranges "
			 "like 0-3,6)",
			 w);
		return -1;
	}
	if (*bits == 0) {
		snprintf(why, len, "no bot named");
		return -1;
	}
	return 0;
}

/* Explicit bots, checked across the players; -1 = none named. */
static void host_bots(struct sc_loader *L, uint64_t *bits)
{
	struct scenario *sc = L->sc;
	const struct sc_host *named = NULL, *unnamed = NULL;
	uint64_t taken = 0;
	char why[256];

	for (unsigned i = 0; i < sc->nhosts; i++) {
		struct sc_host *h = &sc->hosts[i];
		const struct sc_role *r = role_of(h);
		char sec[SC_NAME_MAX + 8];

		bits[i] = 0;
		snprintf(sec, sizeof(sec), "host %s", h->name);
		if (h->bots_text[0] && (r == NULL || !r->plays)) {
			sc_report(L, host_line(L, h, "bots"), sec, "bots",
				  "only players play bots");
			continue;
		}
		if (r == NULL || !r->plays)
			continue;
		if (h->bots_text[0] == '\0') {
			unnamed = unnamed ? unnamed : h;
			continue;
		}
		named = named ? named : h;
		if (sc->game.trace[0]) {
			sc_report(L, host_line(L, h, "bots"), sec, "bots",
				  "with [game] trace, give the entities in "
				  "args (--entities is the trace's ids)");
			continue;
		}
		if (parse_bots(h->bots_text, sc->game.bots, &bits[i], why,
			       sizeof(why)) < 0) {
			sc_report(L, host_line(L, h, "bots"), sec, "bots", "%s",
				  why);
			continue;
		}
		for (unsigned b = 0; b < 64; b++)
			if ((bits[i] & taken) & (1ULL << b)) {
				sc_report(L, host_line(L, h, "bots"), sec,
					  "bots",
					  "bot %u is played by another host "
					  "too",
					  b);
				break;
			}
		taken |= bits[i];
	}
	if (named && unnamed)
		sc_report(L, unnamed->line, NULL, NULL,
			  "[host %s]: no bots, while [host %s] names its "
			  "own: name every player's bots or none (then "
			  "they are shared out)",
			  unnamed->name, named->name);
}

/* ---- the condition label ---- */

static const struct sc_link *link_of(const struct scenario *sc, unsigned a,
				     unsigned b)
{
	for (unsigned i = 0; i < sc->nlinks; i++)
		if ((sc->links[i].a == a && sc->links[i].b == b) ||
		    (sc->links[i].a == b && sc->links[i].b == a))
			return &sc->links[i];
	return NULL;
}

/* The condition label of the run, one for every agent so the summary
 * groups their rows together: the label of the link the first player
 * sends on ([link] label), else [defaults] label, else that link's spec
 * folded (scenario_spec_label). */
static int run_label(const struct scenario *sc, char *buf, size_t len)
{
	int src = -1, dst = -1;

	for (unsigned i = 0; i < sc->nhosts && src < 0; i++) {
		const struct sc_role *r = role_of(&sc->hosts[i]);

		if (r && r->plays && sc->hosts[i].nto) {
			src = (int)i;
			dst = (int)sc->hosts[i].to[0];
		}
	}
	if (src >= 0) {
		const struct sc_link *l =
			link_of(sc, (unsigned)src, (unsigned)dst);
		if (l && l->label[0])
			return snprintf(buf, len, "%s", l->label);
	}
	if (sc->default_label[0])
		return snprintf(buf, len, "%s", sc->default_label);
	if (src < 0)
		return snprintf(buf, len, "none");
	return scenario_spec_label(
		scenario_link_spec(sc, (unsigned)src, (unsigned)dst), buf, len);
}

/* ---- the agents' options ---- */

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
	run_label(sc, label, sizeof(label));
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
				sc_report(L, host_line(L, h, "args"), sec,
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

/* Parse h's options with the agent's own parser; read what it names. */
static void check_agent(struct sc_loader *L, const struct sc_host *h,
			const struct sc_words *w, const char *sec,
			struct seen *seen)
{
	enum shell_role role;
	struct shell_opts *o = calloc(1, sizeof(*o));
	char err[512];
	int line = h->args_text[0] ? host_line(L, h, "args") : h->line;

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
		game_play(L);
		for (unsigned i = 0; i < sc->nhosts; i++) {
			const struct sc_role *r = role_of(&sc->hosts[i]);

			nplayers += r && r->plays;
			if (r && (r->plays || r->receives) &&
			    strcmp(r->name, "observer") != 0)
				host_to(L, &sc->hosts[i], r);
		}
		if (nplayers == 0)
			sc_report(L, sc->game.line, "game", NULL,
				  "no host plays it: add a host with role = "
				  "player");
		host_bots(L, bits);
	}
	for (unsigned i = 0; sc->game.present && i < sc->nhosts; i++) {
		const struct sc_host *h = &sc->hosts[i];
		char sec[SC_NAME_MAX + 8], err[256];
		struct sc_words w;

		snprintf(sec, sizeof(sec), "host %s", h->name);
		if (role_of(h) == NULL)
			continue;
		if (scenario_words_split(h->role, h->args, &w, err,
					 sizeof(err)) < 0) {
			sc_report(L, host_line(L, h, "args"), sec, "args", "%s",
				  err);
			continue;
		}
		check_owned(L, h, &w, sec);
		scenario_words_free(&w);
	}
	if (L->errors != errors || (sc->game.present && L->game_errors))
		goto out; /* the options would repeat what is reported */
	for (unsigned i = 0; i < sc->nhosts; i++) {
		struct sc_host *h = &sc->hosts[i];
		const struct sc_role *r = role_of(h);
		char sec[SC_NAME_MAX + 8], err[256], all[SC_TEXT_MAX];
		struct sc_words w;

		if (!h->role[0])
			continue;
		snprintf(sec, sizeof(sec), "host %s", h->name);
		if (r == NULL && sc->game.present) {
			sc_report(L, host_line(L, h, "role"), sec, "role",
				  "role '%s' has no row in the role table "
				  "(daemon/scenario/scenario_roles.c), so "
				  "[game] cannot build its options",
				  h->role);
			continue;
		}
		if (scenario_words_split(h->role, h->args, &w, err,
					 sizeof(err)) < 0) {
			sc_report(L, host_line(L, h, "args"), sec, "args", "%s",
				  err);
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

/* [scenario] results: the nearest directory of the path that exists
 * must take a new directory (tried with mkdtemp and removed: access()
 * says yes to root even on /proc). */
void sc_check_results(struct sc_loader *L)
{
	char dir[PATH_MAX], probe[PATH_MAX + 32], *slash;
	int line = sc_lines_key(&L->lines, "scenario", "results");
	const char *res = L->sc->results_dir;

	snprintf(dir, sizeof(dir), "%s", res);
	while (access(dir, F_OK) != 0) {
		if (errno != ENOENT) {
			sc_report(L, line, "scenario", "results", "%s: %s", res,
				  strerror(errno));
			return;
		}
		slash = strrchr(dir, '/');
		if (slash == NULL)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
	}
	snprintf(probe, sizeof(probe), "%s/.reckon-check-XXXXXX", dir);
	if (mkdtemp(probe) == NULL) {
		sc_report(L, line, "scenario", "results",
			  "%s: cannot create directories in %s (%s)", res, dir,
			  strerror(errno));
		return;
	}
	rmdir(probe);
}
