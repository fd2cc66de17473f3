/*
 * scenario.c: loading a scenario INI file. iniparser reads the values; a
 * line scan of our own (scenario_lines.c) says where each one came from;
 * the key table (scenario_keys.c) parses them; hosts and links/schedule
 * are checked in scenario_hosts.c and scenario_links.c. Every problem is
 * reported as "file:line: [section] key: message", all of them, in file
 * order, and a scenario is handed back only when there are none. The
 * schema is in docs/scenario.md.
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
#include <sys/stat.h>

#include "scenario.h"
#include "util.h"
#include "scenario_int.h"

static int silent_errback(const char *fmt, ...)
{
	/* Our line scan reports iniparser's syntax errors in our format. */
	(void)fmt;
	return 0;
}

static int classify(struct sc_loader *L, const char *name, struct sc_section *s)
{
	static const char *const kinds[] = {
		"scenario", "defaults", "capture",  "game",  "predictor",
		"host",	    "link",	"schedule", "sweep", NULL};
	char w[3][SC_NAME_MAX];
	char dym[SC_NAME_MAX + 32];
	unsigned n = sc_split_words(name, w, 3);

	s->name = name;
	s->line = sc_lines_section(&L->lines, name);
	if (n == 0 || n > 3) {
		sc_report(L, s->line, name, NULL,
			  "not a section name: expected [scenario], "
			  "[host NAME], [link A B], ... (names up to %d "
			  "characters)",
			  SC_NAME_MAX - 1);
		return -1;
	}
	for (int t = 0; t < SS_COUNT; t++) {
		const char *k = t == SS_HOST	    ? "host"
				: t == SS_LINK	    ? "link"
				: t == SS_PREDICTOR ? "predictor"
						    : sk_section_names[t];
		unsigned want = t == SS_HOST || t == SS_PREDICTOR ? 2
				: t == SS_LINK			  ? 3
								  : 1;
		if (strcmp(w[0], k) != 0)
			continue;
		s->type = (enum sk_section)t;
		if (n != want) {
			sc_report(L, s->line, name, NULL, "expected [%s]",
				  sk_section_names[t]);
			return -1;
		}
		if (t == SS_LINK) {
			snprintf(s->a, sizeof(s->a), "%s", w[1]);
			snprintf(s->b, sizeof(s->b), "%s", w[2]);
		}
		return 0;
	}
	sc_report(L, s->line, name, NULL, "unknown section%s",
		  sc_did_you_mean(w[0], kinds, 0, dym, sizeof(dym)));
	return -1;
}

static void *section_target(struct sc_loader *L, struct sc_section *s,
			    struct sk_link_in *lin)
{
	switch (s->type) {
	case SS_SCENARIO:
	case SS_DEFAULTS:
		return L->sc;
	case SS_CAPTURE:
		return &L->sc->capture;
	case SS_GAME:
		return &L->sc->game;
	case SS_HOST:
		return &L->sc->hosts[s->host];
	case SS_LINK:
		return lin;
	case SS_SWEEP:
		return L->sc->sweep;
	default:
		return NULL;
	}
}

/* Parse the keys of one section through the table. set[] records which
 * table rows were given a (non-empty) value. */
static void section_keys(struct sc_loader *L, struct sc_section *s,
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

		/* iniparser keeps a section [a:b] as a key b of [a] with no
		 * value; the section's own check reports the ':' */
		if (val == NULL)
			continue;

		if (s->type == SS_SCHEDULE) {
			sc_schedule_key(L, s->name, key, line, val);
			continue;
		}
		if (s->type == SS_SWEEP && (strncmp(key, "link.", 5) == 0 ||
					    strncmp(key, "predictor.", 10) == 0)) {
			sc_sweep_key(L, s->name, key, line, val);
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
			sc_report(L, line, s->name, key, "unknown key%s",
				  sc_did_you_mean(key, names, 0, dym,
						  sizeof(dym)));
			continue;
		}
		if (val[0] == '\0')
			continue; /* empty: not set, the default applies */
		if (sk_parse(k, val, section_target(L, s, lin), err,
			     sizeof(err)) < 0) {
			sc_report(L, line, s->name, key, "%s", err);
			continue;
		}
		set[k - sk_keys] = line ? line : -1;
	}
	free(keys);
}

static void default_name(struct sc_loader *L)
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

