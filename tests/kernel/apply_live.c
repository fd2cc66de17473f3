/*
 * apply_live.c: end-to-end test of knetem_apply and knetem_change on a
 * kernel that has sch_netem. Where knetem_probe says netem is unavailable
 * it prints the probe's reason and exits 77, which ctest reports as
 * skipped. Otherwise it builds two throwaway namespaces joined by a veth
 * pair, applies per-destination netem on the sender's side, reads the
 * qdiscs back with a raw RTM_GETQDISC dump, sends real UDP datagrams (the
 * lossless destination must get all of them, the 100%-loss one none), and
 * checks that knetem_change replaces every attribute (a corrupt and rate
 * set by one change are gone after the next).
 *
 *   [ns A: this process]              [ns B: forked child]
 *   kva 10.77.0.1/24  ---- veth ----  kvb 10.77.0.2/24, 10.77.0.3/24
 *   htb 1: -> 1:2 netem (dst .2)      UDP sinks on .2:9000 and .3:9000
 *           -> 1:3 netem (dst .3, loss 100%)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "kernel.h"
#include "knetns.h"
#include "netem.h"

#define SKIP 77
#define NPKT 20
#define PORT 9000

static int failures;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("kernel_apply_live: FAIL %s:%d: ", __FILE__,    \
			       __LINE__);                                      \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
			failures++;                                            \
		}                                                              \
	} while (0)

/* What a dumped netem qdisc says. */
struct seen {
	uint32_t want_handle;
	int ifindex;
	int found;
	uint32_t parent;
	struct tc_netem_qopt q;
	int64_t latency, jitter;
	uint32_t corrupt, ecn;
	uint64_t rate;
};

static int dump_cb(struct nl_msg *m, void *arg)
{
	struct seen *s = arg;
	struct nlmsghdr *h = nlmsg_hdr(m);
	struct tcmsg *t = nlmsg_data(h);
	struct nlattr *top[TCA_MAX + 1], *tb[TCA_NETEM_MAX + 1], *o;
	int off = NLA_ALIGN(sizeof(struct tc_netem_qopt));

	if (t->tcm_ifindex != s->ifindex || t->tcm_handle != s->want_handle)
		return NL_OK;
	if (nlmsg_parse(h, sizeof(*t), top, TCA_MAX, NULL) < 0 ||
	    !top[TCA_KIND] || strcmp(nla_get_string(top[TCA_KIND]), "netem"))
		return NL_OK;
	o = top[TCA_OPTIONS];
	if (!o || nla_len(o) < off)
		return NL_OK;
	memcpy(&s->q, nla_data(o), sizeof(s->q));
	if (nla_parse(tb, TCA_NETEM_MAX,
		      (struct nlattr *)((char *)nla_data(o) + off),
		      nla_len(o) - off, NULL) < 0)
		return NL_OK;
	s->found = 1;
	s->parent = t->tcm_parent;
	s->latency = tb[TCA_NETEM_LATENCY64]
			     ? nla_get_s64(tb[TCA_NETEM_LATENCY64])
			     : (int64_t)s->q.latency << 6;
	s->jitter = tb[TCA_NETEM_JITTER64] ? nla_get_s64(tb[TCA_NETEM_JITTER64])
					   : (int64_t)s->q.jitter << 6;
	s->corrupt = tb[TCA_NETEM_CORRUPT]
			     ? ((struct tc_netem_corrupt *)nla_data(
					tb[TCA_NETEM_CORRUPT]))
				       ->probability
			     : 0;
	s->ecn = tb[TCA_NETEM_ECN] ? nla_get_u32(tb[TCA_NETEM_ECN]) : 0;
	s->rate =
		tb[TCA_NETEM_RATE]
			? ((struct tc_netem_rate *)nla_data(tb[TCA_NETEM_RATE]))
				  ->rate
			: 0;
	if (tb[TCA_NETEM_RATE64])
		s->rate = nla_get_u64(tb[TCA_NETEM_RATE64]);
	return NL_OK;
}

