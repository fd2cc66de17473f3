/*
 * scenario_values.c: parsing and formatting of scenario values by type
 * (names, integers, durations with units, booleans, choices, sizes,
 * subnets, netem specs) for the key table in scenario_keys.c. Parsers
 * are strict: the whole text must be consumed, and the field is written
 * only when the value is valid.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scenario_int.h"
#include "util.h"

static int format_size(uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "GMk";

	for (int i = 0; v && i < 3; i++) {
		uint64_t m = 1ULL << (10 * (3 - i));
		if (v % m == 0)
			return snprintf(buf, len, "%" PRIu64 "%c", v / m,
					sfx[i]);
	}
	return snprintf(buf, len, "%" PRIu64, v);
}

static int parse_bool(const char *s, int *out)
{
	static const char *const t[] = {"yes", "true", "on", "1"};
	static const char *const f[] = {"no", "false", "off", "0"};

	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(s, t[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(s, f[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static int valid_name(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' &&
		    *s != '-')
			return 0;
	return 1;
}

static int parse_subnet(const struct sk_key *k, const char *s, char *out,
			size_t outlen, char *err, size_t errlen)
{
	char addr[32];
	const char *slash = strchr(s, '/');
	struct in_addr in;
	uint64_t plen;

	if (slash == NULL || (size_t)(slash - s) >= sizeof(addr) ||
	    num_parse_u64(slash + 1, &plen) < 0 ||
	    !isdigit((unsigned char)slash[1])) {
		snprintf(err, errlen,
			 "'%s' is not an IPv4 subnet "
			 "(a.b.c.d/len)",
			 s);
		return -EINVAL;
	}
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	if (inet_pton(AF_INET, addr, &in) != 1) {
		snprintf(err, errlen, "'%s' is not an IPv4 address", addr);
		return -EINVAL;
	}
	if (plen < k->min || plen > k->max) {
		snprintf(err, errlen,
			 "prefix /%llu out of range (/%llu to "
			 "/%llu)",
			 (unsigned long long)plen, (unsigned long long)k->min,
			 (unsigned long long)k->max);
		return -EINVAL;
	}
	uint32_t a = ntohl(in.s_addr);
	uint32_t mask = (uint32_t)(0xffffffffULL << (32 - plen));
	if (a & ~mask) {
		struct in_addr net = {.s_addr = htonl(a & mask)};
		char nb[INET_ADDRSTRLEN];
		inet_ntop(AF_INET, &net, nb, sizeof(nb));
		snprintf(err, errlen,
			 "host bits set in '%s' (did you mean "
			 "'%s/%llu'?)",
			 s, nb, (unsigned long long)plen);
		return -EINVAL;
	}
	char nb[INET_ADDRSTRLEN];
	inet_ntop(AF_INET, &in, nb, sizeof(nb));
	snprintf(out, outlen, "%s/%llu", nb, (unsigned long long)plen);
	return 0;
}

/* SK_INT: a decimal int in [(int64_t)k->min, (int64_t)k->max]. */
static int parse_int(const struct sk_key *k, const char *text, char *field,
		     char *err, size_t errlen)
{
	long lo = (long)(int64_t)k->min, hi = (long)(int64_t)k->max, v;

	if (csv_long(text, LONG_MIN, LONG_MAX, &v) < 0) {
		snprintf(err, errlen, "'%s' is not a decimal number", text);
		return -EINVAL;
	}
	if (v < lo || v > hi) {
		snprintf(err, errlen, "%s out of range (%ld to %ld)", text, lo,
			 hi);
		return -EINVAL;
	}
	*(int *)(void *)field = (int)v;
	return 0;
}

