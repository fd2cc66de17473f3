/*
 * test_msg.c: Criterion tests of the RTM_NEWQDISC messages the kernel netem
 * backend builds (daemon/kernel/tc_netem_msg.c). No netem is needed: each test
 * builds a message for a spec, decodes it the way the kernel's
 * netem_change()/parse_attr() does (struct tc_netem_qopt, then nested
 * TCA_NETEM_* attributes at NLA_ALIGN(sizeof qopt)) and checks that every
 * field landed where the kernel reads it, in the kernel's units.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "kernel.h"
#include "netem.h"
#include "netem_dist.h"

/* A decoded netem message. */
struct dec {
	struct nlmsghdr hdr;
	struct tcmsg tcm;
	char kind[16];
	struct tc_netem_qopt q;
	struct nlattr *tb[TCA_NETEM_MAX + 1];
	struct nl_msg *m;
};

static const uint32_t P25 = 1073741824u; /* rint(0.25 * UINT32_MAX) */
static const uint32_t P1 = 42949673u;	 /* rint(0.01 * UINT32_MAX) */
static const uint32_t P50 = 2147483648u; /* rint(0.50 * UINT32_MAX) */

static void build(const struct netem_spec *s, unsigned mode,
		  const struct netem_dist_registry *reg, struct dec *d)
{
	struct nlattr *top[TCA_MAX + 1];
	struct nlattr *opts;
	char why[160] = "";
	int err, off, rem;

	memset(d, 0, sizeof(*d));
	err = knetem_msg_netem(7, 0x00010002u, 0x00020000u,
			       NLM_F_CREATE | NLM_F_EXCL, mode, s, reg, &d->m,
			       why, sizeof(why));
	cr_assert_eq(err, 0, "build failed: %d %s", err, why);
	d->hdr = *nlmsg_hdr(d->m);
	memcpy(&d->tcm, nlmsg_data(nlmsg_hdr(d->m)), sizeof(d->tcm));
	err = nlmsg_parse(nlmsg_hdr(d->m), sizeof(struct tcmsg), top, TCA_MAX,
			  NULL);
	cr_assert_eq(err, 0);
	cr_assert_not_null(top[TCA_KIND]);
	nla_strlcpy(d->kind, top[TCA_KIND], sizeof(d->kind));
	opts = top[TCA_OPTIONS];
	cr_assert_not_null(opts);
	/* The kernel's parse_attr(): qopt first, attributes after it. */
	cr_assert_geq(nla_len(opts), (int)sizeof(d->q));
	memcpy(&d->q, nla_data(opts), sizeof(d->q));
	off = NLA_ALIGN(sizeof(d->q));
	rem = nla_len(opts) - off;
	cr_assert_geq(rem, 0);
	err = nla_parse(d->tb, TCA_NETEM_MAX,
			(struct nlattr *)((char *)nla_data(opts) + off), rem,
			NULL);
	cr_assert_eq(err, 0);
	/* The message's own length covers everything (no stray bytes). */
	cr_assert_eq((char *)opts + NLA_ALIGN(opts->nla_len),
		     (char *)nlmsg_tail(nlmsg_hdr(d->m)));
}

static void done(struct dec *d)
{
	nlmsg_free(d->m);
}

static const void *attr(struct dec *d, int type, size_t size)
{
	cr_assert_not_null(d->tb[type], "attribute %d missing", type);
	cr_assert_eq((size_t)nla_len(d->tb[type]), size,
		     "attribute %d: %d bytes, want %zu", type,
		     nla_len(d->tb[type]), size);
	return nla_data(d->tb[type]);
}

/* Every spec sends these, zeros included, so a change leaves nothing of an
 * earlier configuration behind. */
