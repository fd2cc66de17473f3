/*
 * scenario_grid.c: the grid of a [sweep] section. A grid point's scenario
 * is a deep copy of the loaded one with each axis value written into the
 * netem specs (links, defaults, schedule changes) and into the hosts'
 * --predictor arguments; once the whole file is read every point is built
 * once, so a value that does not fit a link is reported at load time.
 * scenario_free releases a loaded scenario and a point's copy alike. The
 * grid order and seeds are documented in docs/sweeps.md.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_int.h"
#include "util.h"

/* ---- applying a point ---- */

/* Every directed spec an axis touches in sc (which has its links made
 * explicit for every pair the axis covers, see cover_pairs). */
static int axis_covers(const struct sc_axis *a, unsigned src, unsigned dst)
{
	if (a->src < 0)
		return 1;
	return ((unsigned)a->src == src && (unsigned)a->dst == dst) ||
	       (a->both && (unsigned)a->src == dst && (unsigned)a->dst == src);
}

static int push_link(struct scenario *sc, unsigned a, unsigned b, int line,
		     int from_defaults)
{
	struct sc_link *v = realloc(sc->links, (sc->nlinks + 1) * sizeof(*v));

	if (v == NULL)
		return -ENOMEM;
	sc->links = v;
	memset(&v[sc->nlinks], 0, sizeof(*v));
	v[sc->nlinks].a = a;
	v[sc->nlinks].b = b;
	v[sc->nlinks].line = line;
	v[sc->nlinks].from_defaults = from_defaults;
	netem_spec_init(&v[sc->nlinks].fwd);
	netem_spec_init(&v[sc->nlinks].rev);
	sc->nlinks++;
	return 0;
}

/* Give every pair an axis covers a link, so the value has a spec to go
 * into: an "every link" axis turns on [defaults] link (unimpaired base)
 * and a directed one adds a [link SRC DST] with unimpaired directions. */
static int cover_pairs(struct scenario *sc, const struct sc_axis *a)
{
	if (a->src >= 0) {
		if (scenario_link_spec(sc, (unsigned)a->src,
				       (unsigned)a->dst) != NULL)
			return 0;
		return push_link(sc, (unsigned)a->src, (unsigned)a->dst,
				 a->line, 0);
	}
	if (sc->has_default_link)
		return 0;
	sc->has_default_link = 1;
	netem_spec_init(&sc->default_link);
	for (unsigned i = 0; i < sc->nhosts; i++)
		for (unsigned j = i + 1; j < sc->nhosts; j++)
			if (scenario_link_spec(sc, i, j) == NULL &&
			    push_link(sc, i, j, a->line, 1) < 0)
				return -ENOMEM;
	return 0;
}

/* Set one link value everywhere the axis reaches. On error, err names the
 * direction and the reason. */
static int apply_link(struct scenario *sc, const struct sc_axis *a,
		      const char *val, char *err, size_t errlen)
{
	struct netem_spec v;
	char why[256];
	int rc;

	if ((rc = sc_lp_parse((unsigned)a->param, val, &v, err, errlen)) < 0)
		return rc;
	if ((rc = cover_pairs(sc, a)) < 0) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	if (a->src < 0 &&
	    (sc_lp_set(&sc->default_link, (unsigned)a->param, &v, why,
		       sizeof(why)) < 0 ||
	     sc_spec_check(&sc->default_link, why, sizeof(why)) < 0)) {
		snprintf(err, errlen, "%s on [defaults] link: %s", val, why);
		return -EINVAL;
	}
	for (unsigned i = 0; i < sc->nlinks; i++) {
		struct sc_link *l = &sc->links[i];

		for (int d = 0; d < 2; d++) {
			unsigned s = d ? l->b : l->a, t = d ? l->a : l->b;
			struct netem_spec *sp = d ? &l->rev : &l->fwd;

			if (!axis_covers(a, s, t))
				continue;
			if (sc_lp_set(sp, (unsigned)a->param, &v, why,
				      sizeof(why)) < 0 ||
			    sc_spec_check(sp, why, sizeof(why)) < 0) {
				snprintf(err, errlen, "%s on %s>%s: %s", val,
					 sc->hosts[s].name, sc->hosts[t].name,
					 why);
				return -EINVAL;
			}
		}
	}
	for (unsigned i = 0; i < sc->nchanges; i++) {
		struct sc_change *c = &sc->changes[i];

		if (!axis_covers(a, c->src, c->dst))
			continue;
		if (sc_lp_set(&c->spec, (unsigned)a->param, &v, why,
			      sizeof(why)) < 0 ||
		    sc_spec_check(&c->spec, why, sizeof(why)) < 0) {
			snprintf(err, errlen,
				 "%s on the [schedule] change of "
				 "%s>%s (line %d): %s",
				 val, sc->hosts[c->src].name,
				 sc->hosts[c->dst].name, c->line, why);
			return -EINVAL;
		}
	}
	return 0;
}

