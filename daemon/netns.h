/*
 * netns.h: the network plumbing of a run, through libnl (rtnetlink) and the
 * ethtool ioctl. The daemon's hub namespace is an anonymous network
 * namespace it unshares for the run; every host gets a veth pair whose
 * hub-side end ("rk<N>") stays in the hub and whose host-side end ("eth0")
 * is created directly inside the host's namespace, then configured there
 * (address, subnet and default routes, loopback, offloads off). Every
 * function returns 0 or -errno and leaves the calling thread in the
 * namespace it was called from.
 */
#ifndef RECKON_NETNS_H
#define RECKON_NETNS_H

#include <stdint.h>
#include <sys/types.h>

#define NETNS_HOST_IF "eth0"

/* Open the calling thread's current network namespace (O_CLOEXEC fd). */
int netns_open_self(int *fd);

/* Unshare a fresh anonymous network namespace for the calling thread,
 * bring its loopback up and disable IPv6 autoconfiguration noise in it. */
int netns_new_hub(void);

/* Switch the calling thread to the namespace behind fd. */
int netns_enter(int fd);

/* MAC of host i's eth0 (02:72:6b:HH:HL:01) and of its hub-side end
 * (...:02): locally administered and stable, so pcaps read the same. */
void netns_host_mac(unsigned i, unsigned char mac[6]);
void netns_hub_mac(unsigned i, unsigned char mac[6]);

/* Create veth "rk<i>" in the current namespace with its peer "eth0" inside
 * the network namespace of pid; bring the hub end up with offloads off.
 * *hub_ifindex is the hub end's index. */
int netns_veth_add(unsigned i, pid_t pid, int *hub_ifindex);

/* Inside the namespace behind nsfd: loopback up, addr/prefix on eth0,
 * offloads off, eth0 up, a default route out of eth0. Returns to the
 * namespace the caller was in (hub_fd). *host_ifindex is eth0's index
 * inside the host namespace. */
int netns_host_setup(int nsfd, int hub_fd, uint32_t addr, unsigned prefix,
		     int *host_ifindex);

/* Kernel backend: a Linux bridge "rkbr" in the current namespace with the
 * n hub-side veths as its ports, up. */
int netns_bridge_ports(const int *ifindex, unsigned n);

/* Turn off TSO/GSO/GRO/scatter-gather and checksum offload on ifname in
 * the current namespace, so every frame is a real, checksummed,
 * MTU-sized Ethernet frame. Features a driver lacks are skipped. */
int netns_offloads_off(const char *ifname);

/* Parse "a.b.c.d/len" into a network-order address and prefix length. */
int netns_parse_subnet(const char *text, uint32_t *net, unsigned *prefix);

#endif
