/* PLACEHOLDER-NOT-BUILT-YET: replaced by the scenario parser's owner. */
#include <errno.h>
#include <stdlib.h>
#include "scenario.h"
void sc_diag_free(struct sc_diag *d) { (void)d; }
int scenario_load(const char *path, struct scenario **out, struct sc_diag *d)
{ (void)path; (void)out; (void)d; return -ENOSYS; }
void scenario_free(struct scenario *sc) { free(sc); }
int scenario_print(FILE *f, const struct scenario *sc) { (void)f; (void)sc; return -ENOSYS; }
int scenario_host(const struct scenario *sc, const char *name) { (void)sc; (void)name; return -1; }
const struct netem_spec *scenario_link_spec(const struct scenario *sc, unsigned s, unsigned d)
{ (void)sc; (void)s; (void)d; return NULL; }
