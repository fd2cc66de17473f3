/*
 * scenario_expand.c: {placeholder} expansion in a host's exec and args, so
 * a scenario can say `exec = ping -c 5 {addr:b}` without hard-coding the
 * address the subnet gives host b. Placeholders: {host}, {index}, {addr},
 * {addr:NAME}, {duration_s}; {{ and }} stand for literal braces.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

static int put(char *out, size_t outlen, size_t *o, const char *s, size_t n)
{
	if (*o + n >= outlen)
		return -1;
	memcpy(out + *o, s, n);
	*o += n;
	return 0;
}

int scenario_expand(const struct scenario *sc, const struct sc_host *h,
		    const char *text, char *out, size_t outlen, char *err,
		    size_t errlen)
{
	size_t o = 0;
	char tmp[32];
	const char *p = text;
	char *res;
	int rc = -EINVAL;

	if (outlen == 0)
		return -EINVAL;
	/* Build in res and copy out only on success. */
	res = malloc(outlen);
	if (res == NULL)
		return -ENOMEM;
	while (*p) {
		const char *lit = p;
		size_t n;

		if (p[0] == '{' && p[1] == '{') {
			lit = "{";
			n = 1;
			p += 2;
		} else if (p[0] == '}' && p[1] == '}') {
			lit = "}";
			n = 1;
			p += 2;
		} else if (p[0] != '{') {
			n = 1;
			p++;
		} else {
			const char *end = strchr(p, '}');
			char name[SC_NAME_MAX + 8];
			if (end == NULL) {
				snprintf(err, errlen,
					 "'{' without '}' (write "
					 "{{ for a literal brace)");
				goto out;
			}
			n = (size_t)(end - p - 1);
			if (n >= sizeof(name)) {
				snprintf(err, errlen,
					 "unknown placeholder "
					 "'%.20s...'",
					 p);
				goto out;
			}
			memcpy(name, p + 1, n);
			name[n] = '\0';
			p = end + 1;
			lit = tmp;
			if (strcmp(name, "host") == 0) {
				lit = h->name;
			} else if (strcmp(name, "addr") == 0) {
				lit = h->addr;
			} else if (strcmp(name, "index") == 0) {
				snprintf(tmp, sizeof(tmp), "%u", h->index);
			} else if (strcmp(name, "duration_s") == 0) {
				snprintf(tmp, sizeof(tmp), "%lld",
					 (long long)((sc->duration_ns +
						      999999999) /
						     1000000000));
			} else if (strncmp(name, "addr:", 5) == 0) {
				int i = scenario_host(sc, name + 5);
				if (i < 0) {
					snprintf(err, errlen,
						 "{%s}: no host "
						 "'%s'",
						 name, name + 5);
					goto out;
				}
				lit = sc->hosts[i].addr;
			} else {
				snprintf(err, errlen,
					 "unknown placeholder "
					 "'{%s}' (known: {host}, {index}, "
					 "{addr}, {addr:NAME}, {duration_s}; "
					 "{{ for a literal brace)",
					 name);
				goto out;
			}
			n = strlen(lit);
		}
		if (put(res, outlen, &o, lit, n) < 0) {
			snprintf(err, errlen,
				 "longer than %zu characters "
				 "after expanding placeholders",
				 outlen - 1);
			goto out;
		}
	}
	res[o] = '\0';
	memcpy(out, res, o + 1);
	rc = 0;
out:
	free(res);
	return rc;
}
