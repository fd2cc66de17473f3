/*
 * fps_opts.c: the options of `reckon-agent fps-server` and `fps-client`
 * (one parser, so the socket host agents/cmd_fps.c and the simulator
 * daemon/netsim read the same args identically), and the game both hosts
 * build from them: the map, and the bot-world trace every client generates
 * from the repetition's seed, whole (one track per bot) or as it is played,
 * and the game file through which the emulator hands each client its
 * track of a game generated once. Reads and writes files; never prints
 * or exits.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fps_opts.h"
#include "world/sim.h"

const char fps_usage_text[] =
	"game:    --map NAME (dust) --bots N (6) --seed S --duration S (30)\n"
	"server:  --port P (47100) --bind ADDR --mode none|tlc|clc|alc (tlc)\n"
	"         --tick-hz H (60) --snapshot-hz H (every tick) "
	"--ping instant|ewma|ue4 (ue4)\n"
	"         --interp-ms MS (0)\n"
	"         --clc-rtt-cap-ms MS (250) --clc-max-rewind U (0 off)\n"
	"         --alc-low-ping-ms MS (50) --alc-high-ping-ms MS (0 off)\n"
	"         --alc-timeout-ms MS (2 x low ping) --pose-tol U (32)\n"
	"client:  --entity E --server ADDR[:PORT] --interp-ms MS (0)\n"
	"         --reaction-s S (0.25) --aim-err-deg D (1) --fire-period-s "
	"S (0.1)\n"
	"run:     --run-dir DIR --host NAME --start-ns NS|+MS --rep N "
	"--condition TEXT\n";

enum {
	O_MAP = 256,
	O_BOTS,
	O_SEED,
	O_DURATION,
	O_PORT,
	O_BIND,
	O_MODE,
	O_TICK,
	O_SNAP,
	O_PING,
	O_INTERP,
	O_CAP,
	O_REWIND,
	O_LOW,
	O_HIGH,
	O_TMO,
	O_TOL,
	O_ENTITY,
	O_SERVER,
	O_REACT,
	O_AIM,
	O_FIRE,
	O_RUNDIR,
	O_HOST,
	O_START,
	O_COND,
	O_REP,
};

static const struct option longopts[] = {
	{"map", 1, 0, O_MAP},
	{"bots", 1, 0, O_BOTS},
	{"seed", 1, 0, O_SEED},
	{"duration", 1, 0, O_DURATION},
	{"port", 1, 0, O_PORT},
	{"bind", 1, 0, O_BIND},
	{"mode", 1, 0, O_MODE},
	{"tick-hz", 1, 0, O_TICK},
	{"snapshot-hz", 1, 0, O_SNAP},
	{"ping", 1, 0, O_PING},
	{"interp-ms", 1, 0, O_INTERP},
	{"clc-rtt-cap-ms", 1, 0, O_CAP},
	{"clc-max-rewind", 1, 0, O_REWIND},
	{"alc-low-ping-ms", 1, 0, O_LOW},
	{"alc-high-ping-ms", 1, 0, O_HIGH},
	{"alc-timeout-ms", 1, 0, O_TMO},
	{"pose-tol", 1, 0, O_TOL},
	{"entity", 1, 0, O_ENTITY},
	{"server", 1, 0, O_SERVER},
	{"reaction-s", 1, 0, O_REACT},
	{"aim-err-deg", 1, 0, O_AIM},
	{"fire-period-s", 1, 0, O_FIRE},
	{"run-dir", 1, 0, O_RUNDIR},
	{"host", 1, 0, O_HOST},
	{"start-ns", 1, 0, O_START},
	{"condition", 1, 0, O_COND},
	{"rep", 1, 0, O_REP},
	{0, 0, 0, 0},
};

static int num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		return -EINVAL;
	*out = v;
	return 0;
}

static int addr_port(const char *s, uint16_t port, struct sockaddr_in *out)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	double p = port;

	if (strlen(s) >= sizeof(host))
		return -EINVAL;
	strcpy(host, s);
	if (colon) {
		host[colon - s] = '\0';
		if (num(colon + 1, 1, 65535, &p))
			return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->sin_family = AF_INET;
	out->sin_port = htons((uint16_t)p);
	return inet_pton(AF_INET, host, &out->sin_addr) == 1 ? 0 : -EINVAL;
}

/* Options that set one double of struct fps_opts within a range. */
static const struct {
	int id;
	double lo, hi;
	size_t off;
} reals[] = {
	{O_DURATION, 0.1, 86400, offsetof(struct fps_opts, duration_s)},
	{O_CAP, 0, 1e6, offsetof(struct fps_opts, lc.clc_rtt_cap_ms)},
	{O_REWIND, 0, 1e6, offsetof(struct fps_opts, lc.clc_max_rewind)},
	{O_LOW, 0, 1e6, offsetof(struct fps_opts, lc.alc_low_ping_ms)},
	{O_HIGH, 0, 1e6, offsetof(struct fps_opts, lc.alc_high_ping_ms)},
	{O_TMO, 0.001, 1e6, offsetof(struct fps_opts, lc.alc_timeout_ms)},
	{O_TOL, 0, 1e6, offsetof(struct fps_opts, lc.pose_tol)},
	{O_REACT, 0, 10, offsetof(struct fps_opts, cl.reaction_s)},
	{O_AIM, 0, 90, offsetof(struct fps_opts, cl.aim_err_deg)},
	{O_FIRE, 0.001, 60, offsetof(struct fps_opts, cl.fire_period_s)},
};

