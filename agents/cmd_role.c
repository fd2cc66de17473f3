/*
 * cmd_role.c: `reckon-agent player|observer|relay` and `reckon-agent now`.
 * Reads the role's options and the run context the daemon puts in the
 * environment (RECKON_RUN_DIR, RECKON_HOST, RECKON_START_NS, RECKON_SEED,
 * RECKON_REP; options override them), builds the shared truth and hands
 * over to the socket shell. Usage errors exit 2, run errors 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "role/update_espdu.h"
#include "role_shell.h"

#define DEFAULT_PORT 47000

static int usage(const char *role)
{
	fprintf(stderr,
		"usage: reckon-agent %s [options]\n"
		"truth:   --trace FILE | --map NAME [--bots N] [--duration S] "
		"[--seed S] [--tick-hz H]\n"
		"lanes:   --predictor NAME[:k=v,k=v] (repeat; lane L uses UDP "
		"port --port + L)\n"
		"network: --to ADDR[:PORT] (repeat; player: observers or the "
		"relay; relay: observers)\n"
		"         --port BASE (%d) --bind ADDR (0.0.0.0) --topology "
		"p2p|client-server\n"
		"player:  --entities ID,ID,... | --player-index I --players N\n"
		"observer: --threshold U (20) --linger S (1)\n"
		"relay:   --stop-after S (seconds after t0; default: until "
		"signalled)\n"
		"run:     --run-dir DIR --host NAME --start-ns NS|+MS --seed S "
		"--rep N --condition TEXT\n"
		"         (default from RECKON_RUN_DIR, RECKON_HOST, "
		"RECKON_START_NS, RECKON_SEED, RECKON_REP)\n",
		role, DEFAULT_PORT);
	return 2;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
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

/* NAME or NAME:k=v,k=v into lane. */
static int parse_predictor(const char *spec, struct predict_params *par)
{
	char buf[512], *colon, *kv, *save = NULL;
	const struct predictor *p;
	int err;

	if (strlen(spec) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, spec);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	p = predict_find(buf);
	if (!p) {
		fprintf(stderr, "reckon-agent: unknown predictor '%s'\n", buf);
		return -ENOENT;
	}
	predict_params_init(par, p);
	if (!colon)
		return 0;
	for (kv = strtok_r(colon + 1, ",", &save); kv;
	     kv = strtok_r(NULL, ",", &save)) {
		err = predict_params_set_kv(par, kv);
		if (err) {
			fprintf(stderr,
				"reckon-agent: --predictor %s: %s: %s\n", spec,
				kv,
				err == -ENOENT	 ? "unknown parameter"
				: err == -ERANGE ? "out of range"
						 : "malformed value");
			return err;
		}
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

static int parse_entities(char *s, struct shell_opts *o)
{
	char *save = NULL;

	for (char *t = strtok_r(s, ",", &save); t;
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

static int parse_start(const char *s, struct shell_opts *o)
{
	uint64_t v;

	if (s[0] == '+') {
		if (parse_u64(s + 1, &v) || v > 86400000)
			return -EINVAL;
		o->start_ns = shell_now_ns() + (int64_t)v * 1000000;
	} else {
		if (parse_u64(s, &v) || v > INT64_MAX)
			return -EINVAL;
		o->start_ns = (int64_t)v;
	}
	o->start_set = 1;
	return 0;
}

/* Run context from the environment; options parsed later override. */
static int from_env(struct shell_opts *o)
{
	const char *v;
	uint64_t u;

	if ((v = getenv("RECKON_RUN_DIR")) && *v)
		o->run_dir = v;
	if ((v = getenv("RECKON_HOST")) && *v)
		o->host = v;
	if ((v = getenv("RECKON_START_NS")) && *v && parse_start(v, o)) {
		fprintf(stderr, "reckon-agent: bad RECKON_START_NS '%s'\n", v);
		return -EINVAL;
	}
	if ((v = getenv("RECKON_SEED")) && *v) {
		if (parse_u64(v, &o->seed)) {
			fprintf(stderr, "reckon-agent: bad RECKON_SEED\n");
			return -EINVAL;
		}
		o->seed_set = 1;
	}
	if ((v = getenv("RECKON_REP")) && *v) {
		if (parse_u64(v, &u) || u > UINT32_MAX) {
			fprintf(stderr, "reckon-agent: bad RECKON_REP\n");
			return -EINVAL;
		}
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
	{NULL, 0, NULL, 0},
};

static int bad(const char *what, const char *val)
{
	fprintf(stderr, "reckon-agent: bad %s '%s'\n", what, val);
	return -EINVAL;
}

static int parse_one(int c, struct shell_opts *o, const char **to, size_t *n_to)
{
	uint64_t v;
	double d;

	switch (c) {
	case O_TRACE:
		o->trace_path = optarg;
		return 0;
	case O_MAP:
		o->map = optarg;
		return 0;
	case O_BOTS:
		if (parse_u64(optarg, &v) || v < 1 || v > 64)
			return bad("--bots (1..64)", optarg);
		o->bots = (int)v;
		return 0;
	case O_DURATION:
		if (parse_double(optarg, 1e-3, 86400, &o->duration_s))
			return bad("--duration (seconds)", optarg);
		return 0;
	case O_SEED:
		if (parse_u64(optarg, &o->seed))
			return bad("--seed", optarg);
		o->seed_set = 1;
		return 0;
	case O_TICK:
		if (parse_u64(optarg, &v) || v < 1 || v > 1000)
			return bad("--tick-hz (1..1000)", optarg);
		o->tick_hz = (int)v;
		return 0;
	case O_PRED:
		if (o->n_lanes == ROLE_MAX_LANES)
			return bad("--predictor (too many lanes)", optarg);
		if (parse_predictor(optarg, &o->lanes[o->n_lanes]))
			return -EINVAL;
		o->lane_spec[o->n_lanes++] = optarg;
		return 0;
	case O_TO:
		if (*n_to == SHELL_MAX_DEST)
			return bad("--to (too many)", optarg);
		to[(*n_to)++] = optarg;
		return 0;
	case O_PORT:
		if (parse_u64(optarg, &v) || v < 1 ||
		    v > 65535 - ROLE_MAX_LANES)
			return bad("--port", optarg);
		o->port = (uint16_t)v;
		return 0;
	case O_BIND:
		if (inet_pton(AF_INET, optarg, &o->bind) != 1)
			return bad("--bind (IPv4 address)", optarg);
		return 0;
	case O_TOPO:
		if (strcmp(optarg, "p2p") && strcmp(optarg, "client-server"))
			return bad("--topology (p2p|client-server)", optarg);
		o->topology = optarg;
		return 0;
	case O_ENTS:
		if (parse_entities(optarg, o))
			return bad("--entities (trace ids 0..65533)", optarg);
		return 0;
	case O_PIDX:
		if (parse_u64(optarg, &v) || v > 4096)
			return bad("--player-index", optarg);
		o->player_index = (int)v;
		return 0;
	case O_PLAYERS:
		if (parse_u64(optarg, &v) || v < 1 || v > 4096)
			return bad("--players", optarg);
		o->players = (int)v;
		return 0;
	case O_THRESH:
		if (parse_double(optarg, 0, 1e9, &o->threshold))
			return bad("--threshold", optarg);
		return 0;
	case O_LINGER:
		if (parse_double(optarg, 0, 3600, &o->linger_s))
			return bad("--linger", optarg);
		return 0;
	case O_STOP:
		if (parse_double(optarg, 1e-3, 86400, &d))
			return bad("--stop-after", optarg);
		o->stop_s = d;
		return 0;
	case O_RUNDIR:
		o->run_dir = optarg;
		return 0;
	case O_HOST:
		o->host = optarg;
		return 0;
	case O_START:
		return parse_start(optarg, o) ? bad("--start-ns", optarg) : 0;
	case O_REP:
		if (parse_u64(optarg, &v) || v > UINT32_MAX)
			return bad("--rep", optarg);
		o->rep = (unsigned)v;
		return 0;
	case O_COND:
		o->condition = optarg;
		return 0;
	}
	return -EINVAL;
}

static int check(struct shell_opts *o, const char **to, size_t n_to)
{
	if (o->role != SHELL_RELAY && !o->trace_path == !o->map) {
		fprintf(stderr,
			"reckon-agent: give --trace FILE or --map NAME\n");
		return -EINVAL;
	}
	if (o->role != SHELL_OBSERVER && n_to == 0) {
		fprintf(stderr, "reckon-agent: give at least one --to ADDR\n");
		return -EINVAL;
	}
	for (size_t i = 0; i < n_to; i++)
		if (parse_dest(to[i], o->port, &o->dest[i]))
			return bad("--to (IPv4[:port])", to[i]);
	o->n_dest = (uint16_t)n_to;
	if (o->players && o->player_index >= o->players)
		return bad("--player-index (must be < --players)", "");
	if (!csv_safe(o->host) || !*o->host || strchr(o->host, '/'))
		return bad("host name", o->host);
	if (!csv_safe(o->condition))
		return bad("--condition (no commas, quotes or controls)",
			   o->condition);
	if (o->n_lanes == 0) {
		predict_params_init(&o->lanes[0], predict_find("dis"));
		o->lane_spec[o->n_lanes++] = "dis";
	}
	return 0;
}

/* --player-index I --players N: every N-th entity of the truth. */
static void pick_entities(struct shell_opts *o, const struct role_truth *tr)
{
	if (!o->players || o->n_entities)
		return;
	for (size_t i = 0;
	     i < tr->n_entities && o->n_entities < SHELL_MAX_ENTITIES; i++)
		if ((int)(i % (size_t)o->players) == o->player_index)
			o->entities[o->n_entities++] = tr->entities[i];
}

static int run_role(enum shell_role role, const char *name, int argc,
		    char *argv[])
{
	static struct shell_opts o;
	int64_t entry = shell_now_ns();
	const char *to[SHELL_MAX_DEST];
	size_t n_to = 0;
	struct role_truth tr;
	struct trace t;
	int c, rc;

	memset(&o, 0, sizeof(o));
	o.role = role;
	o.port = DEFAULT_PORT;
	o.threshold = 20;
	o.linger_s = 1;
	o.run_dir = ".";
	o.host = name;
	o.condition = "default";
	o.topology = "p2p";
	o.seed = 1;
	if (from_env(&o))
		return 2;
	/* argv[-1] is the command name, which getopt skips as argv[0] */
	optind = 0;
	while ((c = getopt_long(argc + 1, argv - 1, "", opts, NULL)) != -1)
		if (c == '?' || parse_one(c, &o, to, &n_to))
			return usage(name);
	if (optind != argc + 1 || check(&o, to, n_to))
		return usage(name);
	/* no common start given: one second after this process started,
	 * before the trace is built, so agents started together agree */
	if (!o.start_set) {
		o.start_ns = entry + 1000000000;
		o.start_set = 1;
	}
	if (role == SHELL_RELAY)
		return shell_run(&o, NULL);
	if (shell_load_trace(&o, &t))
		return 1;
	rc = role_truth_build(&t, NULL, &tr);
	trace_free(&t);
	if (rc) {
		fprintf(stderr,
			"reckon-agent: the trace has no usable paths: %s\n",
			strerror(-rc));
		return 1;
	}
	if (tr.n_entities && tr.entities[tr.n_entities - 1] > ROLE_ENTITY_MAX) {
		fprintf(stderr,
			"reckon-agent: entity %u of the trace does not fit "
			"a DIS entity number (trace ids 0..%u)\n",
			tr.entities[tr.n_entities - 1], ROLE_ENTITY_MAX);
		role_truth_free(&tr);
		return 1;
	}
	for (size_t i = 0; i < o.n_entities; i++)
		if (role_truth_entity_index(&tr, o.entities[i]) < 0) {
			fprintf(stderr,
				"reckon-agent: --entities: %u has no "
				"path in the trace\n",
				o.entities[i]);
			role_truth_free(&tr);
			return 2;
		}
	if (tr.set.n_paths == 0)
		fprintf(stderr,
			"reckon-agent %s: warning: no path of the trace "
			"lasts %.0f s; nothing to play or measure\n",
			o.host, tr.opts.min_duration);
	pick_entities(&o, &tr);
	if (o.players && !o.n_entities)
		fprintf(stderr,
			"reckon-agent %s: no entity for player %d of "
			"%d\n",
			o.host, o.player_index, o.players);
	rc = shell_run(&o, &tr);
	role_truth_free(&tr);
	return rc;
}

int cmd_player(int argc, char *argv[])
{
	return run_role(SHELL_PLAYER, "player", argc, argv);
}

int cmd_observer(int argc, char *argv[])
{
	return run_role(SHELL_OBSERVER, "observer", argc, argv);
}

int cmd_relay(int argc, char *argv[])
{
	return run_role(SHELL_RELAY, "relay", argc, argv);
}

int cmd_now(int argc, char *argv[])
{
	(void)argv;
	if (argc != 0) {
		fprintf(stderr, "usage: reckon-agent now\n");
		return 2;
	}
	printf("%" PRId64 "\n", shell_now_ns());
	return 0;
}
