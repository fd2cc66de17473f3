/*
 * knetns.c: namespace and link helpers for the kernel netem backend's
 * tests, built on libnl-route (see knetns.h). The namespace is the test
 * process's own unshared one, so links and addresses vanish when the
 * process exits, even if a test fails half way.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/neighbour.h>
#include <netlink/addr.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/neighbour.h>

#include "knetns.h"

static void say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static int sock(struct nl_sock **out)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk)
		return -ENOMEM;
	if (nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		return -EIO;
	}
	*out = sk;
	return 0;
}

int knetns_link_up(const char *name, char *why, size_t len)
{
	struct rtnl_link *cur = NULL, *chg;
	struct nl_sock *sk;
	int err;

	err = sock(&sk);
	if (err)
		return err;
	err = rtnl_link_get_kernel(sk, 0, name, &cur);
	if (err < 0) {
		say(why, len, "link %s: %s", name, nl_geterror(err));
		nl_socket_free(sk);
		return -ENODEV;
	}
	chg = rtnl_link_alloc();
	if (!chg) {
		rtnl_link_put(cur);
		nl_socket_free(sk);
		return -ENOMEM;
	}
	rtnl_link_set_flags(chg, IFF_UP);
	err = rtnl_link_change(sk, cur, chg, 0);
	rtnl_link_put(chg);
	rtnl_link_put(cur);
	nl_socket_free(sk);
	if (err < 0) {
		say(why, len, "link %s up: %s", name, nl_geterror(err));
		return -EIO;
	}
	return 0;
}

int knetns_enter(char *why, size_t len)
{
	if (unshare(CLONE_NEWNET) < 0) {
		int e = errno;

		say(why, len,
		    "cannot create a network namespace (%s): run as "
		    "root",
		    strerror(e));
		return -e;
	}
	return knetns_link_up("lo", why, len);
}

int knetns_veth(const char *name, const char *peer, pid_t peer_pid,
		int *ifindex, char *why, size_t len)
{
	struct nl_sock *sk;
	int err, idx;

	err = sock(&sk);
	if (err)
		return err;
	err = rtnl_link_veth_add(sk, name, peer, peer_pid);
	nl_socket_free(sk);
	if (err < 0) {
		say(why, len, "veth %s/%s: %s", name, peer, nl_geterror(err));
		return -EIO;
	}
	err = knetns_link_up(name, why, len);
	if (!err && peer_pid == getpid())
		err = knetns_link_up(peer, why, len);
	if (err)
		return err;
	idx = (int)if_nametoindex(name);
	if (!idx) {
		say(why, len, "veth %s has no ifindex", name);
		return -ENODEV;
	}
	*ifindex = idx;
	return 0;
}

int knetns_addr(int ifindex, const char *cidr, char *why, size_t len)
{
	struct rtnl_addr *a;
	struct nl_addr *local = NULL;
	struct nl_sock *sk;
	int err;

	err = nl_addr_parse(cidr, AF_INET, &local);
	if (err < 0) {
		say(why, len, "address %s: %s", cidr, nl_geterror(err));
		return -EINVAL;
	}
	a = rtnl_addr_alloc();
	err = a ? sock(&sk) : -ENOMEM;
	if (err) {
		nl_addr_put(local);
		rtnl_addr_put(a);
		return err;
	}
	rtnl_addr_set_ifindex(a, ifindex);
	rtnl_addr_set_local(a, local);
	err = rtnl_addr_add(sk, a, 0);
	nl_socket_free(sk);
	rtnl_addr_put(a);
	nl_addr_put(local);
	if (err < 0) {
		say(why, len, "address %s: %s", cidr, nl_geterror(err));
		return -EIO;
	}
	return 0;
}

int knetns_neigh(int ifindex, const char *ip, uint8_t last, char *why,
		 size_t len)
{
	unsigned char mac[6] = {0x02, 0, 0, 0, 0, last};
	struct nl_addr *dst = NULL, *ll;
	struct rtnl_neigh *n;
	struct nl_sock *sk;
	int err;

	err = nl_addr_parse(ip, AF_INET, &dst);
	if (err < 0)
		return -EINVAL;
	ll = nl_addr_build(AF_LLC, mac, sizeof(mac));
	n = rtnl_neigh_alloc();
	err = (ll && n) ? sock(&sk) : -ENOMEM;
	if (!err) {
		rtnl_neigh_set_ifindex(n, ifindex);
		rtnl_neigh_set_dst(n, dst);
		rtnl_neigh_set_lladdr(n, ll);
		rtnl_neigh_set_state(n, NUD_PERMANENT);
		err = rtnl_neigh_add(sk, n, NLM_F_CREATE);
		nl_socket_free(sk);
		if (err < 0) {
			say(why, len, "neighbour %s: %s", ip, nl_geterror(err));
			err = -EIO;
		}
	}
	rtnl_neigh_put(n);
	nl_addr_put(ll);
	nl_addr_put(dst);
	return err;
}

int knetns_no_ipv6(const char *name)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno; /* no IPv6 at all */
	ok = write(fd, "1", 1) == 1;
	close(fd);
	return ok ? 0 : -EIO;
}
