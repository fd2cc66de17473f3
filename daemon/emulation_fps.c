/*
 * emulation_fps.c: a repetition's fps games, generated once each before
 * its hosts start (see reckond.h). Every fps-client host of the scenario
 * (role fps-client, no exec line) has its args split and parsed as the
 * agent parses them, with the run context the agent gets from its
 * environment (the repetition's seed, rep, directory, host name); the
 * clients whose games share a key (map, bots, seed, duration, tick rate)
 * share one game file, fps-game-K.bin in the repetition's directory,
 * written by agents/io's fps_game_tracks and fps_game_write. The files
 * are removed when the repetition's hosts have ended.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fps_opts.h"
#include "log.h"
#include "reckond.h"

/* Host i's client options (words holds their strings); 0, or 1 when the
 * host is not an fps-client the daemon starts or its args do not parse
 * (the agent then says why itself). */
static int client_opts(const struct scenario *sc, unsigned i,
		       const char *dir, uint64_t seed, unsigned rep,
		       struct sc_words *w, struct fps_opts *o)
{
	const struct sc_host *sh = &sc->hosts[i];
	char err[256];

	if (strcmp(sh->role, "fps-client") != 0 || sh->exec[0] != '\0')
		return 1;
	if (scenario_words_split(sh->role, sh->args, w, err, sizeof(err)))
		return 1;
	if (fps_opts_host(o, 0, dir, sh->name, seed, rep, w->argc - 1,
			  w->argv + 1, err, sizeof(err))) {
		scenario_words_free(w);
		return 1;
	}
	return 0;
}

/* Generate o's game into path. 0 or -errno, logged. */
static int game_make(const struct fps_opts *o, const char *path)
{
	struct map m;
	struct fps_track *k;
	char err[PATH_MAX + 128] = "";
	int rc = fps_map_load(o->map, &m, err, sizeof(err));

	if (rc == 0) {
		rc = fps_game_tracks(o, &m, &k);
		if (rc) {
			snprintf(err, sizeof(err), "generating it: %s",
				 strerror(-rc));
		} else {
			rc = fps_game_write(path, o, k, err, sizeof(err));
			fps_game_tracks_free(k, o->bots);
		}
		map_free(&m);
	}
	if (rc)
		log_warnx("host %s: its bot game is left to its clients: %s",
			  o->run.host, err);
	return rc;
}

/* The file of o's game: an earlier client's, or a new one. -1 when it
 * could not be made. */
static int game_index(struct emu_games *g, struct fps_game_key *keys,
		      const struct fps_opts *o, const char *dir)
{
	char path[PATH_MAX];
	struct fps_game_key k;

	if (fps_game_key(o, &k)) {
		log_warnx("host %s: its bot game is left to its clients: map "
			  "name '%s' too long", o->run.host, o->map);
		return -1;
	}
	for (unsigned j = 0; j < g->n; j++)
		if (fps_game_key_eq(&keys[j], &k))
			return (int)j;
	if (snprintf(path, sizeof(path), "%s/fps-game-%u.bin", dir, g->n) >=
		    (int)sizeof(path) ||
	    game_make(o, path))
		return -1;
	g->file[g->n] = strdup(path);
	if (!g->file[g->n]) {
		unlink(path);
		return -1;
	}
	keys[g->n] = k;
	return (int)g->n++;
}

int emu_games_write(struct emu_games *g, const struct scenario *sc,
		    const char *dir, uint64_t seed, unsigned rep)
{
	struct fps_game_key *keys = calloc(sc->nhosts ? sc->nhosts : 1,
				       sizeof(*keys));
	struct fps_opts *o = malloc(sizeof(*o));

	memset(g, 0, sizeof(*g));
	g->nhosts = sc->nhosts;
	g->file = calloc(sc->nhosts ? sc->nhosts : 1, sizeof(*g->file));
	g->of = calloc(sc->nhosts ? sc->nhosts : 1, sizeof(*g->of));
	if (!keys || !o || !g->file || !g->of) {
		free(keys);
		free(o);
		emu_games_remove(g);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < sc->nhosts; i++) {
		struct sc_words w;

		g->of[i] = -1;
		if (client_opts(sc, i, dir, seed, rep, &w, o))
			continue;
		g->of[i] = game_index(g, keys, o, dir);
		scenario_words_free(&w);
	}
	if (g->n)
		log_debug("repetition %u: %u fps game file(s) written", rep,
			  g->n);
	free(keys);
	free(o);
	return 0;
}

const char *emu_games_file(const struct emu_games *g, unsigned i)
{
	return g->of && i < g->nhosts && g->of[i] >= 0 ? g->file[g->of[i]]
						       : NULL;
}

void emu_games_remove(struct emu_games *g)
{
	for (unsigned j = 0; g->file && j < g->n; j++) {
		if (unlink(g->file[j]) && errno != ENOENT)
			log_warn("%s", g->file[j]);
		free(g->file[j]);
	}
	free(g->file);
	free(g->of);
	memset(g, 0, sizeof(*g));
}
