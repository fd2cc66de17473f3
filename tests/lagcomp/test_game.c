/*
 * test_game.c: an fps-client's bot game run as it is played
 * (agents/io fps_game_*: the world stepped a second ahead of the clock,
 * as reckon-agent does) gives the client's entity the very track the
 * whole game generated up front gives it (fps_trace_make cut with
 * fps_tracks_take, as the simulator does), sample for sample; an
 * entity outside the game gets an empty track; the server's snapshot
 * rate may not pass its tick rate. The game file the emulator hands its
 * clients (fps_game_write/fps_game_read) gives each entity, origin and
 * samples, the track it would play generating the game itself, and is
 * refused when it holds another game (seed, bots, duration, tick rate),
 * is cut short anywhere, or does not start with the magic.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/fps_opts.h"

/* A client of entity in the game of 8 bots, 12 s, seed 5, with extra
 * options (NULL-terminated) after the common ones. */
static void opts_with(struct fps_opts *o, uint32_t entity, uint64_t seed,
		      char **extra)
{
	char *argv[16] = {"--entity", "0", "--server", "127.0.0.1", "--bots",
			  "8", "--duration", "12"};
	char e[16], err[256] = "";
	int argc = 8;

	snprintf(e, sizeof(e), "%u", entity);
	argv[1] = e;
	while (extra && *extra && argc < 15)
		argv[argc++] = *extra++;
	fps_opts_init(o, 0);
	o->run.seed = seed;
	o->run.seed_set = 1;
	cr_assert_eq(fps_opts_parse(o, argc, argv, 0, err, sizeof(err)), 0,
		     "%s", err);
}

static void opts(struct fps_opts *o, uint32_t entity)
{
	opts_with(o, entity, 5, NULL);
}

static void load(struct map *m)
{
	char err[256] = "";

	cr_assert_eq(fps_map_load("dust", m, err, sizeof(err)), 0, "%s", err);
}

Test(game, played_track_is_the_generated_one)
{
	struct fps_opts o;
	struct map m;
	struct trace tr;
	struct fps_track whole[8], played;
	struct fps_game g;
	int64_t until = 0;

	memset(whole, 0, sizeof(whole));
	memset(&played, 0, sizeof(played));
	opts(&o, 3);
	load(&m);
	cr_assert_eq(fps_trace_make(&o, &m, &tr), 0);
	cr_assert_eq(fps_tracks_take(whole, 0, 8, &tr, 0), 0);
	cr_assert_gt(whole[3].tr.n, 12 * 60);
	cr_assert_eq(fps_game_open(&o, &m, &g), 0);
	/* uneven steps, as timer wake-ups and arrivals ask */
	for (int k = 0; played.tr.n < whole[3].tr.n; k = (k + 7) % 50) {
		until += (k + 1) * 1000000LL;
		cr_assert_eq(fps_game_feed(&g, until, 3, &played), 0);
		cr_assert_leq(played.tr.n, whole[3].tr.n);
	}
	cr_assert_eq(fps_game_feed(&g, INT64_MAX, 3, &played), 0);
	cr_assert_eq(played.tr.n, whole[3].tr.n);
	cr_assert(memcmp(played.tr.s, whole[3].tr.s,
			 played.tr.n * sizeof(*played.tr.s)) == 0,
		  "the played track differs from the generated one");
	for (size_t i = 0; i < whole[3].tr.n; i++)
		cr_assert_eq(whole[3].tr.s[i].entity, 3);
	fps_game_close(&g);
	fps_track_free(&played);
	for (int i = 0; i < 8; i++)
		fps_track_free(&whole[i]);
	trace_free(&tr);
	map_free(&m);
}

Test(game, entity_outside_the_game_gets_nothing)
{
	struct fps_opts o;
	struct map m;
	struct fps_track k;
	struct fps_game g;

	memset(&k, 0, sizeof(k));
	opts(&o, 3);
	load(&m);
	cr_assert_eq(fps_game_open(&o, &m, &g), 0);
	cr_assert_eq(fps_game_feed(&g, 2000000000LL, 40, &k), 0);
	cr_assert_eq(k.tr.n, 0);
	fps_game_close(&g);
	map_free(&m);
}