static void check_always(struct dec *d, const struct netem_spec *s)
{
	const struct tc_netem_corr *corr;
	const struct tc_netem_reorder *ro;
	const struct tc_netem_corrupt *co;
	const struct tc_netem_rate *r;

	cr_assert_eq(nla_get_s64(d->tb[TCA_NETEM_LATENCY64]), s->latency_ns);
	cr_assert_eq(nla_get_s64(d->tb[TCA_NETEM_JITTER64]), s->jitter_ns);
	attr(d, TCA_NETEM_LATENCY64, 8);
	attr(d, TCA_NETEM_JITTER64, 8);
	/* Legacy fields in 64 ns psched ticks. */
	cr_assert_eq(d->q.latency, (uint32_t)(s->latency_ns >> 6));
	cr_assert_eq(d->q.jitter, (uint32_t)(s->jitter_ns >> 6));
	cr_assert_eq(d->q.limit, s->limit);
	cr_assert_eq(d->q.duplicate, s->duplicate);
	corr = attr(d, TCA_NETEM_CORR, sizeof(*corr));
	cr_assert_eq(corr->delay_corr, s->delay_corr);
	cr_assert_eq(corr->dup_corr, s->duplicate_corr);
	ro = attr(d, TCA_NETEM_REORDER, sizeof(*ro));
	cr_assert_eq(ro->probability, s->reorder);
	cr_assert_eq(ro->correlation, s->reorder_corr);
	co = attr(d, TCA_NETEM_CORRUPT, sizeof(*co));
	cr_assert_eq(co->probability, s->corrupt);
	cr_assert_eq(co->correlation, s->corrupt_corr);
	r = attr(d, TCA_NETEM_RATE, sizeof(*r));
	cr_assert_eq(r->packet_overhead, s->packet_overhead);
	cr_assert_eq(r->cell_size, s->cell_size);
	cr_assert_eq(r->cell_overhead, s->cell_overhead);
	cr_assert_eq(*(const uint32_t *)attr(d, TCA_NETEM_ECN, 4),
		     s->ecn ? 1u : 0u);
}

Test(kernel_msg, header_and_kind)
{
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	build(&s, 0, NULL, &d);
	cr_assert_eq(d.hdr.nlmsg_type, RTM_NEWQDISC);
	cr_assert_eq(d.hdr.nlmsg_flags & (NLM_F_CREATE | NLM_F_EXCL),
		     NLM_F_CREATE | NLM_F_EXCL);
	cr_assert_eq(d.tcm.tcm_ifindex, 7);
	cr_assert_eq(d.tcm.tcm_parent, 0x00010002u);
	cr_assert_eq(d.tcm.tcm_handle, 0x00020000u);
	cr_assert_str_eq(d.kind, "netem");
	check_always(&d, &s);
	cr_assert_eq(d.q.limit, 1000u);
	cr_assert_null(d.tb[TCA_NETEM_LOSS]);
	cr_assert_null(d.tb[TCA_NETEM_RATE64]);
	cr_assert_null(d.tb[TCA_NETEM_DELAY_DIST]);
	cr_assert_null(d.tb[TCA_NETEM_SLOT]);
	done(&d);
}

Test(kernel_msg, delay_jitter_correlation_ns)
{
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.latency_ns = 100000000; /* 100 ms */
	s.jitter_ns = 10000000;	  /* 10 ms */
	s.delay_corr = P25;
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	cr_assert_eq(d.q.latency, 1562500u); /* 100 ms / 64 ns */
	cr_assert_eq(d.q.jitter, 156250u);
	/* No table: the kernel's uniform jitter. */
	cr_assert_null(d.tb[TCA_NETEM_DELAY_DIST]);
	done(&d);
}

Test(kernel_msg, long_delay_saturates_legacy_field)
{
	struct netem_spec s;
	struct dec d;

	/* 600 s does not fit 32-bit ticks; LATENCY64 carries it exactly. */
	netem_spec_init(&s);
	s.latency_ns = 600000000000ll;
	build(&s, 0, NULL, &d);
	cr_assert_eq(d.q.latency, UINT32_MAX);
	cr_assert_eq(nla_get_s64(d.tb[TCA_NETEM_LATENCY64]), 600000000000ll);
	done(&d);
}

