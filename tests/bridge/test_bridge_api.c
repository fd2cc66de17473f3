/*
 * test_bridge_api.c: Criterion tests of the bridge's API edges
 * (daemon/bridge/bridge.c) that need no namespaces: bad arguments are refused
 * with -EINVAL and leave the output untouched, a port that does not exist
 * is an error, and (as root, on the loopback device, reading only) a
 * one-port bridge reports zero counters, refuses out-of-range pairs, takes
 * a live spec change and frees cleanly, and reads what crosses the
 * loopback device through either receive backend, libpcap or the
 * TPACKET_V3 ring (a frame to no port's MAC is counted unknown_dst and
 * goes nowhere). The backend is chosen by bridge_set_default_rx, else
 * RECKON_BRIDGE_RX; a bad value there is refused. A bridge runs its
 * thread at RECKON_BRIDGE_NICE (default -10) and puts the niceness back
 * when freed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <criterion/criterion.h>
#include <event2/event.h>

#include "bridge.h"

static struct bridge_conf sc;
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

/* The one-port loopback bridge, made and freed, with the thread's
 * niceness seen while it exists. */
static int nice_while_bridged(void)
{
	struct bridge_port p = {.ifindex = 1, .mac = {2, 0, 0, 0, 0, 1}};
	struct bridge *b;
	int rc, nice;

	sc.nhosts = 1;
	rc = bridge_new(base, &sc, 1, &p, 1, NULL, &b);
	cr_assert_eq(rc, 0, "bridge_new: %s", strerror(-rc));
	nice = getpriority(PRIO_PROCESS, 0);
	bridge_free(b);
	return nice;
}

Test(bridge_api, runs_at_its_niceness)
{
	int was = getpriority(PRIO_PROCESS, 0);
	struct bridge *b = (struct bridge *)0x1;
	int v;

	if (geteuid() != 0)
		cr_skip_test("needs root for AF_PACKET and a lower niceness");
	unsetenv("RECKON_BRIDGE_NICE");
	cr_assert_eq(bridge_nice_from_env(&v), 0);
	cr_assert_eq(v, BRIDGE_NICE_DEFAULT);
	cr_assert_eq(nice_while_bridged(), BRIDGE_NICE_DEFAULT);
	cr_assert_eq(getpriority(PRIO_PROCESS, 0), was, "put back");
	setenv("RECKON_BRIDGE_NICE", "3", 1);
	cr_assert_eq(nice_while_bridged(), 3);
	cr_assert_eq(getpriority(PRIO_PROCESS, 0), was, "put back");
	setenv("RECKON_BRIDGE_NICE", "-21", 1);
	cr_assert_eq(bridge_nice_from_env(&v), -EINVAL);
	setenv("RECKON_BRIDGE_NICE", "x", 1);
	cr_assert_eq(bridge_new(base, &sc, 1,
				&(struct bridge_port){.ifindex = 1}, 1, NULL,
				&b),
		     -EINVAL);
	cr_assert_eq(b, (struct bridge *)0x1, "untouched on error");
}

Test(bridge_api, rx_backend_names)
{
	enum bridge_rx rx = BRIDGE_RX_RING;

	cr_assert_eq(bridge_rx_parse("pcap", &rx), 0);
	cr_assert_eq(rx, BRIDGE_RX_PCAP);
	cr_assert_eq(bridge_rx_parse("ring", &rx), 0);
	cr_assert_eq(rx, BRIDGE_RX_RING);
	cr_assert_eq(bridge_rx_parse("PCAP", &rx), -EINVAL);
	cr_assert_eq(bridge_rx_parse("", &rx), -EINVAL);
	cr_assert_eq(bridge_rx_parse(NULL, &rx), -EINVAL);
	cr_assert_eq(rx, BRIDGE_RX_RING, "untouched on error");
	cr_assert_str_eq(bridge_rx_name(BRIDGE_RX_PCAP), "pcap");
	cr_assert_str_eq(bridge_rx_name(BRIDGE_RX_RING), "ring");
	cr_assert_eq(bridge_set_default_rx((enum bridge_rx)7), -EINVAL);
}

/* Criterion runs each test in its own process, so the environment and
 * the process-wide default set here do not leak into other tests. */
Test(bridge_api, rx_default_comes_from_the_environment)
{
	struct bridge_port p[2] = {
		{.ifindex = 1, .mac = {2, 0, 0, 0, 0, 1}},
		{.ifindex = 2, .mac = {2, 0, 0, 0, 0, 2}},
	};
	struct bridge *b = (struct bridge *)0x1;
	enum bridge_rx rx = BRIDGE_RX_RING;

	unsetenv("RECKON_BRIDGE_RX");
	cr_assert_eq(bridge_default_rx(&rx), 0);
	cr_assert_eq(rx, BRIDGE_RX_PCAP, "pcap is the default");
	setenv("RECKON_BRIDGE_RX", "ring", 1);
	cr_assert_eq(bridge_default_rx(&rx), 0);
	cr_assert_eq(rx, BRIDGE_RX_RING);
	setenv("RECKON_BRIDGE_RX", "tpacket", 1);
	cr_assert_eq(bridge_default_rx(&rx), -EINVAL);
	cr_assert_eq(rx, BRIDGE_RX_RING, "untouched on error");
	/* A bad value is an error of bridge_new, before any socket. */
	cr_assert_eq(bridge_new(base, &sc, 1, p, 2, NULL, &b), -EINVAL);
	cr_assert_eq(b, (struct bridge *)0x1);
	/* An explicit choice wins over the environment. */
	cr_assert_eq(bridge_set_default_rx(BRIDGE_RX_PCAP), 0);
	cr_assert_eq(bridge_default_rx(&rx), 0);
	cr_assert_eq(rx, BRIDGE_RX_PCAP);
}

