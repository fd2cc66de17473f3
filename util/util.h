/*
 * util.h: the small pieces every layer shares, libc only: the splitmix64
 * generator, the JSON string writer (json.c), the CSV splitter and
 * field parsers (csv.c) and the number grammar of every program (num.c).
 * Nothing here reads a clock, logs, exits or allocates, so the pure layers
 * (netem/, the agents' libraries) may use it as freely as the daemon.
 */
#ifndef RECKON_UTIL_H
#define RECKON_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* clang-format off */
#define SPLITMIX64_GAMMA 0x9e3779b97f4a7c15ULL /* golden-ratio increment */
/* clang-format on */

/*
 * splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014), with the constants of Vigna's reference
 * splitmix64.c: a Weyl sequence with the golden-ratio increment, finalised
 * by two xor-shift-multiply rounds. Inline, because netem draws from it
 * per packet.
 */

/* The finaliser: a bijection on 64-bit words that mixes every input bit
 * into every output bit. */
static inline uint64_t splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The generator: adds SPLITMIX64_GAMMA to *state and returns the mix of
 * the new state. */
static inline uint64_t splitmix64(uint64_t *state)
{
	*state += SPLITMIX64_GAMMA;
	return splitmix64_mix(*state);
}

/*
 * json.c: a C string as a JSON string literal, quotes included; '"' and
 * '\\' are escaped with a backslash, control characters as \u00XX.
 */

/* Where the literal goes: n bytes of s, in order. */
typedef void (*json_put_fn)(void *arg, const char *s, size_t n);

void json_write_str(const char *s, json_put_fn put, void *arg);

/* json_write_str into f. */
void json_fputs_str(FILE *f, const char *s);

/*
 * csv.c: the one CSV line splitter, and strict field parsers: the whole
 * field must be the number, finite and in range, so a malformed row is
 * reported instead of being read as zero. No allocation.
 */

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

/*
 * num.c: integers (decimal, or hex after 0x; "010" is ten), durations
 * (a number and a unit: ns us ms s m h) and sizes (k, M, G = x1024), one
 * grammar for every program. Each returns 0, -EINVAL or -ERANGE.
 */

int num_parse_u64(const char *s, uint64_t *out);
int num_parse_size(const char *s, uint64_t *out);

/* s as nanoseconds. A number without a unit is taken in units of bare_ns
 * (NS_PER_S: seconds), or refused when bare_ns is 0. On failure err says
 * why (-EINVAL; "too large" included). */
int num_parse_duration(const char *s, int64_t bare_ns, int64_t *out, char *err,
		       size_t errlen);

/* num_parse_duration with the unit required (scenario files). */
int num_parse_duration_unit(const char *s, int64_t *out, char *err,
			    size_t errlen);

/* ns in the largest unit that divides it exactly ("10m", "1500ms", "0s"),
 * snprintf semantics. */
int num_format_duration(int64_t ns, char *buf, size_t len);

#define NS_PER_S 1000000000LL

#endif