Test(kernel_msg, random_loss_duplicate_corrupt)
{
	const struct tc_netem_corr *corr;
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.loss_model = NETEM_LOSS_RANDOM;
	s.loss = P1;
	s.loss_corr = P25;
	s.duplicate = P50;
	s.duplicate_corr = P1;
	s.corrupt = P25;
	s.corrupt_corr = P50;
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	cr_assert_eq(d.q.loss, P1);
	corr = nla_data(d.tb[TCA_NETEM_CORR]);
	cr_assert_eq(corr->loss_corr, P25);
	/* Random loss is the kernel default when TCA_NETEM_LOSS is absent. */
	cr_assert_null(d.tb[TCA_NETEM_LOSS]);
	done(&d);
}

Test(kernel_msg, four_state_loss_is_netem_loss_gi)
{
	const struct tc_netem_gimodel *gi;
	struct nlattr *nest[NETEM_LOSS_MAX + 1];
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.loss_model = NETEM_LOSS_STATE;
	s.p13 = 11;
	s.p31 = 22;
	s.p32 = 33;
	s.p23 = 44;
	s.p14 = 55;
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	cr_assert_eq(d.q.loss, 0u);
	cr_assert_not_null(d.tb[TCA_NETEM_LOSS]);
	cr_assert_eq(nla_parse_nested(nest, NETEM_LOSS_MAX,
				      d.tb[TCA_NETEM_LOSS], NULL),
		     0);
	cr_assert_null(nest[NETEM_LOSS_GE]);
	cr_assert_not_null(nest[NETEM_LOSS_GI]);
	cr_assert_eq(nla_len(nest[NETEM_LOSS_GI]), (int)sizeof(*gi));
	gi = nla_data(nest[NETEM_LOSS_GI]);
	/* Kernel struct order is p13 p31 p32 p14 p23. */
	cr_assert_eq(gi->p13, 11u);
	cr_assert_eq(gi->p31, 22u);
	cr_assert_eq(gi->p32, 33u);
	cr_assert_eq(gi->p23, 44u);
	cr_assert_eq(gi->p14, 55u);
	done(&d);
}

Test(kernel_msg, gilbert_elliott_sends_h_not_1_minus_h)
{
	const struct tc_netem_gemodel *ge;
	struct nlattr *nest[NETEM_LOSS_MAX + 1];
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.loss_model = NETEM_LOSS_GEMODEL;
	s.ge_p = P1;
	s.ge_r = P25;
	s.ge_1h = P50;	 /* 1-h as typed */
	s.ge_1k = 1000u; /* 1-k as typed */
	s.ecn = 1;
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	cr_assert_eq(nla_parse_nested(nest, NETEM_LOSS_MAX,
				      d.tb[TCA_NETEM_LOSS], NULL),
		     0);
	cr_assert_null(nest[NETEM_LOSS_GI]);
	cr_assert_not_null(nest[NETEM_LOSS_GE]);
	ge = nla_data(nest[NETEM_LOSS_GE]);
	cr_assert_eq(ge->p, P1);
	cr_assert_eq(ge->r, P25);
	cr_assert_eq(ge->h, UINT32_MAX - P50);
	cr_assert_eq(ge->k1, 1000u);
	cr_assert_eq(*(const uint32_t *)nla_data(d.tb[TCA_NETEM_ECN]), 1u);
	done(&d);
}

Test(kernel_msg, rate_under_4g_has_no_rate64)
{
	const struct tc_netem_rate *r;
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.rate = 125000; /* 1 Mbit/s in bytes/s */
	s.packet_overhead = -14;
	s.cell_size = 48;
	s.cell_overhead = 5;
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	r = nla_data(d.tb[TCA_NETEM_RATE]);
	cr_assert_eq(r->rate, 125000u);
	cr_assert_null(d.tb[TCA_NETEM_RATE64]);
	done(&d);
}

