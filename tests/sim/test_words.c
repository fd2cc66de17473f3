/*
 * test_words.c: how the simulator splits a host's args into words
 * (daemon/scenario/scenario_words.c): the same words /bin/sh would pass reckon-agent
 * for blanks, quotes and backslashes, and a clear refusal for what only
 * a shell could do.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "netsim_int.h"

static void expect(const char *text, int n, const char *const *want)
{
	struct sc_words w;
	char err[256] = "";

	cr_assert_eq(scenario_words_split("player", text, &w, err, sizeof(err)), 0,
		     "'%s': %s", text, err);
	cr_assert_eq(w.argc, n + 1, "'%s': %d words", text, w.argc - 1);
	cr_assert_str_eq(w.argv[0], "player");
	for (int i = 0; i < n; i++)
		cr_assert_str_eq(w.argv[i + 1], want[i], "'%s' word %d", text,
				 i);
	cr_assert_null(w.argv[w.argc]);
	scenario_words_free(&w);
}

Test(sim_words, blanks)
{
	const char *const a[] = {"--map", "dust", "--bots", "8"};

	expect("--map dust --bots 8", 4, a);
	expect("  --map\tdust \n --bots   8  ", 4, a);
	expect("", 0, NULL);
	expect("   ", 0, NULL);
}

Test(sim_words, quotes)
{
	const char *const a[] = {"--condition", "a b", "x'y", "$HOME"};
	const char *const b[] = {"ab", "c d", "e\"f", "g\\h"};
	const char *const c[] = {"", "x"};

	expect("--condition 'a b' \"x'y\" '$HOME'", 4, a);
	expect("a'b' \"c d\" \"e\\\"f\" g\\\\h", 4, b);
	expect("'' x", 2, c);
}

Test(sim_words, backslash)
{
	const char *const a[] = {"a b", "c"};

	expect("a\\ b c", 2, a);
	expect("a\\ b \\\nc", 2, a);
}

static void refused(const char *text, const char *needle)
{
	struct sc_words w = {0};
	char err[256] = "";

	cr_assert_eq(scenario_words_split("player", text, &w, err, sizeof(err)),
		     -EINVAL, "'%s' was accepted", text);
	cr_assert(strstr(err, needle) != NULL, "'%s': message '%s'", text, err);
	cr_assert_null(w.argv);
}

Test(sim_words, refusals)
{
	refused("--map $MAP", "expansion");
	refused("--map \"$MAP\"", "expansion");
	refused("--map `x`", "command substitution");
	refused("--map dust; rm x", "command list");
	refused("--map dust > f", "redirection");
	refused("--trace *.csv", "glob");
	refused("--map 'dust", "unterminated ' quote");
	refused("--map \"dust", "unterminated \" quote");
}
