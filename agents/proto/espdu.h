/*
 * espdu.h: reckon's entity update, an IEEE 1278.1-2012 (DIS version 7)
 * Entity State PDU. The plain struct below is what agents fill in and read;
 * reckon_espdu_encode() turns it into the big-endian wire form and
 * reckon_espdu_decode() checks a received datagram field by field and
 * either fills the struct or names the reason it refused the datagram.
 * Decoding is canonical: a datagram is accepted only if encoding the
 * decoded struct gives back the same bytes. The layout, the two reckon
 * variable parameter records (send time, predictor data) and the
 * game-to-DIS coordinate mapping are documented in docs/wire-format.md.
 * Pure code: no clock, no I/O, no allocation.
 */
#ifndef RECKON_PROTO_ESPDU_H
#define RECKON_PROTO_ESPDU_H

#include <stddef.h>
#include <stdint.h>

#define RECKON_DIS_VERSION	      7 /* IEEE 1278.1-2012 */
#define RECKON_DIS_PDU_ENTITY_STATE   1
#define RECKON_DIS_FAMILY_ENTITY_INFO 1
#define RECKON_DIS_CHARSET_ASCII      1

/* Variable parameter record types reckon uses. SISO-REF-010 assigns 0..4;
 * reckon takes two values from the unassigned top of the 8-bit range. */
#define RECKON_VP_TYPE_TIME	 240
#define RECKON_VP_TYPE_PREDICTOR 241
#define RECKON_VP_TIME_FORMAT	 1

#define RECKON_ESPDU_BLOB_MAX	 32 /* predictor blob, octets */
#define RECKON_ESPDU_MARKING_MAX 11 /* marking text, characters */
/* One timing record plus ceil(32 / 12) = 3 predictor records. */
#define RECKON_ESPDU_MAX_VP  4
#define RECKON_ESPDU_MIN_LEN (144 + 16)
#define RECKON_ESPDU_MAX_LEN (144 + 16 * RECKON_ESPDU_MAX_VP)

/* DIS dead-reckoning algorithms (IEEE 1278.1-2012 Annex E, table E.1):
 * DRM(F|R, P|V, W|B); see ../shared/papers/netcode-and-dis-dead-
 * reckoning.md section 1.1. 0 ("other") is not accepted by reckon. */
enum reckon_drm {
	RECKON_DRM_STATIC = 1,
	RECKON_DRM_FPW = 2,
	RECKON_DRM_RPW = 3,
	RECKON_DRM_RVW = 4,
	RECKON_DRM_FVW = 5,
	RECKON_DRM_FPB = 6,
	RECKON_DRM_RPB = 7,
	RECKON_DRM_RVB = 8,
	RECKON_DRM_FVB = 9,
};

/* Content of the 15-octet "DR other parameters" field (DIS 7): a type
 * octet, then a 16-bit field and three float32 values. */
enum reckon_dr_other_type {
	RECKON_DR_OTHER_NONE = 0,	 /* all 14 following octets zero */
	RECKON_DR_OTHER_LOCAL_EULER = 1, /* v = local yaw, pitch, roll (rad) */
	RECKON_DR_OTHER_WORLD_QUAT = 2,	 /* u16 = Qu0, v = Qux, Quy, Quz */
};

struct reckon_dr_other {
	uint8_t type; /* enum reckon_dr_other_type */
	uint16_t qu0; /* type 2 only, carried verbatim; 0 otherwise */
	double v[3];  /* float32 on the wire; 0 for type 0 */
};

struct reckon_vec3 {
	double x, y, z;
};

/* DIS Euler angles in radians: psi (heading, about z) in [-pi, pi],
 * theta (pitch, about y) in [-pi/2, pi/2], phi (roll, about x) in
 * [-pi, pi]. */
struct reckon_euler {
	double psi, theta, phi;
};

struct reckon_entity_id {
	uint16_t site, application, entity; /* none may be 0 or 0xffff */
};

struct reckon_entity_type {
	uint8_t kind, domain;
	uint16_t country;
	uint8_t category, subcategory, specific, extra;
};

/*
 * One entity update. Fields marked f32 travel as IEEE float32: the encoder
 * rounds them to the nearest float32, so a decoded value is the rounded
 * one. pos travels as float64 and is exact.
 */
struct reckon_espdu {
	/* PDU header */
	uint8_t exercise;
	uint8_t pdu_status;
	/* reckon timing record: sender's monotonic clock and update number.
	 * The DIS timestamp field is derived from send_ns. */
	uint64_t send_ns;
	uint32_t seq;
	/* entity */
	struct reckon_entity_id id;
	uint8_t force;
	struct reckon_entity_type type, alt_type;
	/* frames and units: docs/wire-format.md, role/update_espdu.h */
	struct reckon_vec3 pos;	 /* f64, game units or ECEF metres */
	struct reckon_vec3 vel;	 /* f32, world (*W) or DIS body axes (*B) */
	struct reckon_euler ori; /* f32, radians */
	uint32_t appearance;
	uint32_t capabilities;
	/* dead reckoning parameters */
	uint8_t dr_alg; /* enum reckon_drm, 1..9 */
	struct reckon_dr_other dr_other;
	struct reckon_vec3 acc;			    /* f32, as vel, per s */
	struct reckon_vec3 angvel;		    /* f32, rad/s, DIS body */
	char marking[RECKON_ESPDU_MARKING_MAX + 1]; /* printable ASCII, NUL */
	/* predictor data: model 0 means none (and blob_len must be 0) */
	uint8_t model;
	uint8_t blob_len;
	uint8_t blob[RECKON_ESPDU_BLOB_MAX];
};

