/*
 * test_pool.c: Criterion tests of the bridge's frame pool
 * (daemon/bridge/frame.c): size classes, exhaustion, reference counts for
 * duplicated frames, stale cookies after reuse, and a seeded random
 * get/put sequence checked against a simple model.
 */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include "bridge_int.h"

Test(pool, bad_arguments)
{
	struct frame_pool *p = (struct frame_pool *)0x1;

	cr_assert_eq(frame_pool_new(0, 0, &p), -EINVAL);
	cr_assert_eq(p, (struct frame_pool *)0x1);
	cr_assert_eq(frame_pool_new(1, 0, NULL), -EINVAL);
}

Test(pool, classes_and_exhaustion)
{
	struct frame_pool *p;
	struct frame_buf *b;
	uint64_t c, keep = 7;

	cr_assert_eq(frame_pool_new(3, 1, &p), 0);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(frame_pool_get(p, 1514, &c, &b), 0);
		cr_assert_eq(b->cap, FRAME_SMALL_CAP);
		memset(b->data, i, 1514);
	}
	cr_assert_eq(frame_pool_get(p, 60, &keep, &b), -ENOBUFS);
	cr_assert_eq(keep, 7);
	cr_assert_eq(frame_pool_get(p, 9000, &c, &b), 0);
	cr_assert_eq(b->cap, FRAME_LARGE_CAP);
	cr_assert_eq(frame_pool_get(p, 9000, &c, &b), -ENOBUFS);
	cr_assert_eq(frame_pool_get(p, FRAME_LARGE_CAP + 1, &c, &b), -EMSGSIZE);
	cr_assert_eq(frame_pool_used(p), 4);
	frame_pool_free(p);

	cr_assert_eq(frame_pool_new(2, 0, &p), 0);
	cr_assert_eq(frame_pool_get(p, FRAME_SMALL_CAP + 1, &c, &b), -EMSGSIZE);
	frame_pool_free(p);
}

Test(pool, refs_for_duplicates_and_stale_cookies)
{
	struct frame_pool *p;
	struct frame_buf *b, *b2;
	uint64_t c, c2;

	cr_assert_eq(frame_pool_new(1, 0, &p), 0);
	cr_assert_eq(frame_pool_get(p, 100, &c, &b), 0);
	cr_assert_eq(frame_pool_lookup(p, c), b);
	cr_assert_eq(frame_pool_set_refs(p, c, 2), 0); /* duplicated */
	cr_assert_eq(frame_pool_put(p, c), 0);
	cr_assert_eq(frame_pool_lookup(p, c), b); /* one copy left */
	cr_assert_eq(frame_pool_used(p), 1);
	cr_assert_eq(frame_pool_put(p, c), 0);
	cr_assert_eq(frame_pool_used(p), 0);
	cr_assert_null(frame_pool_lookup(p, c));
	cr_assert_eq(frame_pool_put(p, c), -ENOENT); /* double put */

	/* The slot is reused under a new cookie; the old one stays dead. */
	cr_assert_eq(frame_pool_get(p, 100, &c2, &b2), 0);
	cr_assert_eq(b2, b);
	cr_assert_neq(c2, c);
	cr_assert_null(frame_pool_lookup(p, c));
	cr_assert_eq(frame_pool_set_refs(p, c, 1), -ENOENT);
	cr_assert_eq(frame_pool_set_refs(p, c2, 0), 0); /* dropped */
	cr_assert_eq(frame_pool_used(p), 0);
	cr_assert_null(frame_pool_lookup(p, 12345));
	frame_pool_free(p);
}

/* xorshift64*, fixed seed: the sequence is the same on every run. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

Test(pool, random_sequence_matches_model)
{
	enum { N = 64, STEPS = 20000 };
	struct frame_pool *p;
	uint64_t live[N], seed = 42;
	uint32_t refs[N];
	unsigned nlive = 0;

	cr_assert_eq(frame_pool_new(N, 0, &p), 0);
	for (int step = 0; step < STEPS; step++) {
		if (rnd(&seed) % 2 == 0) {
			struct frame_buf *b;
			uint64_t c;
			int rc = frame_pool_get(p, 64, &c, &b);

			if (nlive == N) {
				cr_assert_eq(rc, -ENOBUFS);
				continue;
			}
			cr_assert_eq(rc, 0);
			memset(b->data, (int)(c & 0xff), 64);
			refs[nlive] = 1 + (uint32_t)(rnd(&seed) % 2);
			cr_assert_eq(frame_pool_set_refs(p, c, refs[nlive]), 0);
			live[nlive++] = c;
		} else if (nlive > 0) {
			unsigned k = (unsigned)(rnd(&seed) % nlive);
			struct frame_buf *b = frame_pool_lookup(p, live[k]);

			cr_assert_not_null(b);
			/* Nobody else wrote into this slot meanwhile. */
			cr_assert_eq(b->data[63], (uint8_t)(live[k] & 0xff));
			cr_assert_eq(frame_pool_put(p, live[k]), 0);
			if (--refs[k] == 0) {
				live[k] = live[--nlive];
				refs[k] = refs[nlive];
			}
		}
		cr_assert_eq(frame_pool_used(p), nlive);
	}
	frame_pool_free(p);
}