int sk_parse(const struct sk_key *k, const char *text, void *target, char *err,
	     size_t errlen)
{
	char *field = (char *)target + k->off;
	char buf[64];
	uint64_t u;
	int64_t d;
	int b, rc;

	if (text[0] == '\0') {
		snprintf(err, errlen, "empty value");
		return -EINVAL;
	}
	switch (k->type) {
	case SK_NAME:
		if (!valid_name(text)) {
			snprintf(err, errlen,
				 "'%s': only letters, digits, "
				 "'.', '_' and '-' allowed",
				 text);
			return -EINVAL;
		}
		/* fall through */
	case SK_TEXT:
	case SK_PATH:
		if (strlen(text) >= k->size) {
			snprintf(err, errlen, "longer than %zu characters",
				 k->size - 1);
			return -EINVAL;
		}
		memcpy(field, text, strlen(text) + 1);
		return 0;
	case SK_U64:
	case SK_UINT:
		rc = num_parse_u64(text, &u);
		if (rc == -EINVAL || (k->type == SK_UINT && text[1] == 'x')) {
			snprintf(err, errlen, "'%s' is not a%s number", text,
				 k->type == SK_UINT ? " decimal"
						    : "n unsigned");
			return -EINVAL;
		}
		if (rc < 0 || u < k->min || u > k->max) {
			snprintf(err, errlen, "%s out of range (%llu to %llu)",
				 text, (unsigned long long)k->min,
				 (unsigned long long)k->max);
			return -EINVAL;
		}
		if (k->type == SK_U64)
			memcpy(field, &u, sizeof(u));
		else
			*(unsigned *)(void *)field = (unsigned)u;
		return 0;
	case SK_INT:
		return parse_int(k, text, field, err, errlen);
	case SK_DURATION:
		rc = num_parse_duration_unit(text, &d, err, errlen);
		if (rc < 0)
			return rc;
		if ((uint64_t)d < k->min || (uint64_t)d > k->max) {
			char a[32], c[32];
			num_format_duration((int64_t)k->min, a, sizeof(a));
			num_format_duration((int64_t)k->max, c, sizeof(c));
			snprintf(err, errlen, "%s out of range (%s to %s)",
				 text, a, c);
			return -EINVAL;
		}
		memcpy(field, &d, sizeof(d));
		return 0;
	case SK_BOOL:
		if (parse_bool(text, &b) < 0) {
			snprintf(err, errlen,
				 "'%s' is not a boolean (yes/no, "
				 "true/false, on/off, 1/0)",
				 text);
			return -EINVAL;
		}
		*(int *)(void *)field = b;
		return 0;
	case SK_ENUM:
		for (int i = 0; k->choices[i]; i++) {
			if (strcasecmp(text, k->choices[i]) == 0) {
				*(int *)(void *)field = i;
				return 0;
			}
		}
		{
			char dym[SC_NAME_MAX + 32], list[128] = "";
			size_t o = 0;
			for (int i = 0; k->choices[i] && o < sizeof(list); i++)
				o += (size_t)snprintf(
					list + o, sizeof(list) - o, "%s%s",
					i ? ", " : "", k->choices[i]);
			snprintf(err, errlen, "'%s' is not one of %s%s", text,
				 list,
				 sc_did_you_mean(text, k->choices, 0, dym,
						 sizeof(dym)));
		}
		return -EINVAL;
	case SK_SIZE:
		rc = num_parse_size(text, &u);
		if (rc == -EINVAL) {
			snprintf(err, errlen,
				 "'%s' is not a size (bytes, "
				 "optional k, M or G)",
				 text);
			return rc;
		}
		if (rc < 0 || u < k->min || u > k->max) {
			format_size(k->max, buf, sizeof(buf));
			snprintf(err, errlen, "%s out of range (0 to %s)", text,
				 buf);
			return -EINVAL;
		}
		memcpy(field, &u, sizeof(u));
		return 0;
	case SK_SUBNET:
		return parse_subnet(k, text, field, k->size, err, errlen);
	case SK_NETEM: {
		struct netem_spec s;
		rc = netem_spec_parse(text, &s, err, errlen);
		if (rc < 0)
			return rc;
		memcpy(field, &s, sizeof(s));
		return 0;
	}
	case SK_AXIS:
		break; /* parsed by scenario_axes.c, not through the table */
	}
	snprintf(err, errlen, "unknown key type");
	return -EINVAL;
}

int sk_format(const struct sk_key *k, const void *target, char *buf, size_t len)
{
	const char *field = (const char *)target + k->off;
	uint64_t u;
	int64_t d;

	switch (k->type) {
	case SK_NAME:
	case SK_TEXT:
	case SK_PATH:
	case SK_SUBNET:
		return snprintf(buf, len, "%s", field);
	case SK_U64:
		memcpy(&u, field, sizeof(u));
		return snprintf(buf, len, "%" PRIu64, u);
	case SK_UINT:
		return snprintf(buf, len, "%u",
				*(const unsigned *)(const void *)field);
	case SK_INT:
		return snprintf(buf, len, "%d",
				*(const int *)(const void *)field);
	case SK_DURATION:
		memcpy(&d, field, sizeof(d));
		return num_format_duration(d, buf, len);
	case SK_BOOL:
		return snprintf(buf, len, "%s",
				*(const int *)(const void *)field ? "yes"
								  : "no");
	case SK_ENUM:
		return snprintf(buf, len, "%s",
				k->choices[*(const int *)(const void *)field]);
	case SK_SIZE:
		memcpy(&u, field, sizeof(u));
		return format_size(u, buf, len);
	case SK_NETEM: {
		struct netem_spec none;
		netem_spec_init(&none);
		if (netem_spec_equal(
			    (const struct netem_spec *)(const void *)field,
			    &none)) {
			if (len)
				buf[0] = '\0';
			return 0;
		}
		return netem_spec_print(
			(const struct netem_spec *)(const void *)field, buf,
			len);
	}
	case SK_AXIS:
		break;
	}
	return -EINVAL;
}