/* Replace [from, from+len) of s (capacity cap) by rep. */
static int splice(char *s, size_t cap, size_t from, size_t len, const char *rep)
{
	size_t n = strlen(s), r = strlen(rep);

	if (n - len + r >= cap)
		return -E2BIG;
	memmove(s + from + r, s + from + len, n - from - len + 1);
	memcpy(s + from, rep, r);
	return 0;
}

/* In "NAME[:k=v,...]" at s[0..len), set key=val; the new text into out. */
static int set_kv(const char *s, size_t len, const char *key, const char *val,
		  char *out, size_t outlen)
{
	const char *colon = memchr(s, ':', len);
	size_t o, klen = strlen(key);
	int done = 0;

	if (colon == NULL) {
		if (snprintf(out, outlen, "%.*s:%s=%s", (int)len, s, key,
			     val) >= (int)outlen)
			return -E2BIG;
		return 0;
	}
	o = (size_t)snprintf(out, outlen, "%.*s:", (int)(colon - s), s);
	for (const char *p = colon + 1; p < s + len;) {
		const char *e = memchr(p, ',', (size_t)(s + len - p));
		size_t l;

		if (e == NULL)
			e = s + len;
		l = (size_t)(e - p);
		if (o >= outlen)
			return -E2BIG;
		if (l > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			o += (size_t)snprintf(out + o, outlen - o, "%s%s=%s",
					      out[o - 1] == ':' ? "" : ",", key,
					      val);
			done = 1;
		} else if (l > 0) {
			o += (size_t)snprintf(out + o, outlen - o, "%s%.*s",
					      out[o - 1] == ':' ? "" : ",",
					      (int)l, p);
		}
		p = e + 1;
	}
	if (!done && o < outlen)
		o += (size_t)snprintf(out + o, outlen - o, "%s%s=%s",
				      out[o - 1] == ':' ? "" : ",", key, val);
	return o >= outlen ? -E2BIG : 0;
}

/* Rewrite every "--predictor NAME[:...]" or "--predictor NAME=TYPE[:...]"
 * (or --predictor=NAME...) of args to carry key=val. Returns the number of lanes changed or -E2BIG. */
static int apply_predictor(char *args, size_t cap, const char *name,
			   const char *key, const char *val)
{
	size_t pos = 0, nl = strlen(name);
	int count = 0;

	for (;;) {
		char *p = strstr(args + pos, "--predictor");
		char lane[SC_TEXT_MAX];
		size_t start, len;
		int rc;

		if (p == NULL)
			return count;
		start = (size_t)(p - args) + strlen("--predictor");
		if (p != args && !isspace((unsigned char)p[-1])) {
			pos = start;
			continue;
		}
		if (args[start] == '=')
			start++;
		else if (isspace((unsigned char)args[start]))
			while (isspace((unsigned char)args[start]))
				start++;
		else {
			pos = start;
			continue;
		}
		len = strcspn(args + start, " \t\n");
		pos = start + len;
		if (len < nl || strncmp(args + start, name, nl) != 0 ||
		    (len > nl && args[start + nl] != ':' &&
		     args[start + nl] != '='))
			continue;
		rc = set_kv(args + start, len, key, val, lane, sizeof(lane));
		if (rc < 0 || (rc = splice(args, cap, start, len, lane)) < 0)
			return rc;
		pos = start + strlen(lane);
		count++;
	}
}

