/*
 * test_fuzz_corpus.c: runs the fuzz target's entry point over a corpus of
 * odd inputs (the regression suite when RECKON_FUZZ is off): empty and
 * huge tokens, embedded NULs, numeric extremes, every keyword cut short,
 * and byte-flipped versions of a full spec.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "fuzz_spec.h"

static void feed(const char *s, size_t n)
{
	cr_assert_eq(LLVMFuzzerTestOneInput((const uint8_t *)s, n), 0);
}

Test(fuzz, corpus)
{
	static const char *odd[] = {
		"",
		" ",
		"\t\n",
		"delay",
		"delay 1e308ms",
		"delay 1e-300ms",
		"delay 9223372036854775807ns",
		"delay 99999999999s",
		"loss 1e400%",
		"loss -0%",
		"loss .%",
		"loss 100.0000000001%",
		"rate 99999999999999999999tbit",
		"rate 0.0001bit",
		"rate -1bit",
		"limit 99999999999",
		"gap 4294967296",
		"slot 1ms packets 1e3",
		"loss state 1% p31",
		"loss gemodel p",
		"loss state p13",
		"distribution",
		"distribution normal delay 1ms",
		"slot distribution",
		"slot distribution normal 1ms",
		"delay 1ms 1ms 1ms",
		"reorder 100% gap",
		"rate 1mbit 1 1 1 1",
		"at 1s delay 1ms",
		"ramp 1s 2s loss 0% 1%;;;;at 3s limit 5",
		"time_ms,delay_ms\n0,1\n",
		"time,delay\n1s,\n",
		"1 2 3\n#x\n4",
		"at 9223372036854775807ns delay 1ms",
		"ramp 0ns 1ns rate 0 1bit",
		"delay 1ms\x01",
		"loss 5%\xff\xfe",
		"jitter",
		"jitter fifo fifo",
		"ecn ecn",
		"drop 1%",
		"latency 1ms",
		"slot 1ms bytes",
	};
	const char full[] = "delay 100ms 10ms 25% distribution normal loss "
			    "gemodel 1% 10% 70% 0.1% duplicate 1% corrupt 0.1% "
			    "reorder 25% 50% gap 5 rate 10mbit 20 limit 1000 "
			    "slot 800us 1ms";
	char buf[sizeof(full)], big[5000];
	size_t i, j;

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		feed(odd[i], strlen(odd[i]));
	feed("delay\0 1ms", 10);
	memset(big, '9', sizeof(big));
	feed(big, sizeof(big));
	/* every prefix of the full spec */
	for (i = 0; i <= strlen(full); i++)
		feed(full, i);
	/* single-byte flips */
	for (i = 0; i < strlen(full); i++)
		for (j = 0; j < 8; j++) {
			memcpy(buf, full, sizeof(full));
			buf[i] ^= (char)(1 << j);
			feed(buf, strlen(full));
		}
}
