/*
 * dis_time.h: the DIS timestamp (IEEE 1278.1-2012 6.2.88). Bits 31..1 count
 * units of 3600/2^31 s (about 1.676 us) past the hour, bit 0 is 1 for an
 * absolute (UTC-synchronised) and 0 for a relative timestamp. reckon hosts
 * share one monotonic clock that is not UTC, so reckon writes relative
 * timestamps derived from the sender's 64-bit nanosecond send time; the
 * exact time travels in the reckon timing record (docs/wire-format.md).
 */
#ifndef RECKON_PROTO_DIS_TIME_H
#define RECKON_PROTO_DIS_TIME_H

#include <stdint.h>

#define RECKON_DIS_TS_ABSOLUTE 1u
#define RECKON_NS_PER_HOUR     3600000000000ull

/* Timestamp for a time of ns nanoseconds (any epoch; only ns modulo one
 * hour matters), rounded down to a whole unit. absolute is 0 or 1. */
uint32_t reckon_dis_timestamp(uint64_t ns, unsigned absolute);

/* Nanoseconds past the hour that a timestamp denotes (start of its unit,
 * rounded down to a whole ns), in [0, 3600e9). */
uint64_t reckon_dis_timestamp_ns(uint32_t ts);

#endif
