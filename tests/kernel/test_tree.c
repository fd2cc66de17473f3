/*
 * test_tree.c: Criterion tests of the htb + u32 half of the kernel netem
 * backend (daemon/kernel/tc_htb.c) on a real kernel. Each test runs in its own
 * forked process and unshares a network namespace, creates a veth pair in
 * it, builds the tree with knetem_tree_build (no netem leaves, so it works
 * on kernels without sch_netem), reads qdisc, classes and filters back
 * through libnl caches, and sends real UDP datagrams to check each one
 * lands in its destination's class. The namespace dies with the process.
 *
 *   [ test netns ]  kva 10.77.0.1/24 --- kvb (no address: frames end here)
 *                   static ARP: 10.77.0.2/.3/.9 -> 02:00:00:00:00:xx
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <linux/if_ether.h>
#include <linux/pkt_sched.h>
#include <netlink/netlink.h>
#include <netlink/route/class.h>
#include <netlink/route/classifier.h>
#include <netlink/route/cls/u32.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/htb.h>
#include <netlink/route/tc.h>

#include "kernel.h"
#include "knetns.h"
#include "netem.h"

#define NDST 3
static const char *dst_txt[NDST] = {"10.77.0.2", "10.77.0.3", "192.168.9.200"};

/* Enter a fresh namespace with veth kva/kvb; skip when we cannot. */
static int setup(uint32_t *ips)
{
	char why[160] = "";
	int i, idx;

	if (knetns_enter(why, sizeof(why)))
		cr_skip_test("kernel_tree needs network namespaces: %s", why);
	cr_assert_eq(
		knetns_veth("kva", "kvb", getpid(), &idx, why, sizeof(why)), 0,
		"%s", why);
	cr_assert_eq(knetns_no_ipv6("kva"), 0);
	cr_assert_eq(knetns_no_ipv6("kvb"), 0);
	for (i = 0; i < NDST; i++)
		cr_assert_eq(inet_pton(AF_INET, dst_txt[i], &ips[i]), 1);
	return idx;
}

static struct nl_sock *sock(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	cr_assert_not_null(sk);
	cr_assert_eq(nl_connect(sk, NETLINK_ROUTE), 0);
	return sk;
}

static struct rtnl_class *find_class(struct nl_cache *c, int idx,
				     uint32_t handle)
{
	struct rtnl_class *cl;

	for (cl = (struct rtnl_class *)nl_cache_get_first(c); cl;
	     cl = (struct rtnl_class *)nl_cache_get_next(OBJ_CAST(cl)))
		if (rtnl_tc_get_ifindex(TC_CAST(cl)) == idx &&
		    rtnl_tc_get_handle(TC_CAST(cl)) == handle)
			return cl;
	return NULL;
}

