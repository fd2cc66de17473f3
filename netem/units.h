/*
 * units.h: parsers and printers for the unit-carrying numbers of a netem
 * spec: times (s, ms, us, ns; a bare number is refused), rates (tc's bit and
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

/* Shortest exact text for a value, into buf (at least 40 bytes). */
void netem_fmt_time(int64_t ns, char *buf, size_t len);
void netem_fmt_rate(uint64_t bytes_per_s, char *buf, size_t len);
void netem_fmt_percent(uint32_t p, char *buf, size_t len);

#endif
