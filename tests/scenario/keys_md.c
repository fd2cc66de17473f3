/*
 * keys_md.c: prints the scenario key reference (markdown, rendered from
 * the key table in daemon/scenario/scenario_keys.c) that docs/scenario.md holds
 * between its BEGIN KEYS / END KEYS markers. Use it to regenerate that
 * section after changing the table; scenario_unit fails until they agree.
 */
#include <stdio.h>

#include "scenario_int.h"

int main(void)
{
	return scenario_keys_markdown(stdout) < 0 ? 1 : 0;
}
