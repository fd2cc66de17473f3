/*
 * test_warfare.c: the Fire and Detonation PDU codecs and the ALC reply:
 * known byte offsets (IEEE 1278.1-2012 7.3.2 / 7.3.3 and the layout in
 * docs/wire-format.md), seeded round trips, and refusal of truncated,
 * mislabelled, padded, non-finite and otherwise malformed datagrams with
 * a reason.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "warfare_sample.h"

static struct reckon_fire fire_example(void)
{
	struct reckon_fire f;

	memset(&f, 0, sizeof(f));
	f.exercise = 1;
	f.timestamp = 0x01020304;
	f.firing = (struct reckon_entity_id){1, 2, 3};
	f.target = (struct reckon_entity_id){1, 2, 4};
	f.event = (struct reckon_event_id){1, 2, 77};
	f.loc = (struct reckon_vec3){100.5, -200.25, 64};
	reckon_munition_rifle(&f.desc);
	f.vel = (struct reckon_vec3){RECKON_HITSCAN_SPEED, 0, 0};
	f.range = 7874;
	return f;
}

Test(fire, layout)
{
	struct reckon_fire f = fire_example();
	uint8_t b[128];
	size_t n;

	cr_assert_eq(reckon_fire_encode(&f, b, sizeof(b), &n), 0);
	cr_assert_eq(n, 96);
	cr_assert_eq(b[0], 7);
	cr_assert_eq(b[2], 2); /* Fire */
	cr_assert_eq(b[3], 2); /* Warfare */
	cr_assert_eq(b[4] << 24 | b[5] << 16 | b[6] << 8 | b[7], 0x01020304);
	cr_assert_eq(b[8] << 8 | b[9], 96);
	cr_assert_eq(b[17], 3); /* firing entity */
	cr_assert_eq(b[23], 4); /* target entity */
	cr_assert_eq(b[24] | b[25] | b[26] | b[27] | b[28] | b[29], 0);
	cr_assert_eq(b[35], 77); /* event number */
	/* location x = 100.5 as float64 is 0x4059200000000000 */
	cr_assert_eq(b[40], 0x40);
	cr_assert_eq(b[41], 0x59);
	cr_assert_eq(b[42], 0x20);
	cr_assert_eq(b[64], 2); /* munition kind */
	cr_assert_eq(b[68], 2); /* category ballistic */
	cr_assert_eq(b[77], 1); /* quantity */
	/* range 7874 as float32 is 0x45F61000 */
	cr_assert_eq(b[92], 0x45);
	cr_assert_eq(b[93], 0xf6);
	cr_assert_eq(b[94], 0x10);
	cr_assert_eq(reckon_dis_pdu_type(b, n), 2);
}

Test(fire, round_trip)
{
	struct sample_rng r;
	uint8_t b[128];

	sample_seed(&r, 42);
	for (int i = 0; i < 2000; i++) {
		struct reckon_fire f, g;
		size_t n;
		char why[64] = "";

		sample_fire(&r, &f);
		cr_assert_eq(reckon_fire_encode(&f, b, sizeof(b), &n), 0);
		cr_assert_eq(reckon_fire_decode(b, n, &g, why, sizeof(why)), 0,
			     "%s", why);
		cr_assert_eq(memcmp(&f.firing, &g.firing, sizeof(f.firing)), 0);
		cr_assert_eq(memcmp(&f.target, &g.target, sizeof(f.target)), 0);
		cr_assert_eq(f.event.event, g.event.event);
		cr_assert_eq(f.mission, g.mission);
		cr_assert_eq(f.timestamp, g.timestamp);
		cr_assert(f.loc.x == g.loc.x && f.loc.y == g.loc.y &&
			  f.loc.z == g.loc.z);
		cr_assert(f.vel.x == g.vel.x && f.vel.z == g.vel.z);
		cr_assert(f.range == g.range);
		cr_assert_eq(f.desc.warhead, g.desc.warhead);
		cr_assert_eq(f.desc.rate, g.desc.rate);
	}
}

static void expect_reject(const uint8_t *b, size_t n, const char *reason)
{
	char why[64] = "";

	cr_assert_eq(reckon_fire_decode(b, n, NULL, why, sizeof(why)),
		     -EBADMSG);
	cr_assert_str_eq(why, reason);
}

