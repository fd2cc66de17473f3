/*
 * scenario_print.c: the canonical form of a scenario, as `reckond -nv`
 * prints it and as a run records it: every key of the key table with its
 * value (defaults made explicit, the seed included), hosts in index
 * order, links with both directions spelt out, schedule changes sorted
 * and one per direction. Loading the output gives the same scenario.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scenario.h"
#include "scenario_int.h"

/* key = value, quoted the way iniparser 4.1 reads it back: bare unless
 * the value has ; or # (iniparser cuts comments there), starts with a
 * quote or has leading/trailing blanks. */
static void print_kv(FILE *f, const char *key, const char *val)
{
	size_t n = strlen(val);
	int bare = strpbrk(val, ";#") == NULL && val[0] != '"' &&
		   val[0] != '\'' &&
		   (n == 0 || (val[0] != ' ' && val[0] != '\t' &&
			       val[n - 1] != ' ' && val[n - 1] != '\t'));

	if (n == 0)
		fprintf(f, "%s =\n", key);
	else if (bare)
		fprintf(f, "%s = %s\n", key, val);
	else if (strchr(val, '"') == NULL)
		fprintf(f, "%s = \"%s\"\n", key, val);
	else
		fprintf(f, "%s = '%s'\n", key, val);
}

static int print_section(FILE *f, enum sk_section sec, const void *target)
{
	char buf[SC_TEXT_MAX + 512];

	for (size_t i = 0; i < sk_nkeys; i++) {
		const struct sk_key *k = &sk_keys[i];
		if (k->sec != sec)
			continue;
		if (sec == SS_LINK && strcmp(k->name, "both") == 0)
			continue; /* forward and reverse say it all */
		if ((sec == SS_LINK || sec == SS_GAME) &&
		    (k->type == SK_TEXT || k->type == SK_NAME) &&
		    *((const char *)target + k->off) == '\0')
			continue; /* no schedule, trace, label, map */
		if (k->size == 0)
			continue; /* a pattern row (PARAM) */
		if (k->type == SK_DURATION && k->def == NULL &&
		    *(const int64_t *)(const void *)((const char *)target +
						     k->off) == 0) {
			print_kv(f, k->name, ""); /* unset */
			continue;
		}
		int n = sk_format(k, target, buf, sizeof(buf));
		if (n < 0 || (size_t)n >= sizeof(buf))
			return -EOVERFLOW;
		print_kv(f, k->name, buf);
	}
	return 0;
}

/* [game] (when the file has one) and every [predictor] with all of its
 * parameters: the canonical form fixes what the fair settings filled. */
static int print_game(FILE *f, const struct scenario *sc)
{
	char buf[64], t[32];
	int rc;

	if (!sc->game.present)
		return 0;
	fputs("\n[game]\n", f);
	if ((rc = print_section(f, SS_GAME, &sc->game)) < 0)
		return rc;
	if (sc->game.duration_ns == 0 && !sc->game.trace[0]) {
		num_format_duration(sc->game.play_ns, t, sizeof(t));
		fprintf(f,
			"# play: %s (the scenario's duration less the 4s "
			"lead)\n",
			t);
	}
	for (unsigned i = 0; i < sc->npredictors; i++) {
		const struct sc_predictor *pr = &sc->predictors[i];
		const struct predictor *p = pr->par.p;

		fprintf(f, "\n[predictor %s]\n", pr->name);
		print_kv(f, "type", p->name);
		for (size_t k = 0; k < p->n_params; k++) {
			if (sc_predictor_value(&pr->par, k, buf, sizeof(buf)) <
			    0)
				return -EOVERFLOW;
			print_kv(f, p->params[k].key, buf);
		}
	}
	return 0;
}

int scenario_print(FILE *f, const struct scenario *sc)
{
	char buf[1024], t[32];
	int rc;

	fprintf(f, "# %s in canonical form (reckond -nv)\n[scenario]\n",
		sc->path);
	if ((rc = print_section(f, SS_SCENARIO, sc)) < 0)
		return rc;

	fputs("\n[defaults]\n", f);
	if (sc->has_default_link) {
		int n = netem_spec_print(&sc->default_link, buf, sizeof(buf));
		if (n < 0 || (size_t)n >= sizeof(buf))
			return -EOVERFLOW;
		print_kv(f, "link", buf);
	} else {
		print_kv(f, "link", "");
	}

	print_kv(f, "label", sc->default_label);
	print_kv(f, "fair",
		 sc->fair == SC_FAIR_AUTO ? "auto"
		 : sc->fair == SC_FAIR_ON ? "on"
					  : "off");

	fputs("\n[capture]\n", f);
	if ((rc = print_section(f, SS_CAPTURE, &sc->capture)) < 0)
		return rc;
	if ((rc = print_game(f, sc)) < 0)
		return rc;

	for (unsigned i = 0; i < sc->nhosts; i++) {
		const struct sc_host *h = &sc->hosts[i];
		fprintf(f, "\n[host %s]\n# index %u, address %s\n", h->name,
			h->index, h->addr);
		if (h->built[0])
			fprintf(f, "# agent options: %s\n", h->args);
		else if (strcmp(h->args, h->args_text) != 0)
			fprintf(f, "# args expand to: %s\n", h->args);
		if (strcmp(h->exec, h->exec_text) != 0)
			fprintf(f, "# exec expands to: %s\n", h->exec);
		if ((rc = print_section(f, SS_HOST, h)) < 0)
			return rc;
	}

	for (unsigned i = 0; i < sc->nlinks; i++) {
		const struct sc_link *l = &sc->links[i];
		struct sk_link_in in;
		if (l->from_defaults)
			continue;
		memset(&in, 0, sizeof(in));
		in.fwd = l->fwd;
		in.rev = l->rev;
		memcpy(in.sched, l->sched, sizeof(in.sched));
		memcpy(in.trace, l->trace, sizeof(in.trace));
		memcpy(in.label, l->label, sizeof(in.label));
		fprintf(f, "\n[link %s %s]\n", sc->hosts[l->a].name,
			sc->hosts[l->b].name);
		if ((rc = print_section(f, SS_LINK, &in)) < 0)
			return rc;
	}

	fputs("\n[schedule]\n", f);
	for (unsigned i = 0; i < sc->nchanges; i++) {
		const struct sc_change *c = &sc->changes[i];
		char key[4 * SC_NAME_MAX + 8];
		struct netem_spec none;

		netem_spec_init(&none);
		num_format_duration(c->at_ns, t, sizeof(t));
		snprintf(key, sizeof(key), "at %s %s>%s", t,
			 sc->hosts[c->src].name, sc->hosts[c->dst].name);
		if (netem_spec_equal(&c->spec, &none)) {
			buf[0] = '\0';
		} else {
			int n = netem_spec_print(&c->spec, buf, sizeof(buf));
			if (n < 0 || (size_t)n >= sizeof(buf))
				return -EOVERFLOW;
		}
		print_kv(f, key, buf);
	}
	if (sc->sweep && (rc = sc_sweep_print(f, sc)) < 0)
		return rc;
	return ferror(f) ? -EIO : 0;
}
