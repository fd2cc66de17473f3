/*
 * json_out.h: the one JSON string writer that reckon-agent and reckond
 * share for their machine-readable output.
 */
#ifndef RECKON_JSON_OUT_H
#define RECKON_JSON_OUT_H

#include <stdio.h>

/* s as a JSON string literal: quotes, backslashes and control characters
 * escaped. */
void json_fputs_str(FILE *f, const char *s);

#endif
