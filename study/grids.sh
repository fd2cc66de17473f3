# grids.sh: the study's four grids (scenarios/study/NAME.ini), sourced by
# the study scripts and their test so that the list lives in one place.
# The lagcomp-degraded files there are docs/lagcomp.md's sweeps, not the
# study's.
# shellcheck disable=SC2034
STUDY_GRIDS="predictors predictors-burst lagcomp lagcomp-burst"