/* A range-checked double option; 1 if c is not one. */
static int opt_real(struct fps_opts *o, int c, const char *a)
{
	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++)
		if (reals[i].id == c)
			return num(a, reals[i].lo, reals[i].hi,
				   (double *)((char *)o + reals[i].off));
	return 1;
}

/* The run context: 0, -EINVAL, or 1 if c is not one of these. */
static int opt_run(struct fps_opts *o, int c, const char *a, int64_t now)
{
	double v;
	char *end;
	long long ms;

	switch (c) {
	case O_RUNDIR:
		o->run.run_dir = a;
		return 0;
	case O_HOST:
		o->run.host = a;
		return 0;
	case O_COND:
		/* goes into a CSV field unquoted */
		if (strpbrk(a, ",\"\n"))
			return -EINVAL;
		o->run.condition = a;
		return 0;
	case O_REP:
		if (num(a, 0, 4294967295.0, &v))
			return -EINVAL;
		o->run.rep = (unsigned)v;
		return 0;
	case O_SEED:
		if (num(a, 0, 1e18, &v))
			return -EINVAL;
		o->run.seed = (uint64_t)v;
		return 0;
	case O_START:
		ms = strtoll(a + (a[0] == '+'), &end, 10);
		if (*end || ms < 0)
			return -EINVAL;
		o->run.start_ns = a[0] == '+' ? now + ms * 1000000 : ms;
		o->run.start_set = 1;
		o->run.start_relative = a[0] == '+';
		return 0;
	}
	return 1;
}

/* One option; 0 or -EINVAL. */
static int opt(struct fps_opts *o, int c, const char *a, int64_t now)
{
	double v;
	int rc = opt_real(o, c, a);

	if (rc <= 0)
		return rc;
	rc = opt_run(o, c, a, now);
	if (rc <= 0)
		return rc;
	switch (c) {
	case O_MAP:
		o->map = a;
		return 0;
	case O_BIND:
		return inet_pton(AF_INET, a, &o->bind) == 1 ? 0 : -EINVAL;
	case O_SERVER:
		return addr_port(a, FPS_DEFAULT_PORT, &o->server);
	case O_MODE:
		return lc_mode_parse(a, &o->lc.mode);
	case O_PING:
		return lc_ping_parse(a, &o->lc.ping);
	case O_INTERP:
		rc = num(a, 0, 10000, &o->lc.interp_ms);
		o->cl.interp_ms = o->lc.interp_ms;
		return rc;
	}
	if (num(a, 0, 65535, &v))
		return -EINVAL;
	switch (c) {
	case O_BOTS:
		o->bots = (int)v;
		return v >= 1 && v <= SIM_MAX_BOTS ? 0 : -EINVAL;
	case O_PORT:
		o->port = (uint16_t)v;
		return v >= 1 ? 0 : -EINVAL;
	case O_TICK:
		o->lc.tick_hz = o->cl.tick_hz = (int)v;
		return v >= 1 && v <= 1000 ? 0 : -EINVAL;
	case O_SNAP:
		o->snapshot_hz = (int)v;
		return v >= 1 && v <= 1000 ? 0 : -EINVAL;
	case O_ENTITY:
		o->cl.entity = (uint32_t)v;
		o->entity_set = 1;
		return v < LC_MAX_PLAYERS ? 0 : -EINVAL;
	}
	return -EINVAL;
}

