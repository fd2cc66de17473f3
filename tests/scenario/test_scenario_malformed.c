/*
 * test_scenario_malformed.c: Criterion tests of bad input. Every problem
 * is reported (not just the first) as "file:line: ...", in file order;
 * the output scenario is left untouched on failure; and a seeded stream
 * of mutated scenario files never crashes the loader: each one either
 * loads (and then round-trips through the canonical form) or is rejected
 * with at least one message naming the file.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_test_util.h"
#include "scenario.h"

#define SENTINEL ((struct scenario *)0x5c)

/* Load text that must fail; returns the diagnostics (caller frees). */
static struct sc_diag load_bad(const char *text, char *path, size_t len)
{
	struct scenario *sc = SENTINEL;
	struct sc_diag d = {0};

	sc_write_tmp(text, path, len);
	int rc = scenario_load(path, &sc, &d);
	unlink(path);
	cr_assert_eq(rc, -EINVAL, "rc %d", rc);
	cr_assert_eq(sc, SENTINEL, "output written on failure");
	cr_assert_gt(d.n, 0);
	for (unsigned i = 0; i < d.n; i++)
		cr_assert_eq(strncmp(d.msg[i], path, strlen(path)), 0, "%s",
			     d.msg[i]);
	return d;
}

/* Does d have a message starting "PATH:LINE: " and containing what? */
static int has(const struct sc_diag *d, const char *path, int line,
	       const char *what)
{
	char pre[128];

	snprintf(pre, sizeof(pre), "%s:%d: ", path, line);
	for (unsigned i = 0; i < d->n; i++)
		if (strncmp(d->msg[i], pre, strlen(pre)) == 0 &&
		    strstr(d->msg[i], what) != NULL)
			return 1;
	return 0;
}

Test(malformed, every_error_is_reported_in_file_order)
{
	char path[64];
	struct sc_diag d = load_bad("[scenario]\n"	 /* 1 */
				    "duraton = 5s\n"	 /* 2 */
				    "[host a]\n"	 /* 3 */
				    "exec = true\n"	 /* 4 */
				    "[link a zz]\n"	 /* 5 */
				    "both = delay 1ms\n" /* 6 */
				    "[capture]\n"	 /* 7 */
				    "snaplen = 1\n"	 /* 8 */
				    "[scenario]\n",	 /* 9 */
				    path, sizeof(path));

	cr_assert_eq(d.n, 4, "got %u messages", d.n);
	cr_assert(has(&d, path, 2,
		      "[scenario] duraton: unknown key "
		      "(did you mean 'duration'?)"));
	cr_assert(has(&d, path, 5, "[link a zz]: no host 'zz'"));
	cr_assert(has(&d, path, 8, "[capture] snaplen: 1 out of range"));
	cr_assert(has(&d, path, 9, "duplicate section (first at line 1)"));
	for (unsigned i = 1; i < d.n; i++)
		cr_assert_leq(d.line[i - 1], d.line[i]);
	sc_diag_free(&d);
}

Test(malformed, syntax_errors_have_line_numbers_and_no_iniparser_noise)
{
	char path[64];
	struct sc_diag d = load_bad("[host a]\n; no key yet\n\nnot a key\n"
				    "exec \\\n= true\n[unclosed\n",
				    path, sizeof(path));

	/* the continuation joins lines 5-6 into "exec = true", which is fine */
	cr_assert_eq(d.n, 2);
	cr_assert(has(&d, path, 4, "syntax error"));
	cr_assert(has(&d, path, 7, "syntax error"));
	sc_diag_free(&d);
}

Test(malformed, long_lines_keys_outside_sections_and_names)
{
	char path[64];
	char *text = malloc(4096);

	strcpy(text, "seed = 1\n[host a]\nexec = ");
	memset(text + strlen(text), 'x', 2000);
	strcpy(text + strlen("seed = 1\n[host a]\nexec = ") + 2000,
	       "\n[host Bad.Name]\nexec = true\n[host a:b]\nexec = true\n");
	struct sc_diag d = load_bad(text, path, sizeof(path));
	cr_assert(has(&d, path, 1, "key outside any [section]"));
	cr_assert(has(&d, path, 3, "line too long"));
	sc_diag_free(&d);
	free(text);

	d = load_bad("[host Bad.Name]\nexec = true\n[host ok]\nexec = true\n"
		     "[host a b]\nexec = true\n",
		     path, sizeof(path));
	cr_assert(has(&d, path, 1, "host name 'bad.name'"));
	cr_assert(has(&d, path, 5, "expected [host NAME]"));
	sc_diag_free(&d);
}

Test(malformed, too_many_hosts_for_the_subnet)
{
	char path[64];
	struct sc_diag d = load_bad("[scenario]\nsubnet = 10.0.0.0/30\n"
				    "[host a]\nexec = true\n[host b]\nexec = true\n"
				    "[host c]\nexec = true\n",
				    path, sizeof(path));
	cr_assert(has(&d, path, 2, "has room for 2 hosts, the scenario has 3"));
	sc_diag_free(&d);
}

Test(malformed, empty_file_and_missing_file)
{
	char path[64];
	struct scenario *sc = SENTINEL;
	struct sc_diag d = load_bad("", path, sizeof(path));

	cr_assert_eq(d.n, 1);
	cr_assert(strstr(d.msg[0], "no [host NAME] section") != NULL);
	sc_diag_free(&d);
	cr_assert_eq(scenario_load("/nonexistent/x.ini", &sc, &d), -ENOENT);
	cr_assert_eq(sc, SENTINEL);
	cr_assert_eq(d.n, 0);
}

