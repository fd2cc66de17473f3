/*
 * test_espdu_kat.c: known-answer test for the Entity State PDU encoder and
 * decoder. One update is built by hand and its 192 wire octets are written
 * out below field by field, with offsets from IEEE 1278.1-2012 7.2.2 and
 * the float bit patterns computed independently (Python struct.pack('>f'),
 * see the comments), so a wrong offset, byte order or float conversion
 * shows up as the first differing octet.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "proto/dis_time.h"
#include "proto/espdu.h"
#include "proto/espdu_layout.h"

/* send_ns = 2 h + 1234.5678 s = 8434567800000 ns = 0x000007abd36ae4c0.
 * DIS timestamp: floor(1234.5678 s * 2^31 / 3600 s) = 736448378 units,
 * shifted left one bit with the relative flag 0: 0x57ca9ef4. */
/* clang-format off */
static const uint8_t kat[192] = {
	/* 0 header: version 7, exercise 9, ES PDU 1, family 1 */
	0x07, 0x09, 0x01, 0x01,
	/* 4 timestamp */
	0x57, 0xca, 0x9e, 0xf4,
	/* 8 length 192, status 0x02, padding */
	0x00, 0xc0, 0x02, 0x00,
	/* 12 entity id 1:2:3 */
	0x00, 0x01, 0x00, 0x02, 0x00, 0x03,
	/* 18 force 1 (friendly), 3 variable parameter records */
	0x01, 0x03,
	/* 20 entity type: life form 3, land 1, country 225, 1, 2, 3, 4 */
	0x03, 0x01, 0x00, 0xe1, 0x01, 0x02, 0x03, 0x04,
	/* 28 alternative entity type, all zero */
	0, 0, 0, 0, 0, 0, 0, 0,
	/* 36 velocity 1.0, -2.5, 0.5 (float32) */
	0x3f, 0x80, 0x00, 0x00, 0xc0, 0x20, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00,
	/* 48 location 100.0, -3.0, 0.25 (float64) */
	0x40, 0x59, 0, 0, 0, 0, 0, 0,
	0xc0, 0x08, 0, 0, 0, 0, 0, 0,
	0x3f, 0xd0, 0, 0, 0, 0, 0, 0,
	/* 72 orientation psi 0.5, theta -0.25, phi 0 */
	0x3f, 0x00, 0x00, 0x00, 0xbe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 84 appearance 0x00010000 */
	0x00, 0x01, 0x00, 0x00,
	/* 88 DR algorithm 4 (RVW) */
	0x04,
	/* 89 DR other: type 1 local Euler, unused 0, 0.5, 0.0, -1.0 */
	0x01, 0x00, 0x00,
	0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xbf, 0x80, 0x00, 0x00,
	/* 104 linear acceleration 0, 0, -9.75 */
	0, 0, 0, 0, 0, 0, 0, 0, 0xc1, 0x1c, 0x00, 0x00,
	/* 116 angular velocity 0, 0, 0.125 */
	0, 0, 0, 0, 0, 0, 0, 0, 0x3e, 0x00, 0x00, 0x00,
	/* 128 marking: ASCII, "BOT7" padded with NUL to 11 */
	0x01, 'B', 'O', 'T', '7', 0, 0, 0, 0, 0, 0, 0,
	/* 140 capabilities 0x00000005 */
	0x00, 0x00, 0x00, 0x05,
	/* 144 reckon timing record: type 240, format 1, reserved,
	 * seq 0x01020304, send_ns */
	0xf0, 0x01, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04,
	0x00, 0x00, 0x07, 0xab, 0xd3, 0x6a, 0xe4, 0xc0,
	/* 160 predictor record 0: type 241, model 5, chunk 0, blob 13 octets */
	0xf1, 0x05, 0x00, 0x0d, 0x10, 0x11, 0x12, 0x13,
	0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b,
	/* 176 predictor record 1: chunk 1, last blob octet, zero padding */
	0xf1, 0x05, 0x01, 0x0d, 0x1c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};
/* clang-format on */

