/*
 * ctl_spec.c: `reckonctl spec [options] 'SPEC'`, the engine demo. It parses
 * a tc-netem style spec, prints its canonical form and what it implies:
 * the stationary loss rate and mean loss-burst length (analytic for every
 * model except correlated random loss), the mean and p99 one-way delay
 * (analytic when only the jitter distribution matters), and, always, a
 * seeded Monte-Carlo run of the real engine in virtual time to set beside
 * them. A bad spec prints the parser's message and exits 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netem.h"
#include "netem_analysis.h"
#include "ctl_int.h"
#include "units.h"
#include "util.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: reckonctl spec [--packets N] [--size BYTES] "
		"[--interval TIME] [--seed N] 'SPEC'\n"
		"  Monte-Carlo defaults: 200000 packets of 200 bytes every "
		"10ms, seed 1\n");
	return 2;
}

static void fmt_ms(double ns, char *buf, size_t len)
{
	if (!isfinite(ns))
		snprintf(buf, len, "inf");
	else if (fabs(ns) >= 1e6)
		snprintf(buf, len, "%.3f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
}

static const char *model_name(enum netem_loss_model m)
{
	switch (m) {
	case NETEM_LOSS_RANDOM:
		return "random (Bernoulli)";
	case NETEM_LOSS_STATE:
		return "4-state Markov (loss state)";
	case NETEM_LOSS_GEMODEL:
		return "Gilbert-Elliott (loss gemodel)";
	default:
		return "none";
	}
}

static void print_loss(const struct netem_spec *s, const struct netem_mc *mc)
{
	double rate, burst;
	int rc = netem_loss_analytic(s, &rate, &burst);

	printf("loss model     %s\n", model_name(s->loss_model));
	if (s->loss_model == NETEM_LOSS_NONE)
		return;
	if (rc == 0)
		printf("  analytic     stationary loss %.4f%%, mean loss burst "
		       "%.3f packets\n",
		       rate * 100, burst);
	else if (rc == -EDOM)
		printf("  analytic     no loss\n");
	else if (s->loss_model == NETEM_LOSS_RANDOM)
		printf("  analytic     none: with a correlation netem averages "
		       "uniforms (get_crandom), which is not a true "
		       "correlation "
		       "and moves the loss rate away from the %.4f%% given; "
		       "see Monte-Carlo\n",
		       netem_prob_to_double(s->loss) * 100);
	else
		printf("  analytic     none: the chain has no unique long-run "
		       "state; see Monte-Carlo\n");
	printf("  Monte-Carlo  loss %.4f%%, mean loss burst %.3f packets "
	       "(%" PRIu64 " lost of %" PRIu64 ")\n",
	       mc->loss_rate * 100, mc->burst_mean, mc->lost, mc->offered);
}

static void print_delay(const struct netem_spec *s, const struct netem_mc *mc)
{
	char a[32], b[32], c[32], d[32];
	double mean, p99;

	if (netem_delay_analytic(s, &mean, &p99) == 0) {
		fmt_ms(mean, a, sizeof(a));
		fmt_ms(p99, b, sizeof(b));
		printf("  analytic     mean %s, p99 %s\n", a, b);
	} else {
		printf("  analytic     none (rate, slot, reorder, correlation, "
		       "fifo jitter or a custom table): see Monte-Carlo\n");
	}
	if (mc->delivered) {
		fmt_ms(mc->delay_mean_ns, a, sizeof(a));
		fmt_ms(mc->delay_p50_ns, b, sizeof(b));
		fmt_ms(mc->delay_p99_ns, c, sizeof(c));
		fmt_ms(mc->delay_max_ns, d, sizeof(d));
		printf("  Monte-Carlo  mean %s, p50 %s, p99 %s, max %s\n", a, b,
		       c, d);
	} else {
		printf("  Monte-Carlo  nothing delivered\n");
	}
}

int ctl_spec(int argc, char *argv[])
{
	uint64_t packets = 200000, seed = 1;
	uint32_t size = 200;
	int64_t interval = 10000000;
	char text[4096] = "", err[256], canon[1024], why[NETEM_WHY_MAX];
	struct netem_spec s;
	struct netem_mc mc;
	size_t used = 0;
	int i, rc;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage();
			return 0;
		}
		if (strncmp(a, "--", 2) == 0 && i + 1 >= argc) {
			fprintf(stderr, "reckonctl spec: %s needs a value\n",
				a);
			return usage();
		}
		if (strcmp(a, "--packets") == 0) {
			if (num_parse_u64(argv[++i], &packets) < 0 ||
			    packets == 0 || packets > 10000000) {
				fprintf(stderr,
					"reckonctl spec: --packets: "
					"\"%s\" is not 1..10000000\n",
					argv[i]);
				return 1;
			}
		} else if (strcmp(a, "--size") == 0) {
			if (netem_parse_u32(argv[++i], &size, why) < 0 ||
			    size > 65535) {
				fprintf(stderr,
					"reckonctl spec: --size: "
					"\"%s\" is not 0..65535\n",
					argv[i]);
				return 1;
			}
		} else if (strcmp(a, "--interval") == 0) {
			if (netem_parse_time(argv[++i], &interval, why) < 0 ||
			    interval <= 0) {
				fprintf(stderr,
					"reckonctl spec: --interval: %s\n",
					interval <= 0 ? "must be over 0" : why);
				return 1;
			}
		} else if (strcmp(a, "--seed") == 0) {
			if (num_parse_u64(argv[++i], &seed) < 0) {
				fprintf(stderr,
					"reckonctl spec: --seed: \"%s\" "
					"is not a number\n",
					argv[i]);
				return 1;
			}
		} else {
			/* the spec, possibly split over several arguments */
			size_t l = strlen(a);

			if (used + l + 2 > sizeof(text)) {
				fprintf(stderr,
					"reckonctl spec: spec too long\n");
				return 1;
			}
			if (used)
				text[used++] = ' ';
			memcpy(text + used, a, l + 1);
			used += l;
		}
	}
	if (used == 0)
		return usage();
	if (netem_spec_parse(text, &s, err, sizeof(err)) < 0) {
		fprintf(stderr, "reckonctl spec: %s\n", err);
		return 1;
	}
	netem_spec_print(&s, canon, sizeof(canon));
	printf("spec           %s\n", canon);
	netem_spec_print_tc(&s, canon, sizeof(canon));
	printf("tc shows       %s\n", canon);
	if (s.dist == NETEM_DIST_CUSTOM ||
	    (s.slot && s.slot_use_dist && s.slot_dist == NETEM_DIST_CUSTOM)) {
		printf("note           custom distribution tables are loaded "
		       "by the scenario; no statistics here\n");
		return 0;
	}
	rc = netem_monte_carlo(&s, NULL, seed, packets, interval, size, &mc);
	if (rc < 0) {
		fprintf(stderr, "reckonctl spec: Monte-Carlo failed: %s\n",
			strerror(-rc));
		return 1;
	}
	{
		char iv[40];

		netem_fmt_time(interval, iv, sizeof(iv));
		printf("Monte-Carlo    %" PRIu64
		       " packets of %u bytes every %s, "
		       "seed %" PRIu64 " (synthetic traffic, virtual time)\n",
		       packets, size, iv, seed);
	}
	print_loss(&s, &mc);
	printf("one-way delay  (delivered packets, enqueue to dequeue)\n");
	print_delay(&s, &mc);
	if (s.rate) {
		char r[40], t[32];
		double bytes = (double)size + s.packet_overhead;

		if (s.cell_size)
			bytes = ceil(bytes / s.cell_size) *
				((double)s.cell_size + s.cell_overhead);
		netem_fmt_rate(s.rate, r, sizeof(r));
		fmt_ms(bytes * 1e9 / (double)s.rate, t, sizeof(t));
		printf("rate           %s: a %u-byte packet takes %s on the "
		       "wire\n",
		       r, size, t);
	}
	if (s.duplicate || s.corrupt || s.reorder) {
		char a[40], b[40], c[40];

		netem_fmt_percent(s.duplicate, a, sizeof(a));
		netem_fmt_percent(s.corrupt, b, sizeof(b));
		netem_fmt_percent(s.reorder, c, sizeof(c));
		printf("other          duplicate %s, corrupt %s, reorder %s", a,
		       b, c);
		if (s.reorder)
			printf(" (one in %u packets may jump the queue)",
			       s.gap);
		printf("\n");
	}
	if (mc.limit_dropped)
		printf("queue limit    %" PRIu64
		       " packets tail-dropped at limit "
		       "%u\n",
		       mc.limit_dropped, s.limit);
	return 0;
}
