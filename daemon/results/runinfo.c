/*
 * runinfo.c: what a run was and how it went, beside its numbers (see
 * results.h): the scenario, seed, date and link conditions; whether the
 * run is complete or partial, and why; and how accurate the emulation
 * was, from the timing-HOST.csv each socket agent leaves
 * (agents/io/metrics_io.c): the worst timer lateness against the tick of
 * the play, and whether an agent's play was cut off before its end.
 * run.json holds all of it; summary.c and plot_html.c show it.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results.h"
#include "util.h"

/* Append "; " and the formatted text to buf (truncating, never
 * overflowing). */
static void append(char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t used = strlen(buf);

	if (used && used + 2 < len) {
		memcpy(buf + used, "; ", 3);
		used += 2;
	}
	if (used + 1 < len)
		vsnprintf(buf + used, len - used, fmt, ap);
}

/* "a>b 'SPEC'" for every link (one entry when both ways are alike). */
static void links_text(struct run_info *ri, const struct scenario *sc)
{
	char fwd[256], rev[256], one[600];

	ri->links[0] = '\0';
	for (unsigned i = 0; i < sc->nlinks; i++) {
		const struct sc_link *l = &sc->links[i];
		const char *a = sc->hosts[l->a].name, *b = sc->hosts[l->b].name;

		netem_spec_print(&l->fwd, fwd, sizeof(fwd));
		netem_spec_print(&l->rev, rev, sizeof(rev));
		if (strcmp(fwd, rev) == 0)
			snprintf(one, sizeof(one), "%s%s<>%s '%s'",
				 i ? ", " : "", a, b, fwd);
		else
			snprintf(one, sizeof(one), "%s%s>%s '%s', %s>%s '%s'",
				 i ? ", " : "", a, b, fwd, b, a, rev);
		if (strlen(ri->links) + strlen(one) + 1 >= sizeof(ri->links))
			break;
		strcat(ri->links, one);
	}
}

void run_info_init(struct run_info *ri, const struct scenario *sc,
		   const char *mode)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(ri, 0, sizeof(*ri));
	snprintf(ri->scenario, sizeof(ri->scenario), "%s", sc->name);
	if (realpath(sc->path, ri->path) == NULL)
		snprintf(ri->path, sizeof(ri->path), "%s", sc->path);
	snprintf(ri->mode, sizeof(ri->mode), "%s", mode);
	ri->seed = sc->seed;
	ri->repetitions = sc->repetitions;
	ri->duration_s = (double)sc->duration_ns / 1e9;
	if (gmtime_r(&now, &tm) != NULL)
		strftime(ri->date, sizeof(ri->date), "%Y-%m-%d %H:%M:%S UTC",
			 &tm);
	links_text(ri, sc);
}

void run_info_partial(struct run_info *ri, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append(ri->partial, sizeof(ri->partial), fmt, ap);
	va_end(ap);
}

/* One timing-HOST.csv: its one row, into the lateness and play figures. */
static void read_timing(struct run_info *ri, const char *path, unsigned *cut,
			char *cut_text, size_t cut_len)
{
	enum { HOST, ROLE, WAKE, LMEAN, LMAX, TICK, PLAYED, PLAY, END, NF };
	static const char *const names[NF] = {
		"host",	   "role",     "wakeups", "late_mean_ms", "late_max_ms",
		"tick_ms", "played_s", "play_s",  "end",
	};
	char line[1024], hdr[1024], *h[32], *f[32];
	int ci[NF];
	size_t nh;
	FILE *in = fopen(path, "re");

	if (in == NULL)
		return;
	if (!fgets(hdr, sizeof(hdr), in))
		goto out;
	nh = results_split_csv(hdr, h, 31);
	for (int c = 0; c < NF; c++) {
		ci[c] = -1;
		for (size_t i = 0; i < nh && i < 31; i++)
			if (!strcmp(h[i], names[c]))
				ci[c] = (int)i;
		if (ci[c] < 0)
			goto out; /* not a timing file we know */
	}
	while (fgets(line, sizeof(line), in)) {
		double lmax, tick, played, play;

		if (results_split_csv(line, f, 31) != nh ||
		    csv_double(f[ci[LMAX]], &lmax) ||
		    csv_double(f[ci[TICK]], &tick) ||
		    csv_double(f[ci[PLAYED]], &played) ||
		    csv_double(f[ci[PLAY]], &play))
			continue;
		ri->timing_files++;
		if (lmax > ri->late_max_ms) {
			ri->late_max_ms = lmax;
			snprintf(ri->late_host, sizeof(ri->late_host), "%s",
				 f[ci[HOST]]);
		}
		if (tick > 0 && (ri->tick_ms == 0 || tick < ri->tick_ms))
			ri->tick_ms = tick;
		/* stopped by a signal more than a tick before its play's
		 * end: its numbers cover only part of the play */
		if (!strcmp(f[ci[END]], "signal") && play > 0 &&
		    played + tick / 1e3 < play) {
			if ((*cut)++ == 0)
				snprintf(cut_text, cut_len,
					 "host %s played %.1f of %.1f s",
					 f[ci[HOST]], played, play);
		}
	}
out:
	fclose(in);
}

