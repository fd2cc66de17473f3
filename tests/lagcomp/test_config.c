/*
 * test_config.c: the lagcomp configuration checks and names, and the fps
 * roles' pose <-> Entity State PDU mapping (stance and death in the DIS
 * appearance, the RTT echo record) through the real ESPDU codec.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "lagcomp/lagcomp.h"
#include "role/fps.h"

Test(config, defaults_pass_and_each_bad_field_is_named)
{
	struct lc_config c;
	char why[128];

	lc_config_defaults(&c);
	cr_assert_eq(lc_config_check(&c, why, sizeof(why)), 0);
	cr_assert_eq(c.tick_hz, 60);
	cr_assert_float_eq(c.alc_timeout_ms, 2 * c.alc_low_ping_ms, 0);
	c.tick_hz = 0;
	cr_assert_eq(lc_config_check(&c, why, sizeof(why)), -EINVAL);
	cr_assert_str_eq(why, "tick_hz must be 1..1000");
	lc_config_defaults(&c);
	c.history_s = 10; /* 600 frames > 512 */
	cr_assert_eq(lc_config_check(&c, why, sizeof(why)), -EINVAL);
	cr_assert_str_eq(why, "history_s * tick_hz must be 1..512 frames");
	lc_config_defaults(&c);
	c.alc_timeout_ms = 0;
	cr_assert_eq(lc_config_check(&c, why, sizeof(why)), -EINVAL);
	lc_config_defaults(&c);
	c.clc_rtt_cap_ms = -1;
	cr_assert_eq(lc_config_check(&c, why, sizeof(why)), -EINVAL);
}

Test(config, names_round_trip)
{
	enum lc_mode m;
	enum lc_ping_kind k;

	for (int i = 0; i < 4; i++) {
		cr_assert_eq(lc_mode_parse(lc_mode_name((enum lc_mode)i), &m),
			     0);
		cr_assert_eq((int)m, i);
	}
	cr_assert_eq(lc_mode_parse("TLC", &m), -EINVAL);
	cr_assert_eq(lc_ping_parse("ue4", &k), 0);
	cr_assert_eq(k, LC_PING_UE4);
	cr_assert_eq(lc_ping_parse("avg", &k), -EINVAL);
	cr_assert_str_eq(lc_part_name(LC_PART_HEAD), "head");
	cr_assert_str_eq(lc_part_name(-1), "-");
	cr_assert_str_eq(lc_state_name(LC_V_OVERRULED), "overruled");
}

Test(fpswire, state_round_trips_through_the_codec)
{
	struct fps_state s = {{1234.5, -77.25, 135, 1}, 100, -50, 0, 2}, t;
	struct reckon_espdu p, q;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	uint32_t tick, hold;
	size_t n;
	int idx;

	cr_assert_eq(fps_state_to_espdu(6, &s, 5000, 42, &p), 0);
	cr_assert_eq(fps_echo_get(&p, &tick, &hold), -ENOENT);
	fps_echo_put(&p, 77, 1500);
	cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &n), 0);
	cr_assert_eq(reckon_espdu_decode(buf, n, &q), RECKON_ESPDU_OK);
	cr_assert_eq(fps_espdu_to_state(&q, &idx, &t), 0);
	cr_assert_eq(idx, 6);
	cr_assert_eq(q.id.entity, 7);
	cr_assert_float_eq(t.pose.x, 1234.5, 1e-9);
	cr_assert_float_eq(t.pose.y, -77.25, 1e-9);
	cr_assert_float_eq(t.pose.yaw, 135, 1e-4);
	cr_assert_eq(t.pose.crouch, 1);
	cr_assert_eq(t.alive, 0);
	cr_assert_eq(t.team, 2);
	/* life-form state 4 (crouching) and damage 3 (destroyed) */
	cr_assert_eq((q.appearance >> 16) & 0xf, 4);
	cr_assert_eq((q.appearance >> 3) & 0x3, 3);
	cr_assert_eq(fps_echo_get(&q, &tick, &hold), 0);
	cr_assert_eq(tick, 77);
	cr_assert_eq(hold, 1500);
	cr_assert_eq(q.seq, 42);
}

Test(fpswire, foreign_entities_are_refused)
{
	struct fps_state s = {{0, 0, 0, 0}, 0, 0, 1, 1}, t;
	struct reckon_espdu p;
	int idx;

	cr_assert_eq(fps_state_to_espdu(LC_MAX_PLAYERS, &s, 0, 0, &p), -EINVAL);
	cr_assert_eq(fps_state_to_espdu(0, &s, 0, 0, &p), 0);
	p.id.site = 9;
	cr_assert_eq(fps_espdu_to_state(&p, &idx, &t), -EPROTO);
	p.id.site = 1;
	p.id.entity = LC_MAX_PLAYERS + 1;
	cr_assert_eq(fps_espdu_to_state(&p, &idx, &t), -EPROTO);
}
