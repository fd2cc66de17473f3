/*
 * tc_netem_msg.c: builds the RTM_NEWQDISC message that configures one
 * kernel netem qdisc from a struct netem_spec. The layout is the kernel's
 * (net/sched/sch_netem.c, netem_change/parse_attr; uapi linux/pkt_sched.h):
 * TCA_OPTIONS holds a struct tc_netem_qopt followed, at NLA_ALIGN(sizeof
 * qopt), by nested TCA_NETEM_* attributes. libnl's rtnl_netem writes the
 * qopt and the attributes it knows (correlations, reorder, corrupt, the
 * delay table); the rest (64-bit delays, rate, ECN, loss models, slots)
 * is appended raw and the outer length is patched to span it. Every attribute the
 * spec can express is sent, zeros included, because the kernel keeps
 * correlations, reorder, corrupt, rate, ECN and slot settings from an
 * earlier configuration when their attribute is absent (reference notes
 * netem-semantics-and-emulators.md section 2.10).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/netem.h>
#include <netlink/route/tc.h>

#include "kernel.h"

/* One psched tick is 64 ns (PSCHED_SHIFT 6 in include/net/pkt_sched.h);
 * the legacy 32-bit qopt latency/jitter fields are in ticks. The 64-bit
 * attributes sent alongside them carry the exact ns and take precedence. */
#define KNETEM_PSCHED_SHIFT 6

/* Room for the headers and every fixed-size attribute; tables are added
 * on top (table_bytes). */
#define KNETEM_MSG_BASE 1024u

