/*
 * netns.c: builds a run's namespaces and veth pairs with libnl-route
 * (RTM_NEWLINK/NEWADDR/NEWROUTE), never by running ip(8). The hub is an
 * anonymous namespace the calling thread unshares; host namespaces belong to
 * host shim processes (hostproc.c) and are entered with setns() only for as
 * long as it takes to configure them. Offloads are switched off with the
 * legacy ethtool ioctls so frames crossing the userspace bridge are
 * MTU-sized and carry real checksums (the receiver verifies them, as it
 * would behind a real netem qdisc).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/bridge.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/neighbour.h>
#include <netlink/route/route.h>

#include "ns.h"

/* libnl reports its own NLE_* codes; the daemon speaks errno. */
static int nlerr(int e)
{
	switch (e < 0 ? -e : e) {
	case 0:
		return 0;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	default:
		return -EIO;
	}
}

static int nl_open(struct nl_sock **out)
{
	struct nl_sock *sk = nl_socket_alloc();
	int err;

	if (sk == NULL)
		return -ENOMEM;
	err = nl_connect(sk, NETLINK_ROUTE);
	if (err < 0) {
		nl_socket_free(sk);
		return nlerr(err);
	}
	*out = sk;
	return 0;
}

/* Best effort: a kernel without IPv6 has no such file. */
static void sysctl_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, val, strlen(val)) < 0) {
		/* read-only sysctl (e.g. some user namespaces): keep going */
	}
	close(fd);
}

static void ipv6_off(const char *ifname)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 ifname);
	sysctl_write(path, "1");
}

int netns_open_self(int *fd)
{
	int f = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

	if (f < 0)
		return -errno;
	*fd = f;
	return 0;
}

int netns_enter(int fd)
{
	return setns(fd, CLONE_NEWNET) < 0 ? -errno : 0;
}

static int link_set_up(struct nl_sock *sk, const char *name, int *ifindex)
{
	struct rtnl_link *link = NULL, *change;
	int err = rtnl_link_get_kernel(sk, 0, name, &link);

	if (err < 0)
		return nlerr(err);
	change = rtnl_link_alloc();
	if (change == NULL) {
		rtnl_link_put(link);
		return -ENOMEM;
	}
	rtnl_link_set_flags(change, IFF_UP);
	err = rtnl_link_change(sk, link, change, 0);
	if (err >= 0 && ifindex != NULL)
		*ifindex = rtnl_link_get_ifindex(link);
	rtnl_link_put(change);
	rtnl_link_put(link);
	return nlerr(err);
}

