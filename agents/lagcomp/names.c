/*
 * names.c: the names of lag-compensation modes, RTT estimators, body
 * parts and verdict states as they appear in options, logs and metrics,
 * and the server's default configuration (Lee's thesis values: 60 Hz,
 * 1.5 s of history, lowPing 50 ms, a 2 x lowPing reply timeout, a 250 ms
 * CLC cap as in Battlefield 4 and Overwatch; extraction section 9).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lagcomp/lagcomp.h"

static const char *const modes[] = {"none", "tlc", "clc", "alc"};
static const char *const pings[] = {"instant", "ewma", "ue4"};
static const char *const parts[] = {"head", "torso", "legs"};
static const char *const states[] = {"miss",	  "final",  "pending",
				     "confirmed", "upheld", "overruled",
				     "timeout"};

const char *lc_part_name(int part)
{
	return part >= 0 && part < LC_NPARTS ? parts[part] : "-";
}

const char *lc_mode_name(enum lc_mode m)
{
	return (unsigned)m < 4 ? modes[m] : "?";
}

const char *lc_state_name(enum lc_state s)
{
	return (unsigned)s < 7 ? states[s] : "?";
}

int lc_mode_parse(const char *s, enum lc_mode *out)
{
	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, modes[i])) {
			*out = (enum lc_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

int lc_ping_parse(const char *s, enum lc_ping_kind *out)
{
	for (int i = 0; i < 3; i++) {
		if (!strcmp(s, pings[i])) {
			*out = (enum lc_ping_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

void lc_config_defaults(struct lc_config *c)
{
	memset(c, 0, sizeof(*c));
	c->mode = LC_MODE_TLC;
	c->tick_hz = 60;
	c->history_s = 1.5;
	c->interp_ms = 0;
	c->trace_dist = 7874; /* 200 m at 2.54 cm per unit */
	c->ping = LC_PING_UE4;
	c->clc_rtt_cap_ms = 250;
	c->clc_max_rewind = 0;
	c->alc_low_ping_ms = 50;
	c->alc_high_ping_ms = 0;
	c->alc_timeout_ms = 100;
	c->pose_tol = 32;
}

static int bad(char *why, size_t n, const char *what)
{
	if (why && n)
		snprintf(why, n, "%s", what);
	return -EINVAL;
}

int lc_config_check(const struct lc_config *c, char *why, size_t n)
{
	if ((unsigned)c->mode > LC_MODE_ALC)
		return bad(why, n, "mode must be none, tlc, clc or alc");
	if (c->tick_hz < 1 || c->tick_hz > 1000)
		return bad(why, n, "tick_hz must be 1..1000");
	if (!(c->history_s > 0) ||
	    ceil(c->history_s * c->tick_hz - 1e-9) > LC_HIST_MAX)
		return bad(why, n, "history_s * tick_hz must be 1..512 frames");
	if (!(c->interp_ms >= 0 && c->interp_ms < 10000))
		return bad(why, n, "interp_ms must be 0..10000");
	if (!(c->trace_dist > 0 && isfinite(c->trace_dist)))
		return bad(why, n, "trace_dist must be > 0");
	if ((unsigned)c->ping > LC_PING_UE4)
		return bad(why, n, "ping must be instant, ewma or ue4");
	if (!(c->clc_rtt_cap_ms >= 0) || !(c->clc_max_rewind >= 0))
		return bad(why, n, "CLC caps must be >= 0 (0 = off)");
	if (!(c->alc_low_ping_ms >= 0) || !(c->alc_high_ping_ms >= 0) ||
	    !(c->alc_timeout_ms > 0))
		return bad(why, n,
			   "ALC pings must be >= 0 and the timeout > 0");
	if (!(c->pose_tol >= 0))
		return bad(why, n, "pose_tol must be >= 0");
	return 0;
}