static uint32_t ns_to_ticks(int64_t ns)
{
	uint64_t t = (uint64_t)ns >> KNETEM_PSCHED_SHIFT;

	return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

/* The uniform stand-in table: entry k is k - 8192 for k < 16384. Through
 * tabledist's mu + sigma * t / 8192 every draw is uniform on [mu - sigma,
 * mu + sigma), the law of the kernel's table-less jitter, in steps of
 * sigma / 8192. */
static void fill_uniform(int16_t *t)
{
	int32_t k;

	for (k = 0; k < NETEM_DIST_TABLE_MAX; k++)
		t[k] = (int16_t)(k - NETEM_DIST_SCALE);
}

/* Write a distribution table attribute of the given type: uniform, a
 * built-in table from the netem engine, or a custom table from reg. */
static int put_table(struct nl_msg *m, int type, enum netem_dist d,
		     const char *name, const struct netem_dist_registry *reg,
		     char *why, size_t len)
{
	const struct netem_dist_table *ct;
	struct nlattr *a;
	int err;

	switch (d) {
	case NETEM_DIST_UNIFORM:
		a = nla_reserve(m, type, NETEM_DIST_TABLE_MAX * 2);
		if (!a)
			return -EMSGSIZE;
		fill_uniform(nla_data(a));
		return 0;
	case NETEM_DIST_NORMAL:
	case NETEM_DIST_PARETO:
	case NETEM_DIST_PARETONORMAL:
		a = nla_reserve(m, type, NETEM_DIST_BUILTIN_SIZE * 2);
		if (!a)
			return -EMSGSIZE;
		err = netem_dist_builtin(d, nla_data(a));
		if (err)
			knetem_say(why, len, "distribution %d: no built-in table", d);
		return err;
	case NETEM_DIST_CUSTOM:
		ct = reg ? netem_dist_lookup(reg, name) : NULL;
		if (!ct) {
			knetem_say(why, len,
			    "distribution '%s': no such table was loaded",
			    name);
			return -ENOENT;
		}
		if (!ct->n || ct->n > NETEM_DIST_TABLE_MAX) {
			knetem_say(why, len,
			    "distribution '%s': %u entries (kernel takes "
			    "1..%d)",
			    name, ct->n, NETEM_DIST_TABLE_MAX);
			return -EINVAL;
		}
		return nla_put(m, type, (int)(ct->n * 2), ct->v) ? -EMSGSIZE
								 : 0;
	}
	knetem_say(why, len, "distribution %d: unknown", d);
	return -EINVAL;
}

/* Upper bound of the bytes a table attribute takes, so a message for a
 * table-less spec stays small (knetem_apply builds n of them at once). */
static size_t table_bytes(enum netem_dist d, const char *name,
			  const struct netem_dist_registry *reg)
{
	const struct netem_dist_table *ct;

	switch (d) {
	case NETEM_DIST_UNIFORM:
		return NETEM_DIST_TABLE_MAX * 2 + NLA_HDRLEN;
	case NETEM_DIST_CUSTOM:
		ct = reg ? netem_dist_lookup(reg, name) : NULL;
		return (ct ? (size_t)ct->n * 2 : 0) + NLA_HDRLEN + 4;
	default:
		return NETEM_DIST_BUILTIN_SIZE * 2 + NLA_HDRLEN;
	}
}

static size_t msg_size(const struct netem_spec *s, unsigned mode,
		       const struct netem_dist_registry *reg)
{
	size_t n = KNETEM_MSG_BASE;

	if (s->dist != NETEM_DIST_UNIFORM ||
	    ((mode & KNETEM_MSG_CHANGE) && s->jitter_ns))
		n += table_bytes(s->dist, s->dist_name, reg);
	if (s->slot)
		n += table_bytes(s->slot_use_dist ? s->slot_dist
						  : NETEM_DIST_UNIFORM,
				 s->slot_dist_name, reg);
	return n;
}

static int check_spec(const struct netem_spec *s, unsigned mode, char *why,
		      size_t len)
{
	if (s->latency_ns < 0 || s->jitter_ns < 0) {
		knetem_say(why, len, "delay: negative delay or jitter");
		return -EINVAL;
	}
	/* tabledist() takes sigma as s32 ns (sch_netem.c): refuse what the
	 * kernel would silently truncate. */
	if (s->jitter_ns > INT32_MAX) {
		knetem_say(why, len,
		    "delay: jitter %lld ns is over kernel netem's 32-bit "
		    "limit (2.147 s)",
		    (long long)s->jitter_ns);
		return -ERANGE;
	}
	if (s->jitter_mode == NETEM_JITTER_FIFO) {
		knetem_say(why, len,
		    "delay: 'jitter fifo' has no kernel netem equivalent: "
		    "use backend = userspace");
		return -EOPNOTSUPP;
	}
	if (s->loss_model < NETEM_LOSS_NONE ||
	    s->loss_model > NETEM_LOSS_GEMODEL) {
		knetem_say(why, len, "loss: unknown loss model %d", s->loss_model);
		return -EINVAL;
	}
	if (s->cell_size > INT32_MAX) {
		knetem_say(why, len, "rate: cell size %u too large", s->cell_size);
		return -ERANGE;
	}
	if (s->slot) {
		if (s->slot_min_ns < 0 || s->slot_max_ns < s->slot_min_ns ||
		    s->slot_dist_delay_ns < 0 || s->slot_dist_jitter_ns < 0) {
			knetem_say(why, len, "slot: negative or inverted delays");
			return -EINVAL;
		}
		if (s->slot_packets > INT32_MAX || s->slot_bytes > INT32_MAX) {
			knetem_say(why, len, "slot: packets/bytes over 2^31-1");
			return -ERANGE;
		}
		if (s->slot_dist_jitter_ns > INT32_MAX ||
		    ((mode & KNETEM_MSG_CHANGE) && !s->slot_use_dist &&
		     (s->slot_max_ns - s->slot_min_ns) / 2 > INT32_MAX)) {
			knetem_say(why, len,
			    "slot: spread over kernel netem's "
			    "32-bit jitter limit (2.147 s)");
			return -ERANGE;
		}
	}
	return 0;
}

static int put_loss_model(struct nl_msg *m, const struct netem_spec *s)
{
	struct nlattr *nest;

	if (s->loss_model == NETEM_LOSS_STATE) {
		/* 4-state model (Salsano et al., NetemCLG): the kernel
		 * struct orders p14 before p23. */
		struct tc_netem_gimodel gi = {
			.p13 = s->p13,
			.p31 = s->p31,
			.p32 = s->p32,
			.p14 = s->p14,
			.p23 = s->p23,
		};

		nest = nla_nest_start(m, TCA_NETEM_LOSS);
		if (!nest || nla_put(m, NETEM_LOSS_GI, sizeof(gi), &gi))
			return -EMSGSIZE;
		return nla_nest_end(m, nest) ? -EMSGSIZE : 0;
	}
	if (s->loss_model == NETEM_LOSS_GEMODEL) {
		/* Gilbert-Elliott: netlink carries h (not 1-h) but k1 = 1-k
		 * as typed, like iproute2's tc/q_netem.c. */
		struct tc_netem_gemodel ge = {
			.p = s->ge_p,
			.r = s->ge_r,
			.h = UINT32_MAX - s->ge_1h,
			.k1 = s->ge_1k,
		};

		nest = nla_nest_start(m, TCA_NETEM_LOSS);
		if (!nest || nla_put(m, NETEM_LOSS_GE, sizeof(ge), &ge))
			return -EMSGSIZE;
		return nla_nest_end(m, nest) ? -EMSGSIZE : 0;
	}
	/* Random or none: no TCA_NETEM_LOSS, which makes the kernel reset
	 * its loss model to random. */
	return 0;
}

static int put_delay_dist(struct nl_msg *m, const struct netem_spec *s,
			  unsigned mode, const struct netem_dist_registry *reg,
			  char *why, size_t len)
{
	/* A table, once set, cannot be removed by netlink; in change mode the
	 * uniform table stands in for "no table". */
	if (s->dist == NETEM_DIST_UNIFORM &&
	    (!(mode & KNETEM_MSG_CHANGE) || !s->jitter_ns))
		return 0;
	return put_table(m, TCA_NETEM_DELAY_DIST, s->dist, s->dist_name, reg,
			 why, len);
}

static int put_slot(struct nl_msg *m, const struct netem_spec *s, unsigned mode,
		    const struct netem_dist_registry *reg, char *why,
		    size_t len)
{
	struct tc_netem_slot sl;
	int table = 0;
	enum netem_dist d = NETEM_DIST_UNIFORM;

	memset(&sl, 0, sizeof(sl));
	if (!s->slot) {
		/* All zero switches slots off (sch_netem.c get_slot). */
		if (!(mode & KNETEM_MSG_CHANGE))
			return 0;
		return nla_put(m, TCA_NETEM_SLOT, sizeof(sl), &sl) ? -EMSGSIZE
								   : 0;
	}
	sl.max_packets = (int32_t)s->slot_packets;
	sl.max_bytes = (int32_t)s->slot_bytes;
	if (s->slot_use_dist) {
		sl.dist_delay = s->slot_dist_delay_ns;
		sl.dist_jitter = s->slot_dist_jitter_ns;
		d = s->slot_dist;
		table = 1;
	} else {
		sl.min_delay = s->slot_min_ns;
		sl.max_delay = s->slot_max_ns;
		/* A stale slot table would make the kernel draw slot
		 * lengths from dist_delay/dist_jitter instead of [min,max]:
		 * in change mode send the same uniform law as a table. */
		if ((mode & KNETEM_MSG_CHANGE) &&
		    s->slot_max_ns > s->slot_min_ns) {
			sl.dist_jitter = (s->slot_max_ns - s->slot_min_ns) / 2;
			sl.dist_delay = s->slot_min_ns + sl.dist_jitter;
			table = 1;
		}
	}
	if (nla_put(m, TCA_NETEM_SLOT, sizeof(sl), &sl))
		return -EMSGSIZE;
	if (!table)
		return 0;
	return put_table(m, TCA_NETEM_SLOT_DIST, d, s->slot_dist_name, reg, why,
			 len);
}

/* What libnl's rtnl_netem wrote, so the raw pass adds only the rest. */
struct by_libnl {
	int corr, reorder, corrupt, dist;
};

static int clamp_us(int64_t ns)
{
	int64_t us = ns / 1000;

	return us > INT32_MAX ? INT32_MAX : (int)us;
}

/* Step 1: the fields libnl's rtnl_netem knows. Its netem_msg_fill_raw
 * refuses some combinations tc accepts (a correlation whose parameter is
 * 0, reorder or a table with under 1 us of delay); those go raw instead,
 * so the kernel sees the same spec either way. */
static int fill_rtnl_netem(struct rtnl_qdisc *q, const struct netem_spec *s,
			   unsigned mode, const struct netem_dist_registry *reg,
			   struct by_libnl *done, char *why, size_t len)
{
	int lat = clamp_us(s->latency_ns), jit = clamp_us(s->jitter_ns);
	uint32_t loss = s->loss_model == NETEM_LOSS_RANDOM ? s->loss : 0;
	uint32_t loss_corr =
		s->loss_model == NETEM_LOSS_RANDOM ? s->loss_corr : 0;
	int16_t *t;
	size_t n;
	int err;

	rtnl_netem_set_limit(q, (int)s->limit);
	rtnl_netem_set_loss(q, (int)loss);
	rtnl_netem_set_duplicate(q, (int)s->duplicate);
	rtnl_netem_set_delay(q, lat);
	rtnl_netem_set_jitter(q, jit);

	memset(done, 0, sizeof(*done));
	if ((s->delay_corr || loss_corr || s->duplicate_corr) &&
	    (!s->delay_corr || (lat && jit)) && (!loss_corr || loss) &&
	    (!s->duplicate_corr || s->duplicate)) {
		rtnl_netem_set_delay_correlation(q, (int)s->delay_corr);
		rtnl_netem_set_loss_correlation(q, (int)loss_corr);
		rtnl_netem_set_duplicate_correlation(q, (int)s->duplicate_corr);
		done->corr = 1;
	}
	if (s->reorder && lat) {
		rtnl_netem_set_reorder_probability(q, (int)s->reorder);
		rtnl_netem_set_reorder_correlation(q, (int)s->reorder_corr);
		rtnl_netem_set_gap(q, (int)(s->gap ? s->gap : 1));
		done->reorder = 1;
	}
	if (s->corrupt) {
		rtnl_netem_set_corruption_probability(q, (int)s->corrupt);
		rtnl_netem_set_corruption_correlation(q, (int)s->corrupt_corr);
		done->corrupt = 1;
	}
	if ((s->dist != NETEM_DIST_UNIFORM ||
	     ((mode & KNETEM_MSG_CHANGE) && s->jitter_ns)) &&
	    lat && jit) {
		/* Build the table in a scratch message, then hand libnl a
		 * copy: one code path for built-in, custom and uniform. */
		struct nl_msg *tmp = nlmsg_alloc_size(
			table_bytes(s->dist, s->dist_name, reg) + 64);

		if (!tmp)
			return -ENOMEM;
		err = put_table(tmp, TCA_NETEM_DELAY_DIST, s->dist,
				s->dist_name, reg, why, len);
		if (!err) {
			struct nlattr *a = (struct nlattr *)nlmsg_data(
				nlmsg_hdr(tmp));

			t = nla_data(a);
			n = (size_t)nla_len(a) / sizeof(*t);
			err = rtnl_netem_set_delay_distribution_data(q, t, n)
				      ? -ENOMEM
				      : 0;
		}
		nlmsg_free(tmp);
		if (err)
			return err;
		done->dist = 1;
	}
	return 0;
}

/* Step 2: what libnl lacks (the 64-bit delays, rate, ECN, the loss
 * models, slots) or was not given, zeros included, as nested attributes
 * after the qopt. The qopt's delay fields are set to exact 64 ns psched
 * ticks (libnl works in whole microseconds) and its gap to the spec's. */
static int put_raw(struct nl_msg *m, struct nlattr *opts,
		   const struct netem_spec *s, unsigned mode,
		   const struct netem_dist_registry *reg,
		   const struct by_libnl *done, char *why, size_t len)
{
	struct tc_netem_qopt *q = nla_data(opts);
	struct tc_netem_corr corr;
	struct tc_netem_reorder ro;
	struct tc_netem_corrupt co;
	struct tc_netem_rate rate;
	int err;

	q->latency = ns_to_ticks(s->latency_ns);
	q->jitter = ns_to_ticks(s->jitter_ns);
	q->limit = s->limit;
	/* tc sets gap 1 when reorder is given without gap, so each packet
	 * jumps the queue independently (tc/q_netem.c); gap 0 would turn
	 * reordering off in the kernel. */
	q->gap = s->gap ? s->gap : (s->reorder ? 1 : 0);

	memset(&corr, 0, sizeof(corr));
	corr.delay_corr = s->delay_corr;
	corr.loss_corr = s->loss_model == NETEM_LOSS_RANDOM ? s->loss_corr : 0;
	corr.dup_corr = s->duplicate_corr;
	ro.probability = s->reorder;
	ro.correlation = s->reorder_corr;
	co.probability = s->corrupt;
	co.correlation = s->corrupt_corr;
	memset(&rate, 0, sizeof(rate));
	rate.rate = s->rate > UINT32_MAX ? UINT32_MAX : (uint32_t)s->rate;
	rate.packet_overhead = s->packet_overhead;
	rate.cell_size = s->cell_size;
	rate.cell_overhead = s->cell_overhead;

	if (nla_put_s64(m, TCA_NETEM_LATENCY64, s->latency_ns) ||
	    nla_put_s64(m, TCA_NETEM_JITTER64, s->jitter_ns) ||
	    (!done->corr &&
	     nla_put(m, TCA_NETEM_CORR, sizeof(corr), &corr)) ||
	    (!done->reorder &&
	     nla_put(m, TCA_NETEM_REORDER, sizeof(ro), &ro)) ||
	    (!done->corrupt &&
	     nla_put(m, TCA_NETEM_CORRUPT, sizeof(co), &co)) ||
	    nla_put(m, TCA_NETEM_RATE, sizeof(rate), &rate) ||
	    nla_put_u32(m, TCA_NETEM_ECN, s->ecn ? 1 : 0))
		return -EMSGSIZE;
	/* The kernel takes max(rate, rate64), as tc sends it. */
	if (s->rate > UINT32_MAX && nla_put_u64(m, TCA_NETEM_RATE64, s->rate))
		return -EMSGSIZE;
	err = put_loss_model(m, s);
	if (!err && !done->dist)
		err = put_delay_dist(m, s, mode, reg, why, len);
	if (!err)
		err = put_slot(m, s, mode, reg, why, len);
	if (err)
		return err;

	/* The nested attributes follow the qopt inside TCA_OPTIONS. */
	if ((char *)nlmsg_tail(nlmsg_hdr(m)) - (char *)opts > UINT16_MAX) {
		knetem_say(why, len, "netem options exceed one netlink attribute");
		return -EMSGSIZE;
	}
	opts->nla_len =
		(uint16_t)((char *)nlmsg_tail(nlmsg_hdr(m)) - (char *)opts);
	return 0;
}

/* libnl's message, copied into one with room for the raw attributes and
 * with our own flags (rtnl_qdisc_build_add_request always adds
 * NLM_F_CREATE, which a change must not carry). Only the bytes up to the
 * end of TCA_OPTIONS are taken: libnl 3.7's netem_msg_fill_raw counts the
 * nested attributes into nlmsg_len twice, leaving a zeroed tail. */
static int rebuild(struct nl_msg *lib, int nlflags, size_t room,
		   struct nl_msg **out, struct nlattr **opts)
{
	struct nlmsghdr *h = nlmsg_hdr(lib);
	struct nlattr *a, *o = NULL;
	struct nl_msg *m;
	size_t body;
	int rem;

	nlmsg_for_each_attr(a, h, sizeof(struct tcmsg), rem) {
		if (nla_type(a) == TCA_OPTIONS) {
			o = a;
			break;
		}
	}
	if (!o || nla_len(o) < (int)sizeof(struct tc_netem_qopt))
		return -EPROTO;
	body = (size_t)((char *)o + NLA_ALIGN(o->nla_len) -
			(char *)nlmsg_data(h));
	m = nlmsg_alloc_size(NLMSG_HDRLEN + NLMSG_ALIGN(body) + room);
	if (!m)
		return -ENOMEM;
	if (!nlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, RTM_NEWQDISC, 0,
		       nlflags) ||
	    nlmsg_append(m, nlmsg_data(h), body, NLMSG_ALIGNTO)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	*opts = (struct nlattr *)((char *)nlmsg_data(nlmsg_hdr(m)) +
				  ((char *)o - (char *)nlmsg_data(h)));
	*out = m;
	return 0;
}

int knetem_msg_netem(int ifindex, uint32_t parent, uint32_t handle, int nlflags,
		     unsigned mode, const struct netem_spec *spec,
		     const struct netem_dist_registry *reg, struct nl_msg **out,
		     char *why, size_t len)
{
	struct rtnl_qdisc *q;
	struct nl_msg *lib = NULL, *m = NULL;
	struct nlattr *opts;
	struct by_libnl done;
	int err;

	if (!spec || !out || ifindex <= 0) {
		knetem_say(why, len, "netem message: bad arguments");
		return -EINVAL;
	}
	err = check_spec(spec, mode, why, len);
	if (err)
		return err;
	q = rtnl_qdisc_alloc();
	if (!q)
		return -ENOMEM;
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), parent);
	rtnl_tc_set_handle(TC_CAST(q), handle);
	if (rtnl_tc_set_kind(TC_CAST(q), "netem") < 0) {
		knetem_say(why, len, "libnl has no netem qdisc module");
		err = -ENOTSUP;
		goto out;
	}
	err = fill_rtnl_netem(q, spec, mode, reg, &done, why, len);
	if (err)
		goto out;
	if (rtnl_qdisc_build_add_request(q, 0, &lib) < 0) {
		knetem_say(why, len, "libnl refused the netem options");
		err = -EINVAL;
		goto out;
	}
	err = rebuild(lib, nlflags, msg_size(spec, mode, reg), &m, &opts);
	if (err) {
		knetem_say(why, len, "libnl's netem message has no options");
		goto out;
	}
	err = put_raw(m, opts, spec, mode, reg, &done, why, len);
	if (err) {
		if (err == -EMSGSIZE)
			knetem_say(why, len,
			    "netem message does not fit %zu bytes",
			    msg_size(spec, mode, reg));
		nlmsg_free(m);
		goto out;
	}
	*out = m;
out:
	if (lib)
		nlmsg_free(lib);
	rtnl_qdisc_put(q);
	return err;
}