int netns_new_hub(void)
{
	struct nl_sock *sk;
	int err;

	if (unshare(CLONE_NEWNET) < 0)
		return -errno;
	/* New devices in the hub get no IPv6 link-local address, so the
	 * bridge sees only what the hosts send. */
	sysctl_write("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	sysctl_write("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
	err = nl_open(&sk);
	if (err < 0)
		return err;
	err = link_set_up(sk, "lo", NULL);
	nl_socket_free(sk);
	return err;
}

static void mac_of(unsigned i, unsigned char last, unsigned char mac[6])
{
	mac[0] = 0x02; /* locally administered, unicast */
	mac[1] = 0x72; /* 'r' */
	mac[2] = 0x6b; /* 'k' */
	mac[3] = (unsigned char)(i >> 8);
	mac[4] = (unsigned char)i;
	mac[5] = last;
}

void netns_host_mac(unsigned i, unsigned char mac[6])
{
	mac_of(i, 0x01, mac);
}

void netns_hub_mac(unsigned i, unsigned char mac[6])
{
	mac_of(i, 0x02, mac);
}

static int set_mac(struct rtnl_link *l, const unsigned char mac[6])
{
	struct nl_addr *a = nl_addr_build(AF_LLC, mac, 6);

	if (a == NULL)
		return -ENOMEM;
	rtnl_link_set_addr(l, a);
	nl_addr_put(a);
	return 0;
}

int netns_veth_add(unsigned i, pid_t pid, int *hub_ifindex)
{
	struct rtnl_link *link, *peer;
	struct nl_sock *sk;
	unsigned char mac[6];
	char name[IFNAMSIZ];
	int err, idx = 0;

	err = nl_open(&sk);
	if (err < 0)
		return err;
	link = rtnl_link_veth_alloc();
	if (link == NULL) {
		nl_socket_free(sk);
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "rk%u", i);
	rtnl_link_set_name(link, name);
	netns_hub_mac(i, mac);
	err = set_mac(link, mac);
	peer = rtnl_link_veth_get_peer(link);
	rtnl_link_set_name(peer, NETNS_HOST_IF);
	netns_host_mac(i, mac);
	if (err == 0)
		err = set_mac(peer, mac);
	rtnl_link_set_ns_pid(peer, pid);
	rtnl_link_put(peer);
	if (err == 0)
		err = nlerr(rtnl_link_add(sk, link, NLM_F_CREATE | NLM_F_EXCL));
	rtnl_link_put(link);
	if (err == 0) {
		ipv6_off(name);
		err = netns_offloads_off(name);
	}
	if (err == 0)
		err = link_set_up(sk, name, &idx);
	nl_socket_free(sk);
	if (err == 0)
		*hub_ifindex = idx;
	return err;
}

static int ethtool_set(int fd, const char *ifname, uint32_t cmd, uint32_t val)
{
	struct ethtool_value ev = {.cmd = cmd, .data = val};
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (char *)&ev;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		return -errno;
	return 0;
}

int netns_offloads_off(const char *ifname)
{
	static const uint32_t cmds[] = {
		ETHTOOL_STSO, ETHTOOL_SGSO,    ETHTOOL_SGRO,
		ETHTOOL_SSG,  ETHTOOL_STXCSUM, ETHTOOL_SRXCSUM,
	};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int err = 0;

	if (fd < 0)
		return -errno;
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
		int e = ethtool_set(fd, ifname, cmds[k], 0);

		/* a feature the driver cannot change is not an error */
		if (e == -ENODEV || e == -EPERM) {
			err = e;
			break;
		}
	}
	close(fd);
	return err;
}

/* A permanent IPv4 neighbour entry: ip is at mac on ifindex. */
static int neigh_add(struct nl_sock *sk, int ifindex, uint32_t ip,
		     const unsigned char mac[6])
{
	struct rtnl_neigh *ne = rtnl_neigh_alloc();
	struct nl_addr *dst = nl_addr_build(AF_INET, &ip, 4);
	struct nl_addr *ll = nl_addr_build(AF_LLC, mac, 6);
	int err = -ENOMEM;

	if (ne != NULL && dst != NULL && ll != NULL) {
		rtnl_neigh_set_ifindex(ne, ifindex);
		rtnl_neigh_set_family(ne, AF_INET);
		rtnl_neigh_set_state(ne, NUD_PERMANENT);
		rtnl_neigh_set_lladdr(ne, ll);
		err = nlerr(rtnl_neigh_set_dst(ne, dst));
		if (err == 0)
			err = nlerr(rtnl_neigh_add(
				sk, ne, NLM_F_CREATE | NLM_F_REPLACE));
	}
	if (ll != NULL)
		nl_addr_put(ll);
	if (dst != NULL)
		nl_addr_put(dst);
	if (ne != NULL)
		rtnl_neigh_put(ne);
	return err;
}

/* On ifindex, a permanent entry for every host j but self: ip[j] at
 * netns_host_mac(j). */
static int neighbours_add(struct nl_sock *sk, int ifindex, const uint32_t *ip,
			  unsigned n, unsigned self)
{
	int err = 0;

	for (unsigned j = 0; err == 0 && j < n; j++) {
		unsigned char mac[6];

		if (j == self)
			continue;
		netns_host_mac(j, mac);
		err = neigh_add(sk, ifindex, ip[j], mac);
	}
	return err;
}