Test(game, snapshot_rate_above_the_tick_rate_is_refused)
{
	char *ok[] = {"--mode", "tlc", "--snapshot-hz", "20", NULL};
	char *bad[] = {"--tick-hz", "30", "--snapshot-hz", "60", NULL};
	struct fps_opts o;
	char err[256] = "";

	fps_opts_init(&o, 1);
	cr_assert_eq(fps_opts_parse(&o, 4, ok, 0, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(o.snapshot_hz, 20);
	fps_opts_init(&o, 1);
	cr_assert_eq(fps_opts_parse(&o, 4, bad, 0, err, sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "--snapshot-hz 60 is above --tick-hz 30"),
		  "%s", err);
}

/* The track entity plays generating the game itself, as reckon-agent
 * does without a game file. */
static void play(const struct fps_opts *o, const struct map *m,
		 struct fps_track *k)
{
	struct fps_game g;

	memset(k, 0, sizeof(*k));
	cr_assert_eq(fps_game_open(o, m, &g), 0);
	cr_assert_eq(fps_game_feed(&g, INT64_MAX, o->cl.entity, k), 0);
	fps_game_close(&g);
}

/* The whole game of o written to a fresh file; its path into path. */
static void game_file(const struct fps_opts *o, const struct map *m,
		      char *path, size_t len)
{
	struct fps_track *k;
	char err[512] = "";
	int fd;

	snprintf(path, len, "/tmp/reckon-test-game-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(fps_game_tracks(o, m, &k), 0);
	cr_assert_eq(fps_game_write(path, o, k, err, sizeof(err)), 0, "%s",
		     err);
	fps_game_tracks_free(k, o->bots);
}

Test(game, file_track_is_the_played_one)
{
	struct fps_opts o;
	struct map m;
	struct fps_track played, read;
	char path[64], err[512] = "";

	load(&m);
	opts(&o, 0);
	game_file(&o, &m, path, sizeof(path));
	for (uint32_t e = 0; e < 8; e++) {
		opts(&o, e);
		play(&o, &m, &played);
		cr_assert_gt(played.tr.n, 12 * 60);
		memset(&read, 0xa5, sizeof(read));
		cr_assert_eq(fps_game_read(path, &o, e, &read, err,
					   sizeof(err)), 0, "%s", err);
		cr_assert_eq(read.tr.n, played.tr.n, "entity %u", e);
		cr_assert_eq(read.origin_ns, played.origin_ns, "entity %u", e);
		cr_assert(memcmp(read.tr.s, played.tr.s,
				 read.tr.n * sizeof(*read.tr.s)) == 0,
			  "entity %u: the file's track differs from the "
			  "played one", e);
		fps_track_free(&read);
		fps_track_free(&played);
	}
	unlink(path);
	map_free(&m);
}

/* fps_game_read of path for o must fail with rc, naming what. */
static void refused(const char *path, const struct fps_opts *o, int rc,
		    const char *what)
{
	struct fps_track k;
	char err[512] = "";

	memset(&k, 0, sizeof(k));
	cr_assert_eq(fps_game_read(path, o, o->cl.entity, &k, err,
				   sizeof(err)), rc, "%s", err);
	cr_assert(strstr(err, what), "'%s' lacks '%s'", err, what);
	cr_assert_eq(k.tr.s, NULL);
}

Test(game, file_of_another_game_is_refused)
{
	char *bots[] = {"--bots", "9", NULL};
	char *dur[] = {"--duration", "11", NULL};
	char *tick[] = {"--tick-hz", "30", NULL};
	struct fps_opts o;
	struct map m;
	char path[64];

	load(&m);
	opts(&o, 2);
	game_file(&o, &m, path, sizeof(path));
	opts_with(&o, 2, 6, NULL);
	refused(path, &o, -EINVAL, "--seed 5 --duration 12 --tick-hz 60, "
				   "not this client's --map dust --bots 8 "
				   "--seed 6");
	opts_with(&o, 2, 5, bots);
	refused(path, &o, -EINVAL, "not this client's --map dust --bots 9");
	opts_with(&o, 2, 5, dur);
	refused(path, &o, -EINVAL, "--duration 11 --tick-hz 60");
	opts_with(&o, 2, 5, tick);
	refused(path, &o, -EINVAL, "--duration 12 --tick-hz 30");
	unlink(path);
	map_free(&m);
}

Test(game, cut_or_foreign_file_is_refused)
{
	struct fps_opts o;
	struct map m;
	struct stat st;
	char path[64];
	FILE *f;

	load(&m);
	opts(&o, 7);
	game_file(&o, &m, path, sizeof(path));
	cr_assert_eq(stat(path, &st), 0);
	/* the last sample of the last bot (entity 0 loads; the file is
	 * still refused), then into the bot table, then into the header */
	opts(&o, 0);
	cr_assert_eq(truncate(path, st.st_size - 1), 0);
	refused(path, &o, -EIO, "cut short");
	cr_assert_eq(truncate(path, 400), 0);
	refused(path, &o, -EIO, "cut short");
	cr_assert_eq(truncate(path, 100), 0);
	refused(path, &o, -EIO, "cut short (100 octets, no header)");
	/* a whole file with its first octet changed */
	unlink(path);
	game_file(&o, &m, path, sizeof(path));
	f = fopen(path, "r+");
	cr_assert_not_null(f);
	cr_assert_eq(fputc('X', f), 'X');
	cr_assert_eq(fclose(f), 0);
	refused(path, &o, -EINVAL, "not an fps game file (bad magic)");
	cr_assert_eq(truncate(path, 4), 0);
	refused(path, &o, -EIO, "cut short (4 octets, no header)");
	unlink(path);
	map_free(&m);
}
