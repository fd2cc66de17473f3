/*
 * test_helpers.c: small pure pieces of the runtime: repetition seeds
 * (SplitMix64 checked against its published first output), subnet parsing,
 * the stable MAC scheme and results_tail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <criterion/criterion.h>

#include "ns.h"
#include "results.h"
#include "reckond.h"

Test(helpers, first_repetition_keeps_the_seed)
{
	cr_assert_eq(scenario_rep_seed(42, 1), 42);
	cr_assert_eq(scenario_rep_seed(0, 1), 0);
}

Test(helpers, later_repetitions_are_splitmix64)
{
	/* SplitMix64 from state 0: the first output is 0xe220a8397b1dcdaf
	 * (Vigna's reference splitmix64.c); repetition 2 of seed 0 is that
	 * first step. */
	cr_assert_eq(scenario_rep_seed(0, 2), 0xe220a8397b1dcdafULL);
	cr_assert_neq(scenario_rep_seed(42, 2), scenario_rep_seed(42, 3));
	cr_assert_neq(scenario_rep_seed(42, 2), scenario_rep_seed(43, 2));
}

Test(helpers, subnet_parsing)
{
	uint32_t net = 0;
	unsigned prefix = 0;

	cr_assert_eq(netns_parse_subnet("10.77.0.0/24", &net, &prefix), 0);
	cr_assert_eq(net, inet_addr("10.77.0.0"));
	cr_assert_eq(prefix, 24);
	cr_assert_eq(netns_parse_subnet("192.168.1.7", &net, &prefix), 0);
	cr_assert_eq(prefix, 32);
	prefix = 99;
	cr_assert_eq(netns_parse_subnet("10.0.0.0/33", &net, &prefix), -EINVAL);
	cr_assert_eq(netns_parse_subnet("10.0.0.0/", &net, &prefix), -EINVAL);
	cr_assert_eq(netns_parse_subnet("10.0.0/8", &net, &prefix), -EINVAL);
	cr_assert_eq(netns_parse_subnet("10.0.0.0/8x", &net, &prefix), -EINVAL);
	cr_assert_eq(prefix, 99, "output written on failure");
}

Test(helpers, macs_are_local_unicast_and_distinct)
{
	unsigned char a[6], b[6], c[6];

	netns_host_mac(0, a);
	netns_hub_mac(0, b);
	netns_host_mac(300, c);
	cr_assert_eq(a[0] & 0x03, 0x02, "locally administered unicast");
	cr_assert_neq(memcmp(a, b, 6), 0);
	cr_assert_neq(memcmp(a, c, 6), 0);
	cr_assert_eq(c[3], 1);
	cr_assert_eq(c[4], 44);
}

Test(helpers, tail_keeps_the_last_lines)
{
	char path[] = "/tmp/reckon-tail.XXXXXX", out[256];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	cr_assert_not_null(f);
	for (int i = 1; i <= 20; i++)
		fprintf(f, "l%d\n", i);
	fclose(f);
	cr_assert_eq(results_tail(path, 3, out, sizeof(out)), 0);
	cr_assert_str_eq(out, "  l18\n  l19\n  l20\n");
	cr_assert_eq(results_tail(path, 50, out, sizeof(out)), 0);
	cr_assert(strncmp(out, "  l1\n  l2\n", 10) == 0, "%s", out);
	unlink(path);
	cr_assert_eq(results_tail(path, 3, out, sizeof(out)), -ENOENT);
}
