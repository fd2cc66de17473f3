/*
 * scenario_game.c: the experiment side of a scenario. [game] is the one
 * game every agent plays (a map, read at load time, or a trace, parsed;
 * the play's length and its lead); each role host has a role (a row of
 * sc_roles, scenario_roles.c), the hosts it sends to (`to`) and the bots
 * it plays (`bots`, or a share of them); and the run has one condition
 * label, named or folded from the link's spec. scenario_agents.c builds
 * the agents' options from all of this; the [predictor] sections are
 * scenario_predictors.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_io.h"
#include "scenario.h"
#include "scenario_int.h"
#include "world/map.h"
#include "world/trace.h"

const struct sc_role *sc_role_of(const struct sc_host *h)
{
	return h->role[0] ? sc_role_find(h->role) : NULL;
}

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

/* The play's length: [game] duration, or the scenario's duration less
 * SC_GAME_LEAD_NS of start-up and linger time. */
void sc_game_play(struct sc_loader *L)
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

int sc_host_line(struct sc_loader *L, const struct sc_host *h, const char *key)
{
	char sec[SC_NAME_MAX + 8];
	int line;

	snprintf(sec, sizeof(sec), "host %s", h->name);
	line = sc_lines_key(&L->lines, sec, key);
	return line ? line : h->line;
}

void sc_host_to(struct sc_loader *L, struct sc_host *h, const struct sc_role *r)
{
	struct scenario *sc = L->sc;
	char sec[SC_NAME_MAX + 8], buf[SC_TEXT_MAX], *save = NULL;
	int line = sc_host_line(L, h, "to");
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
		tr = sc_role_of(&sc->hosts[i]);
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
void sc_host_bots(struct sc_loader *L, uint64_t *bits)
{
	struct scenario *sc = L->sc;
	const struct sc_host *named = NULL, *unnamed = NULL;
	uint64_t taken = 0;
	char why[256];

	for (unsigned i = 0; i < sc->nhosts; i++) {
		struct sc_host *h = &sc->hosts[i];
		const struct sc_role *r = sc_role_of(h);
		char sec[SC_NAME_MAX + 8];

		bits[i] = 0;
		snprintf(sec, sizeof(sec), "host %s", h->name);
		if (h->bots_text[0] && (r == NULL || !r->plays)) {
			sc_report(L, sc_host_line(L, h, "bots"), sec, "bots",
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
			sc_report(L, sc_host_line(L, h, "bots"), sec, "bots",
				  "with [game] trace, give the entities in "
				  "args (--entities is the trace's ids)");
			continue;
		}
		if (parse_bots(h->bots_text, sc->game.bots, &bits[i], why,
			       sizeof(why)) < 0) {
			sc_report(L, sc_host_line(L, h, "bots"), sec, "bots",
				  "%s", why);
			continue;
		}
		for (unsigned b = 0; b < 64; b++)
			if ((bits[i] & taken) & (1ULL << b)) {
				sc_report(L, sc_host_line(L, h, "bots"), sec,
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
int sc_run_label(const struct scenario *sc, char *buf, size_t len)
{
	int src = -1, dst = -1;

	for (unsigned i = 0; i < sc->nhosts && src < 0; i++) {
		const struct sc_role *r = sc_role_of(&sc->hosts[i]);

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
