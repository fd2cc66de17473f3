#include <criterion/criterion.h>
Test(is, placeholder) { cr_assert(1); }
