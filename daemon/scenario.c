/*
 * scenario.c: loading a scenario INI file. iniparser reads the values; a
 * line scan of our own (scenario_lines.c) says where each one came from;
 * the key table (scenario_keys.c) parses them. Every problem is reported
 * as "file:line: [section] key: message", all of them, in file order, and
 * a scenario is handed back only when there are none. The schema is in
 * docs/scenario.md.
 */
#include <ctype.h>
#include <errno.h>
#include <iniparser.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scenario.h"
#include "scenario_diag.h"
#include "scenario_keys.h"
#include "scenario_lines.h"

#define HOST_NAME_MAX_LEN 15 /* fits an interface name */

struct loader {
	const char *path;
	struct sc_diag *d;
	struct sc_lines lines;
	dictionary *ini;
	struct scenario *sc;
	unsigned errors;
	int oom;
	size_t links_cap;
	size_t changes_cap;
};

/* One section of the file, classified. */
struct section {
	const char *name; /* as iniparser stores it: lowercased */
	enum sk_section type;
	int line;
	unsigned host;			     /* SS_HOST: its index */
	char a[SC_NAME_MAX], b[SC_NAME_MAX]; /* SS_LINK: the host names */
};

static void __attribute__((format(printf, 5, 6)))
report(struct loader *L, int line, const char *sec, const char *key,
       const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	L->errors++;
	if (rc < 0) {
		L->oom = 1;
		return;
	}
	char where[64] = "";
	if (line > 0)
		snprintf(where, sizeof(where), ":%d", line);
	if (sec && key)
		rc = sc_diag_add(L->d, line, "%s%s: [%s] %s: %s", L->path,
				 where, sec, key, msg);
	else if (sec)
		rc = sc_diag_add(L->d, line, "%s%s: [%s]: %s", L->path, where,
				 sec, msg);
	else
		rc = sc_diag_add(L->d, line, "%s%s: %s", L->path, where, msg);
	if (rc < 0)
		L->oom = 1;
	free(msg);
}

static int silent_errback(const char *fmt, ...)
{
	/* Our line scan reports iniparser's syntax errors in our format. */
	(void)fmt;
	return 0;
}

/* Split s into at most max words (copied into w[i], each < SC_NAME_MAX
 * or flagged by returning max + 1). */
static unsigned split_words(const char *s, char w[][SC_NAME_MAX], unsigned max)
{
	unsigned n = 0;

	while (*s) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		const char *e = s;
		while (*e && !isspace((unsigned char)*e))
			e++;
		if (n == max || (size_t)(e - s) >= SC_NAME_MAX)
			return max + 1;
		memcpy(w[n], s, (size_t)(e - s));
		w[n][e - s] = '\0';
		n++;
		s = e;
	}
	return n;
}

static int valid_host_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > HOST_NAME_MAX_LEN || !isalnum((unsigned char)s[0]))
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

