/*
 * fuzz_spec.c: libFuzzer target for the netem text parsers. Any input goes
 * to the spec parser (and, when it parses, through print and parse again,
 * which must give the same struct), to the schedule parser, the CSV trace
 * parser and the .dist parser. A crash or a broken round trip aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_spec.h"
#include "netem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct netem_spec a, b;
	struct netem_sched *sc;
	char err[256], out[2048], *text;
	int16_t tab[64];
	size_t n;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (netem_spec_parse(text, &a, err, sizeof(err)) == 0) {
		int len = netem_spec_print(&a, out, sizeof(out));

		if (len < 0 || (size_t)len >= sizeof(out))
			abort();
		if (netem_spec_parse(out, &b, err, sizeof(err)) != 0 ||
		    !netem_spec_equal(&a, &b))
			abort();
	} else if (strlen(err) == 0) {
		abort(); /* every error says why */
	}
	if (netem_sched_parse(text, &sc, err, sizeof(err)) == 0)
		netem_sched_free(sc);
	if (netem_trace_parse_csv((const char *)data, size, &sc, err,
				  sizeof(err)) == 0)
		netem_sched_free(sc);
	(void)netem_dist_parse((const char *)data, size, tab, 64, &n, err,
			       sizeof(err));
	free(text);
	return 0;
}