Test(kernel_msg, rate_over_4g_uses_rate64)
{
	const struct tc_netem_rate *r;
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.rate = 5000000000ull; /* 40 Gbit/s */
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	r = nla_data(d.tb[TCA_NETEM_RATE]);
	/* The kernel takes max(rate, rate64), as tc sends them. */
	cr_assert_eq(r->rate, UINT32_MAX);
	cr_assert_not_null(d.tb[TCA_NETEM_RATE64]);
	cr_assert_eq(nla_get_u64(d.tb[TCA_NETEM_RATE64]), 5000000000ull);
	done(&d);
}

Test(kernel_msg, reorder_and_gap)
{
	const struct tc_netem_reorder *ro;
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.latency_ns = 10000000;
	s.reorder = P25;
	s.reorder_corr = P50;
	s.gap = 5;
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	cr_assert_eq(d.q.gap, 5u);
	ro = nla_data(d.tb[TCA_NETEM_REORDER]);
	cr_assert_eq(ro->probability, P25);
	cr_assert_eq(ro->correlation, P50);
	done(&d);

	/* reorder without gap: tc's gap 1, each packet jumps on its own. */
	s.gap = 0;
	build(&s, 0, NULL, &d);
	cr_assert_eq(d.q.gap, 1u);
	done(&d);

	/* no reorder: gap 0, reordering off in the kernel. */
	s.reorder = 0;
	s.reorder_corr = 0;
	build(&s, 0, NULL, &d);
	cr_assert_eq(d.q.gap, 0u);
	done(&d);
}

Test(kernel_msg, builtin_distribution_table)
{
	static int16_t want[NETEM_DIST_BUILTIN_SIZE];
	static const enum netem_dist ds[] = {
		NETEM_DIST_NORMAL, NETEM_DIST_PARETO, NETEM_DIST_PARETONORMAL};
	struct netem_spec s;
	struct dec d;
	size_t i;

	for (i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		netem_spec_init(&s);
		s.latency_ns = 50000000;
		s.jitter_ns = 5000000;
		s.dist = ds[i];
		cr_assert_eq(netem_dist_builtin(ds[i], want), 0);
		build(&s, 0, NULL, &d);
		check_always(&d, &s);
		cr_assert_eq(
			memcmp(attr(&d, TCA_NETEM_DELAY_DIST, sizeof(want)),
			       want, sizeof(want)),
			0, "table %d differs", ds[i]);
		done(&d);
	}
}

Test(kernel_msg, custom_distribution_from_registry)
{
	static const int16_t tab[] = {-8192, -100, 0, 100, 8192};
	const struct netem_dist_table t = {"mine", tab, 5};
	const struct netem_dist_registry reg = {&t, 1};
	struct netem_spec s;
	struct nl_msg *m = (struct nl_msg *)0x1;
	char why[160] = "";
	struct dec d;

	netem_spec_init(&s);
	s.latency_ns = 1000000;
	s.jitter_ns = 100000;
	s.dist = NETEM_DIST_CUSTOM;
	strcpy(s.dist_name, "mine");
	build(&s, 0, &reg, &d);
	cr_assert_eq(memcmp(attr(&d, TCA_NETEM_DELAY_DIST, sizeof(tab)), tab,
			    sizeof(tab)),
		     0);
	done(&d);

	/* An unknown name is refused and the output is not written. */
	strcpy(s.dist_name, "absent");
	cr_assert_eq(
		knetem_msg_netem(3, 1, 2, 0, 0, &s, &reg, &m, why, sizeof(why)),
		-ENOENT);
	cr_assert_eq(m, (struct nl_msg *)0x1);
	cr_assert(strstr(why, "absent"), "why: %s", why);
}

