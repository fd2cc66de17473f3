/*
 * ns.h: namespaces and the processes in them: network namespaces, veths
 * and addresses (netns.c), the unprivileged user namespace (userns.c) and
 * the per-host shim processes (hostproc.c).
 */
#ifndef RECKON_NS_H
#define RECKON_NS_H

#include <stdint.h>
#include <sys/types.h>
#include <stddef.h>

/*
 * netns.c: the network plumbing of a run, through libnl (rtnetlink) and the
 * ethtool ioctl. The daemon's hub namespace is an anonymous network
 * namespace it unshares for the run; every host gets a veth pair whose
 * hub-side end ("rk<N>") stays in the hub and whose host-side end ("eth0")
 * is created directly inside the host's namespace, then configured there
 * (address, subnet and default routes, loopback, offloads off). Every
 * function returns 0 or -errno and leaves the calling thread in the
 * namespace it was called from.
 */

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

/* Inside the namespace behind nsfd: loopback up, ip[self]/prefix on
 * eth0, offloads off, eth0 up, a default route out of eth0, and a
 * permanent ARP entry for every other host j of the n, ip[j] at
 * netns_host_mac(j), so no datagram waits for address resolution. A
 * host's first datagrams to a peer would otherwise queue for the ARP
 * round trip and be flushed while its later ones go straight out, out of
 * their order (and the simulator has no ARP). Returns to the namespace
 * the caller was in (hub_fd). *host_ifindex is eth0's index inside the
 * host namespace. */
int netns_host_setup(int nsfd, int hub_fd, const uint32_t *ip, unsigned n,
		     unsigned self, unsigned prefix, int *host_ifindex);

/* Kernel backend: a Linux bridge "rkbr" in the current namespace with the
 * n hub-side veths as its ports, up. */
int netns_bridge_ports(const int *ifindex, unsigned n);

/* Turn off TSO/GSO/GRO/scatter-gather and checksum offload on ifname in
 * the current namespace, so every frame is a real, checksummed,
 * MTU-sized Ethernet frame. Features a driver lacks are skipped. */
int netns_offloads_off(const char *ifname);

/* Parse "a.b.c.d/len" into a network-order address and prefix length. */
int netns_parse_subnet(const char *text, uint32_t *net, unsigned *prefix);

/*
 * userns.c: running without root. When the daemon is not root it unshares a
 * user namespace (mapping its own uid and gid to 0 inside) together with a
 * network namespace, and gains in them the capabilities a run needs, so a
 * normal user runs a scenario without sudo. Nothing is left behind: the
 * namespaces belong to the daemon's processes only.
 */

/* As root: nothing to do (returns 0). Otherwise enter a user+network
 * namespace; on failure returns -errno and explains what to do in msg.
 * Must be called while the process is single-threaded. */
int userns_enter(char *msg, size_t msglen);

/* 1 when userns_enter switched to a user namespace. */
int userns_active(void);

/*
 * hostproc.c: one emulated host as a process tree. hostproc_spawn clones a
 * "host shim" into a new network and PID namespace; the shim is PID 1 there,
 * dies with the daemon (PR_SET_PDEATHSIG), waits until the daemon has wired
 * its namespace (hostproc_go), then runs the host's command with its output
 * in the host's log file, forwards SIGTERM/SIGINT to it and exits with its
 * status. When the shim dies the kernel kills everything left in the PID
 * namespace, so a host can never outlive its daemon.
 */

struct hostproc {
	pid_t pid;  /* the shim, as the daemon sees it */
	int go_fd;  /* write end of the start pipe; -1 once started */
	int nsfd;   /* the host's network namespace */
	int exited; /* reaped */
	int status; /* exit status: 0..255, 128+N when killed by signal N */
};

/* What to run: argv (NULL terminated) with envp, stdout and stderr to
 * log_fd (which the caller may close afterwards). */
struct hostproc_cmd {
	char *const *argv;
	char *const *envp;
	int log_fd;
	int nice; /* the command's niceness, whatever reckond's own is */
};

/* Exit status of a shim whose daemon vanished before it started. */
#define HOSTPROC_ABORTED 125
/* Exit status when the command could not be executed. */
#define HOSTPROC_NOEXEC 127

int hostproc_spawn(const struct hostproc_cmd *cmd, struct hostproc *hp);

/* Let the shim start its command. */
int hostproc_go(struct hostproc *hp);

/* Signal the shim (it forwards SIGTERM/SIGINT/SIGHUP to the command's
 * process group; SIGKILL ends the whole PID namespace). */
int hostproc_signal(const struct hostproc *hp, int sig);

/* Record a wait status for hp (called with what waitpid returned). */
void hostproc_reaped(struct hostproc *hp, int wstatus);

/* The pids (as the daemon sees them) of every process in the host's
 * network namespace, the shim included; returns how many were found (at
 * most max are stored) or -errno. */
int hostproc_members(const struct hostproc *hp, pid_t *pids, unsigned max);

/* Close the shim's descriptors (after it has been reaped). */
void hostproc_release(struct hostproc *hp);

#endif