static int read_leaf(int ifindex, unsigned i, struct seen *s)
{
	struct tcmsg tcm = {.tcm_family = AF_UNSPEC};
	struct nl_sock *sk;
	int err;

	memset(s, 0, sizeof(*s));
	s->ifindex = ifindex;
	s->want_handle = KNETEM_LEAF_HANDLE(i);
	sk = nl_socket_alloc();
	if (!sk || nl_connect(sk, NETLINK_ROUTE) < 0)
		return -EIO;
	tcm.tcm_ifindex = ifindex;
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, dump_cb, s);
	err = nl_send_simple(sk, RTM_GETQDISC, NLM_F_DUMP, &tcm, sizeof(tcm));
	if (err >= 0)
		err = nl_recvmsgs_default(sk);
	nl_socket_free(sk);
	return err < 0 ? -EIO : 0;
}

/* ns B: two UDP sinks; counts datagrams until "END" reaches sink 0. */
static int receiver(int ready_fd, int go_fd, int res_fd)
{
	const char *addr[2] = {"10.77.0.2", "10.77.0.3"};
	struct pollfd p[2];
	char why[160], buf[64];
	int fd[2], count[2] = {0, 0}, i, idx;

	if (unshare(CLONE_NEWNET) < 0)
		return 2;
	if (write(ready_fd, "r", 1) != 1 || read(go_fd, buf, 1) != 1)
		return 2;
	if (knetns_link_up("lo", why, sizeof(why)) || knetns_no_ipv6("kvb") ||
	    knetns_link_up("kvb", why, sizeof(why)))
		return 3;
	idx = (int)if_nametoindex("kvb");
	if (knetns_addr(idx, "10.77.0.2/24", why, sizeof(why)) ||
	    knetns_addr(idx, "10.77.0.3/24", why, sizeof(why)))
		return 3;
	for (i = 0; i < 2; i++) {
		struct sockaddr_in a = {.sin_family = AF_INET,
					.sin_port = htons(PORT)};

		inet_pton(AF_INET, addr[i], &a.sin_addr);
		fd[i] = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd[i] < 0 ||
		    bind(fd[i], (struct sockaddr *)&a, sizeof(a)) < 0)
			return 4;
		p[i].fd = fd[i];
		p[i].events = POLLIN;
	}
	if (write(ready_fd, "l", 1) != 1)
		return 2;
	for (;;) {
		/* 10 s is a safety net for a broken setup, not a measure. */
		if (poll(p, 2, 10000) <= 0)
			break;
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (!(p[i].revents & POLLIN))
				continue;
			n = recv(fd[i], buf, sizeof(buf), 0);
			if (n == 3 && !memcmp(buf, "END", 3))
				goto done;
			if (n > 0)
				count[i]++;
		}
	}
done:
	if (write(res_fd, count, sizeof(count)) != (ssize_t)sizeof(count))
		return 2;
	return 0;
}

static void send_to(int fd, const char *ip, const char *msg, int n)
{
	struct sockaddr_in to = {.sin_family = AF_INET,
				 .sin_port = htons(PORT)};
	int i;

	inet_pton(AF_INET, ip, &to.sin_addr);
	for (i = 0; i < n; i++)
		CHECK(sendto(fd, msg, strlen(msg), 0, (struct sockaddr *)&to,
			     sizeof(to)) == (ssize_t)strlen(msg),
		      "sendto %s: %s", ip, strerror(errno));
}

