/*
 * fuzz_spec.h: the libFuzzer entry point of fuzz_spec.c, also called by the
 * corpus regression test when RECKON_FUZZ is off.
 */
#ifndef RECKON_TEST_FUZZ_SPEC_H
#define RECKON_TEST_FUZZ_SPEC_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