static void kat_struct(struct reckon_espdu *p)
{
	unsigned i;

	memset(p, 0, sizeof(*p));
	p->exercise = 9;
	p->pdu_status = 0x02;
	p->send_ns = 8434567800000ull;
	p->seq = 0x01020304;
	p->id = (struct reckon_entity_id){1, 2, 3};
	p->force = 1;
	p->type = (struct reckon_entity_type){3, 1, 225, 1, 2, 3, 4};
	p->vel = (struct reckon_vec3){1.0, -2.5, 0.5};
	p->pos = (struct reckon_vec3){100.0, -3.0, 0.25};
	p->ori = (struct reckon_euler){0.5, -0.25, 0.0};
	p->appearance = 0x00010000;
	p->dr_alg = RECKON_DRM_RVW;
	p->dr_other.type = RECKON_DR_OTHER_LOCAL_EULER;
	p->dr_other.v[0] = 0.5;
	p->dr_other.v[2] = -1.0;
	p->acc = (struct reckon_vec3){0, 0, -9.75};
	p->angvel = (struct reckon_vec3){0, 0, 0.125};
	strcpy(p->marking, "BOT7");
	p->capabilities = 5;
	p->model = 5;
	p->blob_len = 13;
	for (i = 0; i < 13; i++)
		p->blob[i] = (uint8_t)(0x10 + i);
}

Test(espdu_kat, encode_matches_hand_built_bytes)
{
	struct reckon_espdu p;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len = 0, i;

	kat_struct(&p);
	cr_assert_eq(reckon_espdu_encoded_len(&p), sizeof(kat));
	cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len), 0);
	cr_assert_eq(len, sizeof(kat));
	for (i = 0; i < sizeof(kat); i++)
		cr_assert_eq(buf[i], kat[i],
			     "octet %zu: got 0x%02x, want 0x%02x", i, buf[i],
			     kat[i]);
}

Test(espdu_kat, decode_gives_back_the_struct)
{
	struct reckon_espdu want, got;

	kat_struct(&want);
	cr_assert_eq(reckon_espdu_decode(kat, sizeof(kat), &got),
		     RECKON_ESPDU_OK);
	cr_assert_eq(got.id.site, 1);
	cr_assert_eq(got.id.application, 2);
	cr_assert_eq(got.id.entity, 3);
	cr_assert_eq(got.vel.y, -2.5);
	cr_assert_eq(got.pos.x, 100.0);
	cr_assert_eq(got.acc.z, -9.75);
	cr_assert_eq(got.dr_alg, RECKON_DRM_RVW);
	cr_assert_str_eq(got.marking, "BOT7");
	cr_assert_eq(got.send_ns, 8434567800000ull);
	cr_assert_eq(got.blob_len, 13);
	cr_assert_eq(memcmp(&got, &want, sizeof(got)), 0);
}

/* The layout header must agree with the standard's offsets that the
 * table above was written from. */
Test(espdu_kat, layout_offsets)
{
	cr_assert_eq(ESPDU_OFF_TIMESTAMP, 4);
	cr_assert_eq(ESPDU_OFF_LENGTH, 8);
	cr_assert_eq(ESPDU_OFF_SITE, 12);
	cr_assert_eq(ESPDU_OFF_NUM_VP, 19);
	cr_assert_eq(ESPDU_OFF_VELOCITY, 36);
	cr_assert_eq(ESPDU_OFF_LOCATION, 48);
	cr_assert_eq(ESPDU_OFF_ORIENTATION, 72);
	cr_assert_eq(ESPDU_OFF_DR_ALG, 88);
	cr_assert_eq(ESPDU_OFF_ACCEL, 104);
	cr_assert_eq(ESPDU_OFF_ANGVEL, 116);
	cr_assert_eq(ESPDU_OFF_MARK_CHARSET, 128);
	cr_assert_eq(ESPDU_OFF_CAPABILITIES, 140);
	cr_assert_eq(ESPDU_FIXED_LEN, 144);
}

/* 3600 s / 2^31 = 1676.38 ns per unit; 1234.5678 s is unit 736448378,
 * which starts at floor(736448378 * 3600e9 / 2^31) = 1234567799046 ns. */
Test(espdu_kat, dis_timestamp_value)
{
	cr_assert_eq(reckon_dis_timestamp(8434567800000ull, 0), 0x57ca9ef4u);
	cr_assert_eq(reckon_dis_timestamp(8434567800000ull, 1), 0x57ca9ef5u);
	cr_assert_eq(reckon_dis_timestamp_ns(0x57ca9ef4u), 1234567799046ull);
}