int main(void)
{
	struct netem_spec s0, s1;
	const struct netem_spec *specs[2] = {&s0, &s1};
	uint32_t ips[2];
	int ready[2], go[2], res[2], count[2] = {-1, -1};
	char why[256] = "", c;
	struct seen sn;
	int idx, fd, st;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (knetem_probe(why, sizeof(why))) {
		printf("kernel_apply_live: SKIP: %s\n", why);
		return SKIP;
	}
	if (knetns_enter(why, sizeof(why))) {
		printf("kernel_apply_live: SKIP: %s\n", why);
		return SKIP;
	}
	if (pipe(ready) || pipe(go) || pipe(res))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		_exit(receiver(ready[1], go[0], res[1]));
	if (read(ready[0], &c, 1) != 1) {
		printf("kernel_apply_live: FAIL: receiver did not start\n");
		return 1;
	}
	if (knetns_veth("kva", "kvb", pid, &idx, why, sizeof(why)) ||
	    knetns_no_ipv6("kva") ||
	    knetns_addr(idx, "10.77.0.1/24", why, sizeof(why))) {
		printf("kernel_apply_live: FAIL: setup: %s\n", why);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return 1;
	}
	CHECK(write(go[1], "g", 1) == 1, "go");
	CHECK(read(ready[0], &c, 1) == 1, "receiver listening");

	inet_pton(AF_INET, "10.77.0.2", &ips[0]);
	inet_pton(AF_INET, "10.77.0.3", &ips[1]);
	netem_spec_init(&s0);
	s0.latency_ns = 10000000; /* 10 ms, no loss */
	netem_spec_init(&s1);
	s1.loss_model = NETEM_LOSS_RANDOM;
	s1.loss = NETEM_P100; /* everything to .3 is lost */
	st = knetem_apply(idx, ips, specs, 2, why, sizeof(why));
	CHECK(st == 0, "knetem_apply: %d %s", st, why);

	CHECK(read_leaf(idx, 0, &sn) == 0 && sn.found, "leaf 0 not dumped");
	CHECK(sn.parent == KNETEM_CLASSID(0), "leaf 0 parent %x", sn.parent);
	CHECK(sn.latency == 10000000, "leaf 0 latency %lld",
	      (long long)sn.latency);
	CHECK(sn.q.loss == 0, "leaf 0 loss %u", sn.q.loss);
	CHECK(read_leaf(idx, 1, &sn) == 0 && sn.found, "leaf 1 not dumped");
	CHECK(sn.q.loss == UINT32_MAX, "leaf 1 loss %u", sn.q.loss);

	/* Real traffic: the ARP exchange for .2/.3 goes through the default
	 * class, so the datagrams find their neighbour. */
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	CHECK(fd >= 0, "socket");
	send_to(fd, "10.77.0.2", "data", NPKT);
	send_to(fd, "10.77.0.3", "data", NPKT);
	send_to(fd, "10.77.0.2", "END", 1);
	close(fd);
	CHECK(read(res[0], count, sizeof(count)) == (ssize_t)sizeof(count),
	      "receiver result");
	CHECK(count[0] == NPKT, "lossless destination got %d of %d", count[0],
	      NPKT);
	CHECK(count[1] == 0, "100%%-loss destination got %d", count[1]);
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "receiver status %d", st);

	/* Live change: corrupt and rate on, then a plain delay: the second
	 * change must switch both off (tc's sticky attributes would keep
	 * them). */
	s0.corrupt = netem_prob_from_double(0.05);
	s0.rate = 125000;
	st = knetem_change(idx, 0, &s0, why, sizeof(why));
	CHECK(st == 0, "knetem_change 1: %d %s", st, why);
	CHECK(read_leaf(idx, 0, &sn) == 0 && sn.corrupt == s0.corrupt &&
		      sn.rate == 125000,
	      "after change 1: corrupt %u rate %llu", sn.corrupt,
	      (unsigned long long)sn.rate);
	netem_spec_init(&s0);
	s0.latency_ns = 20000000;
	st = knetem_change(idx, 0, &s0, why, sizeof(why));
	CHECK(st == 0, "knetem_change 2: %d %s", st, why);
	CHECK(read_leaf(idx, 0, &sn) == 0 && sn.latency == 20000000 &&
		      sn.corrupt == 0 && sn.rate == 0,
	      "after change 2: latency %lld corrupt %u rate %llu",
	      (long long)sn.latency, sn.corrupt, (unsigned long long)sn.rate);

	/* A change for a destination that was never applied is refused. */
	CHECK(knetem_change(idx, 5, &s0, why, sizeof(why)) < 0,
	      "change of a missing leaf succeeded");
	CHECK(knetem_clear(idx) == 0, "clear");
	CHECK(read_leaf(idx, 0, &sn) == 0 && !sn.found, "leaf survived clear");

	if (failures) {
		printf("kernel_apply_live: %d failures\n", failures);
		return 1;
	}
	printf("kernel_apply_live: ok\n");
	return 0;
}
