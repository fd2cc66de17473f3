#!/usr/bin/env bash
# deploy/quickstart.sh BUILD: the quickstart that deploy/run.sh runs.
# Engine demo until the daemon runs scenarios: the implied statistics of a
# few impairment specs, computed by the netem engine.
set -euo pipefail
build=${1:?usage: quickstart.sh BUILD}
for spec in 'delay 50ms 10ms distribution normal loss 2%' \
	'delay 100ms 20ms 25% loss gemodel 1% 10% 70% 0.1%' \
	'delay 75ms loss state 1% 30% 10% 5% 0.5% rate 10mbit'; do
	"$build/daemon/reckonctl" spec "$spec"
	echo
done
