/*
 * bench_kernel.c: figures for the kernel netem backend, printed and never
 * asserted. It times how long knetem_probe takes (fork, unshare, one
 * qdisc add), how long knetem_msg_netem takes to build a netem message,
 * and how long knetem_tree_build takes for 1, 16 and 256 destinations on
 * a veth in a throwaway namespace. On a kernel with sch_netem it also
 * times the full knetem_apply and one knetem_change.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>

#include "kernel.h"
#include "knetns.h"
#include "netem.h"

#define MAXD 256

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void)
{
	static struct netem_spec s[MAXD];
	static const struct netem_spec *sp[MAXD];
	static uint32_t ips[MAXD];
	static const unsigned sizes[] = {1, 16, 256};
	struct nl_msg *m;
	char why[256] = "";
	double t0, t1;
	int have_netem, idx, i, reps = 2000;
	unsigned k;

	t0 = now_s();
	have_netem = knetem_probe(why, sizeof(why)) == 0;
	t1 = now_s();
	printf("kernel_bench: knetem_probe %.2f ms (%s)\n", (t1 - t0) * 1e3,
	       have_netem ? "sch_netem available" : why);

	netem_spec_init(&s[0]);
	s[0].latency_ns = 50000000;
	s[0].jitter_ns = 5000000;
	s[0].dist = NETEM_DIST_NORMAL;
	s[0].loss_model = NETEM_LOSS_GEMODEL;
	s[0].ge_p = netem_prob_from_double(0.01);
	s[0].ge_r = netem_prob_from_double(0.3);
	s[0].rate = 1250000;
	t0 = now_s();
	for (i = 0; i < reps; i++) {
		if (knetem_msg_netem(1, 0x10002, 0x20000, 0, KNETEM_MSG_CHANGE,
				     &s[0], NULL, &m, why, sizeof(why)))
			return 1;
		nlmsg_free(m);
	}
	t1 = now_s();
	printf("kernel_bench: netem message (normal table, GE loss, rate, "
	       "change mode) %.1f us each over %d\n",
	       (t1 - t0) * 1e6 / reps, reps);
	s[1] = s[0];
	s[1].dist = NETEM_DIST_UNIFORM;
	t0 = now_s();
	for (i = 0; i < reps; i++) {
		if (knetem_msg_netem(1, 0x10002, 0x20000, 0, 0, &s[1], NULL, &m,
				     why, sizeof(why)))
			return 1;
		nlmsg_free(m);
	}
	t1 = now_s();
	printf("kernel_bench: netem message (no table, GE loss, rate) %.1f "
	       "us each over %d\n",
	       (t1 - t0) * 1e6 / reps, reps);

	if (knetns_enter(why, sizeof(why)) ||
	    knetns_veth("kba", "kbb", getpid(), &idx, why, sizeof(why))) {
		printf("kernel_bench: no namespace, tree figures skipped: %s\n",
		       why);
		return 0;
	}
	for (i = 0; i < MAXD; i++) {
		ips[i] = htonl(0x0a500000u + (uint32_t)i + 2);
		s[i] = s[0];
		s[i].dist = NETEM_DIST_UNIFORM;
		sp[i] = &s[i];
	}
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		t0 = now_s();
		if (knetem_tree_build(idx, ips, sizes[k], why, sizeof(why))) {
			printf("kernel_bench: tree build failed: %s\n", why);
			return 1;
		}
		t1 = now_s();
		printf("kernel_bench: htb+u32 tree for %u destinations %.2f "
		       "ms\n",
		       sizes[k], (t1 - t0) * 1e3);
		if (have_netem) {
			t0 = now_s();
			if (knetem_apply(idx, ips, sp, sizes[k], why,
					 sizeof(why)))
				printf("kernel_bench: apply failed: %s\n", why);
			t1 = now_s();
			printf("kernel_bench: full knetem_apply for %u "
			       "destinations %.2f ms\n",
			       sizes[k], (t1 - t0) * 1e3);
		}
	}
	if (have_netem) {
		t0 = now_s();
		(void)knetem_change(idx, 0, &s[0], why, sizeof(why));
		t1 = now_s();
		printf("kernel_bench: knetem_change %.2f ms\n",
		       (t1 - t0) * 1e3);
	}
	knetem_clear(idx);
	return 0;
}
