/*
 * units.h: parsers and printers for the unit-carrying numbers of a netem
 * spec: times (s, ms, us, ns; a bare number is refused, except in a tc spec), rates (tc's bit and
 * byte suffixes; a bare number is bit/s), percentages (a bare number is a
 * percent) and plain integers. Shared by the spec, schedule and trace
 * parsers. Parsers return 0 or -EINVAL and write a reason (without the
 * keyword) into why; outputs are written only on success.
 */
#ifndef RECKON_NETEM_UNITS_H
#define RECKON_NETEM_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define NETEM_WHY_MAX 128

int netem_parse_time(const char *tok, int64_t *ns, char *why);
int netem_parse_rate(const char *tok, uint64_t *bytes_per_s, char *why);
int netem_parse_percent(const char *tok, uint32_t *p, char *why);
int netem_parse_u32(const char *tok, uint32_t *v, char *why);
int netem_parse_s32(const char *tok, int32_t *v, char *why);

/* The tc-spec forms, as iproute2 6.1 reads them: a time kept whole in
 * units of base_ns, a bare number being one such unit (1000 for delay and
 * jitter, get_time(); 1 for slot times, get_time64()); a size with
 * get_size()'s suffixes; integers in base 0. Times and sizes may be
 * hexadecimal, as strtod reads them. */
int netem_parse_tc_time(const char *tok, int64_t base_ns, int64_t *ns,
			char *why);
int netem_parse_size(const char *tok, uint32_t *v, char *why);
int netem_parse_tc_u32(const char *tok, uint32_t *v, char *why);
int netem_parse_tc_s32(const char *tok, int32_t *v, char *why);

/* Shortest exact text for a value, into buf (at least 40 bytes). */
void netem_fmt_time(int64_t ns, char *buf, size_t len);
void netem_fmt_rate(uint64_t bytes_per_s, char *buf, size_t len);
void netem_fmt_percent(uint32_t p, char *buf, size_t len);

#endif