Test(kernel_tree, root_classes_filters_read_back)
{
	uint32_t ips[NDST];
	struct nl_cache *qc, *cc, *fc;
	struct rtnl_qdisc *root;
	struct rtnl_class *cl;
	struct rtnl_cls *f;
	struct nl_sock *sk;
	char why[160] = "";
	int idx, i, found[NDST] = {0};
	uint64_t r64;

	idx = setup(ips);
	cr_assert_eq(knetem_tree_build(idx, ips, NDST, why, sizeof(why)), 0,
		     "%s", why);
	sk = sock();

	cr_assert_eq(rtnl_qdisc_alloc_cache(sk, &qc), 0);
	root = rtnl_qdisc_get(qc, idx, KNETEM_ROOT_HANDLE);
	cr_assert_not_null(root, "no qdisc 1: on kva");
	cr_assert_str_eq(rtnl_tc_get_kind(TC_CAST(root)), "htb");
	cr_assert_eq(rtnl_tc_get_parent(TC_CAST(root)), TC_H_ROOT);
	cr_assert_eq(rtnl_htb_get_defcls(root), KNETEM_DEFAULT_MINOR);
	rtnl_qdisc_put(root);
	nl_cache_free(qc);

	cr_assert_eq(rtnl_class_alloc_cache(sk, idx, &cc), 0);
	cr_assert_eq(nl_cache_nitems(cc), NDST + 1);
	for (i = -1; i < NDST; i++) {
		uint32_t h = i < 0 ? (KNETEM_ROOT_HANDLE | KNETEM_DEFAULT_MINOR)
				   : KNETEM_CLASSID(i);

		cl = find_class(cc, idx, h);
		cr_assert_not_null(cl, "class %x missing", h);
		cr_assert_str_eq(rtnl_tc_get_kind(TC_CAST(cl)), "htb");
		/* htb dumps its top-level classes with parent "root". */
		cr_assert_eq(rtnl_tc_get_parent(TC_CAST(cl)), TC_H_ROOT);
		cr_assert_eq(rtnl_htb_get_rate64(cl, &r64), 0);
		cr_assert_eq(r64, KNETEM_CLASS_RATE);
		cr_assert_eq(rtnl_htb_get_ceil64(cl, &r64), 0);
		cr_assert_eq(r64, KNETEM_CLASS_RATE);
		/* Buckets are not zero (libnl's default at high rates),
		 * which would pace every packet. */
		cr_assert_gt(rtnl_htb_get_rbuffer(cl), 0u);
		cr_assert_gt(rtnl_htb_get_cbuffer(cl), 0u);
	}
	nl_cache_free(cc);

	cr_assert_eq(rtnl_cls_alloc_cache(sk, idx, KNETEM_ROOT_HANDLE, &fc), 0);
	for (f = (struct rtnl_cls *)nl_cache_get_first(fc); f;
	     f = (struct rtnl_cls *)nl_cache_get_next(OBJ_CAST(f))) {
		uint32_t classid, val, mask;
		int off, offmask;

		if (rtnl_u32_get_classid(f, &classid) < 0)
			continue; /* the u32 hash table node itself */
		cr_assert_str_eq(rtnl_tc_get_kind(TC_CAST(f)), "u32");
		cr_assert_eq(rtnl_cls_get_prio(f), KNETEM_FILTER_PRIO);
		cr_assert_eq(rtnl_cls_get_protocol(f), ETH_P_IP);
		cr_assert_eq(
			rtnl_u32_get_key(f, 0, &val, &mask, &off, &offmask), 0);
		cr_assert_eq(mask, 0xffffffffu);
		cr_assert_eq(off, 16, "key at %d, not the IPv4 daddr", off);
		for (i = 0; i < NDST; i++)
			if (val == ips[i]) {
				cr_assert_eq(classid, KNETEM_CLASSID(i),
					     "%s steers to %x", dst_txt[i],
					     classid);
				found[i]++;
			}
	}
	for (i = 0; i < NDST; i++)
		cr_assert_eq(found[i], 1, "%s: %d filters", dst_txt[i],
			     found[i]);
	nl_cache_free(fc);

	cr_assert_eq(knetem_clear(idx), 0);
	cr_assert_eq(rtnl_qdisc_alloc_cache(sk, &qc), 0);
	cr_assert_null(rtnl_qdisc_get(qc, idx, KNETEM_ROOT_HANDLE));
	nl_cache_free(qc);
	/* Clearing a clean link is not an error. */
	cr_assert_eq(knetem_clear(idx), 0);
	nl_socket_free(sk);
}

static uint64_t class_packets(struct nl_sock *sk, int idx, uint32_t h)
{
	struct nl_cache *cc;
	struct rtnl_class *cl;
	uint64_t n;

	cr_assert_eq(rtnl_class_alloc_cache(sk, idx, &cc), 0);
	cl = find_class(cc, idx, h);
	cr_assert_not_null(cl);
	n = rtnl_tc_get_stat(TC_CAST(cl), RTNL_TC_PACKETS);
	nl_cache_free(cc);
	return n;
}

static void send_udp(int fd, const char *ip, int count)
{
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(9)};
	int i;

	cr_assert_eq(inet_pton(AF_INET, ip, &to.sin_addr), 1);
	for (i = 0; i < count; i++)
		cr_assert_eq(sendto(fd, "reckon", 6, 0, (struct sockaddr *)&to,
				    sizeof(to)),
			     6, "sendto %s: %s", ip, strerror(errno));
}

/* Real datagrams: 5 to the first destination, 3 to the second, 2 to an
 * address with no filter. Each class counts exactly its own. */