Test(malformed, the_message_cap_counts_the_rest)
{
	char path[64];
	size_t cap = 300 * 16;
	char *text = malloc(cap);
	size_t o = 0;

	o += (size_t)snprintf(text + o, cap - o, "[host a]\nexec = true\n");
	for (int i = 0; i < 300; i++)
		o += (size_t)snprintf(text + o, cap - o, "bogus%d = 1\n", i);
	struct sc_diag d = load_bad(text, path, sizeof(path));
	/* 100 kept, then one line saying how many more */
	cr_assert_eq(d.n, 101);
	cr_assert(strstr(d.msg[100], "200 more problem(s) not shown") != NULL,
		  "%s", d.msg[100]);
	sc_diag_free(&d);
	free(text);
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

Test(malformed, mutated_files_never_crash)
{
	static const char base[] =
		"[scenario]\nname = f\nseed = 9\nduration = 20s\n"
		"subnet = 10.9.0.0/24\n[defaults]\nlink = delay 1ms\n"
		"[host a]\nrole = player\nargs = --map dust --bots 2 --duration 5 --to {addr:b}\n"
		"[host b]\nexec = \"sh -c 'x; y'\"\n"
		"[link a b]\nforward = delay 10ms 2ms loss 1%\n"
		"[schedule]\nat 5s a<>b = delay 20ms\n"
		"[capture]\nenabled = yes\nmax_size = 1M\n";
	static const char alphabet[] = "[]=;#\\\n{}<>:\"' a0x%.";
	uint64_t seed = 0x5eed5eedULL; /* fixed: the run is reproducible */
	unsigned loaded = 0, rejected = 0;

	for (int iter = 0; iter < 400; iter++) {
		char text[sizeof(base) + 64];
		size_t n = sizeof(base) - 1;
		memcpy(text, base, n + 1);
		int muts = 1 + (int)(xorshift(&seed) % 4);
		for (int m = 0; m < muts; m++) {
			size_t at = xorshift(&seed) % n;
			uint64_t r = xorshift(&seed);
			char c = (r & 1) ? alphabet[(r >> 8) %
						    (sizeof(alphabet) - 1)]
					 : (char)(r >> 16);
			switch ((r >> 4) % 3) {
			case 0: /* replace */
				text[at] = c;
				break;
			case 1: /* insert */
				memmove(text + at + 1, text + at, n - at + 1);
				text[at] = c;
				n++;
				break;
			default: /* delete */
				memmove(text + at, text + at + 1, n - at);
				n--;
				break;
			}
		}
		text[n] = '\0'; /* a NUL from the mutation ends it earlier */

		char path[64];
		struct scenario *sc = SENTINEL;
		struct sc_diag d = {0};
		sc_write_tmp(text, path, sizeof(path));
		int rc = scenario_load(path, &sc, &d);
		unlink(path);
		if (rc == 0) {
			char *out = NULL, tmp[64];
			size_t on;
			struct scenario *again = NULL;
			FILE *f = open_memstream(&out, &on);
			cr_assert_eq(scenario_print(f, sc), 0);
			fclose(f);
			sc_write_tmp(out, tmp, sizeof(tmp));
			int rc2 = scenario_load(tmp, &again, &d);
			unlink(tmp);
			cr_assert_eq(rc2, 0,
				     "iteration %d: canonical form rejected: "
				     "%s",
				     iter, d.n ? d.msg[0] : "");
			sc_assert_same(sc, again);
			free(out);
			scenario_free(again);
			scenario_free(sc);
			loaded++;
		} else {
			cr_assert_eq(rc, -EINVAL, "iteration %d: rc %d", iter,
				     rc);
			cr_assert_eq(sc, SENTINEL);
			cr_assert_gt(d.n, 0, "iteration %d: rejected silently",
				     iter);
			for (unsigned i = 0; i < d.n; i++)
				cr_assert_eq(
					strncmp(d.msg[i], path, strlen(path)),
					0, "%s", d.msg[i]);
			rejected++;
		}
		sc_diag_free(&d);
	}
	cr_log_info("mutation test: %u loaded, %u rejected", loaded, rejected);
	/* The mutations must exercise both outcomes to mean anything. */
	cr_assert_gt(loaded, 0);
	cr_assert_gt(rejected, 0);
}

Test(malformed, bom_control_characters_and_directories)
{
	char path[64];
	struct scenario *sc = SENTINEL;
	struct sc_diag d = load_bad("\xef\xbb\xbf[host a]\nexec = true\n", path,
				    sizeof(path));

	/* iniparser cannot read past the mark: that one message says why */
	cr_assert_eq(d.n, 1);
	cr_assert(has(&d, path, 1, "byte-order mark"));
	sc_diag_free(&d);
	d = load_bad("[host a]\nexec = true\n[host b]\nro\x1b[31mle = x\n",
		     path, sizeof(path));
	cr_assert(has(&d, path, 4, "[host b] ro?[31mle: unknown key"));
	for (unsigned i = 0; i < d.n; i++)
		cr_assert_null(strchr(d.msg[i], '\x1b'));
	sc_diag_free(&d);
	cr_assert_eq(scenario_load("/tmp", &sc, &d), -EISDIR);
	cr_assert_eq(sc, SENTINEL);
}
