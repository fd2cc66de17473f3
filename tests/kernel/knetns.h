/*
 * knetns.h: test helpers for the kernel netem backend's tests: enter a
 * throwaway network namespace (it dies with the test process, so nothing
 * is left behind), create a veth pair, bring links up, add addresses and
 * static neighbours with libnl, and read the netem options of a dumped
 * qdisc. Every function returns 0 or -errno and writes why on failure.
 */
#ifndef RECKON_TESTS_KNETNS_H
#define RECKON_TESTS_KNETNS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* unshare(CLONE_NEWNET) for the calling process and bring lo up. */
int knetns_enter(char *why, size_t len);

/* veth pair name <-> peer; the peer goes to the namespace of peer_pid
 * (getpid() for this one). Both ends in this namespace are brought up.
 * Writes the ifindex of name. */
int knetns_veth(const char *name, const char *peer, pid_t peer_pid,
		int *ifindex, char *why, size_t len);

int knetns_link_up(const char *name, char *why, size_t len);

/* Add "a.b.c.d/len" to ifindex. */
int knetns_addr(int ifindex, const char *cidr, char *why, size_t len);

/* Static ARP entry ip (dotted) -> 02:00:00:00:00:xx on ifindex. */
int knetns_neigh(int ifindex, const char *ip, uint8_t last, char *why,
		 size_t len);

/* Turn IPv6 off on a link so it sends no ND/MLD of its own. */
int knetns_no_ipv6(const char *name);

#endif
