/*
 * scenario_hosts.c: the [host NAME] sections of a scenario: name rules,
 * the role-or-exec check, addresses from the subnet (index + 1), the
 * {placeholder} expansion of args and exec, and host lookup by name for
 * [link], [schedule] and {addr:NAME}.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "agent_io.h"
#include "scenario.h"
#include "scenario_int.h"

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

/* A host reference in [link] or [schedule]: its index, or -1 reported. */
int sc_resolve_host(struct sc_loader *L, int line, const char *sec,
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
	sc_report(L, line, sec, key, "no host '%s'%s", name,
		  sc_did_you_mean(name, names, 0, dym, sizeof(dym)));
	return -1;
}

void sc_add_host(struct sc_loader *L, struct sc_section *s)
{
	struct scenario *sc = L->sc;
	const char *name = s->name + strlen("host");

	while (isspace((unsigned char)*name))
		name++;
	if (!valid_host_name(name)) {
		sc_report(
			L, s->line, s->name, NULL,
			"host name '%s' must be 1 to %d of a-z, 0-9, '_', '-' "
			"(starting with a letter or digit)",
			name, HOST_NAME_MAX_LEN);
		s->type = SS_COUNT;
		return;
	}
	if (sc->nhosts == SC_MAX_HOSTS) {
		sc_report(L, s->line, s->name, NULL,
			  "too many hosts (at most %d)", SC_MAX_HOSTS);
		s->type = SS_COUNT;
		return;
	}
	struct sc_host *h = &sc->hosts[sc->nhosts];
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->index = sc->nhosts;
	h->line = s->line;
	s->host = sc->nhosts++;
}

void sc_check_host(struct sc_loader *L, struct sc_section *s, const int *set)
{
	const struct sc_host *h = &L->sc->hosts[s->host];
	enum shell_role agent_role;
	const struct sk_key *kr = sk_find(SS_HOST, "role");
	const struct sk_key *ka = sk_find(SS_HOST, "args");
	const struct sk_key *ke = sk_find(SS_HOST, "exec");

	if (set[kr - sk_keys] && set[ke - sk_keys])
		sc_report(L, sc_key_line(L, s, "exec"), s->name, "exec",
			  "exec and role are exclusive: exec runs a command "
			  "instead of reckon-agent");
	else if (!set[kr - sk_keys] && !set[ke - sk_keys])
		sc_report(
			L, s->line, s->name, NULL,
			"needs role (a reckon-agent role) or exec (a command)");
	else if (set[ka - sk_keys] && set[ke - sk_keys])
		sc_report(L, sc_key_line(L, s, "args"), s->name, "args",
			  "args are for reckon-agent; with exec, put the "
			  "arguments in the command");
	/* A role reckon-agent knows but the table lacks runs from its args
	 * alone (sc_game_finish refuses it a [game]). */
	if (set[kr - sk_keys] && sc_role_find(h->role) == NULL &&
	    agent_role_parse(h->role, &agent_role) < 0) {
		const char *names[16];
		char dym[SC_NAME_MAX + 32], list[256] = "";
		size_t n = 0, o = 0;

		for (const struct sc_role *r = sc_roles; r->name && n < 15;
		     r++) {
			names[n++] = r->name;
			o += (size_t)snprintf(list + o, sizeof(list) - o,
					      "%s%s", o ? ", " : "", r->name);
		}
		names[n] = NULL;
		sc_report(L, sc_key_line(L, s, "role"), s->name, "role",
			  "unknown role '%s'%s; roles: %s", h->role,
			  sc_did_you_mean(h->role, names, 0, dym, sizeof(dym)),
			  list);
	}
	for (size_t k = 0; k < 2; k++) {
		const char *key = k ? "bots" : "to";

		if (set[sk_find(SS_HOST, key) - sk_keys] && set[ke - sk_keys])
			sc_report(L, sc_key_line(L, s, key), s->name, key,
				  "%s is for reckon-agent roles, not exec",
				  key);
	}
}

void sc_assign_addrs(struct sc_loader *L, int subnet_line)
{
	struct scenario *sc = L->sc;
	unsigned a0, a1, a2, a3, plen;

	if (sscanf(sc->subnet, "%u.%u.%u.%u/%u", &a0, &a1, &a2, &a3, &plen) !=
	    5)
		return; /* cannot happen: the table parser canonicalised it */
	uint32_t net = a0 << 24 | a1 << 16 | a2 << 8 | a3;
	uint64_t room = (1ULL << (32 - plen)) - 2;
	if (sc->nhosts > room) {
		sc_report(L, subnet_line, "scenario", "subnet",
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

void sc_expand_host(struct sc_loader *L, const struct sc_section *s)
{
	struct sc_host *h = &L->sc->hosts[s->host];
	char err[256];

	if (scenario_expand(L->sc, h, h->args_text, h->args, sizeof(h->args),
			    err, sizeof(err)) < 0)
		sc_report(L, sc_key_line(L, s, "args"), s->name, "args", "%s",
			  err);
	if (scenario_expand(L->sc, h, h->exec_text, h->exec, sizeof(h->exec),
			    err, sizeof(err)) < 0)
		sc_report(L, sc_key_line(L, s, "exec"), s->name, "exec", "%s",
			  err);
}
