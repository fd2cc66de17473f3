/*
 * tc_htb.c: the classifying half of the kernel netem backend, built with
 * libnl-route objects. On one interface: a root htb qdisc 1:0 whose
 * default class 1:1 carries unmatched traffic unimpaired, one htb class
 * 1:(i+2) per destination with rate and ceil far above what the link
 * carries (so htb sorts without shaping), and a u32 filter per destination
 * matching the IPv4 destination address (IP header offset 16) that steers
 * into that class. The netem leaves are grafted on by kernel_netem.c. knetem_clear
 * removes the root qdisc again.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
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

/* Offset of the destination address in an IPv4 header. */
#define IPV4_DADDR_OFF 16

static int add_root(struct nl_sock *sk, int ifindex, char *why, size_t len)
{
	struct rtnl_qdisc *q;
	struct nl_msg *m = NULL;
	char sub[160];
	int err;

	q = rtnl_qdisc_alloc();
	if (!q)
		return -ENOMEM;
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	rtnl_tc_set_handle(TC_CAST(q), KNETEM_ROOT_HANDLE);
	err = rtnl_tc_set_kind(TC_CAST(q), "htb");
	if (!err)
		err = rtnl_htb_set_defcls(q, KNETEM_DEFAULT_MINOR);
	if (!err)
		err = rtnl_qdisc_build_add_request(q, NLM_F_CREATE | NLM_F_EXCL,
						   &m);
	rtnl_qdisc_put(q);
	if (err < 0) {
		knetem_say(why, len, "htb root: %s", nl_geterror(err));
		return -ENOMEM;
	}
	err = knetem_talk(sk, m, sub, sizeof(sub));
	nlmsg_free(m);
	if (err)
		knetem_say(why, len, "htb root qdisc: %s", sub);
	return err;
}

static int add_class(struct nl_sock *sk, int ifindex, uint32_t classid,
		     char *sub, size_t sublen)
{
	struct rtnl_class *c;
	struct nl_msg *m = NULL;
	int err;

	c = rtnl_class_alloc();
	if (!c)
		return -ENOMEM;
	rtnl_tc_set_ifindex(TC_CAST(c), ifindex);
	rtnl_tc_set_parent(TC_CAST(c), KNETEM_ROOT_HANDLE);
	rtnl_tc_set_handle(TC_CAST(c), classid);
	err = rtnl_tc_set_kind(TC_CAST(c), "htb");
	/* Explicit buckets: libnl would derive them from the rate, which
	 * rounds to zero ticks at these speeds and makes htb pace every
	 * packet. */
	if (!err)
		err = rtnl_htb_set_rate(c, KNETEM_CLASS_RATE);
	if (!err)
		err = rtnl_htb_set_ceil(c, KNETEM_CLASS_RATE);
	if (!err)
		err = rtnl_htb_set_rbuffer(c, KNETEM_CLASS_BURST);
	if (!err)
		err = rtnl_htb_set_cbuffer(c, KNETEM_CLASS_BURST);
	if (!err)
		err = rtnl_class_build_add_request(c, NLM_F_CREATE | NLM_F_EXCL,
						   &m);
	rtnl_class_put(c);
	if (err < 0) {
		snprintf(sub, sublen, "%s", nl_geterror(err));
		return -ENOMEM;
	}
	err = knetem_talk(sk, m, sub, sublen);
	nlmsg_free(m);
	return err;
}

static int add_filter(struct nl_sock *sk, int ifindex, uint32_t dst_ip,
		      uint32_t classid, char *sub, size_t sublen)
{
	struct rtnl_cls *f;
	struct nl_msg *m = NULL;
	int err;

	f = rtnl_cls_alloc();
	if (!f)
		return -ENOMEM;
	rtnl_tc_set_ifindex(TC_CAST(f), ifindex);
	rtnl_tc_set_parent(TC_CAST(f), KNETEM_ROOT_HANDLE);
	err = rtnl_tc_set_kind(TC_CAST(f), "u32");
	if (!err) {
		rtnl_cls_set_prio(f, KNETEM_FILTER_PRIO);
		rtnl_cls_set_protocol(f, ETH_P_IP);
		err = rtnl_u32_set_classid(f, classid);
	}
	/* libnl takes the key in host order and stores it in network
	 * order, which is how the kernel compares it with the packet. */
	if (!err)
		err = rtnl_u32_add_key_uint32(f, ntohl(dst_ip), 0xffffffffu,
					      IPV4_DADDR_OFF, 0);
	if (!err)
		err = rtnl_u32_set_cls_terminal(f);
	if (!err)
		err = rtnl_cls_build_add_request(f, NLM_F_CREATE | NLM_F_EXCL,
						 &m);
	rtnl_cls_put(f);
	if (err < 0) {
		snprintf(sub, sublen, "%s", nl_geterror(err));
		return -ENOMEM;
	}
	err = knetem_talk(sk, m, sub, sublen);
	nlmsg_free(m);
	return err;
}

