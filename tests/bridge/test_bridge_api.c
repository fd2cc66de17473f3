/*
 * test_bridge_api.c: Criterion tests of the bridge's API edges
 * (daemon/bridge.c) that need no namespaces: bad arguments are refused
 * with -EINVAL and leave the output untouched, a port that does not exist
 * is an error, and (as root, on the loopback device, reading only) a
 * one-port bridge reports zero counters, refuses out-of-range pairs, takes
 * a live spec change and frees cleanly, and reads what crosses the
 * loopback device through its TPACKET_V3 ring (a frame to no port's MAC
 * is counted unknown_dst and goes nowhere).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <criterion/criterion.h>
#include <event2/event.h>

#include "bridge.h"

static struct scenario sc;
static struct event_base *base;

static void setup(void)
{
	memset(&sc, 0, sizeof(sc));
	sc.nhosts = 2;
	strcpy(sc.hosts[0].name, "a");
	strcpy(sc.hosts[1].name, "b");
	base = event_base_new();
	cr_assert_not_null(base);
}

static void teardown(void)
{
	event_base_free(base);
}

TestSuite(bridge_api, .init = setup, .fini = teardown);

Test(bridge_api, bad_arguments_are_refused)
{
	struct bridge_port p[2] = {
		{.ifindex = 1, .mac = {2, 0, 0, 0, 0, 1}},
		{.ifindex = 2, .mac = {2, 0, 0, 0, 0, 2}},
	};
	struct bridge *b = (struct bridge *)0x1;

	cr_assert_eq(bridge_new(NULL, &sc, 1, p, 2, NULL, &b), -EINVAL);
	cr_assert_eq(bridge_new(base, NULL, 1, p, 2, NULL, &b), -EINVAL);
	cr_assert_eq(bridge_new(base, &sc, 1, NULL, 2, NULL, &b), -EINVAL);
	cr_assert_eq(bridge_new(base, &sc, 1, p, 2, NULL, NULL), -EINVAL);
	/* nports must match the scenario's hosts */
	cr_assert_eq(bridge_new(base, &sc, 1, p, 1, NULL, &b), -EINVAL);
	cr_assert_eq(bridge_new(base, &sc, 1, p, 0, NULL, &b), -EINVAL);
	/* two ports on one interface, or two hosts with one MAC */
	p[1].ifindex = 1;
	cr_assert_eq(bridge_new(base, &sc, 1, p, 2, NULL, &b), -EINVAL);
	p[1].ifindex = 2;
	memcpy(p[1].mac, p[0].mac, 6);
	cr_assert_eq(bridge_new(base, &sc, 1, p, 2, NULL, &b), -EINVAL);
	cr_assert_eq(b, (struct bridge *)0x1);
}

Test(bridge_api, missing_interface_is_an_error)
{
	struct bridge_port p[2] = {
		{.ifindex = 999991, .mac = {2, 0, 0, 0, 0, 1}},
		{.ifindex = 999992, .mac = {2, 0, 0, 0, 0, 2}},
	};
	struct bridge *b = (struct bridge *)0x1;

	/* ENODEV as root; EPERM for AF_PACKET without CAP_NET_RAW. */
	cr_assert_lt(bridge_new(base, &sc, 1, p, 2, NULL, &b), 0);
	cr_assert_eq(b, (struct bridge *)0x1);
}

Test(bridge_api, one_port_on_loopback)
{
	struct bridge_port p = {.ifindex = 1, .mac = {2, 0, 0, 0, 0, 1}};
	struct netem_counters c;
	struct netem_spec s;
	struct bridge_stats st;
	struct bridge *b;
	uint64_t pt = 99;
	int rc;

	if (geteuid() != 0)
		cr_skip_test("needs root for AF_PACKET");
	sc.nhosts = 1;
	rc = bridge_new(base, &sc, 1, &p, 1, NULL, &b);
	cr_assert_eq(rc, 0, "bridge_new: %s", strerror(-rc));
	cr_assert_eq(bridge_counters(b, 0, 0, &c), -EINVAL);
	cr_assert_eq(bridge_counters(b, 0, 1, &c), -EINVAL);
	cr_assert_eq(bridge_counters(NULL, 0, 1, &c), -EINVAL);
	netem_spec_init(&s);
	cr_assert_eq(bridge_set_spec(b, 0, 0, &s), -EINVAL);
	cr_assert_eq(bridge_set_spec(b, 1, 0, &s), -EINVAL);
	cr_assert_eq(bridge_set_spec(b, 0, 1, NULL), -EINVAL);
	bridge_passthrough(b, &pt);
	cr_assert_eq(pt, 0);
	cr_assert_eq(bridge_stats(b, &st), 0);
	cr_assert_eq(st.malformed + st.pool_full + st.send_errors, 0);
	cr_assert_eq(bridge_flush(b), 0);
	bridge_free(b);
}

Test(bridge_api, loopback_frames_come_through_the_ring)
{
	struct bridge_port p = {.ifindex = 1, .mac = {2, 0, 0, 0, 0, 1}};
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(9)};
	struct timeval tick = {0, 50000};
	struct bridge_stats st;
	struct bridge *b;
	int rc, fd;

	if (geteuid() != 0)
		cr_skip_test("needs root for AF_PACKET");
	sc.nhosts = 1;
	rc = bridge_new(base, &sc, 1, &p, 1, NULL, &b);
	cr_assert_eq(rc, 0, "bridge_new: %s", strerror(-rc));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	cr_assert_geq(fd, 0);
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	memset(&st, 0, sizeof(st));
	/* A datagram per round until a ring block has come back (a block
	 * is closed 1 ms after its first frame); the bound only stops a
	 * broken bridge from hanging the test. */
	for (int i = 0; i < 200 && st.ring_blocks == 0; i++) {
		cr_assert_eq(sendto(fd, "x", 1, 0, (struct sockaddr *)&to,
				    sizeof(to)),
			     1);
		event_base_loopexit(base, &tick);
		event_base_dispatch(base);
		cr_assert_eq(bridge_stats(b, &st), 0);
	}
	close(fd);
	cr_assert_geq(st.ring_blocks, 1);
	cr_assert_geq(st.ring_frames, 1);
	/* Loopback frames carry all-zero MACs: unicast to no port. */
	cr_assert_geq(st.unknown_dst, 1);
	cr_assert_eq(st.passthrough, 0);
	cr_assert_eq(st.rx_errors + st.malformed + st.send_errors, 0);
	bridge_free(b);
}
