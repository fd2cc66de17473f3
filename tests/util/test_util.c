/*
 * test_util.c: the shared helpers of util/util.h. The number grammar is
 * the one every program reads (decimal with 0x hex, "010" is ten;
 * durations with units, bare numbers in the caller's unit; sizes x1024),
 * the JSON writer escapes what RFC 8259 requires, the CSV splitter honours
 * quotes, and splitmix64 gives the reference stream of Vigna's
 * splitmix64.c.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

Test(num, integers_are_decimal_or_0x_hex)
{
	uint64_t v = 0;

	cr_assert_eq(num_parse_u64("010", &v), 0);
	cr_assert_eq(v, 10);
	cr_assert_eq(num_parse_u64("0x10", &v), 0);
	cr_assert_eq(v, 16);
	cr_assert_eq(num_parse_u64("0X1f", &v), 0);
	cr_assert_eq(v, 31);
	cr_assert_eq(num_parse_u64("18446744073709551615", &v), 0);
	cr_assert_eq(v, UINT64_MAX);
	v = 7;
	cr_assert_eq(num_parse_u64("18446744073709551616", &v), -ERANGE);
	cr_assert_eq(num_parse_u64("-1", &v), -EINVAL);
	cr_assert_eq(num_parse_u64(" 1", &v), -EINVAL);
	cr_assert_eq(num_parse_u64("1 ", &v), -EINVAL);
	cr_assert_eq(num_parse_u64("", &v), -EINVAL);
	cr_assert_eq(num_parse_u64("0x", &v), -EINVAL);
	cr_assert_eq(num_parse_u64("12k", &v), -EINVAL);
	cr_assert_eq(v, 7, "a refused number leaves the output alone");
}

Test(num, durations_mean_the_same_with_and_without_a_unit)
{
	int64_t a, b, c;
	char err[96];

	cr_assert_eq(num_parse_duration("600", NS_PER_S, &a, err, sizeof(err)),
		     0);
	cr_assert_eq(num_parse_duration("600s", NS_PER_S, &b, err, sizeof(err)),
		     0);
	cr_assert_eq(num_parse_duration_unit("10m", &c, err, sizeof(err)), 0);
	cr_assert_eq(a, 600 * NS_PER_S);
	cr_assert_eq(b, a);
	cr_assert_eq(c, a);
	cr_assert_eq(num_parse_duration("1.5ms", 0, &a, err, sizeof(err)), 0);
	cr_assert_eq(a, 1500000);
	cr_assert_eq(num_parse_duration_unit("10", &a, err, sizeof(err)),
		     -EINVAL);
	cr_assert_str_eq(err, "'10' needs a unit (ns, us, ms, s, m, h)");
	cr_assert_eq(num_parse_duration("1.5ns", 0, &a, err, sizeof(err)),
		     -EINVAL);
	cr_assert_eq(num_parse_duration("3x", NS_PER_S, &a, err, sizeof(err)),
		     -EINVAL);
}

Test(num, durations_print_in_the_largest_exact_unit)
{
	char buf[32];

	num_format_duration(600 * NS_PER_S, buf, sizeof(buf));
	cr_assert_str_eq(buf, "10m");
	num_format_duration(1500000, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1500us");
	num_format_duration(0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "0s");
}

Test(num, sizes_take_binary_suffixes)
{
	uint64_t v;

	cr_assert_eq(num_parse_size("4k", &v), 0);
	cr_assert_eq(v, 4096);
	cr_assert_eq(num_parse_size("2M", &v), 0);
	cr_assert_eq(v, 2u << 20);
	cr_assert_eq(num_parse_size("100", &v), 0);
	cr_assert_eq(v, 100);
	cr_assert_eq(num_parse_size("4kb", &v), -EINVAL);
}

static char out[256];
static size_t outn;

static void put(void *arg, const char *s, size_t n)
{
	(void)arg;
	cr_assert_lt(outn + n, sizeof(out));
	memcpy(out + outn, s, n);
	outn += n;
	out[outn] = '\0';
}

Test(json, escapes_quotes_backslashes_and_control_characters)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f;

	outn = 0;
	json_write_str("a\"b\\c\n\x01\xc3\xa9", put, NULL);
	cr_assert_str_eq(out, "\"a\\\"b\\\\c\\u000a\\u0001\xc3\xa9\"");
	f = open_memstream(&mem, &len);
	cr_assert_not_null(f);
	json_fputs_str(f, "a\"b\\c\n\x01\xc3\xa9");
	fclose(f);
	cr_assert_str_eq(mem, out, "the file and the sink writers agree");
	free(mem);
}

Test(csv, splits_with_quotes_and_counts_fields)
{
	char line[] = "a, \"b,c\" ,\"d\"\"e\",";
	char *f[8];

	cr_assert_eq(csv_split(line, f, 8), 4);
	cr_assert_str_eq(f[0], "a");
	cr_assert_str_eq(f[1], "b,c");
	cr_assert_str_eq(f[2], "d\"e");
	cr_assert_str_eq(f[3], "");
	char two[] = "x,y,z";
	cr_assert_eq(csv_split(two, f, 2), -E2BIG);
}

Test(splitmix, reference_stream)
{
	uint64_t s = 0;

	/* Vigna's splitmix64.c seeded with 0: first outputs. */
	cr_assert_eq(splitmix64(&s), 0xe220a8397b1dcdafULL);
	cr_assert_eq(splitmix64(&s), 0x6e789e6aa1b965f4ULL);
	cr_assert_eq(s, 2 * SPLITMIX64_GAMMA);
}