Test(kernel_tree, datagrams_land_in_their_class)
{
	uint32_t ips[NDST];
	struct nl_sock *sk;
	char why[160] = "";
	int idx, fd;
	uint64_t d0, d1, d2, def;

	idx = setup(ips);
	cr_assert_eq(knetns_addr(idx, "10.77.0.1/24", why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(knetns_neigh(idx, "10.77.0.2", 2, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(knetns_neigh(idx, "10.77.0.3", 3, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(knetns_neigh(idx, "10.77.0.9", 9, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(knetem_tree_build(idx, ips, NDST, why, sizeof(why)), 0,
		     "%s", why);

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(fd, 0);
	send_udp(fd, "10.77.0.2", 5);
	send_udp(fd, "10.77.0.3", 3);
	send_udp(fd, "10.77.0.9", 2);
	close(fd);

	sk = sock();
	d0 = class_packets(sk, idx, KNETEM_CLASSID(0));
	d1 = class_packets(sk, idx, KNETEM_CLASSID(1));
	d2 = class_packets(sk, idx, KNETEM_CLASSID(2));
	def = class_packets(sk, idx, KNETEM_ROOT_HANDLE | KNETEM_DEFAULT_MINOR);
	nl_socket_free(sk);
	cr_assert_eq(d0, 5, "class of 10.77.0.2 saw %llu",
		     (unsigned long long)d0);
	cr_assert_eq(d1, 3, "class of 10.77.0.3 saw %llu",
		     (unsigned long long)d1);
	cr_assert_eq(d2, 0);
	/* The default class gets the unmatched datagrams (and nothing else
	 * is sent: IPv6 is off and the neighbours are static). */
	cr_assert_eq(def, 2, "default class saw %llu", (unsigned long long)def);
}

Test(kernel_tree, bad_arguments_change_nothing)
{
	uint32_t ips[NDST];
	struct nl_cache *qc;
	struct nl_sock *sk;
	char why[160] = "";
	int idx;

	idx = setup(ips);
	cr_assert_eq(knetem_tree_build(idx, NULL, 1, why, sizeof(why)),
		     -EINVAL);
	cr_assert_eq(knetem_tree_build(idx, ips, KNETEM_MAX_DST + 1, why,
				       sizeof(why)),
		     -EINVAL);
	cr_assert_eq(knetem_tree_build(0, ips, 1, why, sizeof(why)), -EINVAL);
	sk = sock();
	cr_assert_eq(rtnl_qdisc_alloc_cache(sk, &qc), 0);
	cr_assert_null(rtnl_qdisc_get(qc, idx, KNETEM_ROOT_HANDLE));
	nl_cache_free(qc);
	nl_socket_free(sk);
	/* A missing interface is the kernel's refusal, passed on. */
	cr_assert_lt(knetem_tree_build(idx + 100, ips, 1, why, sizeof(why)), 0);
	cr_assert_neq(why[0], '\0');
}

/* On a kernel without sch_netem, knetem_apply builds the htb tree, is
 * refused at the first netem leaf, and removes the tree again: the kernel's
 * reason comes back and nothing is left on the link. */
Test(kernel_tree, apply_without_netem_fails_clean)
{
	struct netem_spec s[NDST];
	const struct netem_spec *sp[NDST];
	uint32_t ips[NDST];
	struct nl_cache *qc;
	struct nl_sock *sk;
	char why[256] = "";
	int idx, i, err;

	if (knetem_probe(why, sizeof(why)) == 0)
		cr_skip_test(
			"this kernel has sch_netem: see kernel_apply_live");
	idx = setup(ips);
	for (i = 0; i < NDST; i++) {
		netem_spec_init(&s[i]);
		s[i].latency_ns = 1000000 * (i + 1);
		sp[i] = &s[i];
	}
	why[0] = '\0';
	err = knetem_apply(idx, ips, sp, NDST, why, sizeof(why));
	cr_assert_lt(err, 0);
	cr_log_info("knetem_apply: %d %s", err, why);
	cr_assert(strstr(why, "netem leaf for destination 0"), "why: %s", why);
	sk = sock();
	cr_assert_eq(rtnl_qdisc_alloc_cache(sk, &qc), 0);
	cr_assert_null(rtnl_qdisc_get(qc, idx, KNETEM_ROOT_HANDLE),
		       "the htb tree was left behind");
	nl_cache_free(qc);
	nl_socket_free(sk);
}

/* A bad spec is refused before anything is sent: an old tree stays. */
Test(kernel_tree, apply_with_bad_spec_changes_nothing)
{
	struct netem_spec s;
	const struct netem_spec *sp[NDST];
	uint32_t ips[NDST];
	struct nl_cache *qc;
	struct nl_sock *sk;
	struct rtnl_qdisc *q;
	char why[256] = "";
	int idx, i;

	idx = setup(ips);
	cr_assert_eq(knetem_tree_build(idx, ips, NDST, why, sizeof(why)), 0,
		     "%s", why);
	netem_spec_init(&s);
	s.latency_ns = -5;
	for (i = 0; i < NDST; i++)
		sp[i] = &s;
	cr_assert_eq(knetem_apply(idx, ips, sp, NDST, why, sizeof(why)),
		     -EINVAL);
	cr_assert(strstr(why, "destination 0"), "why: %s", why);
	sp[0] = NULL;
	cr_assert_eq(knetem_apply(idx, ips, sp, NDST, why, sizeof(why)),
		     -EINVAL);
	sk = sock();
	cr_assert_eq(rtnl_qdisc_alloc_cache(sk, &qc), 0);
	q = rtnl_qdisc_get(qc, idx, KNETEM_ROOT_HANDLE);
	cr_assert_not_null(q, "a refused spec removed the existing tree");
	rtnl_qdisc_put(q);
	nl_cache_free(qc);
	nl_socket_free(sk);
}
