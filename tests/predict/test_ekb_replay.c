#include <criterion/criterion.h>
Test(ekb_replay, placeholder) { cr_assert(1); }