/* Why a datagram was refused. RECKON_ESPDU_OK is 0 so that decode still
 * returns 0 on success. The order is the order of the checks. */
enum reckon_espdu_verdict {
	RECKON_ESPDU_OK = 0,
	RECKON_ESPDU_TRUNCATED,	   /* shorter than header/fixed part/length */
	RECKON_ESPDU_OVERSIZED,	   /* longer than RECKON_ESPDU_MAX_LEN */
	RECKON_ESPDU_BAD_VERSION,  /* protocol version != 7 */
	RECKON_ESPDU_BAD_PDU_TYPE, /* PDU type != 1 (Entity State) */
	RECKON_ESPDU_BAD_FAMILY,   /* protocol family != 1 */
	RECKON_ESPDU_LENGTH_MISMATCH,	/* length field < datagram length */
	RECKON_ESPDU_BAD_PADDING,	/* header padding octet != 0 */
	RECKON_ESPDU_TOO_MANY_VP,	/* > RECKON_ESPDU_MAX_VP records */
	RECKON_ESPDU_VP_COUNT_MISMATCH, /* length != 144 + 16 * count */
	RECKON_ESPDU_BAD_ENTITY_ID, /* site/application/entity 0 or 0xffff */
	RECKON_ESPDU_NONFINITE,	    /* NaN or infinity in a float field */
	RECKON_ESPDU_ORIENTATION_RANGE, /* Euler angle outside its range */
	RECKON_ESPDU_BAD_DR_ALGORITHM,	/* DR algorithm not in 1..9 */
	RECKON_ESPDU_BAD_DR_PARAMS,	/* DR other parameters malformed */
	RECKON_ESPDU_BAD_MARKING,	/* charset != ASCII or bad characters */
	RECKON_ESPDU_BAD_VP_TYPE,	/* record type not 240 or 241 */
	RECKON_ESPDU_NO_TIME_RECORD,	/* first record is not the timing one */
	RECKON_ESPDU_BAD_TIME_RECORD, /* bad format, reserved bits, duplicate */
	RECKON_ESPDU_BAD_PREDICTOR_RECORD, /* chunks missing/out of order/... */
	RECKON_ESPDU_TIMESTAMP_MISMATCH,   /* DIS timestamp != f(send_ns) */
	RECKON_ESPDU_NVERDICTS
};

/* Per-verdict counts; n[RECKON_ESPDU_OK] counts accepted datagrams. */
struct reckon_espdu_counters {
	uint64_t n[RECKON_ESPDU_NVERDICTS];
};

/* Defaults: exercise 1, entity 1:1:1, life form on land, DRM FPW, no DR
 * other parameters, empty marking, no predictor data, everything else 0. */
void reckon_espdu_init(struct reckon_espdu *p);

/* Wire length the encoder will produce for p (does not validate p). */
size_t reckon_espdu_encoded_len(const struct reckon_espdu *p);

/*
 * Encode p into buf (capacity cap). On success writes the PDU, stores its
 * length in *len and returns 0; buf and *len are untouched on failure.
 * -EINVAL: NULL argument, NaN/infinity, DR algorithm not 1..9, bad DR
 *          other parameters, bad entity id, bad marking, blob_len > 32,
 *          blob without a model;
 * -ERANGE: a float32 field overflows float32, or an angle is out of range;
 * -ENOSPC: cap < reckon_espdu_encoded_len(p).
 */
int reckon_espdu_encode(const struct reckon_espdu *p, void *buf, size_t cap,
			size_t *len);

/*
 * Check a whole datagram (one PDU). Returns RECKON_ESPDU_OK (0) and fills
 * *out if it is acceptable, else the first failed check; *out is untouched
 * on failure. out may be NULL to validate only; buf may be NULL if len is 0.
 */
enum reckon_espdu_verdict reckon_espdu_decode(const void *buf, size_t len,
					      struct reckon_espdu *out);

/* reckon_espdu_decode() and reckon_espdu_count() in one call. */
enum reckon_espdu_verdict
reckon_espdu_decode_counted(const void *buf, size_t len,
			    struct reckon_espdu *out,
			    struct reckon_espdu_counters *c);

/* Short stable name of a verdict ("ok", "truncated", ...), "unknown" for
 * a value out of range. */
const char *reckon_espdu_verdict_name(enum reckon_espdu_verdict v);

void reckon_espdu_counters_init(struct reckon_espdu_counters *c);
/* Adds one to c->n[v]; a value out of range is ignored (returns -EINVAL). */
int reckon_espdu_count(struct reckon_espdu_counters *c,
		       enum reckon_espdu_verdict v);
/* Sum of every counter except RECKON_ESPDU_OK. */
uint64_t reckon_espdu_rejected(const struct reckon_espdu_counters *c);

#endif
