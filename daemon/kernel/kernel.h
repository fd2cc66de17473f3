/*
 * kernel.h: reckon's second impairment backend, the kernel's own
 * sch_netem driven through rtnetlink with libnl. On one interface it builds
 * a root htb qdisc with one unshaped class per destination, a netem qdisc as
 * each class's leaf and a u32 filter on the destination IPv4 address that
 * steers packets into the class; unmatched traffic takes an unimpaired
 * default class. The netem options come from libnl's rtnl_netem, plus raw
 * netlink attributes for what it lacks (rate64, slots, ECN, the 4-state
 * and Gilbert-Elliott loss models, the 64-bit delays). Functions
 * return 0 or -errno and, where they take one, write a one-line reason into
 * why; they never log, print or exit.
 */
#ifndef RECKON_KERNEL_NETEM_H
#define RECKON_KERNEL_NETEM_H

#include <stddef.h>
#include <stdint.h>

#include "netem_dist.h"
#include "netem_spec.h"

struct nl_msg;
struct nl_sock;

/* Handles. Root htb is 1:0, its default class 1:1; destination i has class
 * 1:(i+2) and a netem leaf with handle (i+2):0. */
#define KNETEM_ROOT_HANDLE    0x00010000u
#define KNETEM_DEFAULT_MINOR  1u
#define KNETEM_MAX_DST	      4096u
#define KNETEM_CLASSID(i)     (KNETEM_ROOT_HANDLE | ((uint32_t)(i) + 2u))
#define KNETEM_LEAF_HANDLE(i) (((uint32_t)(i) + 2u) << 16)
/* htb class rate and ceil, bytes/s: 32 Gbit/s, far above what the game
 * traffic on a veth pair needs, so the classes sort without shaping; kept
 * under 2^32 so the legacy 32-bit rate field carries it exactly. Buckets
 * of 4 MiB (about rate/HZ at HZ 1000, as tc would pick) let bursts
 * through without pacing. */
#define KNETEM_CLASS_RATE  4000000000u
#define KNETEM_CLASS_BURST (4u << 20)
/* u32 filter priority; one filter per destination. */
#define KNETEM_FILTER_PRIO 1u

/* 0 when sch_netem can be used here; else -errno and a clear reason in why
 * ("this kernel has no sch_netem (CONFIG_NET_SCH_NETEM is not set): use
 * backend = userspace"). Tries a real netem qdisc on lo inside a throwaway
 * network namespace (forked child), so it leaves nothing behind. */
int knetem_probe(char *why, size_t len);

/* In the current network namespace, on interface ifindex: root htb qdisc,
 * one htb class per destination (rate high enough not to shape), a netem
 * qdisc as each class's leaf with spec, and a u32 filter on the destination
 * IPv4 address (network byte order) steering into the class; unmatched
 * traffic goes to an unimpaired default class. n destinations. Any root
 * qdisc already on ifindex is replaced. On failure the tree is removed. */
int knetem_apply(int ifindex, const uint32_t *dst_ip,
		 const struct netem_spec *const *specs, unsigned n, char *why,
		 size_t len);

/* Live change of one destination's netem (full replacement: every
 * attribute is sent, zeros included, so tc's sticky attributes do not
 * survive; see docs/kernel-backend.md for the distribution tables). */
int knetem_change(int ifindex, unsigned dst_index,
		  const struct netem_spec *spec, char *why, size_t len);

/* Remove the root qdisc (and so the whole tree) from ifindex. 0 also when
 * there was nothing to remove. */
int knetem_clear(int ifindex);

/* knetem_apply and knetem_change with a registry for custom distribution
 * tables (the plain forms pass NULL). */
int knetem_apply_reg(int ifindex, const uint32_t *dst_ip,
		     const struct netem_spec *const *specs, unsigned n,
		     const struct netem_dist_registry *reg, char *why,
		     size_t len);
int knetem_change_reg(int ifindex, unsigned dst_index,
		      const struct netem_spec *spec,
		      const struct netem_dist_registry *reg, char *why,
		      size_t len);

/* The htb part of knetem_apply alone: root, default class, one class and
 * one u32 filter per destination, no netem leaves. Works on kernels
 * without sch_netem. Replaces any root qdisc; removes what it built when
 * it fails. */
int knetem_tree_build(int ifindex, const uint32_t *dst_ip, unsigned n,
		      char *why, size_t len);

/* kernel_nl.c, shared by kernel_netem.c and the tc_*.c helpers. knetem_sock_open
 * opens an rtnetlink socket with extended acks and room for big messages;
 * knetem_talk sends msg, waits for the ack and on refusal returns -errno
 * with the kernel's extended-ack text (or strerror) in why. */
int knetem_sock_open(struct nl_sock **out);
int knetem_talk(struct nl_sock *sk, struct nl_msg *msg, char *why, size_t len);
/* tc_htb.c: remove the root qdisc of ifindex through sk (0 when only
 * the default qdisc was there). */
int knetem_clear_sk(struct nl_sock *sk, int ifindex);
int knetem_tree_build_sk(struct nl_sock *sk, int ifindex,
			 const uint32_t *dst_ip, unsigned n, char *why,
			 size_t len);

/* Message construction, exposed for the tests. Builds an RTM_NEWQDISC for
 * a netem qdisc (parent, handle) carrying spec. nlflags are NLM_F_* bits
 * (NLM_F_CREATE|NLM_F_EXCL to add, 0 to change in place). With
 * KNETEM_MSG_CHANGE, attributes the kernel would otherwise keep from an
 * earlier configuration are overridden, including delay and slot
 * distribution tables (a uniform table stands for "no table"). Built-in
 * tables come from the netem engine; custom ones (NETEM_DIST_CUSTOM) are
 * looked up by name in reg, which may be NULL when none are used. */
#define KNETEM_MSG_CHANGE 0x1u
int knetem_msg_netem(int ifindex, uint32_t parent, uint32_t handle, int nlflags,
		     unsigned mode, const struct netem_spec *spec,
		     const struct netem_dist_registry *reg, struct nl_msg **out,
		     char *why, size_t len);

/* Write a reason into why (when why and len are set): the one way the
 * backend's files explain a failure. */
void knetem_say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