/* Send one-byte UDP datagrams to 127.0.0.1 through a one-port bridge on
 * the loopback device with backend rx until it has read one (or 200
 * rounds of 50 ms, which only stops a broken bridge from hanging the
 * test); the stats are left in st. */
static void loopback_run(enum bridge_rx rx, struct bridge_stats *st)
{
	struct bridge_port p = {.ifindex = 1, .mac = {2, 0, 0, 0, 0, 1}};
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(9)};
	struct timeval tick = {0, 50000};
	struct bridge *b;
	int rc, fd;

	sc.nhosts = 1;
	cr_assert_eq(bridge_set_default_rx(rx), 0);
	rc = bridge_new(base, &sc, 1, &p, 1, NULL, &b);
	cr_assert_eq(rc, 0, "bridge_new: %s", strerror(-rc));
	cr_assert_eq(bridge_rx_of(b), rx);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	cr_assert_geq(fd, 0);
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	memset(st, 0, sizeof(*st));
	/* A ring block comes back 1 ms after its first frame at the
	 * latest; libpcap hands each frame over at once. */
	for (int i = 0; i < 200 && st->ring_frames + st->pcap_frames == 0;
	     i++) {
		cr_assert_eq(sendto(fd, "x", 1, 0, (struct sockaddr *)&to,
				    sizeof(to)),
			     1);
		event_base_loopexit(base, &tick);
		event_base_dispatch(base);
		cr_assert_eq(bridge_stats(b, st), 0);
	}
	close(fd);
	bridge_free(b);
	/* Loopback frames carry all-zero MACs: unicast to no port. */
	cr_assert_geq(st->unknown_dst, 1);
	cr_assert_eq(st->passthrough, 0);
	cr_assert_eq(st->rx_errors + st->malformed + st->send_errors, 0);
}

/* The spin lead: 100 us unless the environment says otherwise, 0 turns
 * it off, and a value that is not 0..1000 microseconds is refused. */
Test(bridge_api, spin_lead_comes_from_the_environment)
{
	int64_t ns = -1;

	unsetenv("RECKON_BRIDGE_SPIN_US");
	cr_assert_eq(bridge_spin_from_env(&ns), 0);
	cr_assert_eq(ns, BRIDGE_SPIN_DEFAULT_US * 1000);
	setenv("RECKON_BRIDGE_SPIN_US", "", 1);
	cr_assert_eq(bridge_spin_from_env(&ns), 0);
	cr_assert_eq(ns, 100000);
	setenv("RECKON_BRIDGE_SPIN_US", "0", 1);
	cr_assert_eq(bridge_spin_from_env(&ns), 0);
	cr_assert_eq(ns, 0);
	setenv("RECKON_BRIDGE_SPIN_US", "250", 1);
	cr_assert_eq(bridge_spin_from_env(&ns), 0);
	cr_assert_eq(ns, 250000);
	setenv("RECKON_BRIDGE_SPIN_US", "1001", 1);
	cr_assert_eq(bridge_spin_from_env(&ns), -EINVAL);
	setenv("RECKON_BRIDGE_SPIN_US", "-1", 1);
	cr_assert_eq(bridge_spin_from_env(&ns), -EINVAL);
	setenv("RECKON_BRIDGE_SPIN_US", "50us", 1);
	cr_assert_eq(bridge_spin_from_env(&ns), -EINVAL);
	unsetenv("RECKON_BRIDGE_SPIN_US");
}

Test(bridge_api, loopback_frames_come_through_pcap)
{
	struct bridge_stats st;

	if (geteuid() != 0)
		cr_skip_test("needs root for AF_PACKET");
	loopback_run(BRIDGE_RX_PCAP, &st);
	cr_assert_geq(st.pcap_frames, 1);
	cr_assert_geq(st.pcap_reads, 1);
	cr_assert_leq(st.pcap_reads, st.pcap_frames);
	cr_assert_eq(st.ring_frames + st.ring_blocks, 0);
}

Test(bridge_api, loopback_frames_come_through_the_ring)
{
	struct bridge_stats st;

	if (geteuid() != 0)
		cr_skip_test("needs root for AF_PACKET");
	loopback_run(BRIDGE_RX_RING, &st);
	cr_assert_geq(st.ring_blocks, 1);
	cr_assert_geq(st.ring_frames, 1);
	cr_assert_eq(st.pcap_frames + st.pcap_reads, 0);
}