__attribute__((format(printf, 3, 4))) static int say(char *err, size_t errlen,
						     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void fps_opts_init(struct fps_opts *o, int server)
{
	memset(o, 0, sizeof(*o));
	agent_opts_init(&o->run, SHELL_PLAYER,
			server ? "fps-server" : "fps-client");
	o->server_role = server;
	o->map = "dust";
	o->bots = 6;
	o->duration_s = 30;
	o->port = FPS_DEFAULT_PORT;
	lc_config_defaults(&o->lc);
	o->lc.alc_timeout_ms = 0; /* unset: 2 x lowPing after parsing */
	fps_client_defaults(&o->cl);
}

/* What the options leave to check together. */
static int check(struct fps_opts *o, char *err, size_t errlen)
{
	if (o->lc.alc_timeout_ms <= 0)
		o->lc.alc_timeout_ms = 2 * o->lc.alc_low_ping_ms > 0
					       ? 2 * o->lc.alc_low_ping_ms
					       : 100;
	if (!o->server_role && (!o->entity_set || !o->server.sin_family))
		return say(err, errlen,
			   "fps-client needs --entity and --server");
	if (o->snapshot_hz > o->lc.tick_hz)
		return say(err, errlen,
			   "--snapshot-hz %d is above --tick-hz %d: the "
			   "server snapshots at most once a tick",
			   o->snapshot_hz, o->lc.tick_hz);
	if (!o->server_role && (int)o->cl.entity >= o->bots)
		return say(err, errlen, "--entity %u but only %d bots",
			   o->cl.entity, o->bots);
	return 0;
}

int fps_opts_parse(struct fps_opts *o, int argc, char *argv[], int64_t now,
		   char *err, size_t errlen)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc + 1, argv - 1, "", longopts, NULL)) !=
	       -1) {
		if (opt(o, c, optarg ? optarg : "", now))
			return say(err, errlen, "bad option or value '%s'",
				   (argv - 1)[optind - 1]);
	}
	if (optind != argc + 1)
		return say(err, errlen, "unexpected argument '%s'",
			   argv[optind - 1]);
	return check(o, err, errlen);
}

int fps_opts_host(struct fps_opts *o, int server, const char *run_dir,
		  const char *host, uint64_t seed, unsigned rep, int argc,
		  char *argv[], char *err, size_t errlen)
{
	fps_opts_init(o, server);
	o->run.run_dir = run_dir;
	o->run.host = host;
	o->run.seed = seed;
	o->run.seed_set = 1;
	o->run.rep = rep;
	return fps_opts_parse(o, argc, argv, 0, err, errlen);
}

int fps_map_load(const char *name, struct map *m, char *err, size_t errlen)
{
	char path[PATH_MAX + 64], why[256] = "";
	FILE *f = agent_map_open(name, path, sizeof(path));
	int rc;

	if (!f) {
		snprintf(err, errlen, "map '%s' not found", name);
		return -ENOENT;
	}
	rc = map_read(f, m, why, sizeof(why));
	fclose(f);
	if (rc)
		snprintf(err, errlen, "%s: %s", path, why);
	return rc ? -EINVAL : 0;
}

static void game_config(const struct fps_opts *o, struct sim_config *c)
{
	sim_config_defaults(c);
	c->seed = o->run.seed;
	c->nbots = o->bots;
	c->duration_s = o->duration_s + 1;
	c->tick_hz = o->cl.tick_hz;
}

int fps_trace_make(const struct fps_opts *o, const struct map *m,
		   struct trace *t)
{
	struct sim_config c;
	struct trace_events ev;
	int rc;

	game_config(o, &c);
	trace_init(t);
	trace_events_init(&ev);
	rc = sim_run(m, &c, t, &ev);
	trace_events_free(&ev);
	return rc;
}

int fps_game_open(const struct fps_opts *o, const struct map *m,
		  struct fps_game *g)
{
	struct sim_config c;

	game_config(o, &c);
	trace_init(&g->chunk);
	return sim_open(m, &c, &g->chunk, NULL, &g->world);
}

int fps_game_play(struct fps_game *g, int64_t until_ns)
{
	g->chunk.n = 0;
	return sim_step_until(g->world, until_ns, &g->chunk, NULL);
}

int64_t fps_game_next(const struct fps_game *g)
{
	return sim_next_ns(g->world);
}

long fps_game_ticks(const struct fps_game *g)
{
	return sim_ticks(g->world);
}

int fps_game_feed(struct fps_game *g, int64_t until_ns, uint32_t entity,
		  struct fps_track *k)
{
	int rc;

	if (sim_next_ns(g->world) >= until_ns)
		return 0;
	rc = fps_game_play(g, until_ns);
	return rc ? rc : fps_tracks_take(k, entity, 1, &g->chunk, 0);
}