Test(fire, rejects)
{
	struct reckon_fire f = fire_example();
	uint8_t b[128], c[128];
	size_t n;
	float nan = NAN;
	uint32_t u;

	reckon_fire_encode(&f, b, sizeof(b), &n);
	expect_reject(b, 50, "truncated");
	memcpy(c, b, n);
	c[0] = 6;
	expect_reject(c, n, "protocol version is not 7");
	memcpy(c, b, n);
	c[2] = 3;
	expect_reject(c, n, "wrong PDU type");
	memcpy(c, b, n);
	c[3] = 1;
	expect_reject(c, n, "protocol family is not warfare (2)");
	memcpy(c, b, n);
	c[9] = 95;
	expect_reject(c, n, "length field does not match datagram");
	memcpy(c, b, n);
	c[11] = 1;
	expect_reject(c, n, "PDU status or padding not 0");
	memcpy(c, b, n);
	c[12] = c[13] = 0xff; /* firing site 0xffff: all sites */
	expect_reject(c, n, "bad entity id");
	memcpy(c, b, n);
	memcpy(&u, &nan, 4);
	c[80] = (uint8_t)(u >> 24), c[81] = (uint8_t)(u >> 16);
	c[82] = (uint8_t)(u >> 8), c[83] = (uint8_t)u;
	expect_reject(c, n, "NaN or infinity in a float field");
	f.range = -1;
	cr_assert_eq(reckon_fire_encode(&f, b, sizeof(b), &n), -EINVAL);
	f = fire_example();
	f.vel.y = 1e39;
	cr_assert_eq(reckon_fire_encode(&f, b, sizeof(b), &n), -ERANGE);
	f = fire_example();
	cr_assert_eq(reckon_fire_encode(&f, b, 95, &n), -ENOSPC);
}

Test(detonation, layout_with_hit_record)
{
	struct reckon_detonation d;
	uint8_t b[128];
	size_t n;

	memset(&d, 0, sizeof(d));
	d.firing = (struct reckon_entity_id){1, 2, 3};
	d.target = (struct reckon_entity_id){1, 2, 4};
	d.event = (struct reckon_event_id){1, 2, 77};
	d.loc_entity = (struct reckon_vec3){0, 11, 2};
	reckon_munition_rifle(&d.desc);
	d.result = RECKON_DET_ENTITY_IMPACT;
	d.has_hit = 1;
	d.hit = (struct reckon_hit_record){1, RECKON_HIT_APPEAL, 3, 0xa0b0c0d,
					   0x1122334455667788ull};
	cr_assert_eq(reckon_detonation_encode(&d, b, sizeof(b), &n), 0);
	cr_assert_eq(n, 120);
	cr_assert_eq(b[2], 3);
	cr_assert_eq(b[8] << 8 | b[9], 120);
	cr_assert_eq(b[72], 2);	   /* munition kind */
	cr_assert_eq(b[92], 0x41); /* loc_entity y = 11.0f = 0x41300000 */
	cr_assert_eq(b[93], 0x30);
	cr_assert_eq(b[100], 1); /* entity impact */
	cr_assert_eq(b[101], 1); /* one record */
	cr_assert_eq(b[104], 242);
	cr_assert_eq(b[105], 1); /* torso */
	cr_assert_eq(b[106], RECKON_HIT_APPEAL);
	cr_assert_eq(b[107], 3); /* alc */
	cr_assert_eq(b[108], 0x0a);
	cr_assert_eq(b[111], 0x0d);
	cr_assert_eq(b[112], 0x11);
	cr_assert_eq(b[119], 0x88);
}

