/*
 * relay.c: the relay role (see relay.h). Forwarding is store-and-forward
 * of the received bytes: the relay validates but never re-encodes, so
 * what observers decode is what the player sent.
 */
#include <errno.h>
#include <string.h>

#include "role/relay.h"

int role_relay_init(struct role_relay *r, size_t n_lanes, uint16_t n_dest)
{
	if (!r || n_lanes < 1 || n_lanes > ROLE_MAX_LANES || n_dest < 1)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->n_lanes = n_lanes;
	r->n_dest = n_dest;
	for (size_t l = 0; l < n_lanes; l++)
		reckon_espdu_counters_init(&r->verdicts[l]);
	return 0;
}

int role_relay_recv(struct role_relay *r, uint16_t lane, const void *buf,
		    size_t len, role_emit_fn emit, void *arg)
{
	int err;

	if (!r || !emit || lane >= r->n_lanes)
		return -EINVAL;
	r->bytes_in[lane] += len;
	if (reckon_espdu_decode_counted(buf, len, NULL, &r->verdicts[lane]) !=
	    RECKON_ESPDU_OK)
		return -EBADMSG;
	r->forwarded[lane]++;
	for (uint16_t d = 0; d < r->n_dest; d++) {
		struct role_dgram dg = {
			.dest = d, .lane = lane, .len = len, .buf = buf};

		err = emit(arg, &dg);
		if (err < 0)
			return err;
		if (err == ROLE_EMIT_FAILED) {
			r->send_errors[lane]++;
			continue;
		}
		r->datagrams_out[lane]++;
		r->bytes_out[lane] += len;
	}
	return 0;
}
