/*
 * keys_md.c: prints the scenario key reference (markdown, rendered from
 * the key table in daemon/scenario/scenario_keys.c) that docs/scenario.md holds
 * between its BEGIN KEYS / END KEYS markers. Use it to regenerate that
 * section after changing the table; scenario_unit fails until they agree.
 * With --fair it prints the like-for-like table of docs/comparing.md
 * (BEGIN FAIR / END FAIR), from sc_fair_settings and the registry.
 */
#include <stdio.h>
#include <string.h>

#include "scenario_int.h"

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--fair") == 0)
		return scenario_fair_markdown(stdout) < 0 ? 1 : 0;
	return scenario_keys_markdown(stdout) < 0 ? 1 : 0;
}
