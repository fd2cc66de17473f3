/*
 * scenario_diag.h: helpers for the scenario loader's diagnostics: putting
 * the collected messages in file order, and the edit-distance search that
 * turns a misspelt key, section or host name into "did you mean 'X'?".
 */
#ifndef RECKON_SCENARIO_DIAG_H
#define RECKON_SCENARIO_DIAG_H

#include <stddef.h>

#include "scenario.h"

/* Most messages one load keeps; the rest are counted in d->dropped. */
#define SC_DIAG_MAX 100

/* Stable sort of d's messages by line (INT_MAX and 0 last). */
void sc_diag_sort(struct sc_diag *d);

/* Sort, then say how many problems the cap hid. 0 or -ENOMEM. */
int sc_diag_finish(struct sc_diag *d, const char *path);

/* Levenshtein distance between a and b (bytes), capped at 255. */
unsigned sc_edit_distance(const char *a, const char *b);

/* The candidate closest to word when it is a plausible typo (distance at
 * most 2, and less than half of word's length), else NULL. With n == 0,
 * cands is NULL-terminated; otherwise exactly n entries are read. */
const char *sc_suggest(const char *word, const char *const *cands, size_t n);

/* " (did you mean 'X'?)" when sc_suggest finds X, else "". buf must hold
 * at least SC_NAME_MAX + 24 bytes. */
const char *sc_did_you_mean(const char *word, const char *const *cands,
			    size_t n, char *buf, size_t len);

#endif
