/*
 * test_relay.c: the relay role (agents/role/relay.c): a valid PDU is
 * forwarded byte for byte on its lane to every observer; a malformed one
 * is dropped and counted by reason; transmit errors come back; a copy
 * the host failed to send is a send error, not a datagram sent.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "role/relay.h"
#include "role/update_espdu.h"
#include "role_fixture.h"

static size_t one_pdu(uint8_t *buf)
{
	struct predict_update u;
	struct reckon_espdu p;
	size_t len;

	memset(&u, 0, sizeof(u));
	u.t_ns = 123456789;
	u.entity = 4;
	u.drm = PREDICT_DRM_FPW;
	u.pos[0] = 10;
	cr_assert_eq(role_update_to_espdu(&u, 1, 0, &p), 0);
	cr_assert_eq(reckon_espdu_encode(&p, buf, RECKON_ESPDU_MAX_LEN, &len),
		     0);
	return len;
}

Test(relay, forwards_to_every_observer)
{
	struct role_relay r;
	struct fix_queue q;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len = one_pdu(buf);

	fix_queue_init(&q);
	cr_assert_eq(role_relay_init(&r, 2, 3), 0);
	cr_assert_eq(role_relay_recv(&r, 1, buf, len, fix_emit, &q), 0);
	cr_assert_eq(q.n, 3);
	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(q.d[i].dest, i);
		cr_assert_eq(q.d[i].lane, 1);
		cr_assert_eq(q.d[i].len, len);
		cr_assert_eq(memcmp(q.d[i].buf, buf, len), 0);
	}
	cr_assert_eq(r.forwarded[1], 1);
	cr_assert_eq(r.bytes_in[1], len);
	cr_assert_eq(r.bytes_out[1], 3 * len);
	cr_assert_eq(r.datagrams_out[1], 3);
	cr_assert_eq(r.send_errors[1], 0);
	cr_assert_eq(r.forwarded[0], 0);
	fix_queue_free(&q);
}

Test(relay, drops_malformed)
{
	struct role_relay r;
	struct fix_queue q;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len = one_pdu(buf);

	fix_queue_init(&q);
	cr_assert_eq(role_relay_init(&r, 1, 2), 0);
	buf[0] = 6; /* DIS version 6 */
	cr_assert_eq(role_relay_recv(&r, 0, buf, len, fix_emit, &q), -EBADMSG);
	cr_assert_eq(role_relay_recv(&r, 0, buf, 5, fix_emit, &q), -EBADMSG);
	cr_assert_eq(q.n, 0);
	cr_assert_eq(r.verdicts[0].n[RECKON_ESPDU_BAD_VERSION], 1);
	cr_assert_eq(r.verdicts[0].n[RECKON_ESPDU_TRUNCATED], 1);
	cr_assert_eq(r.forwarded[0], 0);
	cr_assert_eq(role_relay_recv(&r, 1, buf, len, fix_emit, &q), -EINVAL);
	fix_queue_free(&q);
}

Test(relay, emit_error_returned)
{
	struct role_relay r;
	struct fix_queue q;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len = one_pdu(buf);

	fix_queue_init(&q);
	q.fail_after = 1;
	cr_assert_eq(role_relay_init(&r, 1, 2), 0);
	cr_assert_eq(role_relay_recv(&r, 0, buf, len, fix_emit, &q), -EPIPE);
	cr_assert_eq(role_relay_init(&r, 0, 2), -EINVAL);
	cr_assert_eq(role_relay_init(&r, 1, 0), -EINVAL);
	fix_queue_free(&q);
}

Test(relay, failed_sends_are_not_counted_as_sent)
{
	struct role_relay r;
	struct fix_queue q;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len = one_pdu(buf);

	fix_queue_init(&q);
	q.refuse_dest = 1;
	cr_assert_eq(role_relay_init(&r, 1, 3), 0);
	cr_assert_eq(role_relay_recv(&r, 0, buf, len, fix_emit, &q), 0);
	cr_assert_eq(role_relay_recv(&r, 0, buf, len, fix_emit, &q), 0);
	/* dest 0 and 2 got both copies, dest 1 none */
	cr_assert_eq(q.n, 4);
	cr_assert_eq(r.forwarded[0], 2);
	cr_assert_eq(r.datagrams_out[0], 4);
	cr_assert_eq(r.bytes_out[0], 4 * len);
	cr_assert_eq(r.send_errors[0], 2);
	fix_queue_free(&q);
}
