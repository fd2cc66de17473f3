/*
 * agent_opts.c: the options of `reckon-agent player|observer|relay`,
 * parsed once for both hosts of the roles: the socket shell (cmd_role.c)
 * and the simulator (daemon/sim_host.c) call agent_opts_parse on the same
 * words, so a scenario's args mean the same in both. The run context comes
 * from the RECKON_* environment (agent_opts_env) or, in the simulator,
 * from the repetition; options override it. Errors come back as text.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_io.h"
#include "role/update_espdu.h"
#include "util.h"

static const char usage_text[] =
	"truth:   --trace FILE | --map NAME [--bots N] [--duration S] "
	"[--seed S] [--tick-hz H]\n"
	"trend:   --trend-train S | --trend-trace FILE   led trend maps from "
	"S s of\n"
	"         other play (seed derived from --seed) or from FILE, not "
	"from this run\n"
	"lanes:   --predictor [INSTANCE=]NAME[:k=v,k=v] (repeat; lane L uses "
	"UDP\n"
	"         port --port + L; results name it INSTANCE)\n"
	"network: --to ADDR[:PORT] (repeat; player: observers or the "
	"relay; relay: observers)\n"
	"         --port BASE (47000) --bind ADDR (0.0.0.0) --topology "
	"p2p|client-server\n"
	"player:  --entities ID,ID,... | --player-index I --players N\n"
	"observer: --threshold U (20) --linger S (1) --samples HZ (0: none)\n"
	"         (a player with --samples writes its ant pheromone maps)\n"
	"wire:    --geo-origin LAT,LON,ALT --geo-scale M (metres per unit): "
	"ECEF\n"
	"         locations (docs/wire-format.md); player and observers "
	"alike\n"
	"relay:   --stop-after S (seconds after t0; default: until "
	"signalled)\n"
	"run:     --run-dir DIR --host NAME --start-ns NS|+MS --seed S "
	"--rep N --condition TEXT\n"
	"         (default from RECKON_RUN_DIR, RECKON_HOST, "
	"RECKON_START_NS, RECKON_SEED, RECKON_REP)\n";

const char *agent_opts_usage(void)
{
	return usage_text;
}

static int say(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int agent_role_parse(const char *name, enum shell_role *out)
{
	if (!strcmp(name, "player"))
		*out = SHELL_PLAYER;
	else if (!strcmp(name, "observer"))
		*out = SHELL_OBSERVER;
	else if (!strcmp(name, "relay"))
		*out = SHELL_RELAY;
	else
		return -ENOENT;
	return 0;
}

void agent_opts_init(struct shell_opts *o, enum shell_role role,
		     const char *name)
{
	memset(o, 0, sizeof(*o));
	o->role = role;
	o->port = AGENT_DEFAULT_PORT;
	o->threshold = 20;
	o->linger_s = 1;
	o->run_dir = ".";
	o->host = name;
	o->condition = "default";
	o->topology = "p2p";
	o->seed = 1;
}

/* An integer in the programs' one grammar (num_parse_u64); NULL (an
 * unset variable) is refused. */
static int parse_u64(const char *s, uint64_t *out)
{
	return s ? num_parse_u64(s, out) : -EINVAL;
}

/* A duration in [lo, hi] seconds: "600", "600s" and "10m" alike
 * (num_parse_duration, bare numbers in seconds). */
