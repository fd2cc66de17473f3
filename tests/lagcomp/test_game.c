/*
 * test_game.c: an fps-client's bot game run as it is played
 * (agents/io fps_game_*: the world stepped a second ahead of the clock,
 * as reckon-agent does) gives the client's entity the very track the
 * whole game generated up front gives it (fps_trace_make cut with
 * fps_tracks_take, as the simulator does), sample for sample; an
 * entity outside the game gets an empty track; the server's snapshot
 * rate may not pass its tick rate.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/fps_opts.h"

static void opts(struct fps_opts *o, uint32_t entity)
{
	char *argv[] = {"fps-client", "--entity", "0", "--server",
			"127.0.0.1", "--bots", "8", "--duration", "12", NULL};
	char e[16], err[256] = "";

	snprintf(e, sizeof(e), "%u", entity);
	argv[2] = e;
	fps_opts_init(o, 0);
	o->run.seed = 5;
	o->run.seed_set = 1;
	cr_assert_eq(fps_opts_parse(o, 8, argv + 1, 0, err, sizeof(err)), 0, "%s",
		     err);
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
