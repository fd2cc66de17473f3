/*
 * csvline.h: the small CSV helpers the world's readers share: split one
 * line into fields in place, strip the line end, parse numbers strictly
 * (whole field, finite) and parse decimal seconds into exact nanoseconds.
 * Pure; no allocation.
 */
#ifndef RECKON_WORLD_CSVLINE_H
#define RECKON_WORLD_CSVLINE_H

#include <stddef.h>
#include <stdint.h>

/* Strip trailing "\r\n"/"\n" and surrounding blanks; returns the line. */
char *csv_trim(char *line);
/* Split line at commas in place (double quotes protect commas; quotes are
 * removed). Returns the field count, or -E2BIG if more than max. */
int csv_split(char *line, char **fields, int max);
int csv_double(const char *s, double *out);
int csv_long(const char *s, long lo, long hi, long *out);
int csv_u64(const char *s, uint64_t *out);
/* "12.5" -> 12500000000; at most 9 decimals are exact, more are rounded. */
int csv_seconds_ns(const char *s, int64_t *out);
/* Write t_ns as seconds with 9 decimals into buf (at least 32 bytes). */
void csv_format_ns(char *buf, size_t len, int64_t t_ns);

#endif
