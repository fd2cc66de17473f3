/*
 * fuzz_roles.c: libFuzzer target for what the agents do with a received
 * datagram beyond the ESPDU decoder: the relay's check-and-forward, the
 * observer's decode, update mapping (role_espdu_to_update) and hand-over
 * to the lane's predictor, the update mapping's round trip, and the
 * fps client's receive path (snapshot bundles, Detonation PDUs). The input
 * is one datagram; its first octet also picks the observer lane and how
 * far the arrival time moves on. Invariants (abort on a break): the relay
 * forwards exactly the datagrams the decoder accepts, byte for byte, to
 * every destination, and counts each input under exactly one verdict; the
 * observer returns only its documented codes; an accepted update mapped
 * back to a PDU and decoded again gives the same update (to float32
 * precision where the body-axis rotation is involved); a datagram the
 * bundle framing accepts is cut into PDUs of at least a header that
 * cover it exactly; the fps client counts every input it refuses once
 * and takes snapshot PDUs only from a datagram the framing accepts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/espdu.h"
#include "role/fps.h"
#include "role/fps_client.h"
#include "role/observer.h"
#include "role/relay.h"
#include "role/update_espdu.h"
#include "role_fixture.h"
#include "predict/predict.h"
#include "world/map.h"
#include "world/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct sink {
	const uint8_t *want;
	size_t len;
	unsigned copies;
};

static int sink_emit(void *arg, const struct role_dgram *d)
{
	struct sink *s = arg;

	if (d->len != s->len || memcmp(d->buf, s->want, d->len) != 0)
		abort();
	s->copies++;
	return 0;
}

static struct role_observer *observer(void)
{
	static struct trace tr;
	static struct role_truth truth;
	static struct predict_params lanes[2];
	static struct role_observer *o;
	struct role_observer_cfg c = {
		.truth = &truth, .lanes = lanes, .n_lanes = 2, .threshold = 20,
	};

	if (o != NULL)
		return o;
	fix_trace(&tr, 3, 12);
	if (role_truth_build(&tr, NULL, &truth) < 0)
		abort();
	fix_params(&lanes[0], "dis");
	fix_params(&lanes[1], "led");
	if (role_observer_new(&c, &o) < 0)
		abort();
	return o;
}

static void check_relay(const uint8_t *data, size_t size)
{
	static struct role_relay r;
	static uint64_t inputs;
	struct sink s = {data, size, 0};
	uint64_t counted = 0;
	int rc;

	if (inputs == 0 && role_relay_init(&r, 1, 2) < 0)
		abort();
	inputs++;
	rc = role_relay_recv(&r, 0, data, size, sink_emit, &s);
	if (rc == 0 ? s.copies != 2 : rc != -EBADMSG || s.copies != 0)
		abort();
	if ((rc == 0) != (reckon_espdu_decode(data, size, NULL) ==
			  RECKON_ESPDU_OK))
		abort();
	for (unsigned v = 0; v < RECKON_ESPDU_NVERDICTS; v++)
		counted += r.verdicts[0].n[v];
	if (counted != inputs)
		abort();
}

/* Two updates agree to float32 precision: the body-axis algorithms carry
 * velocity and acceleration rotated into DIS body axes as float32, so a
 * second trip may move each component by a few ulps of the vector's
 * length (the rotation mixes components); the rest (time, ids, location
 * as float64, the blob) must be equal. */
static int near(const double *a, const double *b, int n)
{
	double m = 1;

	for (int i = 0; i < n; i++) {
		m = fabs(a[i]) > m ? fabs(a[i]) : m;
		m = fabs(b[i]) > m ? fabs(b[i]) : m;
	}
	for (int i = 0; i < n; i++)
		if (!(fabs(a[i] - b[i]) <= 1e-5 * m))
			return 0;
	return 1;
}

static int same_update(const struct predict_update *u,
		       const struct predict_update *w)
{
	return u->t_ns == w->t_ns && u->entity == w->entity &&
	       u->team == w->team && u->drm == w->drm &&
	       u->blob_len == w->blob_len &&
	       memcmp(u->blob, w->blob, u->blob_len) == 0 &&
	       memcmp(u->pos, w->pos, sizeof(u->pos)) == 0 &&
	       near(u->vel, w->vel, 3) && near(u->acc, w->acc, 3) &&
	       near(u->ori, w->ori, 3) && near(u->angvel, w->angvel, 3);
}

