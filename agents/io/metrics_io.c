/*
 * metrics_io.c: writes a role's metrics into the run directory, one CSV
 * row per lane and entity (metrics-HOST.csv; the columns are documented
 * in docs/agents.md and read back by daemon/summary.c), and the decoder's
 * reject counts per lane and reason (rejects-HOST.csv), and for the
 * socket shell its timer lateness and how it ended (timing-HOST.csv).
 * The socket shell
 * and the simulator both write through here, so their files are the same
 * format byte for byte. Each file is written to a temporary name and
 * renamed, so a reader never sees half a file.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent_io.h"
#include "proto/espdu.h"
#include "role/observer.h"
#include "role/relay.h"

#define METRICS_HEADER                                                         \
	"host,role,rep,seed,condition,topology,lane,predictor,params,entity,"  \
	"sent,sent_init,datagrams,bytes_sent,received,bytes_received,applied," \
	"stale,rejected,unmatched,frames,frames_blind,err_mean,err_p50,"       \
	"err_p95,err_max,over_s,update_bytes,send_errors,duration_s,"          \
	"stale_model\n"

int open_tmp(const struct shell_opts *o, const char *what, char *path,
	     size_t plen, char *tmp, size_t tlen, FILE **f)
{
	int n = snprintf(path, plen, "%s/%s-%s.csv", o->run_dir, what, o->host);

	if (n < 0 || (size_t)n >= plen)
		return -ENAMETOOLONG;
	n = snprintf(tmp, tlen, "%s.tmp.%ld", path, (long)getpid());
	if (n < 0 || (size_t)n >= tlen)
		return -ENAMETOOLONG;
	*f = fopen(tmp, "w");
	return *f ? 0 : -errno;
}

int close_rename(FILE *f, const char *tmp, const char *path)
{
	int bad = ferror(f);

	if (fflush(f) || fsync(fileno(f)))
		bad = 1;
	if (fclose(f))
		bad = 1;
	if (bad) {
		unlink(tmp);
		return -EIO;
	}
	if (rename(tmp, path)) {
		int err = -errno;

		unlink(tmp);
		return err;
	}
	return 0;
}

int metrics_write(const struct metrics_table *t)
{
	const struct shell_opts *o = t->o;
	char path[PATH_MAX], tmp[PATH_MAX + 32], params[512];
	FILE *f;
	int err;

	err = open_tmp(o, "metrics", path, sizeof(path), tmp, sizeof(tmp), &f);
	if (err)
		return err;
	fputs(METRICS_HEADER, f);
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct role_metrics *m = &t->rows[i];
		const struct predict_params *par = &o->lanes[m->lane];

		if (predict_params_format(par, params, sizeof(params)))
			params[0] = '\0';
		fprintf(f,
			"%s,%s,%u,%" PRIu64 ",%s,%s,%u,%s,%s,%" PRIu32
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%.6f,%.6f,%.6f,%.6f,%.6f,%" PRIu64 ",%" PRIu64
			",%.6f,%" PRIu64 "\n",
			o->host, t->role, o->rep, o->seed, o->condition,
			o->topology, m->lane, o->lane_name[m->lane], params, m->entity,
			m->sent, m->sent_init, m->datagrams, m->bytes_sent,
			m->received, m->bytes_received, m->applied, m->stale,
			m->rejected, m->unmatched, m->frames, m->frames_blind,
			m->err_mean, m->err_p50, m->err_p95, m->err_max,
			m->over_s, m->update_bytes, m->send_errors,
			t->duration_s, m->stale_model);
	}
	return close_rename(f, tmp, path);
}

int rejects_write(const struct shell_opts *o,
		  const struct reckon_espdu_counters *per_lane,
		  const uint64_t *foreign, size_t n_lanes)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	FILE *f;
	int err;

	err = open_tmp(o, "rejects", path, sizeof(path), tmp, sizeof(tmp), &f);
	if (err)
		return err;
	fputs("host,lane,reason,count\n", f);
	for (size_t l = 0; l < n_lanes; l++) {
		for (int v = 0; v < RECKON_ESPDU_NVERDICTS; v++)
			fprintf(f, "%s,%zu,%s,%" PRIu64 "\n", o->host, l,
				reckon_espdu_verdict_name(v), per_lane[l].n[v]);
		fprintf(f, "%s,%zu,not-reckon-update,%" PRIu64 "\n", o->host, l,
			foreign ? foreign[l] : 0);
	}
	return close_rename(f, tmp, path);
}

int errcdf_write(const struct shell_opts *o, const struct role_observer *ob)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32], params[512];
	double q[ERRCDF_POINTS];
	uint64_t frames;
	FILE *f;
	int err;

	err = open_tmp(o, "errcdf", path, sizeof(path), tmp, sizeof(tmp), &f);
	if (err)
		return err;
	fputs("host,lane,predictor,params,frames,quantile,error\n", f);
	for (size_t l = 0; l < o->n_lanes; l++) {
		const struct predict_params *par = &o->lanes[l];

		err = role_observer_quantiles(ob, (uint16_t)l, q,
					      ERRCDF_POINTS, &frames);
		if (err) {
			fclose(f);
			unlink(tmp);
			return err;
		}
		if (predict_params_format(par, params, sizeof(params)))
			params[0] = '\0';
		for (size_t k = 0; frames && k < ERRCDF_POINTS; k++)
			fprintf(f, "%s,%zu,%s,%s,%" PRIu64 ",%.3f,%.6f\n",
				o->host, l, o->lane_name[l], params, frames,
				(double)k / (ERRCDF_POINTS - 1), q[k]);
	}
	return close_rename(f, tmp, path);
}

int timing_write(const struct shell_opts *o, const struct agent_timing *t)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	FILE *f;
	int err;

	err = open_tmp(o, "timing", path, sizeof(path), tmp, sizeof(tmp), &f);
	if (err)
		return err;
	fputs("host,role,wakeups,late_mean_ms,late_max_ms,tick_ms,played_s,"
	      "play_s,end\n",
	      f);
	fprintf(f, "%s,%s,%" PRIu64 ",%.3f,%.3f,%.3f,%.3f,%.3f,%s\n", o->host,
		t->role, t->wakeups, t->late_mean_ms, t->late_max_ms,
		t->tick_ms, t->played_s, t->play_s, t->end);
	return close_rename(f, tmp, path);
}

int agent_relay_metrics(const struct role_relay *r, size_t i,
			struct role_metrics *out)
{
	if (i >= r->n_lanes)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->lane = (uint16_t)i;
	out->received = r->verdicts[i].n[RECKON_ESPDU_OK];
	out->bytes_received = r->bytes_in[i];
	out->datagrams = r->datagrams_out[i];
	out->bytes_sent = r->bytes_out[i];
	out->send_errors = r->send_errors[i];
	return 0;
}