Test(kernel_msg, slot_uniform)
{
	struct tc_netem_slot slot, *sl = &slot;
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.slot = 1;
	s.slot_min_ns = 800000;	  /* 800 us */
	s.slot_max_ns = 10000000; /* 10 ms */
	s.slot_packets = 42;
	s.slot_bytes = 65536;
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	/* Netlink data is only 4-byte aligned; the struct holds s64s. */
	memcpy(sl, attr(&d, TCA_NETEM_SLOT, sizeof(*sl)), sizeof(*sl));
	cr_assert_eq(sl->min_delay, 800000);
	cr_assert_eq(sl->max_delay, 10000000);
	cr_assert_eq(sl->max_packets, 42);
	cr_assert_eq(sl->max_bytes, 65536);
	cr_assert_eq(sl->dist_delay, 0);
	cr_assert_eq(sl->dist_jitter, 0);
	cr_assert_null(d.tb[TCA_NETEM_SLOT_DIST]);
	done(&d);
}

Test(kernel_msg, slot_distribution)
{
	static int16_t want[NETEM_DIST_BUILTIN_SIZE];
	struct tc_netem_slot slot, *sl = &slot;
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.slot = 1;
	s.slot_use_dist = 1;
	s.slot_dist = NETEM_DIST_PARETO;
	s.slot_dist_delay_ns = 2000000;
	s.slot_dist_jitter_ns = 500000;
	s.slot_packets = 0;
	build(&s, 0, NULL, &d);
	/* Netlink data is only 4-byte aligned; the struct holds s64s. */
	memcpy(sl, attr(&d, TCA_NETEM_SLOT, sizeof(*sl)), sizeof(*sl));
	cr_assert_eq(sl->min_delay, 0);
	cr_assert_eq(sl->max_delay, 0);
	cr_assert_eq(sl->dist_delay, 2000000);
	cr_assert_eq(sl->dist_jitter, 500000);
	cr_assert_eq(sl->max_packets, 0); /* kernel reads 0 as unlimited */
	cr_assert_eq(netem_dist_builtin(NETEM_DIST_PARETO, want), 0);
	cr_assert_eq(memcmp(attr(&d, TCA_NETEM_SLOT_DIST, sizeof(want)), want,
			    sizeof(want)),
		     0);
	cr_assert_null(d.tb[TCA_NETEM_DELAY_DIST]);
	done(&d);
}

/* Change mode: what a fresh qdisc would not need but a live one does. */
Test(kernel_msg, change_mode_overrides_sticky_state)
{
	struct tc_netem_slot slot, *sl = &slot;
	const int16_t *t;
	struct netem_spec s;
	struct dec d;
	int k;

	netem_spec_init(&s);
	s.latency_ns = 20000000;
	s.jitter_ns = 4000000;
	build(&s, KNETEM_MSG_CHANGE, NULL, &d);
	check_always(&d, &s);
	/* Slots off, explicitly: an all-zero TCA_NETEM_SLOT. */
	/* Netlink data is only 4-byte aligned; the struct holds s64s. */
	memcpy(sl, attr(&d, TCA_NETEM_SLOT, sizeof(*sl)), sizeof(*sl));
	cr_assert_eq(sl->min_delay | sl->max_delay | sl->dist_delay |
			     sl->dist_jitter,
		     0);
	cr_assert_eq(sl->max_packets | sl->max_bytes, 0);
	/* No table in the spec: the uniform stand-in, k - 8192. */
	t = attr(&d, TCA_NETEM_DELAY_DIST, NETEM_DIST_TABLE_MAX * 2);
	for (k = 0; k < NETEM_DIST_TABLE_MAX; k++)
		cr_assert_eq(t[k], k - NETEM_DIST_SCALE, "entry %d", k);
	done(&d);

	/* Without jitter the table is never read: none is sent. */
	s.jitter_ns = 0;
	build(&s, KNETEM_MSG_CHANGE, NULL, &d);
	cr_assert_null(d.tb[TCA_NETEM_DELAY_DIST]);
	done(&d);
}

