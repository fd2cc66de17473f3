/* PLACEHOLDER-NOT-BUILT-YET: replaced by the module's owner. */
#include <stdio.h>
#include "reckonctl.h"
int ctl_spec(int argc, char *argv[])
{
	(void)argc; (void)argv;
	fprintf(stderr, "ctl_spec: not built yet\n");
	return 1;
}
