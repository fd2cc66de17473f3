/*
 * test_capture.c: Criterion tests of the bridge's pcap writer
 * (daemon/bridge/capture.c), read back with libpcap itself: nanosecond
 * timestamps survive exactly, the snap length truncates, the size cap
 * stops writing at the exact byte count and counts what it skipped, and an
 * unwritable path is an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <pcap/pcap.h>

#include "bridge_int.h"

static char dir[64];

static void mkdir_tmp(void)
{
	strcpy(dir, "/tmp/reckon-capture-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(capture, .init = mkdir_tmp, .fini = rm_tmp);

Test(capture, nanosecond_timestamps_and_snaplen)
{
	char path[128], errbuf[PCAP_ERRBUF_SIZE];
	struct capture *c;
	struct capture_counts n;
	uint8_t f[100];
	const int64_t t0 = 1763700000123456789LL;

	snprintf(path, sizeof(path), "%s/a.pcap", dir);
	for (int i = 0; i < 100; i++)
		f[i] = (uint8_t)i;
	cr_assert_eq(capture_open(path, 64, 0, &c), 0);
	cr_assert_eq(capture_write(c, t0, f, 100), 0);
	cr_assert_eq(capture_write(c, t0 + 1, f, 40), 0);
	capture_get_counts(c, &n);
	cr_assert_eq(n.written, 2);
	cr_assert_eq(n.bytes, 24 + 16 + 64 + 16 + 40);
	capture_close(c);

	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq((uint64_t)st.st_size, n.bytes);

	pcap_t *p = pcap_open_offline_with_tstamp_precision(
		path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	struct pcap_pkthdr *h;
	const u_char *d;

	cr_assert_not_null(p, "%s", errbuf);
	cr_assert_eq(pcap_datalink(p), DLT_EN10MB);
	cr_assert_eq(pcap_next_ex(p, &h, &d), 1);
	cr_assert_eq((int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, t0);
	cr_assert_eq(h->caplen, 64);
	cr_assert_eq(h->len, 100);
	cr_assert_eq(memcmp(d, f, 64), 0);
	cr_assert_eq(pcap_next_ex(p, &h, &d), 1);
	cr_assert_eq((int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec,
		     t0 + 1);
	cr_assert_eq(h->caplen, 40);
	cr_assert_eq(pcap_next_ex(p, &h, &d), PCAP_ERROR_BREAK);
	pcap_close(p);
}

Test(capture, size_cap_counts_skipped_records)
{
	char path[128], errbuf[PCAP_ERRBUF_SIZE];
	struct capture *c;
	struct capture_counts n;
	uint8_t f[60] = {0};
	int got = 0;

	snprintf(path, sizeof(path), "%s/cap.pcap", dir);
	/* Room for exactly two 60-byte records. */
	cr_assert_eq(capture_open(path, 0, 24 + 2 * (16 + 60), &c), 0);
	cr_assert_eq(capture_write(c, 1, f, 60), 0);
	cr_assert_eq(capture_write(c, 2, f, 60), 0);
	cr_assert_eq(capture_write(c, 3, f, 60), 1);
	cr_assert_eq(capture_write(c, 4, f, 1), 1);
	cr_assert_eq(capture_write(c, -1, f, 1), -EINVAL);
	capture_get_counts(c, &n);
	cr_assert_eq(n.written, 2);
	cr_assert_eq(n.skipped, 2);
	capture_close(c);

	pcap_t *p = pcap_open_offline(path, errbuf);
	struct pcap_pkthdr *h;
	const u_char *d;

	cr_assert_not_null(p, "%s", errbuf);
	while (pcap_next_ex(p, &h, &d) == 1)
		got++;
	pcap_close(p);
	cr_assert_eq(got, 2);
}

Test(capture, unwritable_path_is_an_error)
{
	struct capture *c = (struct capture *)0x1;
	char path[128];

	snprintf(path, sizeof(path), "%s/no/such/dir/x.pcap", dir);
	cr_assert_lt(capture_open(path, 0, 0, &c), 0);
	cr_assert_eq(c, (struct capture *)0x1);
	cr_assert_eq(capture_open(NULL, 0, 0, &c), -EINVAL);
}