/* Set "--condition LABEL" in a role host's args (replace or append). */
static int apply_condition(char *args, size_t cap, const char *label)
{
	char *p = args;

	while ((p = strstr(p, "--condition")) != NULL) {
		size_t start = (size_t)(p - args) + strlen("--condition");

		if ((p == args || isspace((unsigned char)p[-1])) &&
		    (args[start] == '=' ||
		     isspace((unsigned char)args[start]))) {
			start++;
			while (isspace((unsigned char)args[start]))
				start++;
			return splice(args, cap, start,
				      strcspn(args + start, " \t\n"), label);
		}
		p += strlen("--condition");
	}
	size_t n = strlen(args);
	if (snprintf(args + n, cap - n, "%s--condition %s", n ? " " : "",
		     label) >= (int)(cap - n))
		return -E2BIG;
	return 0;
}

uint64_t scenario_sweep_points(const struct sc_sweep *sw)
{
	uint64_t n = 1;

	if (sw == NULL)
		return 0;
	for (unsigned i = 0; i < sw->naxes; i++) {
		n *= sw->axes[i].nvalues;
		if (n > SC_SWEEP_MAX_POINTS)
			return SC_SWEEP_MAX_POINTS + 1;
	}
	return n;
}

int scenario_sweep_coords(const struct sc_sweep *sw, uint64_t point,
			  unsigned idx[SC_SWEEP_MAX_AXES])
{
	unsigned tmp[SC_SWEEP_MAX_AXES];

	if (sw == NULL)
		return -EINVAL;
	if (point >= scenario_sweep_points(sw))
		return -ERANGE;
	for (unsigned i = sw->naxes; i-- > 0;) {
		tmp[i] = (unsigned)(point % sw->axes[i].nvalues);
		point /= sw->axes[i].nvalues;
	}
	memcpy(idx, tmp, sizeof(tmp[0]) * sw->naxes);
	return 0;
}

void scenario_free(struct scenario *sc)
{
	if (sc == NULL)
		return;
	free(sc->links);
	free(sc->changes);
	sc_sweep_free(sc->sweep);
	free(sc);
}

static struct scenario *copy_scenario(const struct scenario *sc)
{
	struct scenario *o = malloc(sizeof(*o));

	if (o == NULL)
		return NULL;
	*o = *sc;
	o->sweep = NULL;
	o->links = NULL;
	o->changes = NULL;
	if (sc->nlinks) {
		o->links = malloc(sc->nlinks * sizeof(*o->links));
		if (o->links == NULL)
			goto fail;
		memcpy(o->links, sc->links, sc->nlinks * sizeof(*o->links));
	}
	if (sc->nchanges) {
		o->changes = malloc(sc->nchanges * sizeof(*o->changes));
		if (o->changes == NULL)
			goto fail;
		memcpy(o->changes, sc->changes,
		       sc->nchanges * sizeof(*o->changes));
	}
	return o;
fail:
	scenario_free(o);
	return NULL;
}

/* The point with value idx[i] on axis i; axes whose bit is set in skip
 * are left out (the load-time check passes the axes that failed). err
 * says what failed and *bad on which axis (-1: the condition label, or
 * memory). */