int knetem_tree_build_sk(struct nl_sock *sk, int ifindex,
			 const uint32_t *dst_ip, unsigned n, char *why,
			 size_t len)
{
	char ip[INET_ADDRSTRLEN], sub[160];
	unsigned i;
	int err;

	if (ifindex <= 0 || !dst_ip || n > KNETEM_MAX_DST) {
		knetem_say(why, len, "htb tree: bad arguments");
		return -EINVAL;
	}
	err = add_root(sk, ifindex, why, len);
	if (err)
		return err;
	err = add_class(sk, ifindex, KNETEM_ROOT_HANDLE | KNETEM_DEFAULT_MINOR,
			sub, sizeof(sub));
	if (err) {
		knetem_say(why, len, "htb default class 1:%x: %s",
		    KNETEM_DEFAULT_MINOR, sub);
		return err;
	}
	for (i = 0; i < n; i++) {
		err = add_class(sk, ifindex, KNETEM_CLASSID(i), sub,
				sizeof(sub));
		if (err) {
			knetem_say(why, len, "htb class 1:%x: %s",
			    KNETEM_CLASSID(i) & 0xffffu, sub);
			return err;
		}
		err = add_filter(sk, ifindex, dst_ip[i], KNETEM_CLASSID(i), sub,
				 sizeof(sub));
		if (err) {
			inet_ntop(AF_INET, &dst_ip[i], ip, sizeof(ip));
			knetem_say(why, len, "u32 filter for %s: %s", ip, sub);
			return err;
		}
	}
	return 0;
}

int knetem_tree_build(int ifindex, const uint32_t *dst_ip, unsigned n,
		      char *why, size_t len)
{
	struct nl_sock *sk;
	int err;

	err = knetem_sock_open(&sk);
	if (err) {
		knetem_say(why, len, "cannot open rtnetlink: %s", strerror(-err));
		return err;
	}
	/* Like knetem_apply: whatever root qdisc was there is replaced. */
	err = knetem_clear(ifindex);
	if (err)
		knetem_say(why, len, "cannot remove the old root qdisc: %s",
		    strerror(-err));
	else
		err = knetem_tree_build_sk(sk, ifindex, dst_ip, n, why, len);
	nl_socket_free(sk);
	/* Leave nothing half built. */
	if (err)
		(void)knetem_clear(ifindex);
	return err;
}

int knetem_clear_sk(struct nl_sock *sk, int ifindex)
{
	struct tcmsg tcm;
	struct nl_msg *m;
	char why[64];
	int err;

	m = nlmsg_alloc_simple(RTM_DELQDISC, 0);
	if (!m)
		return -ENOMEM;
	memset(&tcm, 0, sizeof(tcm));
	tcm.tcm_family = AF_UNSPEC;
	tcm.tcm_ifindex = ifindex;
	tcm.tcm_parent = TC_H_ROOT;
	if (nlmsg_append(m, &tcm, sizeof(tcm), NLMSG_ALIGNTO)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	err = knetem_talk(sk, m, why, sizeof(why));
	nlmsg_free(m);
	/* ENOENT: only the default qdisc (handle 0) was there. */
	return err == -ENOENT ? 0 : err;
}

int knetem_clear(int ifindex)
{
	struct nl_sock *sk;
	int err;

	if (ifindex <= 0)
		return -EINVAL;
	err = knetem_sock_open(&sk);
	if (err)
		return err;
	err = knetem_clear_sk(sk, ifindex);
	nl_socket_free(sk);
	return err;
}
