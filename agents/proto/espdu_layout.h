/*
 * espdu_layout.h: byte offsets and sizes of the IEEE 1278.1-2012 (DIS
 * version 7) Entity State PDU as reckon puts it on the wire, plus the two
 * reckon variable parameter records. Shared by the encoder, the decoder and
 * the known-answer tests; docs/wire-format.md draws the same table. All
 * multi-byte fields are big-endian.
 */
#ifndef RECKON_PROTO_ESPDU_LAYOUT_H
#define RECKON_PROTO_ESPDU_LAYOUT_H

/* PDU header (IEEE 1278.1-2012 5.2.5, 12 octets). */
#define ESPDU_OFF_VERSION   0  /* u8, 7 = IEEE 1278.1-2012 */
#define ESPDU_OFF_EXERCISE  1  /* u8 */
#define ESPDU_OFF_PDU_TYPE  2  /* u8, 1 = Entity State */
#define ESPDU_OFF_FAMILY    3  /* u8, 1 = Entity Information/Interaction */
#define ESPDU_OFF_TIMESTAMP 4  /* u32, DIS timestamp */
#define ESPDU_OFF_LENGTH    8  /* u16, whole PDU in octets */
#define ESPDU_OFF_STATUS    10 /* u8, PDU status */
#define ESPDU_OFF_HDR_PAD   11 /* u8, must be 0 */
#define ESPDU_HEADER_LEN    12

/* Entity State body (IEEE 1278.1-2012 7.2.2). */
#define ESPDU_OFF_SITE	       12  /* u16 */
#define ESPDU_OFF_APPLICATION  14  /* u16 */
#define ESPDU_OFF_ENTITY       16  /* u16 */
#define ESPDU_OFF_FORCE	       18  /* u8 */
#define ESPDU_OFF_NUM_VP       19  /* u8, variable parameter records */
#define ESPDU_OFF_TYPE	       20  /* 8 octets entity type */
#define ESPDU_OFF_ALT_TYPE     28  /* 8 octets alternative entity type */
#define ESPDU_OFF_VELOCITY     36  /* 3 x f32 */
#define ESPDU_OFF_LOCATION     48  /* 3 x f64 */
#define ESPDU_OFF_ORIENTATION  72  /* psi, theta, phi: 3 x f32 */
#define ESPDU_OFF_APPEARANCE   84  /* u32 */
#define ESPDU_OFF_DR_ALG       88  /* u8 */
#define ESPDU_OFF_DR_OTHER     89  /* 15 octets */
#define ESPDU_OFF_ACCEL	       104 /* 3 x f32 */
#define ESPDU_OFF_ANGVEL       116 /* 3 x f32 */
#define ESPDU_OFF_MARK_CHARSET 128 /* u8, 1 = ASCII */
#define ESPDU_OFF_MARKING      129 /* 11 octets */
#define ESPDU_OFF_CAPABILITIES 140 /* u32 */
#define ESPDU_OFF_VP	       144 /* first variable parameter record */
#define ESPDU_FIXED_LEN	       144
#define ESPDU_DR_OTHER_LEN     15
#define ESPDU_MARKING_LEN      11
#define ESPDU_VP_LEN	       16

/* Entity type record (IEEE 1278.1-2012 6.2.30), relative offsets. */
#define ETYPE_OFF_KIND	      0
#define ETYPE_OFF_DOMAIN      1
#define ETYPE_OFF_COUNTRY     2 /* u16 */
#define ETYPE_OFF_CATEGORY    4
#define ETYPE_OFF_SUBCATEGORY 5
#define ETYPE_OFF_SPECIFIC    6
#define ETYPE_OFF_EXTRA	      7

/* DR other parameters (15 octets), relative offsets. */
#define DROTHER_OFF_TYPE 0 /* u8 DR parameter type */
#define DROTHER_OFF_U16	 1 /* u16: unused (type 1) or Qu0 (type 2) */
#define DROTHER_OFF_V	 3 /* 3 x f32 */

/* reckon timing record (variable parameter record type 240). */
#define VPTIME_OFF_TYPE	    0 /* u8 = 240 */
#define VPTIME_OFF_FORMAT   1 /* u8 = 1 */
#define VPTIME_OFF_RESERVED 2 /* u16 = 0 */
#define VPTIME_OFF_SEQ	    4 /* u32 update sequence number */
#define VPTIME_OFF_SEND_NS  8 /* u64 sender monotonic ns */

/* reckon predictor record (variable parameter record type 241). */
#define VPPRED_OFF_TYPE	    0 /* u8 = 241 */
#define VPPRED_OFF_MODEL    1 /* u8 model id, 1..255 */
#define VPPRED_OFF_CHUNK    2 /* u8 chunk index, 0.. */
#define VPPRED_OFF_BLOB_LEN 3 /* u8 total blob length, 0..32 */
#define VPPRED_OFF_DATA	    4 /* 12 octets of blob */
#define VPPRED_CHUNK_LEN    12

#endif