Test(detonation, round_trip_and_rejects)
{
	struct sample_rng r;
	uint8_t b[128], c[128];
	char why[64];

	sample_seed(&r, 7);
	for (int i = 0; i < 2000; i++) {
		struct reckon_detonation d, g;
		size_t n;

		sample_detonation(&r, &d);
		cr_assert_eq(reckon_detonation_encode(&d, b, sizeof(b), &n), 0);
		cr_assert_eq(
			reckon_detonation_decode(b, n, &g, why, sizeof(why)), 0,
			"%s", why);
		cr_assert_eq(g.has_hit, d.has_hit);
		cr_assert_eq(g.result, d.result);
		cr_assert(g.loc.x == d.loc.x &&
			  g.loc_entity.z == d.loc_entity.z);
		if (d.has_hit) {
			cr_assert_eq(g.hit.hit_id, d.hit.hit_id);
			cr_assert_eq(g.hit.tick, d.hit.tick);
			cr_assert_eq(g.hit.flags, d.hit.flags);
			cr_assert_eq(g.hit.part, d.hit.part);
			/* refusals on a record-carrying PDU */
			memcpy(c, b, n);
			c[104] = 241;
			cr_assert_eq(reckon_detonation_decode(c, n, NULL, why,
							      sizeof(why)),
				     -EBADMSG);
			cr_assert_str_eq(why, "bad reckon hit record");
			memcpy(c, b, n);
			c[101] = 0;
			cr_assert_eq(reckon_detonation_decode(c, n, NULL, why,
							      sizeof(why)),
				     -EBADMSG);
			cr_assert_str_eq(why,
					 "record count does not match length");
			memcpy(c, b, n);
			c[103] = 1;
			cr_assert_eq(reckon_detonation_decode(c, n, NULL, why,
							      sizeof(why)),
				     -EBADMSG);
			cr_assert_str_eq(why, "padding not 0");
		}
	}
}

Test(lcreply, layout_round_trip_rejects)
{
	struct reckon_lcreply x = {RECKON_LCREPLY_DENY,
				   RECKON_LCREPLY_PROVISIONAL,
				   2,
				   0x01020304,
				   5,
				   600,
				   235.5,
				   111,
				   90,
				   1},
			      y;
	uint8_t b[64], c[64];
	size_t n;
	char why[64];
	struct sample_rng r;

	cr_assert_eq(reckon_lcreply_encode(&x, b, sizeof(b), &n), 0);
	cr_assert_eq(n, 36);
	cr_assert_eq(memcmp(b, "RKLC", 4), 0);
	cr_assert_eq(b[4], 1);
	cr_assert_eq(b[5], 2);
	cr_assert_eq(b[6], 1);
	cr_assert_eq(b[7], 2);
	cr_assert_eq(b[11], 4);
	cr_assert_eq(b[13], 5);
	cr_assert_eq(b[18] << 8 | b[19], 600);
	cr_assert_eq(b[32], 1);
	cr_assert_eq(reckon_lcreply_decode(b, n, &y, why, sizeof(why)), 0);
	cr_assert(y.x == 235.5 && y.y == 111 && y.yaw == 90 && y.crouch == 1);

	memcpy(c, b, n);
	c[0] = 'X';
	cr_assert_eq(reckon_lcreply_decode(c, n, NULL, why, sizeof(why)),
		     -EBADMSG);
	cr_assert_str_eq(why, "bad magic");
	memcpy(c, b, n);
	c[5] = 3;
	cr_assert_eq(reckon_lcreply_decode(c, n, NULL, why, sizeof(why)),
		     -EBADMSG);
	memcpy(c, b, n);
	c[35] = 1;
	cr_assert_eq(reckon_lcreply_decode(c, n, NULL, why, sizeof(why)),
		     -EBADMSG);
	cr_assert_str_eq(why, "reserved octets not 0");
	cr_assert_eq(reckon_lcreply_decode(b, 35, NULL, why, sizeof(why)),
		     -EBADMSG);
	x.hit_id = 0;
	cr_assert_eq(reckon_lcreply_encode(&x, b, sizeof(b), &n), -EINVAL);

	sample_seed(&r, 3);
	for (int i = 0; i < 1000; i++) {
		sample_lcreply(&r, &x);
		cr_assert_eq(reckon_lcreply_encode(&x, b, sizeof(b), &n), 0);
		cr_assert_eq(reckon_lcreply_decode(b, n, &y, why, sizeof(why)),
			     0);
		cr_assert(memcmp(&x, &y, sizeof(x)) == 0 ||
			  (x.hit_id == y.hit_id && x.x == y.x && x.y == y.y &&
			   x.yaw == y.yaw && x.verdict == y.verdict));
	}
}
