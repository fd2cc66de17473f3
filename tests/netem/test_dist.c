/*
 * test_dist.c: the built-in distribution tables and the .dist parser. Our
 * generators must reproduce iproute2's tables exactly: the first row of
 * each shipped table is checked always, and the whole table against the
 * system's copy when iproute2's .dist files are installed.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "netem.h"

/* First 8 values of iproute2's normal.dist, pareto.dist and
 * paretonormal.dist (as installed under /usr/lib/.../tc/). */
static const int16_t first_normal[8] = {-32768, -28307, -26871, -25967,
					-25298, -24765, -24320, -23937};
static const int16_t first_pareto[8] = {-5461, -5460, -5460, -5459,
					-5458, -5457, -5456, -5455};
static const int16_t first_paretonormal[8] = {-12305, -11171, -10812, -10586,
					      -10418, -10284, -10172, -10075};

Test(dist, first_rows)
{
	int16_t t[NETEM_DIST_BUILTIN_SIZE];

	cr_assert_eq(netem_dist_builtin(NETEM_DIST_NORMAL, t), 0);
	cr_assert_arr_eq(t, first_normal, sizeof(first_normal));
	cr_assert_eq(netem_dist_builtin(NETEM_DIST_PARETO, t), 0);
	cr_assert_arr_eq(t, first_pareto, sizeof(first_pareto));
	cr_assert_eq(netem_dist_builtin(NETEM_DIST_PARETONORMAL, t), 0);
	cr_assert_arr_eq(t, first_paretonormal, sizeof(first_paretonormal));
	cr_assert_eq(netem_dist_builtin(NETEM_DIST_UNIFORM, t), -EINVAL);
}

Test(dist, tables_are_sorted_inverse_cdfs)
{
	enum netem_dist d[] = {NETEM_DIST_NORMAL, NETEM_DIST_PARETO,
			       NETEM_DIST_PARETONORMAL};
	int16_t t[NETEM_DIST_BUILTIN_SIZE];
	size_t k, i;

	for (k = 0; k < 3; k++) {
		cr_assert_eq(netem_dist_builtin(d[k], t), 0);
		for (i = 1; i < NETEM_DIST_BUILTIN_SIZE; i++)
			cr_assert_leq(t[i - 1], t[i], "table %zu at %zu", k, i);
	}
}

static int load_system(const char *name, int16_t *out, size_t *n)
{
	static const char *dirs[] = {"/usr/lib/x86_64-linux-gnu/tc",
				     "/usr/lib/aarch64-linux-gnu/tc",
				     "/usr/lib/tc", "/usr/lib64/tc"};
	static char buf[1 << 20];
	char path[256], err[256];
	size_t i, len;
	FILE *f;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.dist", dirs[i], name);
		f = fopen(path, "r");
		if (!f)
			continue;
		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		cr_assert_eq(netem_dist_parse(buf, len, out,
					      NETEM_DIST_TABLE_MAX, n, err,
					      sizeof(err)),
			     0, "%s: %s", path, err);
		return 1;
	}
	return 0;
}

Test(dist, equal_to_installed_iproute2_tables)
{
	static const char *names[] = {"normal", "pareto", "paretonormal"};
	enum netem_dist d[] = {NETEM_DIST_NORMAL, NETEM_DIST_PARETO,
			       NETEM_DIST_PARETONORMAL};
	int16_t sys[NETEM_DIST_TABLE_MAX], ours[NETEM_DIST_BUILTIN_SIZE];
	size_t k, n, found = 0;

	for (k = 0; k < 3; k++) {
		if (!load_system(names[k], sys, &n))
			continue;
		found++;
		cr_assert_eq(n, NETEM_DIST_BUILTIN_SIZE);
		cr_assert_eq(netem_dist_builtin(d[k], ours), 0);
		cr_assert_arr_eq(ours, sys, sizeof(ours), "%s differs",
				 names[k]);
	}
	if (!found)
		cr_skip_test("iproute2's .dist files are not installed");
}

static void parse_err(const char *text, const char *msg)
{
	int16_t out[4] = {7, 7, 7, 7};
	size_t n = 99;
	char err[256];

	cr_assert_eq(netem_dist_parse(text, strlen(text), out, 4, &n, err,
				      sizeof(err)),
		     -EINVAL);
	cr_expect_str_eq(err, msg);
	cr_assert_eq(n, 99);
	cr_assert_eq(out[0], 7);
}

Test(dist, parse)
{
	const char *text = "# comment\n 1 -2\t3\n# more\n-32768 32767\n";
	int16_t out[8];
	size_t n;
	char err[256];

	cr_assert_eq(netem_dist_parse(text, strlen(text), out, 8, &n, err,
				      sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(n, 5);
	cr_assert_eq(out[0], 1);
	cr_assert_eq(out[1], -2);
	cr_assert_eq(out[2], 3);
	cr_assert_eq(out[3], -32768);
	cr_assert_eq(out[4], 32767);
	parse_err("1 2\n3 x4\n", "line 2: \"x4\" is not an integer");
	parse_err("40000", "line 1: 40000 is out of range -32768..32767");
	parse_err("# only a comment\n", "no values (a table needs 1..16384)");
	parse_err("1 2 3 4 5", "line 1: more than 4 values");
}

/* The u32 draw picks the value as the kernel's tabledist() does: entry
 * rnd % n, uniform offset rnd % (2 sigma). */
Test(dist, tabledist_rules)
{
	static const int16_t t[] = {-8192, 0, 8192, 4096};

	cr_assert_eq(netem_tabledist(100, 0, 12345, t, 4), 100);
	cr_assert_eq(netem_tabledist(1000, 100, 0, NULL, 0), 900);
	/* 2^31 % 200 = 48, (2^32 - 1) % 200 = 95, 199 % 200 = 199 */
	cr_assert_eq(netem_tabledist(1000, 100, 0x80000000u, NULL, 0), 948);
	cr_assert_eq(netem_tabledist(1000, 100, UINT32_MAX, NULL, 0), 995);
	cr_assert_eq(netem_tabledist(1000, 100, 199, NULL, 0), 1099);
	/* the largest jitter: 2 sigma = 2^32 - 2 still fits the u32 modulo */
	cr_assert_eq(netem_tabledist(0, INT32_MAX, UINT32_MAX - 1, NULL, 0),
		     -(int64_t)INT32_MAX);
	cr_assert_eq(netem_tabledist(0, INT32_MAX, UINT32_MAX, NULL, 0),
		     -(int64_t)INT32_MAX + 1);
	cr_assert_eq(netem_tabledist(1000000, 10000, 0, t, 4), 990000);
	cr_assert_eq(netem_tabledist(1000000, 10000, 0x80000000u, t, 4),
		     990000);
	cr_assert_eq(netem_tabledist(1000000, 10000, 1, t, 4), 1000000);
	cr_assert_eq(netem_tabledist(1000000, 10000, 6, t, 4), 1010000);
	cr_assert_eq(netem_tabledist(1000000, 10000, 0xffffffffu, t, 4),
		     1005000);
	/* rounding as the kernel splits sigma: 3 * 4096 / 8192 = 1.5 -> 2 */
	cr_assert_eq(netem_tabledist(0, 3, 3, t, 4), 2);
}