int scenario_host(const struct scenario *sc, const char *name)
{
	for (unsigned i = 0; i < sc->nhosts; i++)
		if (strcasecmp(sc->hosts[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* A host reference in [link] or [schedule]: its index, or -1 reported. */
static int resolve_host(struct loader *L, int line, const char *sec,
			const char *key, const char *name)
{
	const char *names[SC_MAX_HOSTS + 1];
	char dym[SC_NAME_MAX + 32];
	int i = scenario_host(L->sc, name);

	if (i >= 0)
		return i;
	for (unsigned j = 0; j < L->sc->nhosts; j++)
		names[j] = L->sc->hosts[j].name;
	names[L->sc->nhosts] = NULL;
	report(L, line, sec, key, "no host '%s'%s", name,
	       sc_did_you_mean(name, names, 0, dym, sizeof(dym)));
	return -1;
}

static int classify(struct loader *L, const char *name, struct section *s)
{
	static const char *const kinds[] = {"scenario", "defaults", "capture",
					    "host",	"link",	    "schedule",
					    NULL};
	char w[3][SC_NAME_MAX];
	char dym[SC_NAME_MAX + 32];
	unsigned n = split_words(name, w, 3);

	s->name = name;
	s->line = sc_lines_section(&L->lines, name);
	if (n == 0 || n > 3) {
		report(L, s->line, name, NULL, "unknown section");
		return -1;
	}
	for (int t = 0; t < SS_COUNT; t++) {
		const char *k = t == SS_HOST   ? "host"
				: t == SS_LINK ? "link"
					       : sk_section_names[t];
		unsigned want = t == SS_HOST ? 2 : t == SS_LINK ? 3 : 1;
		if (strcmp(w[0], k) != 0)
			continue;
		s->type = (enum sk_section)t;
		if (n != want) {
			report(L, s->line, name, NULL, "expected [%s]",
			       sk_section_names[t]);
			return -1;
		}
		if (t == SS_LINK) {
			snprintf(s->a, sizeof(s->a), "%s", w[1]);
			snprintf(s->b, sizeof(s->b), "%s", w[2]);
		}
		return 0;
	}
	report(L, s->line, name, NULL, "unknown section%s",
	       sc_did_you_mean(w[0], kinds, 0, dym, sizeof(dym)));
	return -1;
}

static void add_host(struct loader *L, struct section *s)
{
	struct scenario *sc = L->sc;
	const char *name = s->name + strlen("host");

	while (isspace((unsigned char)*name))
		name++;
	if (!valid_host_name(name)) {
		report(L, s->line, s->name, NULL,
		       "host name '%s' must be 1 to %d of a-z, 0-9, '_', '-' "
		       "(starting with a letter or digit)",
		       name, HOST_NAME_MAX_LEN);
		s->type = SS_COUNT;
		return;
	}
	if (sc->nhosts == SC_MAX_HOSTS) {
		report(L, s->line, s->name, NULL, "too many hosts (at most %d)",
		       SC_MAX_HOSTS);
		s->type = SS_COUNT;
		return;
	}
	struct sc_host *h = &sc->hosts[sc->nhosts];
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->index = sc->nhosts;
	h->line = s->line;
	s->host = sc->nhosts++;
}

static int push_change(struct loader *L, const struct sc_change *c)
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

static int push_link(struct loader *L, const struct sc_link *l)
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

/* [schedule] key "at TIME SRC>DST" (also SRC<DST, SRC<>DST). */
static void schedule_key(struct loader *L, const char *sec, const char *key,
			 int line, const char *val)
{
	struct scenario *sc = L->sc;
	char w[4][SC_NAME_MAX], src[SC_NAME_MAX], dst[SC_NAME_MAX], err[256];
	const char *op;
	int both = 0, reverse = 0;
	struct sc_change c = {.line = line};
	unsigned n = split_words(key, w, 3);

	if (n != 3 || strcmp(w[0], "at") != 0) {
		report(L, line, sec, key,
		       "expected 'at TIME SRC>DST' "
		       "(or SRC<DST, SRC<>DST)");
		return;
	}
	if (sk_parse_duration(w[1], &c.at_ns, err, sizeof(err)) < 0) {
		report(L, line, sec, key, "%s", err);
		return;
	}
	if (c.at_ns > sc->duration_ns) {
		char d[32];
		sk_format_duration(sc->duration_ns, d, sizeof(d));
		report(L, line, sec, key,
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
		report(L, line, sec, key,
		       "'%s' is not a link: expected "
		       "SRC>DST, SRC<DST or SRC<>DST",
		       w[2]);
		return;
	}
	snprintf(src, sizeof(src), "%.*s", (int)(op - w[2]), w[2]);
	snprintf(dst, sizeof(dst), "%s", op + (both ? 2 : 1));
	int a = resolve_host(L, line, sec, key, src);
	int b = resolve_host(L, line, sec, key, dst);
	if (a < 0 || b < 0)
		return;
	if (a == b) {
		report(L, line, sec, key, "a link needs two different hosts");
		return;
	}
	/* An empty value here means "no impairment from now on". */
	if (val[0] == '\0') {
		netem_spec_init(&c.spec);
	} else if (netem_spec_parse(val, &c.spec, err, sizeof(err)) < 0) {
		report(L, line, sec, key, "%s", err);
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
				report(L, line, sec, key,
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

static void *section_target(struct loader *L, struct section *s,
			    struct sk_link_in *lin)
{
	switch (s->type) {
	case SS_SCENARIO:
	case SS_DEFAULTS:
		return L->sc;
	case SS_CAPTURE:
		return &L->sc->capture;
	case SS_HOST:
		return &L->sc->hosts[s->host];
	case SS_LINK:
		return lin;
	default:
		return NULL;
	}
}

/* Parse the keys of one section through the table. set[] records which
 * table rows were given a (non-empty) value. */
static void section_keys(struct loader *L, struct section *s,
			 struct sk_link_in *lin, int *set)
{
	int nk = iniparser_getsecnkeys(L->ini, s->name);
	const char **keys;
	size_t skip = strlen(s->name) + 1;

	if (nk <= 0)
		return;
	keys = calloc((size_t)nk, sizeof(*keys));
	if (keys == NULL) {
		L->oom = 1;
		return;
	}
	if (iniparser_getseckeys(L->ini, s->name, keys) == NULL) {
		free(keys);
		return;
	}
	for (int i = 0; i < nk; i++) {
		const char *key = keys[i] + skip;
		const char *val = iniparser_getstring(L->ini, keys[i], "");
		int line = sc_lines_key(&L->lines, s->name, key);
		char err[256];

		if (s->type == SS_SCHEDULE) {
			schedule_key(L, s->name, key, line, val);
			continue;
		}
		const struct sk_key *k = sk_find(s->type, key);
		if (k == NULL) {
			const char *names[17];
			size_t n = 0;
			char dym[SC_NAME_MAX + 32];
			for (size_t j = 0; j < sk_nkeys && n < 16; j++)
				if (sk_keys[j].sec == s->type)
					names[n++] = sk_keys[j].name;
			names[n] = NULL;
			report(L, line, s->name, key, "unknown key%s",
			       sc_did_you_mean(key, names, 0, dym,
					       sizeof(dym)));
			continue;
		}
		if (val[0] == '\0')
			continue; /* empty: not set, the default applies */
		if (sk_parse(k, val, section_target(L, s, lin), err,
			     sizeof(err)) < 0) {
			report(L, line, s->name, key, "%s", err);
			continue;
		}
		set[k - sk_keys] = line ? line : -1;
	}
	free(keys);
}

static int key_line(struct loader *L, const struct section *s, const char *key)
{
	return sc_lines_key(&L->lines, s->name, key);
}

static void check_host(struct loader *L, struct section *s, const int *set)
{
	const struct sk_key *kr = sk_find(SS_HOST, "role");
	const struct sk_key *ka = sk_find(SS_HOST, "args");
	const struct sk_key *ke = sk_find(SS_HOST, "exec");

	if (set[kr - sk_keys] && set[ke - sk_keys])
		report(L, key_line(L, s, "exec"), s->name, "exec",
		       "exec and role are exclusive: exec runs a command "
		       "instead of reckon-agent");
	else if (!set[kr - sk_keys] && !set[ke - sk_keys])
		report(L, s->line, s->name, NULL,
		       "needs role (a reckon-agent role) or exec (a command)");
	else if (set[ka - sk_keys] && set[ke - sk_keys])
		report(L, key_line(L, s, "args"), s->name, "args",
		       "args are for reckon-agent; with exec, put the "
		       "arguments in the command");
}

static void check_link(struct loader *L, struct section *s, int *set,
		       struct sk_link_in *lin)
{
	struct scenario *sc = L->sc;
	int fwd = set[sk_find(SS_LINK, "forward") - sk_keys];
	int rev = set[sk_find(SS_LINK, "reverse") - sk_keys];
	int both = set[sk_find(SS_LINK, "both") - sk_keys];
	struct sc_link l = {.line = s->line};
	int a = resolve_host(L, s->line, s->name, NULL, s->a);
	int b = resolve_host(L, s->line, s->name, NULL, s->b);

	if (both && (fwd || rev))
		report(L, key_line(L, s, "both"), s->name, "both",
		       "both and %s are exclusive: use forward and reverse",
		       fwd ? "forward" : "reverse");
	if (a < 0 || b < 0)
		return;
	if (a == b) {
		report(L, s->line, s->name, NULL,
		       "a link needs two different hosts");
		return;
	}
	for (unsigned i = 0; i < sc->nlinks; i++) {
		const struct sc_link *o = &sc->links[i];
		if ((o->a == (unsigned)a && o->b == (unsigned)b) ||
		    (o->a == (unsigned)b && o->b == (unsigned)a)) {
			report(L, s->line, s->name, NULL,
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
	push_link(L, &l);
}

static void default_name(struct loader *L)
{
	struct scenario *sc = L->sc;
	const char *base = strrchr(L->path, '/');
	size_t n;

	base = base ? base + 1 : L->path;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
		n -= 4;
	if (n >= sizeof(sc->name))
		n = sizeof(sc->name) - 1;
	for (size_t i = 0; i < n; i++) {
		char c = base[i];
		sc->name[i] = (isalnum((unsigned char)c) || c == '.' ||
			       c == '_' || c == '-')
				      ? c
				      : '_';
	}
	sc->name[n] = '\0';
	if (n == 0)
		snprintf(sc->name, sizeof(sc->name), "scenario");
}

static void assign_addrs(struct loader *L, int subnet_line)
{
	struct scenario *sc = L->sc;
	unsigned a0, a1, a2, a3, plen;

	if (sscanf(sc->subnet, "%u.%u.%u.%u/%u", &a0, &a1, &a2, &a3, &plen) !=
	    5)
		return; /* cannot happen: the table parser canonicalised it */
	uint32_t net = a0 << 24 | a1 << 16 | a2 << 8 | a3;
	uint64_t room = (1ULL << (32 - plen)) - 2;
	if (sc->nhosts > room) {
		report(L, subnet_line, "scenario", "subnet",
		       "%s has room for %llu hosts, the scenario has %u",
		       sc->subnet, (unsigned long long)room, sc->nhosts);
		return;
	}
	for (unsigned i = 0; i < sc->nhosts; i++) {
		uint32_t ip = net + i + 1;
		snprintf(sc->hosts[i].addr, sizeof(sc->hosts[i].addr),
			 "%u.%u.%u.%u", ip >> 24, ip >> 16 & 255, ip >> 8 & 255,
			 ip & 255);
	}
}

static void expand_host(struct loader *L, const struct section *s)
{
	struct sc_host *h = &L->sc->hosts[s->host];
	char err[256];

	if (scenario_expand(L->sc, h, h->args_text, h->args, sizeof(h->args),
			    err, sizeof(err)) < 0)
		report(L, key_line(L, s, "args"), s->name, "args", "%s", err);
	if (scenario_expand(L->sc, h, h->exec_text, h->exec, sizeof(h->exec),
			    err, sizeof(err)) < 0)
		report(L, key_line(L, s, "exec"), s->name, "exec", "%s", err);
}

static void default_links(struct loader *L, int line)
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

static void sort_changes(struct scenario *sc)
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

static void load_sections(struct loader *L)
{
	struct scenario *sc = L->sc;
	int nsec = iniparser_getnsec(L->ini);
	struct section *secs;
	int *set;
	struct sk_link_in *lins;

	if (nsec <= 0) {
		report(L, 0, NULL, NULL,
		       "no [host NAME] section: a scenario "
		       "needs at least one host");
		return;
	}
	secs = calloc((size_t)nsec, sizeof(*secs));
	set = calloc((size_t)nsec * sk_nkeys, sizeof(*set));
	lins = calloc((size_t)nsec, sizeof(*lins));
	if (secs == NULL || set == NULL || lins == NULL) {
		L->oom = 1;
		goto out;
	}
	if (sk_defaults(SS_SCENARIO, sc) < 0 ||
	    sk_defaults(SS_CAPTURE, &sc->capture) < 0) {
		report(L, 0, NULL, NULL,
		       "internal error: bad default in the "
		       "key table");
		goto out;
	}
	for (int i = 0; i < nsec; i++) {
		if (classify(L, iniparser_getsecname(L->ini, i), &secs[i]) < 0)
			secs[i].type = SS_COUNT;
		else if (secs[i].type == SS_HOST)
			add_host(L, &secs[i]);
	}
	/* Keys in dependency order: [schedule] needs the duration. */
	static const enum sk_section order[] = {SS_SCENARIO, SS_DEFAULTS,
						SS_CAPTURE,  SS_HOST,
						SS_LINK,     SS_SCHEDULE};
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		for (int i = 0; i < nsec; i++) {
			struct section *s = &secs[i];
			int *sset = set + (size_t)i * sk_nkeys;
			if (s->type != order[o])
				continue;
			for (int t = 0; t < 3; t++) {
				struct netem_spec *p = t == 0	? &lins[i].fwd
						       : t == 1 ? &lins[i].rev
								: &lins[i].both;
				netem_spec_init(p);
			}
			section_keys(L, s, &lins[i], sset);
			if (s->type == SS_HOST)
				check_host(L, s, sset);
			else if (s->type == SS_LINK)
				check_link(L, s, sset, &lins[i]);
			else if (s->type == SS_DEFAULTS &&
				 sset[sk_find(SS_DEFAULTS, "link") - sk_keys])
				sc->has_default_link = 1;
		}
	}
	if (sc->nhosts == 0)
		report(L, 0, NULL, NULL,
		       "no [host NAME] section: a scenario "
		       "needs at least one host");
	if (sc->name[0] == '\0')
		default_name(L);
	assign_addrs(L, sc_lines_key(&L->lines, "scenario", "subnet"));
	for (int i = 0; i < nsec; i++)
		if (secs[i].type == SS_HOST)
			expand_host(L, &secs[i]);
	if (sc->capture.enabled && !sc->capture.before && !sc->capture.after)
		report(L, sc_lines_section(&L->lines, "capture"), "capture",
		       NULL,
		       "enabled, but before and after are both off: "
		       "nothing to capture");
	if (sc->has_default_link)
		default_links(L, sc_lines_key(&L->lines, "defaults", "link"));
	sort_changes(sc);
out:
	free(secs);
	free(set);
	free(lins);
}

void scenario_free(struct scenario *sc)
{
	if (sc == NULL)
		return;
	free(sc->links);
	free(sc->changes);
	free(sc);
}

int scenario_load(const char *path, struct scenario **out, struct sc_diag *d)
{
	struct loader L = {.path = path, .d = d};
	FILE *f;
	int rc;

	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	rc = sc_lines_scan(f, path, &L.lines, d);
	fclose(f);
	if (rc < 0)
		return rc;
	L.errors = (unsigned)rc;

	iniparser_set_error_callback(silent_errback);
	L.ini = iniparser_load(path);
	iniparser_set_error_callback(NULL);
	if (L.ini == NULL) {
		if (L.errors == 0)
			report(&L, 0, NULL, NULL,
			       "iniparser could not read "
			       "the file");
		rc = -EINVAL;
		goto out;
	}
	L.sc = calloc(1, sizeof(*L.sc));
	if (L.sc == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	if (strlen(path) >= sizeof(L.sc->path)) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	memcpy(L.sc->path, path, strlen(path) + 1);
	load_sections(&L);
	if (L.oom)
		rc = -ENOMEM;
	else if (L.errors)
		rc = -EINVAL;
	else
		rc = 0;
out:
	if (sc_diag_finish(d, path) < 0 && rc == 0)
		rc = -ENOMEM;
	if (L.ini)
		iniparser_freedict(L.ini);
	sc_lines_free(&L.lines);
	if (rc == 0)
		*out = L.sc;
	else
		scenario_free(L.sc);
	return rc;
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
