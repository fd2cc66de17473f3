/* PLACEHOLDER-NOT-BUILT-YET: replaced by the module's owner. */
#include <stdio.h>
#include "cmd.h"
int cmd_trace(int argc, char *argv[])
{
	(void)argc; (void)argv;
	fprintf(stderr, "cmd_trace: not built yet\n");
	return 1;
}