void fps_game_close(struct fps_game *g)
{
	sim_close(g->world);
	g->world = NULL;
	trace_free(&g->chunk);
}

void fps_game_tracks_free(struct fps_track *k, int bots)
{
	for (int b = 0; k && b < bots; b++)
		fps_track_free(&k[b]);
	free(k);
}

int fps_game_tracks(const struct fps_opts *o, const struct map *m,
		    struct fps_track **out)
{
	struct trace tr;
	struct fps_track *k = calloc((size_t)o->bots, sizeof(*k));
	int rc;

	if (!k)
		return -ENOMEM;
	rc = fps_trace_make(o, m, &tr);
	for (int b = 0; !rc && b < o->bots; b++)
		k[b].origin_ns = tr.n ? tr.s[0].t_ns : 0;
	if (!rc)
		rc = fps_tracks_take(k, 0, (size_t)o->bots, &tr, 0);
	trace_free(&tr);
	if (rc) {
		fps_game_tracks_free(k, o->bots);
		return rc;
	}
	*out = k;
	return 0;
}

/* The game file: this header, a struct game_bot per bot, the samples. */
#define GAME_MAGIC   "RKFPSGAM"
#define GAME_VERSION 1

struct game_head {
	char magic[8];
	uint32_t version;
	uint32_t sample_size; /* sizeof(struct trace_sample) */
	struct fps_game_key key;
};

struct game_bot {
	int64_t origin_ns;
	uint64_t n;   /* samples */
	uint64_t off; /* octet offset of the first in the file */
};

int fps_game_key(const struct fps_opts *o, struct fps_game_key *k)
{
	memset(k, 0, sizeof(*k));
	if (strlen(o->map) >= sizeof(k->map))
		return -ENAMETOOLONG;
	strcpy(k->map, o->map);
	k->bots = o->bots;
	k->tick_hz = o->cl.tick_hz;
	k->duration_s = o->duration_s;
	k->seed = o->run.seed;
	return 0;
}

int fps_game_key_eq(const struct fps_game_key *a,
		    const struct fps_game_key *b)
{
	return !strncmp(a->map, b->map, sizeof(a->map)) &&
	       a->bots == b->bots && a->tick_hz == b->tick_hz &&
	       a->duration_s == b->duration_s && a->seed == b->seed;
}

/* The header of o's game; -ENAMETOOLONG if the map name does not fit. */
static int game_head(const struct fps_opts *o, struct game_head *h)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, GAME_MAGIC, sizeof(h->magic));
	h->version = GAME_VERSION;
	h->sample_size = sizeof(struct trace_sample);
	return fps_game_key(o, &h->key);
}

static int write_all(FILE *f, const void *p, size_t len)
{
	return !len || fwrite(p, len, 1, f) == 1 ? 0 : -EIO;
}

static int game_put(FILE *f, const struct game_head *h,
		    const struct fps_track *k)
{
	uint64_t off = sizeof(*h) +
		       (uint64_t)h->key.bots * sizeof(struct game_bot);
	int rc = write_all(f, h, sizeof(*h));

	for (int b = 0; !rc && b < h->key.bots; b++) {
		struct game_bot e = {k[b].origin_ns, k[b].tr.n, off};

		rc = write_all(f, &e, sizeof(e));
		off += k[b].tr.n * sizeof(struct trace_sample);
	}
	for (int b = 0; !rc && b < h->key.bots; b++)
		rc = write_all(f, k[b].tr.s,
			       k[b].tr.n * sizeof(struct trace_sample));
	return rc;
}

int fps_game_write(const char *path, const struct fps_opts *o,
		   const struct fps_track *k, char *err, size_t errlen)
{
	struct game_head h;
	FILE *f;
	int rc = game_head(o, &h);

	if (rc) {
		snprintf(err, errlen, "map name '%s' is too long", o->map);
		return rc;
	}
	f = fopen(path, "we");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = game_put(f, &h, k);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		unlink(path);
	}
	return rc;
}

/* len octets at off; -EIO if the file ends before. */
static int read_at(int fd, void *p, size_t len, uint64_t off)
{
	for (size_t got = 0; got < len;) {
		ssize_t r = pread(fd, (char *)p + got, len - got,
				  (off_t)(off + got));

		if (r < 0 && errno != EINTR)
			return -errno;
		if (r == 0)
			return -EIO;
		if (r > 0)
			got += (size_t)r;
	}
	return 0;
}

