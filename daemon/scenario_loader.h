/*
 * scenario_loader.h: what the parts of the scenario loader share while a
 * file is loaded: the loader state, a classified section, the message
 * reporter and the host, link and schedule checks that scenario.c calls
 * from scenario_hosts.c and scenario_links.c. Internal to daemon/scenario*.
 */
#ifndef RECKON_SCENARIO_LOADER_H
#define RECKON_SCENARIO_LOADER_H

#include <iniparser.h>
#include <stddef.h>

#include "scenario.h"
#include "scenario_keys.h"
#include "scenario_lines.h"

#define HOST_NAME_MAX_LEN 15 /* fits an interface name */

struct sc_loader {
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
struct sc_section {
	const char *name; /* as iniparser stores it: lowercased */
	enum sk_section type;
	int line;
	unsigned host;			     /* SS_HOST: its index */
	char a[SC_NAME_MAX], b[SC_NAME_MAX]; /* SS_LINK: the host names */
};

/* Record one problem as "file:line: [sec] key: message" (sec and key may
 * be NULL; line 0 means the whole file). */
void sc_report(struct sc_loader *L, int line, const char *sec, const char *key,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Split s into at most max blank-separated words of < SC_NAME_MAX bytes;
 * returns their number, or max + 1 when there are more or one is longer. */
unsigned sc_split_words(const char *s, char w[][SC_NAME_MAX], unsigned max);

/* Line of key in section s, or 0. */
/* Check (and make absolute) a [link] section's schedule or trace. */
struct sc_link;
void sc_check_link_sched(struct sc_loader *L, const struct sc_section *s,
			 struct sc_link *l);

int sc_key_line(struct sc_loader *L, const struct sc_section *s,
		const char *key);

/* scenario_hosts.c */
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

#endif
