/*
 * scenario_links.c: the network part of a scenario: [link A B] sections
 * (both directions, each a netem spec), the pairs [defaults] link covers,
 * [schedule] keys "at TIME SRC>DST" turned into sorted sc_change entries,
 * and scenario_link_spec, the lookup the bridge uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_int.h"

static int push_change(struct sc_loader *L, const struct sc_change *c)
{
	struct scenario *sc = L->sc;

	if (sc->nchanges == L->changes_cap) {
		size_t cap = L->changes_cap ? 2 * L->changes_cap : 16;
		struct sc_change *v = realloc(sc->changes, cap * sizeof(*v));
		if (v == NULL) {
			L->oom = 1;
			return -ENOMEM;
		}
		sc->changes = v;
		L->changes_cap = cap;
	}
	sc->changes[sc->nchanges++] = *c;
	return 0;
}

static int push_link(struct sc_loader *L, const struct sc_link *l)
{
	struct scenario *sc = L->sc;

	if (sc->nlinks == L->links_cap) {
		size_t cap = L->links_cap ? 2 * L->links_cap : 8;
		struct sc_link *v = realloc(sc->links, cap * sizeof(*v));
		if (v == NULL) {
			L->oom = 1;
			return -ENOMEM;
		}
		sc->links = v;
		L->links_cap = cap;
	}
	sc->links[sc->nlinks++] = *l;
	return 0;
}

void sc_check_link(struct sc_loader *L, struct sc_section *s, int *set,
		   struct sk_link_in *lin)
{
	struct scenario *sc = L->sc;
	int fwd = set[sk_find(SS_LINK, "forward") - sk_keys];
	int rev = set[sk_find(SS_LINK, "reverse") - sk_keys];
	int both = set[sk_find(SS_LINK, "both") - sk_keys];
	struct sc_link l = {.line = s->line};
	int a = sc_resolve_host(L, s->line, s->name, NULL, s->a);
	int b = sc_resolve_host(L, s->line, s->name, NULL, s->b);

	if (both && (fwd || rev))
		sc_report(L, sc_key_line(L, s, "both"), s->name, "both",
			  "both and %s are exclusive: use forward and reverse",
			  fwd ? "forward" : "reverse");
	if (a < 0 || b < 0)
		return;
	if (a == b) {
		sc_report(L, s->line, s->name, NULL,
			  "a link needs two different hosts");
		return;
	}
	for (unsigned i = 0; i < sc->nlinks; i++) {
		const struct sc_link *o = &sc->links[i];
		if ((o->a == (unsigned)a && o->b == (unsigned)b) ||
		    (o->a == (unsigned)b && o->b == (unsigned)a)) {
			sc_report(
				L, s->line, s->name, NULL,
				"hosts %s and %s already have [link %s %s] at "
				"line %d",
				s->a, s->b, sc->hosts[o->a].name,
				sc->hosts[o->b].name, o->line);
			return;
		}
	}
	l.a = (unsigned)a;
	l.b = (unsigned)b;
	l.fwd = both ? lin->both : lin->fwd;
	l.rev = both ? lin->both : lin->rev;
	memcpy(l.sched, lin->sched, sizeof(l.sched));
	memcpy(l.trace, lin->trace, sizeof(l.trace));
	memcpy(l.label, lin->label, sizeof(l.label));
	sc_check_link_sched(L, s, &l);
	push_link(L, &l);
}

void sc_default_links(struct sc_loader *L, int line)
{
	struct scenario *sc = L->sc;
	unsigned explicit = sc->nlinks;

	for (unsigned i = 0; i < sc->nhosts; i++) {
		for (unsigned j = i + 1; j < sc->nhosts; j++) {
			int found = 0;
			for (unsigned k = 0; k < explicit && !found; k++)
				found = (sc->links[k].a == i &&
					 sc->links[k].b == j) ||
					(sc->links[k].a == j &&
					 sc->links[k].b == i);
			if (found)
				continue;
			struct sc_link l = {.a = i,
					    .b = j,
					    .line = line,
					    .from_defaults = 1};
			l.fwd = sc->default_link;
			l.rev = sc->default_link;
			if (push_link(L, &l) < 0)
				return;
		}
	}
}

/* [schedule] key "at TIME SRC>DST" (also SRC<DST, SRC<>DST). */
void sc_schedule_key(struct sc_loader *L, const char *sec, const char *key,
		     int line, const char *val)
{
	struct scenario *sc = L->sc;
	char w[4][SC_NAME_MAX], src[SC_NAME_MAX], dst[SC_NAME_MAX], err[256];
	const char *op;
	int both = 0, reverse = 0;
	struct sc_change c = {.line = line};
	unsigned n = sc_split_words(key, w, 3);

	if (n != 3 || strcmp(w[0], "at") != 0) {
		sc_report(L, line, sec, key,
			  "expected 'at TIME SRC>DST' "
			  "(or SRC<DST, SRC<>DST)");
		return;
	}
	if (num_parse_duration_unit(w[1], &c.at_ns, err, sizeof(err)) < 0) {
		sc_report(L, line, sec, key, "%s", err);
		return;
	}
	if (c.at_ns > sc->duration_ns) {
		char d[32];
		num_format_duration(sc->duration_ns, d, sizeof(d));
		sc_report(L, line, sec, key,
			  "%s is after the end of the run "
			  "(duration %s)",
			  w[1], d);
		return;
	}
	if ((op = strstr(w[2], "<>")) != NULL)
		both = 1;
	else if ((op = strchr(w[2], '>')) == NULL &&
		 (op = strchr(w[2], '<')) != NULL)
		reverse = 1;
	if (op == NULL || op == w[2] || op[both ? 2 : 1] == '\0') {
		sc_report(L, line, sec, key,
			  "'%s' is not a link: expected "
			  "SRC>DST, SRC<DST or SRC<>DST",
			  w[2]);
		return;
	}
	snprintf(src, sizeof(src), "%.*s", (int)(op - w[2]), w[2]);
	snprintf(dst, sizeof(dst), "%s", op + (both ? 2 : 1));
	int a = sc_resolve_host(L, line, sec, key, src);
	int b = sc_resolve_host(L, line, sec, key, dst);
	if (a < 0 || b < 0)
		return;
	if (a == b) {
		sc_report(L, line, sec, key,
			  "a link needs two different hosts");
		return;
	}
	/* An empty value here means "no impairment from now on". */
	if (val[0] == '\0') {
		netem_spec_init(&c.spec);
	} else if (netem_spec_parse(val, &c.spec, err, sizeof(err)) < 0) {
		sc_report(L, line, sec, key, "%s", err);
		return;
	}
	for (int dir = 0; dir < (both ? 2 : 1); dir++) {
		int fwd = (dir == 0) != reverse;
		c.src = (unsigned)(fwd ? a : b);
		c.dst = (unsigned)(fwd ? b : a);
		for (unsigned i = 0; i < sc->nchanges; i++) {
			const struct sc_change *o = &sc->changes[i];
			if (o->at_ns == c.at_ns && o->src == c.src &&
			    o->dst == c.dst) {
				sc_report(L, line, sec, key,
					  "changes %s>%s at the "
					  "same time as line %d",
					  sc->hosts[c.src].name,
					  sc->hosts[c.dst].name, o->line);
				return;
			}
		}
		if (push_change(L, &c) < 0)
			return;
	}
}

void sc_sort_changes(struct scenario *sc)
{
	/* Stable insertion sort by time: same-time changes keep file order. */
	for (unsigned i = 1; i < sc->nchanges; i++) {
		struct sc_change c = sc->changes[i];
		unsigned j = i;
		while (j > 0 && (sc->changes[j - 1].at_ns > c.at_ns ||
				 (sc->changes[j - 1].at_ns == c.at_ns &&
				  sc->changes[j - 1].line > c.line))) {
			sc->changes[j] = sc->changes[j - 1];
			j--;
		}
		sc->changes[j] = c;
	}
}

const struct netem_spec *scenario_link_spec(const struct scenario *sc,
					    unsigned src, unsigned dst)
{
	for (unsigned i = 0; i < sc->nlinks; i++) {
		const struct sc_link *l = &sc->links[i];
		if (l->a == src && l->b == dst)
			return &l->fwd;
		if (l->a == dst && l->b == src)
			return &l->rev;
	}
	return NULL;
}