/* The file's header against o's game; 0 or -EINVAL with the reason. */
static int game_check(struct game_head *f, const struct fps_opts *o,
		      char *err, size_t errlen)
{
	struct fps_game_key k;

	if (memcmp(f->magic, GAME_MAGIC, sizeof(f->magic)))
		return say(err, errlen, "not an fps game file (bad magic)");
	if (f->version != GAME_VERSION ||
	    f->sample_size != sizeof(struct trace_sample))
		return say(err, errlen,
			   "an fps game file of another build (version %u, "
			   "%u-octet samples; this one reads %d, %zu)",
			   f->version, f->sample_size, GAME_VERSION,
			   sizeof(struct trace_sample));
	f->key.map[sizeof(f->key.map) - 1] = '\0';
	if (fps_game_key(o, &k) || !fps_game_key_eq(&f->key, &k))
		return say(err, errlen,
			   "holds the game --map %.64s --bots %d --seed %" PRIu64
			   " --duration %g --tick-hz %d, not this client's "
			   "--map %.64s --bots %d --seed %" PRIu64
			   " --duration %g --tick-hz %d",
			   f->key.map, f->key.bots, f->key.seed,
			   f->key.duration_s, f->key.tick_hz, o->map, o->bots,
			   o->run.seed, o->duration_s, o->cl.tick_hz);
	return 0;
}

/* The bot table of a checked header: every bot's samples after the
 * table, the last ending where the file ends. 0, -EIO, -EINVAL. */
static int game_table(int fd, const struct game_head *h, uint64_t size,
		      struct game_bot *t, char *err, size_t errlen)
{
	size_t table = (size_t)h->key.bots * sizeof(*t);
	uint64_t start = sizeof(*h) + table, end;
	int rc = read_at(fd, t, table, sizeof(*h));

	if (rc && rc != -EIO)
		return rc;
	end = start;
	for (int b = 0; !rc && b < h->key.bots; b++) {
		if (t[b].off != end || t[b].n > (UINT64_MAX - end) /
							sizeof(struct trace_sample))
			return say(err, errlen, "bot %d's samples are not "
				   "where the file's table says", b);
		end += t[b].n * sizeof(struct trace_sample);
	}
	if (rc || size < end) {
		snprintf(err, errlen, "cut short (%" PRIu64 " octets of %"
			 PRIu64 ")", size, rc ? start : end);
		return -EIO;
	}
	if (size > end)
		return say(err, errlen, "%" PRIu64 " octets past its end",
			   size - end);
	return 0;
}

static int game_load(int fd, const struct fps_opts *o, uint32_t entity,
		     struct fps_track *k, char *err, size_t errlen)
{
	struct game_head h;
	struct game_bot t[SIM_MAX_BOTS];
	struct stat st;
	struct trace_sample *s;
	int rc;

	if (fstat(fd, &st))
		return -errno;
	rc = read_at(fd, &h, sizeof(h), 0);
	if (rc == -EIO && (size_t)st.st_size >= sizeof(h.magic) &&
	    !read_at(fd, h.magic, sizeof(h.magic), 0) &&
	    memcmp(h.magic, GAME_MAGIC, sizeof(h.magic)))
		return say(err, errlen, "not an fps game file (bad magic)");
	if (rc == -EIO)
		snprintf(err, errlen, "cut short (%lld octets, no header)",
			 (long long)st.st_size);
	if (!rc)
		rc = game_check(&h, o, err, errlen);
	if (!rc && (h.key.bots < 1 || h.key.bots > SIM_MAX_BOTS))
		rc = say(err, errlen, "%d bots", h.key.bots);
	if (!rc)
		rc = game_table(fd, &h, (uint64_t)st.st_size, t, err, errlen);
	if (!rc && entity >= (uint32_t)h.key.bots)
		rc = say(err, errlen, "entity %u is not in its %d bots",
			 entity, h.key.bots);
	if (rc)
		return rc;
	s = malloc(t[entity].n ? t[entity].n * sizeof(*s) : 1);
	if (!s)
		return -ENOMEM;
	rc = read_at(fd, s, t[entity].n * sizeof(*s), t[entity].off);
	if (rc) {
		free(s);
		return rc;
	}
	trace_init(&k->tr);
	k->tr.s = s;
	k->tr.n = k->tr.cap = t[entity].n;
	k->origin_ns = t[entity].origin_ns;
	return 0;
}

int fps_game_read(const char *path, const struct fps_opts *o,
		  uint32_t entity, struct fps_track *k, char *err,
		  size_t errlen)
{
	char why[384] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = game_load(fd, o, entity, k, why, sizeof(why));
	close(fd);
	if (rc)
		snprintf(err, errlen, "%s: %s", path,
			 why[0] ? why : strerror(-rc));
	return rc;
}