Test(kernel_msg, change_mode_uniform_slot_as_table)
{
	struct tc_netem_slot slot, *sl = &slot;
	struct netem_spec s;
	struct dec d;

	netem_spec_init(&s);
	s.slot = 1;
	s.slot_min_ns = 1000000;
	s.slot_max_ns = 3000000;
	build(&s, KNETEM_MSG_CHANGE, NULL, &d);
	/* Netlink data is only 4-byte aligned; the struct holds s64s. */
	memcpy(sl, attr(&d, TCA_NETEM_SLOT, sizeof(*sl)), sizeof(*sl));
	cr_assert_eq(sl->min_delay, 1000000);
	cr_assert_eq(sl->max_delay, 3000000);
	/* [1 ms, 3 ms] as mu 2 ms +- 1 ms through the uniform table. */
	cr_assert_eq(sl->dist_delay, 2000000);
	cr_assert_eq(sl->dist_jitter, 1000000);
	attr(&d, TCA_NETEM_SLOT_DIST, NETEM_DIST_TABLE_MAX * 2);
	done(&d);
}

Test(kernel_msg, bad_specs_are_refused_and_write_nothing)
{
	struct netem_spec s;
	struct nl_msg *m = NULL;
	char why[160];

	netem_spec_init(&s);
	s.latency_ns = -1;
	why[0] = '\0';
	cr_assert_eq(
		knetem_msg_netem(3, 1, 2, 0, 0, &s, NULL, &m, why, sizeof(why)),
		-EINVAL);
	cr_assert_null(m);
	cr_assert_neq(why[0], '\0');

	netem_spec_init(&s);
	s.latency_ns = 10000000000ll;
	s.jitter_ns = 3000000000ll; /* 3 s: over tabledist's s32 sigma */
	cr_assert_eq(
		knetem_msg_netem(3, 1, 2, 0, 0, &s, NULL, &m, why, sizeof(why)),
		-ERANGE);
	cr_assert_null(m);

	netem_spec_init(&s);
	s.latency_ns = 10000000;
	s.jitter_ns = 1000000;
	s.jitter_mode = NETEM_JITTER_FIFO;
	cr_assert_eq(
		knetem_msg_netem(3, 1, 2, 0, 0, &s, NULL, &m, why, sizeof(why)),
		-EOPNOTSUPP);
	cr_assert_null(m);
	cr_assert(strstr(why, "backend = userspace"), "why: %s", why);

	netem_spec_init(&s);
	s.slot = 1;
	s.slot_min_ns = 5;
	s.slot_max_ns = 4;
	cr_assert_eq(
		knetem_msg_netem(3, 1, 2, 0, 0, &s, NULL, &m, why, sizeof(why)),
		-EINVAL);
	cr_assert_null(m);

	netem_spec_init(&s);
	cr_assert_eq(
		knetem_msg_netem(0, 1, 2, 0, 0, &s, NULL, &m, why, sizeof(why)),
		-EINVAL);
	cr_assert_eq(knetem_msg_netem(3, 1, 2, 0, 0, NULL, NULL, &m, why,
				      sizeof(why)),
		     -EINVAL);
	cr_assert_null(m);
}

