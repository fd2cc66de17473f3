/*
 * scenario_sweep.h: the [sweep] part of the scenario loader
 * (scenario_sweep.c): reading axis keys and their values, checking them
 * against the hosts and links once the whole file is read, printing the
 * canonical [sweep] section and freeing it. Internal to daemon/scenario*;
 * the grid functions for everyone else are in scenario.h.
 */
#ifndef RECKON_SCENARIO_SWEEP_H
#define RECKON_SCENARIO_SWEEP_H

#include <stdio.h>

#include "scenario.h"

struct sc_loader;
struct sc_section;

/* Allocate sc->sweep for the [sweep] section s, with the table defaults.
 * Returns 0, or -1 after reporting (a second [sweep], no memory). */
int sc_sweep_new(struct sc_loader *L, const struct sc_section *s);

/* One axis key ("link.delay", "link.a>b.loss", "predictor.led.eta_max")
 * and its value text: parsed into a new axis or reported. */
void sc_sweep_key(struct sc_loader *L, const char *sec, const char *key,
		  int line, const char *val);

/* After the whole file: sort the axes by line, check every value on every
 * link it touches and every predictor against the hosts' arguments, and
 * the grid size. Problems are reported. */
void sc_sweep_check(struct sc_loader *L);

/* The canonical [sweep] section (ranges written out as lists). */
int sc_sweep_print(FILE *f, const struct scenario *sc);

void sc_sweep_free(struct sc_sweep *sw);

/* The link parameters an axis can vary (docs/sweeps.md): their number,
 * and the name of parameter p (NULL past the end). A link axis's param
 * is an index into this list; the first SC_LP_COUNT follow enum
 * sc_link_param, the others lie past the enum's last name. */
unsigned sc_sweep_link_params(void);
const char *sc_sweep_link_param(unsigned p);

#endif
