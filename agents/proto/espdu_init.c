/*
 * espdu_init.c: the default entity update reckon agents start from: a
 * DIS life form (kind 3) on land (domain 1), first-order world-frame dead
 * reckoning (DRM FPW, the DIS default for ground entities), entity 1:1:1
 * in exercise 1, no predictor data.
 */
#include <string.h>

#include "proto/espdu.h"

void reckon_espdu_init(struct reckon_espdu *p)
{
	memset(p, 0, sizeof(*p));
	p->exercise = 1;
	p->id.site = 1;
	p->id.application = 1;
	p->id.entity = 1;
	p->type.kind = 3;   /* life form */
	p->type.domain = 1; /* land */
	p->dr_alg = RECKON_DRM_FPW;
	p->dr_other.type = RECKON_DR_OTHER_NONE;
}
