/*
 * bridge_link.c: what every part of the bridge calls: the clocks (the
 * monotonic time frames are stamped with, and the realtime offset that
 * puts the pcaps on one time base), making a directed link (its netem
 * engine, seeded from the repetition's seed and the link's host names,
 * and its before/after pcap files) and writing a frame to a capture. It
 * calls only netem and the pcap writer, so the bridge's files form no
 * ring through it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bridge_int.h"

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t br_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

void br_capture(struct bridge *b, struct capture *c, int64_t mono,
		const uint8_t *buf, uint32_t len)
{
	if (c != NULL && capture_write(c, mono + b->rt_off, buf, len) == 1)
		b->st.capture_skipped++;
}

static void link_pcap(struct bridge *b, unsigned src, unsigned dst,
		      const char *what, struct capture **out)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s-%s.%s.pcap", b->pcap_dir,
		 b->names[src], b->names[dst], what);
	if (capture_open(path, b->snaplen, b->max_bytes, out) < 0)
		b->st.capture_errors++;
}

struct blink *br_link_make(struct bridge *b, unsigned src, unsigned dst,
			   const struct netem_spec *spec)
{
	struct netem_spec none;
	struct blink *l;

	if (spec == NULL) {
		netem_spec_init(&none);
		spec = &none;
	}
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return NULL;
	if (netem_link_new(spec, b->seed,
			   netem_link_id(b->names[src], b->names[dst]),
			   &l->nl) < 0) {
		free(l);
		return NULL;
	}
	l->src = src;
	l->dst = dst;
	l->hpos = -1;
	l->next = INT64_MAX;
	if (b->pcap_dir != NULL && b->cap_before)
		link_pcap(b, src, dst, "before", &l->before);
	if (b->pcap_dir != NULL && b->cap_after)
		link_pcap(b, src, dst, "after", &l->after);
	b->links[src * b->n + dst] = l;
	return l;
}

int64_t br_rt_offset(void)
{
	int64_t m0 = br_mono_ns(), r = clock_ns(CLOCK_REALTIME),
		m1 = br_mono_ns();

	return r - (m0 + (m1 - m0) / 2);
}
