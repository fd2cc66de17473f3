/*
 * test_runinfo.c: how a run is judged from what its hosts left
 * (daemon/results/runinfo.c, results_error_line): timing-HOST.csv files
 * written here in the agents' format decide "emulation accuracy
 * degraded" (worst lateness over one tick, or frames the bridge itself
 * lost) and a play cut off by a
 * signal; a stop reason given first is kept and not doubled; and the
 * line of a host's log that says why it failed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <criterion/criterion.h>

#include "results.h"

static char dir[64];

static void mkdir_tmp(void)
{
	snprintf(dir, sizeof(dir), "/tmp/reckon-runinfo.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

/* One timing file, in the columns agents/io/metrics_io.c writes. */
static void timing(const char *sub, const char *host, double late_max,
		   double played, double play, const char *end)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s/timing-%s.csv", dir, sub, host);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fprintf(f, "host,role,wakeups,late_mean_ms,late_max_ms,tick_ms,"
		   "played_s,play_s,end\n");
	fprintf(f, "%s,observer,1000,0.400,%.3f,15.625,%.3f,%.3f,%s\n", host,
		late_max, played, play, end);
	cr_assert_eq(fclose(f), 0);
}

static void info(struct run_info *ri)
{
	memset(ri, 0, sizeof(*ri));
	ri->duration_s = 10;
	ri->repetitions = 1;
}

Test(runinfo, lateness_within_a_tick_is_fine, .init = mkdir_tmp, .fini = rm_tmp)
{
	struct run_info ri;
	char acc[300];

	info(&ri);
	timing("", "a", 4.2, 20, 20, "done");
	timing("", "b", 15.6, 20, 20, "done");
	run_info_timing(&ri, dir, 1);
	cr_assert_eq(ri.timing_files, 2);
	cr_assert_float_eq(ri.late_max_ms, 15.6, 1e-9);
	cr_assert_float_eq(ri.tick_ms, 15.625, 1e-9);
	cr_assert_not(ri.degraded, "15.6 ms is within a 15.625 ms tick");
	cr_assert_str_eq(run_info_status(&ri), "complete");
	run_info_accuracy(&ri, acc, sizeof(acc));
	cr_assert_null(strstr(acc, "degraded"));
}

Test(runinfo, lateness_over_a_tick_degrades, .init = mkdir_tmp, .fini = rm_tmp)
{
	struct run_info ri;
	char acc[300];

	info(&ri);
	timing("", "a", 4.2, 20, 20, "done");
	timing("", "obs", 80, 20, 20, "done");
	run_info_timing(&ri, dir, 1);
	cr_assert(ri.degraded);
	run_info_accuracy(&ri, acc, sizeof(acc));
	cr_assert_not_null(strstr(acc, "emulation accuracy degraded"), "%s",
			   acc);
	cr_assert_not_null(strstr(acc, "80.0 ms"), "%s", acc);
	cr_assert_not_null(strstr(acc, "host obs"), "%s", acc);
	cr_assert_str_eq(run_info_status(&ri), "complete",
			 "late timers do not make a run partial");
}

Test(runinfo, frames_the_bridge_lost_degrade, .init = mkdir_tmp, .fini = rm_tmp)
{
	struct run_info ri;
	char acc[300];

	info(&ri);
	timing("", "a", 4.2, 20, 20, "done");
	ri.bridge_lost = 17;
	run_info_timing(&ri, dir, 1);
	cr_assert(ri.degraded, "timers fine, but the bridge lost frames");
	run_info_accuracy(&ri, acc, sizeof(acc));
	cr_assert_str_eq(acc, "emulation accuracy degraded: the bridge itself "
			      "lost 17 frame(s)");
}

Test(runinfo, repetitions_are_read_from_their_directories, .init = mkdir_tmp,
     .fini = rm_tmp)
{
	struct run_info ri;
	char sub[PATH_MAX];

	info(&ri);
	for (int r = 1; r <= 2; r++) {
		snprintf(sub, sizeof(sub), "%s/rep-%d", dir, r);
		cr_assert_eq(mkdir(sub, 0755), 0);
	}
	timing("/rep-1", "obs", 2, 20, 20, "done");
	timing("/rep-2", "obs", 31, 20, 20, "done");
	timing("", "obs", 500, 20, 20, "done"); /* not a repetition's */
	run_info_timing(&ri, dir, 2);
	cr_assert_eq(ri.timing_files, 2);
	cr_assert_float_eq(ri.late_max_ms, 31, 1e-9);
	cr_assert(ri.degraded);
}

