/*
 * relay.h: the relay role, the server of the client-server topology.
 * Players send their updates to it; it checks each datagram with the
 * ESPDU decoder (malformed ones are counted per reject reason and
 * dropped) and forwards the same bytes on the same lane to every
 * observer, so an update crosses two impaired links. Pure.
 */
#ifndef RECKON_ROLE_RELAY_H
#define RECKON_ROLE_RELAY_H

#include <stddef.h>
#include <stdint.h>

#include "proto/espdu.h"
#include "role/role.h"

struct role_relay {
	size_t n_lanes;
	uint16_t n_dest;
	struct reckon_espdu_counters verdicts[ROLE_MAX_LANES];
	uint64_t forwarded[ROLE_MAX_LANES]; /* updates forwarded */
	uint64_t bytes_in[ROLE_MAX_LANES];
	uint64_t datagrams_out[ROLE_MAX_LANES], bytes_out[ROLE_MAX_LANES];
	uint64_t send_errors[ROLE_MAX_LANES]; /* copies not sent (host error) */
};

/* -EINVAL for 0 or too many lanes, or no destination. */
int role_relay_init(struct role_relay *r, size_t n_lanes, uint16_t n_dest);

/* A datagram arrived on lane: 0 forwarded, -EBADMSG dropped (counted),
 * -EINVAL bad lane, or emit's negative value. */
int role_relay_recv(struct role_relay *r, uint16_t lane, const void *buf,
		    size_t len, role_emit_fn emit, void *arg);

#endif