static void load_sections(struct sc_loader *L)
{
	struct scenario *sc = L->sc;
	int nsec = iniparser_getnsec(L->ini);
	struct sc_section *secs;
	int *set;
	struct sk_link_in *lins;

	if (nsec <= 0) {
		sc_report(L, 0, NULL, NULL,
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
	    sk_defaults(SS_DEFAULTS, sc) < 0 ||
	    sk_defaults(SS_CAPTURE, &sc->capture) < 0 ||
	    sk_defaults(SS_GAME, &sc->game) < 0) {
		sc_report(L, 0, NULL, NULL,
			  "internal error: bad default in the "
			  "key table");
		goto out;
	}
	for (int i = 0; i < nsec; i++) {
		if (classify(L, iniparser_getsecname(L->ini, i), &secs[i]) < 0)
			secs[i].type = SS_COUNT;
		else if (secs[i].type == SS_HOST)
			sc_add_host(L, &secs[i]);
		else if (secs[i].type == SS_SWEEP && sc_sweep_new(L, &secs[i]))
			secs[i].type = SS_COUNT;
	}
	/* Keys in dependency order: [schedule] needs the duration. */
	static const enum sk_section order[] = {
		SS_SCENARIO, SS_DEFAULTS, SS_CAPTURE,  SS_GAME, SS_PREDICTOR,
		SS_HOST,     SS_LINK,	  SS_SCHEDULE, SS_SWEEP};
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		for (int i = 0; i < nsec; i++) {
			struct sc_section *s = &secs[i];
			int *sset = set + (size_t)i * sk_nkeys;
			if (s->type != order[o])
				continue;
			for (int t = 0; t < 3; t++) {
				struct netem_spec *p = t == 0	? &lins[i].fwd
						       : t == 1 ? &lins[i].rev
								: &lins[i].both;
				netem_spec_init(p);
			}
			unsigned e0 = L->errors;
			if (s->type == SS_PREDICTOR) {
				sc_predictor_section(L, s);
				L->game_errors += L->errors - e0;
				continue;
			}
			if (s->type == SS_GAME)
				sc->game.present = 1;
			section_keys(L, s, &lins[i], sset);
			if (s->type == SS_GAME) {
				sc_game_check(L, s, sset);
				L->game_errors += L->errors - e0;
			} else if (s->type == SS_HOST)
				sc_check_host(L, s, sset);
			else if (s->type == SS_LINK)
				sc_check_link(L, s, sset, &lins[i]);
			else if (s->type == SS_DEFAULTS &&
				 sset[sk_find(SS_DEFAULTS, "link") - sk_keys])
				sc->has_default_link = 1;
		}
	}
	if (sc->nhosts == 0)
		sc_report(L, 0, NULL, NULL,
			  "no [host NAME] section: a scenario "
			  "needs at least one host");
	if (sc->name[0] == '\0')
		default_name(L);
	sc_assign_addrs(L, sc_lines_key(&L->lines, "scenario", "subnet"));
	for (int i = 0; i < nsec; i++)
		if (secs[i].type == SS_HOST)
			sc_expand_host(L, &secs[i]);
	if (sc->capture.enabled && !sc->capture.before && !sc->capture.after)
		sc_report(L, sc_lines_section(&L->lines, "capture"), "capture",
			  NULL,
			  "enabled, but before and after are both off: "
			  "nothing to capture");
	if (sc->capture.enabled && sc->backend == SC_BACKEND_KERNEL &&
	    sc->mode == SC_MODE_EMULATE)
		sc_report(L, sc_lines_key(&L->lines, "capture", "enabled"),
			  "capture", "enabled",
			  "capture needs backend = userspace: with the kernel "
			  "backend no process sees frames before impairment");
	if (sc->has_default_link)
		sc_default_links(L,
				 sc_lines_key(&L->lines, "defaults", "link"));
	sc_sort_changes(sc);
	sc_game_finish(L);
	sc_check_results(L);
	if (sc->sweep)
		sc_sweep_check(L);
out:
	free(secs);
	free(set);
	free(lins);
}

int scenario_load(const char *path, struct scenario **out, struct sc_diag *d)
{
	struct sc_loader L = {.path = path, .d = d};
	struct stat st;
	FILE *f;
	int rc;

	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return -EISDIR;
	}
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
			sc_report(&L, 0, NULL, NULL,
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

uint64_t scenario_rep_seed(uint64_t seed, unsigned rep)
{
	if (rep <= 1)
		return seed;
	return splitmix64_mix(seed + (uint64_t)(rep - 1) * SPLITMIX64_GAMMA);
}