static void check_mapping(const uint8_t *data, size_t size)
{
	struct reckon_espdu p, q;
	struct predict_update u, w;
	uint8_t model, model2, buf[RECKON_ESPDU_MAX_LEN];
	size_t len;

	if (reckon_espdu_decode(data, size, &p) != RECKON_ESPDU_OK ||
	    role_espdu_to_update(&p, &u, &model) < 0)
		return;
	/* Once through float32, a second trip must change nothing. */
	if (role_update_to_espdu(&u, model, 1, &q) < 0 ||
	    reckon_espdu_encode(&q, buf, sizeof(buf), &len) < 0 ||
	    reckon_espdu_decode(buf, len, &q) != RECKON_ESPDU_OK ||
	    role_espdu_to_update(&q, &w, &model2) < 0 || model2 != model)
		abort();
	if (role_update_to_espdu(&w, model, 1, &p) < 0 ||
	    reckon_espdu_encode(&p, buf, sizeof(buf), &len) < 0 ||
	    reckon_espdu_decode(buf, len, &p) != RECKON_ESPDU_OK ||
	    role_espdu_to_update(&p, &u, &model2) < 0 || !same_update(&u, &w))
		abort();
}

static void check_observer(const uint8_t *data, size_t size)
{
	static int64_t now;
	struct role_observer *o = observer();
	uint16_t lane = size > 0 ? data[0] & 1 : 0;
	int rc;

	now += size > 0 ? (int64_t)(data[0] >> 1) * 1000000 : 1;
	if (now > 12000000000LL)
		now = 0; /* the truth is 12 s long: wrap, stale updates allowed */
	rc = role_observer_recv(o, lane, now, data, size);
	if (rc != 0 && rc != -EBADMSG && rc != -EPROTO && rc != -ENOENT &&
	    rc != -ESTALE && rc != -EINVAL)
		abort();
}

/* A 5 x 3 cell room: enough map for the client's sight and hit tests. */
static const char fps_map[] = "reckon-map 1\nname fuzz\nmode deathmatch\n"
			      "cell 48\nspawn 0 s\ngrid\n#####\n#s.s#\n"
			      "#####\nend\n";

static struct fps_client *fps_client(void)
{
	static struct map m;
	static struct trace tr;
	static struct fps_track tk;
	static struct fps_client *cl;
	struct fps_client_cfg c;
	char err[128];
	FILE *f;

	if (cl != NULL)
		return cl;
	f = fmemopen((void *)fps_map, sizeof(fps_map) - 1, "r");
	if (f == NULL || map_read(f, &m, err, sizeof(err)) < 0)
		abort();
	fclose(f);
	fix_trace(&tr, 3, 12);
	if (fps_tracks_take(&tk, 1, 1, &tr, 0) < 0)
		abort();
	tk.origin_ns = tr.s[0].t_ns;
	fps_client_defaults(&c);
	c.m = &m;
	c.track = &tk;
	c.entity = 1;
	if (fps_client_new(&c, &cl) < 0)
		abort();
	return cl;
}

static int fps_sink(void *arg, const struct role_dgram *d)
{
	(void)arg;
	if (d->len == 0 || d->len > FPS_DGRAM_MAX)
		abort();
	return 0;
}

static void check_fps(const uint8_t *data, size_t size)
{
	struct fps_client *cl = fps_client();
	struct fps_span sp[FPS_BUNDLE_PDUS];
	struct fps_client_stats a, b;
	size_t end = 0;
	int n, framed = !fps_bundle_split(data, size, sp, FPS_BUNDLE_PDUS, &n);

	for (int i = 0; framed && i < n; i++) {
		if (sp[i].off != end || sp[i].len < FPS_PDU_HEADER)
			abort();
		end += sp[i].len;
	}
	if (framed && end != size)
		abort();
	fps_client_stats(cl, &a);
	if (fps_client_recv(cl, 1000000, data, size, fps_sink, NULL) < 0)
		abort();
	fps_client_stats(cl, &b);
	if (b.rx_bad - a.rx_bad > 1 ||
	    (!framed && (b.rx_bad != a.rx_bad + 1 || b.rx_snap != a.rx_snap)) ||
	    (b.rx_snap != a.rx_snap &&
	     (b.rx_bad != a.rx_bad || b.rx_snap - a.rx_snap != (uint64_t)n)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_relay(data, size);
	check_mapping(data, size);
	check_observer(data, size);
	check_fps(data, size);
	return 0;
}
