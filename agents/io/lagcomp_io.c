/*
 * lagcomp_io.c: writes an fps-server's lag-compensation metrics
 * (lagcomp-HOST.csv) and its verdict log (shots-HOST.csv) into the run
 * directory through the same write-then-rename steps as metrics_io.c.
 * The columns are documented in docs/lagcomp.md.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>

#include "lagcomp_io.h"

#define LAGCOMP_HEADER                                                         \
	"host,rep,seed,condition,mode,ping,tick_hz,interp_ms,low_ping_ms,"     \
	"shots,screen_hits,server_hits,registered,registered_screen,"          \
	"reg_accuracy,hits_low,hits_high,sbc_low,sbc_high,sbc_unknown,"        \
	"sbc100_low,sbc100_high,provisional,confirmed,denials,upheld,"         \
	"overruled,incorrect,timeouts,pending,delay_mean_ms,delay_p50_ms,"     \
	"delay_p95_ms,rewind_mean,duration_s\n"

static const char *const ping_names[] = {"instant", "ewma", "ue4"};

int lagcomp_metrics_write(const struct shell_opts *o, const struct lc_server *s,
			  double duration_s)
{
	const struct lc_config *c = &s->cfg;
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	struct lc_metrics m;
	FILE *f;
	int err = lc_metrics_compute(s, c->alc_low_ping_ms, &m);

	if (!err)
		err = open_tmp(o, "lagcomp", path, sizeof(path), tmp,
			       sizeof(tmp), &f);
	if (err)
		return err;
	fputs(LAGCOMP_HEADER, f);
	fprintf(f,
		"%s,%u,%" PRIu64 ",%s,%s,%s,%d,%.3f,%.3f,%ld,%ld,%ld,%ld,%ld,"
		"%.6f,%ld,%ld,%ld,%ld,%ld,%.4f,%.4f,%ld,%ld,%ld,%ld,%ld,%ld,"
		"%ld,%ld,%.3f,%.3f,%.3f,%.3f,%.3f\n",
		o->host, o->rep, o->seed, o->condition, lc_mode_name(c->mode),
		ping_names[c->ping], c->tick_hz, c->interp_ms,
		c->alc_low_ping_ms, m.shots, m.screen_hits, m.server_hits,
		m.registered, m.registered_screen, m.reg_accuracy, m.hits_low,
		m.hits_high, m.sbc_low, m.sbc_high, m.sbc_unknown, m.sbc100_low,
		m.sbc100_high, m.provisional, m.confirmed, m.denials, m.upheld,
		m.overruled, m.incorrect, m.timeouts, m.pending,
		m.delay_mean_ms, m.delay_p50_ms, m.delay_p95_ms, m.rewind_mean,
		duration_s);
	return close_rename(f, tmp, path);
}

int lagcomp_shots_write(const struct shell_opts *o, const struct lc_server *s)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	FILE *f;
	int err =
		open_tmp(o, "shots", path, sizeof(path), tmp, sizeof(tmp), &f);

	if (err)
		return err;
	fputs("host,shot_id,shooter,victim,screen_victim,recv_ns,tick,"
	      "shooter_rtt_ms,victim_rtt_ms,rollback,compensated,rewind_dist,"
	      "part,appeal,state,registered,sbc,pose_mismatch,delay_ms\n",
	      f);
	for (size_t i = 0; i < s->nv; i++) {
		const struct lc_verdict *v = &s->v[i];

		fprintf(f,
			"%s,%" PRIu32 ",%d,%d,%d,%" PRId64 ",%" PRId64
			",%.3f,%.3f,%d,%d,%.3f,%s,%d,%s,%d,%d,%d,%.3f\n",
			o->host, v->shot_id, v->shooter, v->victim,
			v->screen_victim, v->recv_ns, v->tick,
			v->shooter_rtt_ms, v->victim_rtt_ms, v->rollback,
			v->compensated, v->rewind_dist, lc_part_name(v->part),
			v->appeal, lc_state_name(v->state), v->registered,
			v->sbc, v->pose_mismatch,
			v->result_ns < 0
				? -1.0
				: (double)(v->result_ns - v->recv_ns) / 1e6);
	}
	return close_rename(f, tmp, path);
}
