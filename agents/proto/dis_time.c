/*
 * dis_time.c: conversion between nanoseconds and DIS timestamps
 * (IEEE 1278.1-2012 6.2.88: 2^31 units per hour, low bit = absolute flag).
 * Integer arithmetic only: 3600e9 ns = 2^12 * 878906250, so
 * units = t * 2^31 / 3600e9 = t * 2^19 / 878906250, and t * 2^19 < 2^61
 * for t < 3600e9, which fits in 64 bits.
 */
#include "proto/dis_time.h"

#define HOUR_ODD_FACTOR 878906250ull /* 3600e9 / 2^12 */

uint32_t reckon_dis_timestamp(uint64_t ns, unsigned absolute)
{
	uint64_t t = ns % RECKON_NS_PER_HOUR;
	uint64_t units = (t << 19) / HOUR_ODD_FACTOR; /* < 2^31 */

	return (uint32_t)(units << 1) | (absolute ? RECKON_DIS_TS_ABSOLUTE : 0);
}

uint64_t reckon_dis_timestamp_ns(uint32_t ts)
{
	uint64_t units = ts >> 1;

	/* units < 2^31 and 878906250 < 2^30, so the product fits. */
	return (units * HOUR_ODD_FACTOR) >> 19;
}
