/* PLACEHOLDER-NOT-BUILT-YET: replaced by the module's owner. */
#include <stdio.h>
#include "cmd.h"
int cmd_replay(int argc, char *argv[])
{
	(void)argc; (void)argv;
	fprintf(stderr, "cmd_replay: not built yet\n");
	return 1;
}
