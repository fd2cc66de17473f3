#!/usr/bin/env bash
# slurm.sh BUILD: deploy/slurm on a real Slurm. Starts a one-node cluster
# of its own (slurmctld and slurmd of Debian's slurm-wlm, on loopback
# ports, configuration and state in a temporary directory, AuthType
# auth/none so no munge daemon), submits tests/sweep/tiny.ini (8
# simulated points) as a 3-task array job with deploy/slurm/sweep.sbatch
# and deploy/slurm/merge.sbatch after it (afterok), waits for the merge,
# and compares the merged sweep directory file by file (cmp; shard.txt
# aside) with the same sweep run locally with `reckond sweep`. Installs
# the optional package group `cluster` when Slurm is missing; skips (77)
# when not root or when it cannot be installed. Stops its daemons by PID.
set -euo pipefail
build=$(cd "${1:?usage: slurm.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd runs jobs as their user)"
for b in daemon/reckond daemon/reckonctl; do
	[ -x "$build/$b" ] || { echo "FAIL: $build/$b is not built"; exit 1; }
done
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
	! command -v sbatch >/dev/null; then
	echo "installing the package group cluster (deploy/setup.sh --packages cluster)"
	"$src/deploy/setup.sh" --packages cluster >/dev/null 2>&1 ||
		skip "could not install the package group cluster (slurmctld slurmd slurm-client munge)"
fi
plugins=$(dirname "$(dpkg -L slurm-wlm-basic-plugins | grep -m1 '/auth_none.so$')" 2>/dev/null || true)
[ -n "$plugins" ] || skip "this Slurm has no auth/none plugin"

tmp=$(mktemp -d /tmp/reckon-slurm.XXXXXX)
chmod 755 "$tmp"
ctld_pid= slurmd_pid=
conf=$tmp/slurm.conf
export SLURM_CONF=$conf
stop() { # PID: TERM, then KILL after 5 s
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
	kill -TERM "$1"
	for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
	kill -KILL "$1" 2>/dev/null || true
}
cleanup() {
	if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
		scancel --quiet --user=root >/dev/null 2>&1 || true
	fi
	stop "$slurmd_pid"
	stop "$ctld_pid"
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/slurmctld.log "$tmp"/slurmd.log "$tmp"/work/*.out; do
		[ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
	done
	exit 1
}

# The node as slurmd sees it (CPUs, memory), under a name of our own.
hw=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
host=$(hostname -s)
port=$((20000 + $$ % 20000))
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/work"
cat >"$conf" <<CONF
ClusterName=reckontest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=reckon1 NodeHostname=$host NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=reckon Nodes=reckon1 Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -D -i -f "$conf" >"$tmp/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -N reckon1 -f "$conf" >"$tmp/slurmd.out" 2>&1 &
slurmd_pid=$!
for _ in $(seq 100); do
	sinfo -h -N -o '%N %T' 2>/dev/null | grep -qE '^reckon1 idle' && break
	kill -0 "$ctld_pid" 2>/dev/null || fail "slurmctld exited: $(cat "$tmp/slurmctld.out")"
	kill -0 "$slurmd_pid" 2>/dev/null || fail "slurmd exited: $(cat "$tmp/slurmd.out")"
	sleep 0.2
done
sinfo -h -N -o '%N %T' | grep -qE '^reckon1 idle' || fail "node not idle: $(sinfo -N 2>&1)"
echo "one-node cluster up: $(sinfo -h -N -o '%N %c CPUs %T')"

# the same sweep, locally and on the cluster, from one scenario path
cp "$src/tests/sweep/tiny.ini" "$tmp/tiny.ini"
"$build/daemon/reckond" -q sweep -j 2 -o "$tmp/local" "$tmp/tiny.ini" >/dev/null
export RECKOND=$build/daemon/reckond RECKONCTL=$build/daemon/reckonctl
cd "$tmp/work"
# the scripts ask for 4 CPUs and 2G; this node has what slurmd -C found
jid=$(sbatch --parsable --array=0-2 --cpus-per-task=1 --mem=0 \
	"$src/deploy/slurm/sweep.sbatch" "$tmp/tiny.ini" "$tmp/cluster") ||
	fail "sbatch of the sweep array"
timeout 300 sbatch --wait --parsable --dependency=afterok:"$jid" \
	"$src/deploy/slurm/merge.sbatch" "$tmp/cluster" >"$tmp/merge.jid" ||
	fail "the merge job failed or timed out (array job $jid)"
for i in 0 1 2; do
	[ -d "$tmp/cluster/shard-$i/points" ] || fail "array task $i wrote no shard"
done

list() { (cd "$1" && find . -type f ! -path ./shard.txt | sort); }
[ "$(list "$tmp/local")" = "$(list "$tmp/cluster/merged")" ] ||
	fail "the trees differ: $(diff <(list "$tmp/local") <(list "$tmp/cluster/merged") | head)"
n=0
while IFS= read -r f; do
	cmp "$tmp/local/$f" "$tmp/cluster/merged/$f" || fail "$f differs"
	n=$((n + 1))
done < <(list "$tmp/local")
[ "$n" -ge 20 ] || fail "only $n files compared"
echo "PASS: array job $jid (3 shards) + merge job $(cat "$tmp/merge.jid") equal the local sweep in all $n files"
