/*
 * test_probe.c: Criterion tests of knetem_probe, the check for sch_netem.
 * The verdict is compared with the kernel config, read here independently
 * (/boot/config-$(uname -r), else /proc/config.gz through gzip): where the
 * config says "# CONFIG_NET_SCH_NETEM is not set" the probe must fail and
 * its reason must name CONFIG_NET_SCH_NETEM and backend = userspace; where
 * the probe succeeds the config must not say netem is missing. It also
 * checks the probe leaves no qdisc behind in the caller's namespace.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <net/if.h>
#include <netlink/netlink.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/tc.h>

#include "kernel.h"
#include "knetns.h"

/* 'n' when the config says netem is not set, 'y'/'m' when set, 0 when no
 * config could be read. */
static char config_netem(void)
{
	static const char unset[] = "# CONFIG_NET_SCH_NETEM is not set";
	char path[128], line[256], cmd[160];
	struct utsname u;
	FILE *f = NULL;
	char v = 0;
	int piped = 0;

	if (uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		f = fopen(path, "r");
	}
	if (!f && access("/proc/config.gz", R_OK) == 0) {
		snprintf(cmd, sizeof(cmd), "gzip -dc /proc/config.gz");
		f = popen(cmd, "r");
		piped = 1;
	}
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, unset, sizeof(unset) - 1))
			v = 'n';
		else if (!strncmp(line, "CONFIG_NET_SCH_NETEM=", 21))
			v = line[21];
	}
	if (piped)
		pclose(f);
	else
		fclose(f);
	return v;
}

Test(kernel_probe, verdict_matches_kernel_config)
{
	char why[256] = "";
	char cfg = config_netem();
	int err = knetem_probe(why, sizeof(why));

	cr_log_info("knetem_probe: %d %s (config: %c)", err, why,
		    cfg ? cfg : '?');
	if (cfg == 'n') {
		cr_assert_eq(err, -EOPNOTSUPP,
			     "probe %d on a kernel without "
			     "netem: %s",
			     err, why);
		cr_assert(strstr(why, "CONFIG_NET_SCH_NETEM"), "why: %s", why);
		cr_assert(strstr(why, "backend = userspace"), "why: %s", why);
		cr_assert(strstr(why, "no sch_netem"), "why: %s", why);
	} else if (err == 0) {
		cr_assert_neq(cfg, 'n');
	} else {
		/* Without the right to make a namespace the probe cannot
		 * tell; its reason must still point to the way out. */
		cr_assert(strstr(why, "backend = userspace"), "why: %s", why);
	}
}

/* The probe works in a child's private namespace: the caller's lo keeps
 * its default (handle 0) qdisc. */
Test(kernel_probe, leaves_nothing_behind)
{
	struct nl_cache *qc;
	struct nl_sock *sk;
	struct rtnl_qdisc *q;
	char why[256] = "";
	int lo, count = 0;

	if (knetns_enter(why, sizeof(why)))
		cr_skip_test("needs network namespaces: %s", why);
	(void)knetem_probe(why, sizeof(why));
	lo = (int)if_nametoindex("lo");
	cr_assert_gt(lo, 0);
	sk = nl_socket_alloc();
	cr_assert_not_null(sk);
	cr_assert_eq(nl_connect(sk, NETLINK_ROUTE), 0);
	cr_assert_eq(rtnl_qdisc_alloc_cache(sk, &qc), 0);
	for (q = (struct rtnl_qdisc *)nl_cache_get_first(qc); q;
	     q = (struct rtnl_qdisc *)nl_cache_get_next(OBJ_CAST(q)))
		if (rtnl_tc_get_ifindex(TC_CAST(q)) == lo &&
		    rtnl_tc_get_handle(TC_CAST(q)) != 0)
			count++;
	cr_assert_eq(count, 0, "probe left %d qdiscs on lo", count);
	nl_cache_free(qc);
	nl_socket_free(sk);
}

Test(kernel_probe, reason_is_one_line_and_bounded)
{
	char small[24];
	char why[256] = "";

	/* A short buffer is truncated, never overrun. */
	memset(small, 'x', sizeof(small));
	if (knetem_probe(small, sizeof(small)) == 0)
		cr_skip_test("this kernel has sch_netem");
	cr_assert_eq(small[sizeof(small) - 1], '\0');
	(void)knetem_probe(why, sizeof(why));
	cr_assert_null(strchr(why, '\n'), "why: %s", why);
	cr_assert_gt(strlen(why), 20u);
}