static int apply_coords(const struct scenario *sc, const unsigned *idx,
			unsigned skip, struct scenario **out, char *err,
			size_t errlen, int *bad)
{
	const struct sc_sweep *sw = sc->sweep;
	struct scenario *o = copy_scenario(sc);
	char label[SC_TEXT_MAX] = "";
	size_t ll = 0;
	int rc = 0;

	*bad = -1;
	if (o == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	o->mode = sw->mode;
	if (sw->seeds == SC_SEEDS_INDEPENDENT) {
		uint64_t point = 0, state;

		for (unsigned i = 0; i < sw->naxes; i++)
			point = point * sw->axes[i].nvalues + idx[i];
		state = sc->seed + (point + 1) * 0xd1b54a32d192ed03ULL;
		o->seed = splitmix64(&state);
	}
	for (unsigned i = 0; i < sw->naxes && rc == 0; i++) {
		const struct sc_axis *a = &sw->axes[i];
		const char *v = a->values[idx[i]];

		if (skip & (1u << i))
			continue;
		*bad = (int)i;
		if (a->kind == SC_AXIS_LINK) {
			rc = apply_link(o, a, v, err, errlen);
			/* the condition label: param[@src-dst]=value */
			if (a->src < 0)
				ll += (size_t)snprintf(label + ll,
						       sizeof(label) - ll,
						       "%s%s=%s", ll ? "_" : "",
						       sc_lp_name(a), v);
			else
				ll += (size_t)snprintf(
					label + ll, sizeof(label) - ll,
					"%s%s@%s-%s%s=%s", ll ? "_" : "",
					sc_lp_name(a), sc->hosts[a->src].name,
					sc->hosts[a->dst].name,
					a->both ? "-both" : "", v);
			if (ll >= sizeof(label)) {
				snprintf(err, errlen, "condition too long");
				rc = -E2BIG;
			}
			continue;
		}
		for (unsigned h = 0; h < o->nhosts && rc >= 0; h++) {
			struct sc_host *hs = &o->hosts[h];

			if (!hs->role[0])
				continue;
			rc = apply_predictor(hs->args, sizeof(hs->args),
					     a->predictor, a->pkey, v);
			if (rc >= 0)
				rc = apply_predictor(hs->args_text,
						     sizeof(hs->args_text),
						     a->predictor, a->pkey, v);
			if (rc < 0)
				snprintf(err, errlen,
					 "[host %s] args too long with %s=%s",
					 hs->name, a->key, v);
		}
		if (rc > 0)
			rc = 0;
	}
	if (rc == 0)
		*bad = -1;
	for (unsigned h = 0; h < o->nhosts && rc == 0 && ll; h++) {
		struct sc_host *hs = &o->hosts[h];

		const struct sc_role *r = sc_role_of(hs);

		if (!hs->role[0])
			continue;
		rc = apply_condition(hs->args, sizeof(hs->args), label);
		/* args written with [game] may not hold --condition: the
		 * printed point then takes its label from its links */
		if (rc == 0 && !(o->game.present && r && !r->own_game))
			rc = apply_condition(hs->args_text,
					     sizeof(hs->args_text), label);
		if (rc < 0)
			snprintf(err, errlen,
				 "[host %s] args too long with --condition %s",
				 hs->name, label);
	}
	if (rc < 0) {
		scenario_free(o);
		return rc;
	}
	*out = o;
	return 0;
}

int scenario_sweep_apply(const struct scenario *sc, uint64_t point,
			 struct scenario **out)
{
	unsigned idx[SC_SWEEP_MAX_AXES];
	char err[512];
	int rc, bad;

	if (sc == NULL || sc->sweep == NULL)
		return -EINVAL;
	if ((rc = scenario_sweep_coords(sc->sweep, point, idx)) < 0)
		return rc;
	return apply_coords(sc, idx, 0, out, err, sizeof(err), &bad);
}

/* ---- checks after the whole file ---- */

static int lane_of(const char *args, const char *name)
{
	char tmp[SC_TEXT_MAX];

	snprintf(tmp, sizeof(tmp), "%s", args);
	return apply_predictor(tmp, sizeof(tmp), name, "x", "0");
}

/* One point of the load-time check, leaving out the axes in *reported.
 * A failure is reported on the axis that failed, which joins *reported,
 * and the point is tried again without it. Returns 0, or -1 after a
 * failure that is no axis's (the condition label). */
static int check_point(struct sc_loader *L, const unsigned *idx,
		       unsigned *reported)
{
	const struct sc_sweep *sw = L->sc->sweep;
	struct scenario *o;
	char err[512];
	int bad;

	while (apply_coords(L->sc, idx, *reported, &o, err, sizeof(err), &bad) <
	       0) {
		if (bad < 0) {
			sc_report(L, sw->line, "sweep", NULL, "%s", err);
			return -1;
		}
		sc_report(L, sw->axes[bad].line, "sweep", sw->axes[bad].key,
			  "%s", err);
		*reported |= 1u << bad;
	}
	scenario_free(o);
	return 0;
}

void sc_sweep_check(struct sc_loader *L)
{
	struct scenario *sc = L->sc;
	struct sc_sweep *sw = sc->sweep;
	unsigned idx[SC_SWEEP_MAX_AXES] = {0};
	unsigned reported = 0; /* axes reported, by bit */
	char err[512];

	/* file order: iniparser does not promise it */
	for (unsigned i = 1; i < sw->naxes; i++) {
		struct sc_axis a = sw->axes[i];
		unsigned j = i;

		while (j > 0 && sw->axes[j - 1].line > a.line) {
			sw->axes[j] = sw->axes[j - 1];
			j--;
		}
		sw->axes[j] = a;
	}
	if (sw->naxes == 0) {
		if (L->errors) /* the axes given were wrong: said already */
			return;
		sc_report(L, sw->line, "sweep", NULL,
			  "no axis: add link.PARAM = VALUES or "
			  "predictor.NAME.KEY = VALUES");
		return;
	}
	if (scenario_sweep_points(sw) > SC_SWEEP_MAX_POINTS) {
		sc_report(L, sw->line, "sweep", NULL,
			  "the grid has more than %d points",
			  SC_SWEEP_MAX_POINTS);
		return;
	}
	for (unsigned i = 0; i < sw->naxes; i++) {
		const struct sc_axis *a = &sw->axes[i];
		int lanes = 0;

		if (a->kind != SC_AXIS_PREDICTOR)
			continue;
		for (unsigned h = 0; h < sc->nhosts; h++)
			if (sc->hosts[h].role[0])
				lanes += lane_of(sc->hosts[h].args,
						 a->predictor) > 0;
		if (lanes == 0)
			sc_report(L, a->line, "sweep", a->key,
				  "no host runs predictor '%s' (no "
				  "[predictor %s] section and no "
				  "'--predictor %s' in any role host's args)",
				  a->predictor, a->predictor, a->predictor);
	}
	/* Each value of each axis, with the axes before it at their
	 * longest value and those after it at their first, then every axis
	 * at its longest value (the longest arguments). A failure is
	 * reported once, on the axis that failed. */
	for (unsigned i = 0; i < sw->naxes; i++) {
		size_t best = 0;

		for (unsigned v = 0; v < sw->axes[i].nvalues; v++) {
			idx[i] = v;
			if (check_point(L, idx, &reported) < 0 ||
			    (reported & (1u << i)))
				break;
		}
		idx[i] = 0;
		for (unsigned v = 0; v < sw->axes[i].nvalues; v++)
			if (strlen(sw->axes[i].values[v]) > best) {
				best = strlen(sw->axes[i].values[v]);
				idx[i] = v;
			}
	}
	if (L->errors == 0) {
		struct scenario *o;
		int bad;

		if (apply_coords(sc, idx, 0, &o, err, sizeof(err), &bad) < 0)
			sc_report(L, sw->line, "sweep", NULL, "%s", err);
		else
			scenario_free(o);
	}
}