/* What the parser gives is what the kernel gets: a full tc-style line. */
Test(kernel_msg, parsed_spec_round_trip)
{
	const struct tc_netem_corr *corr;
	struct netem_spec s;
	char err[160] = "";
	struct dec d;

	cr_assert_eq(netem_spec_parse("delay 30ms 5ms 10% loss 2% 50% "
				      "duplicate 1% corrupt 0.5% "
				      "rate 10mbit limit 500",
				      &s, err, sizeof(err)),
		     0, "%s", err);
	build(&s, 0, NULL, &d);
	check_always(&d, &s);
	cr_assert_eq(nla_get_s64(d.tb[TCA_NETEM_LATENCY64]), 30000000);
	cr_assert_eq(nla_get_s64(d.tb[TCA_NETEM_JITTER64]), 5000000);
	corr = nla_data(d.tb[TCA_NETEM_CORR]);
	cr_assert_eq(corr->delay_corr, netem_prob_from_double(0.10));
	cr_assert_eq(corr->loss_corr, netem_prob_from_double(0.50));
	cr_assert_eq(d.q.loss, netem_prob_from_double(0.02));
	cr_assert_eq(d.q.duplicate, netem_prob_from_double(0.01));
	cr_assert_eq(((const struct tc_netem_corrupt *)nla_data(
			      d.tb[TCA_NETEM_CORRUPT]))
			     ->probability,
		     netem_prob_from_double(0.005));
	cr_assert_eq(
		((const struct tc_netem_rate *)nla_data(d.tb[TCA_NETEM_RATE]))
			->rate,
		1250000u); /* 10 Mbit/s = 1.25e6 bytes/s */
	cr_assert_eq(d.q.limit, 500u);
	done(&d);
}

/* Count each nested TCA_NETEM_* type once: the libnl part and the raw
 * part must never both write one (the kernel would take the last). */
static void check_once(struct dec *d)
{
	int seen[TCA_NETEM_MAX + 1] = {0};
	struct nlmsghdr *h = nlmsg_hdr(d->m);
	struct nlattr *opts = NULL, *a, *top;
	int rem, off;

	nlmsg_for_each_attr(top, h, sizeof(struct tcmsg), rem)
		if (nla_type(top) == TCA_OPTIONS)
			opts = top;
	cr_assert_not_null(opts);
	off = NLA_ALIGN(sizeof(struct tc_netem_qopt));
	nla_for_each_attr(a, (struct nlattr *)((char *)nla_data(opts) + off),
			  nla_len(opts) - off, rem) {
		cr_assert_leq(nla_type(a), TCA_NETEM_MAX);
		cr_assert_eq(seen[nla_type(a)]++, 0, "attribute %d twice",
			     nla_type(a));
	}
}

/* libnl's rtnl_netem takes what it knows; what it refuses (a delay
 * correlation without delay, reorder under 1 us of delay) goes raw, and
 * either way each attribute is sent once with the spec's values. */
Test(kernel_msg, libnl_and_raw_parts_send_each_attribute_once)
{
	static const char *const specs[] = {
		"delay 30ms 5ms 10% loss 2% 50% duplicate 1% 5% corrupt 0.5% "
		"reorder 25% 50% gap 5 rate 10mbit limit 500",
		"delay 100ms 10ms 25% distribution normal loss gemodel 1% 10% "
		"70% 0.1% duplicate 1% corrupt 0.1% reorder 25% 50% gap 5 "
		"rate 10mbit 20 limit 1000 slot 800us 1ms",
		"delay 0ms 10ms 25%",
		"delay 500ns reorder 10%",
		"loss 0% 30%",
		"rate 1mbit",
	};
	const struct tc_netem_corr *corr;
	struct netem_spec s;
	char err[160] = "";
	struct dec d;
	size_t i;
	unsigned mode;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		for (mode = 0; mode <= KNETEM_MSG_CHANGE;
		     mode += KNETEM_MSG_CHANGE) {
			cr_assert_eq(netem_spec_parse(specs[i], &s, err,
						      sizeof(err)),
				     0, "%s: %s", specs[i], err);
			build(&s, mode, NULL, &d);
			check_always(&d, &s);
			check_once(&d);
			corr = nla_data(d.tb[TCA_NETEM_CORR]);
			cr_assert_eq(corr->loss_corr,
				     s.loss_model == NETEM_LOSS_RANDOM
					     ? s.loss_corr
					     : 0u);
			cr_assert_eq(d.q.gap,
				     s.gap ? s.gap : (s.reorder ? 1u : 0u));
			done(&d);
		}
	}
}