static void read_timing_dir(struct run_info *ri, const char *dir, unsigned *cut,
			    char *cut_text, size_t cut_len)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);

		if (strncmp(de->d_name, "timing-", 7) || l < 12 ||
		    strcmp(de->d_name + l - 4, ".csv") ||
		    results_path(path, sizeof(path), "%s/%s", dir, de->d_name) <
			    0)
			continue;
		read_timing(ri, path, cut, cut_text, cut_len);
	}
	closedir(d);
}

void run_info_timing(struct run_info *ri, const char *run_dir,
		     unsigned repetitions)
{
	char dir[PATH_MAX], cut_text[200] = "";
	unsigned cut = 0;

	if (repetitions <= 1)
		read_timing_dir(ri, run_dir, &cut, cut_text, sizeof(cut_text));
	for (unsigned r = 1; repetitions > 1 && r <= repetitions; r++)
		if (results_path(dir, sizeof(dir), "%s/rep-%u", run_dir, r) ==
		    0)
			read_timing_dir(ri, dir, &cut, cut_text,
					sizeof(cut_text));
	ri->degraded = (ri->tick_ms > 0 && ri->late_max_ms > ri->tick_ms) ||
		       ri->bridge_lost > 0;
	/* a stop already explains why the play was cut */
	if (cut > 0 && ri->partial[0] == '\0')
		run_info_partial(ri,
				 "the play did not fit the scenario's duration "
				 "(%.1f s): %s%s",
				 ri->duration_s, cut_text,
				 cut > 1 ? " (and more hosts)" : "");
}

const char *run_info_status(const struct run_info *ri)
{
	return ri->partial[0] ? "partial" : "complete";
}

void run_info_accuracy(const struct run_info *ri, char *buf, size_t len)
{
	int late = ri->tick_ms > 0 && ri->late_max_ms > ri->tick_ms;
	char lost[96] = "";

	if (ri->bridge_lost > 0)
		snprintf(lost, sizeof(lost),
			 "%sthe bridge itself lost %" PRIu64 " frame(s)",
			 late ? "; " : "", ri->bridge_lost);
	if (!strcmp(ri->mode, "simulation"))
		snprintf(buf, len, "virtual time: no timer error");
	else if (late)
		snprintf(buf, len,
			 "emulation accuracy degraded: agent timers fired up "
			 "to %.1f ms late (host %s), more than one tick "
			 "(%.1f ms)%s",
			 ri->late_max_ms, ri->late_host, ri->tick_ms, lost);
	else if (ri->bridge_lost > 0)
		snprintf(buf, len, "emulation accuracy degraded: %s", lost);
	else if (ri->timing_files == 0)
		snprintf(buf, len, "not measured (no agent timing files)");
	else
		snprintf(buf, len,
			 "agent timers at most %.2f ms late, within one tick "
			 "(%.1f ms)",
			 ri->late_max_ms, ri->tick_ms);
}

void run_info_json_fields(FILE *f, const struct run_info *ri)
{
	fputs("  \"scenario\": ", f);
	json_fputs_str(f, ri->scenario);
	fputs(",\n  \"scenario_path\": ", f);
	json_fputs_str(f, ri->path);
	fputs(",\n  \"mode\": ", f);
	json_fputs_str(f, ri->mode);
	fprintf(f, ",\n  \"seed\": %" PRIu64 ",\n  \"date\": ", ri->seed);
	json_fputs_str(f, ri->date);
	fputs(",\n  \"links\": ", f);
	json_fputs_str(f, ri->links);
	fprintf(f, ",\n  \"status\": \"%s\",\n  \"partial_reason\": ",
		run_info_status(ri));
	if (ri->partial[0])
		json_fputs_str(f, ri->partial);
	else
		fputs("null", f);
	fprintf(f,
		",\n  \"emulation\": {\"timing_files\": %u, "
		"\"timer_lateness_max_ms\": %.3f, \"tick_ms\": %.3f, "
		"\"bridge_lost_frames\": %" PRIu64 ", \"degraded\": %s},\n",
		ri->timing_files, ri->late_max_ms, ri->tick_ms, ri->bridge_lost,
		ri->degraded ? "true" : "false");
}

int run_info_write(const char *run_dir, const struct run_info *ri)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;

	if (results_path(path, sizeof(path), "%s/run.json", run_dir) < 0)
		return -ENAMETOOLONG;
	if ((f = results_open_tmp(path, tmp, sizeof(tmp))) == NULL)
		return -errno;
	fputs("{\n", f);
	run_info_json_fields(f, ri);
	fprintf(f, "  \"repetitions\": %u\n}\n", ri->repetitions);
	return results_commit(f, tmp, path);
}

void run_info_print(FILE *f, const struct run_info *ri, int before)
{
	char acc[300];

	if (before) {
		if (ri->partial[0])
			fprintf(f,
				"PARTIAL RUN: %s. The numbers below cover only "
				"what ran.\n",
				ri->partial);
		return;
	}
	if (ri->degraded) {
		run_info_accuracy(ri, acc, sizeof(acc));
		fprintf(f, "%s\n", acc);
	}
	if (ri->partial[0])
		fprintf(f, "(partial run: %s)\n", ri->partial);
}