static int parse_seconds(const char *s, double lo, double hi, double *out)
{
	char err[96];
	int64_t ns;
	double v;

	if (num_parse_duration(s, NS_PER_S, &ns, err, sizeof(err)) < 0)
		return -EINVAL;
	v = (double)ns / 1e9;
	if (v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A lane's instance name: what results call it (CSV- and file-safe). */
static int lane_name_ok(const char *s, size_t n)
{
	if (n == 0 || n >= sizeof(((struct shell_opts *)0)->lane_name[0]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
			return 0;
	return 1;
}

/* [INSTANCE=]TYPE[:k=v,k=v] into par and name. */
static int parse_predictor(const char *spec, struct predict_params *par,
			   char *name, size_t namelen, char *err, size_t errlen)
{
	char buf[512], *colon, *eq, *type = buf, *kv, *save = NULL;
	const struct predictor *p;
	int rc;

	if (strlen(spec) >= sizeof(buf))
		return say(err, errlen, "--predictor %.40s...: too long", spec);
	strcpy(buf, spec);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	eq = strchr(buf, '=');
	if (eq) {
		*eq = '\0';
		type = eq + 1;
		if (!lane_name_ok(buf, strlen(buf)))
			return say(err, errlen,
				   "--predictor %s: bad instance name '%s' "
				   "(1 to 31 of letters, digits, '.', '_', "
				   "'-')",
				   spec, buf);
	}
	p = predict_find(type);
	if (!p)
		return say(err, errlen, "unknown predictor '%s'", type);
	snprintf(name, namelen, "%s", eq ? buf : p->name);
	predict_params_init(par, p);
	if (!colon)
		return 0;
	for (kv = strtok_r(colon + 1, ",", &save); kv;
	     kv = strtok_r(NULL, ",", &save)) {
		rc = predict_params_set_kv(par, kv);
		if (rc)
			return say(err, errlen, "--predictor %s: %s: %s", spec,
				   kv,
				   rc == -ENOENT   ? "unknown parameter"
				   : rc == -ERANGE ? "out of range"
						   : "malformed value");
	}
	return 0;
}

static int parse_dest(const char *s, uint16_t base, struct sockaddr_in *out)
{
	char buf[64], *colon;
	uint64_t port = base;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		if (parse_u64(colon + 1, &port) || port < 1 ||
		    port > 65535 - ROLE_MAX_LANES)
			return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->sin_family = AF_INET;
	out->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, buf, &out->sin_addr) == 1 ? 0 : -EINVAL;
}

/* Comma-separated ids; the text is not modified. */
static int parse_entities(const char *s, struct shell_opts *o)
{
	char buf[4096], *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (parse_u64(t, &v) || v > ROLE_ENTITY_MAX ||
		    o->n_entities == SHELL_MAX_ENTITIES)
			return -EINVAL;
		o->entities[o->n_entities++] = (uint32_t)v;
	}
	return o->n_entities ? 0 : -EINVAL;
}

/* Text that goes into a CSV field unquoted. */
static int csv_safe(const char *s)
{
	for (; *s; s++)
		if (*s == ',' || *s == '"' || (unsigned char)*s < 0x20)
			return 0;
	return 1;
}

static int parse_start(const char *s, struct shell_opts *o, int64_t now_ns)
{
	uint64_t v;

	if (s[0] == '+') {
		if (parse_u64(s + 1, &v) || v > 86400000)
			return -EINVAL;
		o->start_ns = now_ns + (int64_t)v * 1000000;
		o->start_relative = 1;
	} else {
		if (parse_u64(s, &v) || v > INT64_MAX)
			return -EINVAL;
		o->start_ns = (int64_t)v;
		o->start_relative = 0;
	}
	o->start_set = 1;
	return 0;
}

int agent_opts_env(struct shell_opts *o, int64_t now_ns, char *err,
		   size_t errlen)
{
	const char *v;
	uint64_t u;

	if ((v = getenv("RECKON_RUN_DIR")) && *v)
		o->run_dir = v;
	if ((v = getenv("RECKON_HOST")) && *v)
		o->host = v;
	if ((v = getenv("RECKON_START_NS")) && *v && parse_start(v, o, now_ns))
		return say(err, errlen, "bad RECKON_START_NS '%s'", v);
	if ((v = getenv("RECKON_SEED")) && *v) {
		if (parse_u64(v, &o->seed))
			return say(err, errlen, "bad RECKON_SEED '%s'", v);
		o->seed_set = 1;
	}
	if ((v = getenv("RECKON_REP")) && *v) {
		if (parse_u64(v, &u) || u > UINT32_MAX)
			return say(err, errlen, "bad RECKON_REP '%s'", v);
		o->rep = (unsigned)u;
	}
	return 0;
}

enum {
	O_TRACE = 256,
	O_MAP,
	O_BOTS,
	O_DURATION,
	O_SEED,
	O_TICK,
	O_PRED,
	O_TO,
	O_PORT,
	O_BIND,
	O_TOPO,
	O_ENTS,
	O_PIDX,
	O_PLAYERS,
	O_THRESH,
	O_LINGER,
	O_STOP,
	O_RUNDIR,
	O_HOST,
	O_START,
	O_REP,
	O_COND,
	O_TRAIN,
	O_TRAIN_TRACE,
	O_GEO_ORIGIN,
	O_GEO_SCALE,
	O_SAMPLES,
};

static const struct option opts[] = {
	{"trace", required_argument, NULL, O_TRACE},
	{"map", required_argument, NULL, O_MAP},
	{"bots", required_argument, NULL, O_BOTS},
	{"duration", required_argument, NULL, O_DURATION},
	{"seed", required_argument, NULL, O_SEED},
	{"tick-hz", required_argument, NULL, O_TICK},
	{"predictor", required_argument, NULL, O_PRED},
	{"to", required_argument, NULL, O_TO},
	{"port", required_argument, NULL, O_PORT},
	{"bind", required_argument, NULL, O_BIND},
	{"topology", required_argument, NULL, O_TOPO},
	{"entities", required_argument, NULL, O_ENTS},
	{"player-index", required_argument, NULL, O_PIDX},
	{"players", required_argument, NULL, O_PLAYERS},
	{"threshold", required_argument, NULL, O_THRESH},
	{"linger", required_argument, NULL, O_LINGER},
	{"stop-after", required_argument, NULL, O_STOP},
	{"run-dir", required_argument, NULL, O_RUNDIR},
	{"host", required_argument, NULL, O_HOST},
	{"start-ns", required_argument, NULL, O_START},
	{"rep", required_argument, NULL, O_REP},
	{"condition", required_argument, NULL, O_COND},
	{"trend-train", required_argument, NULL, O_TRAIN},
	{"trend-trace", required_argument, NULL, O_TRAIN_TRACE},
	{"geo-origin", required_argument, NULL, O_GEO_ORIGIN},
	{"geo-scale", required_argument, NULL, O_GEO_SCALE},
	{"samples", required_argument, NULL, O_SAMPLES},
	{NULL, 0, NULL, 0},
};

struct parse_state {
	struct shell_opts *o;
	const char *to[SHELL_MAX_DEST];
	size_t n_to;
	int64_t now_ns;
	char *err;
	size_t errlen;
};

static int bad(struct parse_state *ps, const char *what, const char *val)
{
	return say(ps->err, ps->errlen, "bad %s '%s'", what, val);
}

static int parse_one(struct parse_state *ps, int c, const char *arg)
{
	struct shell_opts *o = ps->o;
	uint64_t v;
	double d;

	switch (c) {
	case O_TRACE:
		o->trace_path = arg;
		return 0;
	case O_MAP:
		o->map = arg;
		return 0;
	case O_TRAIN:
		if (parse_double(arg, 1, 86400, &o->train_s))
			return bad(ps, "--trend-train (seconds)", arg);
		return 0;
	case O_TRAIN_TRACE:
		o->train_path = arg;
		return 0;
	case O_BOTS:
		if (parse_u64(arg, &v) || v < 1 || v > 64)
			return bad(ps, "--bots (1..64)", arg);
		o->bots = (int)v;
		return 0;
	case O_DURATION:
		if (parse_seconds(arg, 1e-3, 86400, &o->duration_s))
			return bad(ps, "--duration (seconds)", arg);
		return 0;
	case O_SEED:
		if (parse_u64(arg, &o->seed))
			return bad(ps, "--seed", arg);
		o->seed_set = 1;
		return 0;
	case O_TICK:
		if (parse_u64(arg, &v) || v < 1 || v > 1000)
			return bad(ps, "--tick-hz (1..1000)", arg);
		o->tick_hz = (int)v;
		return 0;
	case O_PRED:
		if (o->n_lanes == ROLE_MAX_LANES)
			return bad(ps, "--predictor (too many lanes)", arg);
		if (parse_predictor(arg, &o->lanes[o->n_lanes],
				    o->lane_name[o->n_lanes],
				    sizeof(o->lane_name[0]), ps->err,
				    ps->errlen))
			return -EINVAL;
		o->lane_spec[o->n_lanes++] = arg;
		return 0;
	case O_TO:
		if (ps->n_to == SHELL_MAX_DEST)
			return bad(ps, "--to (too many)", arg);
		ps->to[ps->n_to++] = arg;
		return 0;
	case O_PORT:
		if (parse_u64(arg, &v) || v < 1 || v > 65535 - ROLE_MAX_LANES)
			return bad(ps, "--port", arg);
		o->port = (uint16_t)v;
		return 0;
	case O_BIND:
		if (inet_pton(AF_INET, arg, &o->bind) != 1)
			return bad(ps, "--bind (IPv4 address)", arg);
		return 0;
	case O_TOPO:
		if (strcmp(arg, "p2p") && strcmp(arg, "client-server"))
			return bad(ps, "--topology (p2p|client-server)", arg);
		o->topology = arg;
		return 0;
	case O_ENTS:
		if (parse_entities(arg, o))
			return bad(ps, "--entities (trace ids 0..65533)", arg);
		return 0;
	case O_PIDX:
		if (parse_u64(arg, &v) || v > 4096)
			return bad(ps, "--player-index", arg);
		o->player_index = (int)v;
		return 0;
	case O_PLAYERS:
		if (parse_u64(arg, &v) || v < 1 || v > 4096)
			return bad(ps, "--players", arg);
		o->players = (int)v;
		return 0;
	case O_THRESH:
		if (parse_double(arg, 0, 1e9, &o->threshold))
			return bad(ps, "--threshold", arg);
		return 0;
	case O_LINGER:
		if (parse_double(arg, 0, 3600, &o->linger_s))
			return bad(ps, "--linger", arg);
		return 0;
	case O_STOP:
		if (parse_double(arg, 1e-3, 86400, &d))
			return bad(ps, "--stop-after", arg);
		o->stop_s = d;
		return 0;
	case O_RUNDIR:
		o->run_dir = arg;
		return 0;
	case O_HOST:
		o->host = arg;
		return 0;
	case O_START:
		return parse_start(arg, o, ps->now_ns)
			       ? bad(ps, "--start-ns", arg)
			       : 0;
	case O_REP:
		if (parse_u64(arg, &v) || v > UINT32_MAX)
			return bad(ps, "--rep", arg);
		o->rep = (unsigned)v;
		return 0;
	case O_COND:
		o->condition = arg;
		return 0;
	case O_GEO_ORIGIN:
		if (reckon_geo_parse_origin(arg, &o->geo))
			return bad(ps, "--geo-origin (LAT,LON,ALT)", arg);
		return 0;
	case O_GEO_SCALE:
		if (parse_double(arg, 1e-9, 1e6, &o->geo.scale))
			return bad(ps, "--geo-scale (metres per unit)", arg);
		return 0;
	case O_SAMPLES:
		if (parse_double(arg, 0, 1000, &o->samples_hz))
			return bad(ps, "--samples (Hz, 0..1000)", arg);
		return 0;
	}
	return say(ps->err, ps->errlen, "unknown option");
}

static int check(struct parse_state *ps)
{
	struct shell_opts *o = ps->o;

	if (o->role != SHELL_RELAY && !o->trace_path == !o->map)
		return say(ps->err, ps->errlen,
			   "give --trace FILE or --map NAME");
	if (o->role != SHELL_OBSERVER && ps->n_to == 0)
		return say(ps->err, ps->errlen, "give at least one --to ADDR");
	for (size_t i = 0; i < ps->n_to; i++)
		if (parse_dest(ps->to[i], o->port, &o->dest[i]))
			return bad(ps, "--to (IPv4[:port])", ps->to[i]);
	o->n_dest = (uint16_t)ps->n_to;
	if (o->players && o->player_index >= o->players)
		return bad(ps, "--player-index (must be < --players)", "");
	if (!csv_safe(o->host) || !*o->host || strchr(o->host, '/'))
		return bad(ps, "host name", o->host);
	if (!csv_safe(o->condition))
		return bad(ps, "--condition (no commas, quotes or controls)",
			   o->condition);
	if (o->geo.on != (o->geo.scale > 0) || reckon_geo_check(&o->geo))
		return say(ps->err, ps->errlen,
			   "give --geo-origin and --geo-scale together");
	if (o->n_lanes == 0) {
		predict_params_init(&o->lanes[0], predict_find("dis"));
		snprintf(o->lane_name[0], sizeof(o->lane_name[0]), "dis");
		o->lane_spec[o->n_lanes++] = "dis";
	}
	return 0;
}

int agent_opts_parse(struct shell_opts *o, int argc, char *argv[],
		     int64_t now_ns, char *err, size_t errlen)
{
	struct parse_state ps = {
		.o = o, .now_ns = now_ns, .err = err, .errlen = errlen};
	int c, lopt = 0;

	if (err && errlen)
		err[0] = '\0';
	/* optind 0 makes glibc reinitialise; error text is ours (opterr 0) */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, &lopt)) != -1) {
		if (c == '?')
			return say(err, errlen, "unknown option '%s'",
				   argv[optind - 1]);
		if (c == ':')
			return say(err, errlen, "option '%s' needs a value",
				   argv[optind - 1]);
		if (parse_one(&ps, c, optarg))
			return -EINVAL;
	}
	if (optind != argc)
		return say(err, errlen, "unexpected argument '%s'",
			   argv[optind]);
	return check(&ps);
}