static int host_configure(const uint32_t *ip, unsigned n, unsigned self,
			  unsigned prefix, int *host_ifindex)
{
	struct rtnl_addr *ra = NULL;
	struct rtnl_route *rt = NULL;
	struct rtnl_nexthop *nh;
	struct nl_addr *local = NULL, *dst = NULL;
	struct nl_sock *sk;
	uint32_t any = 0;
	uint32_t addr = ip[self];
	int err, ifindex = 0;

	sysctl_write("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	sysctl_write("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
	ipv6_off(NETNS_HOST_IF);
	err = nl_open(&sk);
	if (err < 0)
		return err;
	err = link_set_up(sk, "lo", NULL);
	if (err == 0)
		err = netns_offloads_off(NETNS_HOST_IF);
	if (err == 0) {
		ra = rtnl_addr_alloc();
		local = nl_addr_build(AF_INET, &addr, 4);
		if (ra == NULL || local == NULL)
			err = -ENOMEM;
	}
	if (err == 0)
		err = link_set_up(sk, NETNS_HOST_IF, &ifindex);
	if (err == 0) {
		nl_addr_set_prefixlen(local, (int)prefix);
		rtnl_addr_set_ifindex(ra, ifindex);
		err = nlerr(rtnl_addr_set_local(ra, local));
	}
	if (err == 0)
		err = nlerr(rtnl_addr_add(sk, ra, 0));
	/* The subnet route comes with the address; a default route out of
	 * eth0 lets a host address anything through the bridge. */
	if (err == 0) {
		rt = rtnl_route_alloc();
		dst = nl_addr_build(AF_INET, &any, 4);
		nh = rtnl_route_nh_alloc();
		if (rt == NULL || dst == NULL || nh == NULL) {
			if (nh != NULL)
				rtnl_route_nh_free(nh);
			err = -ENOMEM;
		} else {
			nl_addr_set_prefixlen(dst, 0);
			rtnl_route_set_family(rt, AF_INET);
			rtnl_route_set_table(rt, RT_TABLE_MAIN);
			rtnl_route_set_scope(rt, RT_SCOPE_LINK);
			rtnl_route_set_protocol(rt, RTPROT_STATIC);
			rtnl_route_nh_set_ifindex(nh, ifindex);
			rtnl_route_add_nexthop(rt, nh);
			err = nlerr(rtnl_route_set_dst(rt, dst));
			if (err == 0)
				err = nlerr(
					rtnl_route_add(sk, rt, NLM_F_CREATE));
		}
	}
	if (err == 0)
		err = neighbours_add(sk, ifindex, ip, n, self);
	if (err == 0)
		*host_ifindex = ifindex;
	if (dst != NULL)
		nl_addr_put(dst);
	if (rt != NULL)
		rtnl_route_put(rt);
	if (local != NULL)
		nl_addr_put(local);
	if (ra != NULL)
		rtnl_addr_put(ra);
	nl_socket_free(sk);
	return err;
}

int netns_host_setup(int nsfd, int hub_fd, const uint32_t *ip, unsigned n,
		     unsigned self, unsigned prefix, int *host_ifindex)
{
	int err = netns_enter(nsfd);

	if (err < 0)
		return err;
	err = host_configure(ip, n, self, prefix, host_ifindex);
	if (netns_enter(hub_fd) < 0 && err == 0)
		err = -errno;
	return err;
}

int netns_bridge_ports(const int *ifindex, unsigned n)
{
	struct rtnl_link *br = NULL;
	struct nl_sock *sk;
	int err;

	err = nl_open(&sk);
	if (err < 0)
		return err;
	err = nlerr(rtnl_link_bridge_add(sk, "rkbr"));
	if (err == 0)
		err = nlerr(rtnl_link_get_kernel(sk, 0, "rkbr", &br));
	for (unsigned i = 0; err == 0 && i < n; i++)
		err = nlerr(rtnl_link_enslave_ifindex(
			sk, rtnl_link_get_ifindex(br), ifindex[i]));
	if (err == 0)
		err = link_set_up(sk, "rkbr", NULL);
	if (br != NULL)
		rtnl_link_put(br);
	nl_socket_free(sk);
	return err;
}

int netns_parse_subnet(const char *text, uint32_t *net, unsigned *prefix)
{
	char buf[32];
	char *slash, *end;
	struct in_addr a;
	unsigned long len = 32;

	if (strlen(text) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, text);
	slash = strchr(buf, '/');
	if (slash != NULL) {
		*slash = '\0';
		errno = 0;
		len = strtoul(slash + 1, &end, 10);
		if (errno != 0 || *end != '\0' || end == slash + 1 || len > 32)
			return -EINVAL;
	}
	if (inet_pton(AF_INET, buf, &a) != 1)
		return -EINVAL;
	*net = a.s_addr;
	*prefix = (unsigned)len;
	return 0;
}