Test(runinfo, a_play_cut_by_a_signal_is_partial, .init = mkdir_tmp,
     .fini = rm_tmp)
{
	struct run_info ri;

	info(&ri);
	timing("", "p", 1, 3.4, 20, "signal");
	timing("", "relay", 1, 0, 0, "signal"); /* no play: its normal end */
	run_info_timing(&ri, dir, 1);
	cr_assert_str_eq(run_info_status(&ri), "partial");
	cr_assert_not_null(strstr(ri.partial, "did not fit"), "%s", ri.partial);
	cr_assert_not_null(strstr(ri.partial, "host p played 3.4 of 20.0 s"),
			   "%s", ri.partial);
}

Test(runinfo, a_signal_at_the_end_of_the_play_is_complete, .init = mkdir_tmp,
     .fini = rm_tmp)
{
	struct run_info ri;

	info(&ri);
	/* within one tick (15.625 ms) of the end: the play was over */
	timing("", "obs", 1, 19.99, 20, "signal");
	timing("", "relay", 1, 0, 0, "signal");
	run_info_timing(&ri, dir, 1);
	cr_assert_str_eq(run_info_status(&ri), "complete", "%s", ri.partial);
}

Test(runinfo, a_stop_reason_comes_first_and_alone, .init = mkdir_tmp,
     .fini = rm_tmp)
{
	struct run_info ri;

	info(&ri);
	run_info_partial(&ri, "interrupted (SIGINT) during repetition %u", 1);
	timing("", "p", 1, 3.4, 20, "signal");
	run_info_timing(&ri, dir, 1);
	cr_assert_str_eq(ri.partial,
			 "interrupted (SIGINT) during repetition 1");
	run_info_partial(&ri, "%u of %u repetitions ran", 1, 3);
	cr_assert_str_eq(ri.partial, "interrupted (SIGINT) during repetition "
				     "1; 1 of 3 repetitions ran");
}

Test(runinfo, no_timing_files_is_not_measured, .init = mkdir_tmp,
     .fini = rm_tmp)
{
	struct run_info ri;
	char acc[300];

	info(&ri);
	run_info_timing(&ri, dir, 1);
	cr_assert_eq(ri.timing_files, 0);
	cr_assert_not(ri.degraded);
	run_info_accuracy(&ri, acc, sizeof(acc));
	cr_assert_not_null(strstr(acc, "not measured"), "%s", acc);
}

/* A host log in path with the given text. */
static void host_log(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s.log", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

Test(runinfo, the_error_line_of_a_host_log, .init = mkdir_tmp, .fini = rm_tmp)
{
	char path[PATH_MAX], out[512];
	unsigned n = 0;

	host_log("agent",
		 "reckon-agent p: warning: no path lasts 5 s\n"
		 "reckon-agent player: unknown predictor 'lde'\n"
		 "see 'reckon-agent player --help'\n",
		 path, sizeof(path));
	cr_assert_eq(results_error_line(path, out, sizeof(out), &n), 0);
	cr_assert_str_eq(out, "reckon-agent player: unknown predictor 'lde'");
	cr_assert_eq(n, 3);

	host_log("err", "starting\nsome ERROR: bind failed\nbye\n", path,
		 sizeof(path));
	cr_assert_eq(results_error_line(path, out, sizeof(out), &n), 0);
	cr_assert_str_eq(out, "some ERROR: bind failed");

	host_log("exec", "starting up\ncannot open the map file\n\n", path,
		 sizeof(path));
	cr_assert_eq(results_error_line(path, out, sizeof(out), &n), 0);
	cr_assert_str_eq(out, "cannot open the map file", "the last line");

	host_log("empty", "", path, sizeof(path));
	cr_assert_eq(results_error_line(path, out, sizeof(out), &n), -ENOENT);
	snprintf(path, sizeof(path), "%s/missing.log", dir);
	cr_assert_eq(results_error_line(path, out, sizeof(out), &n), -ENOENT);
}
