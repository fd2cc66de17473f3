#!/usr/bin/env bash
# tc_diff.sh: reckon reads every netem spec as Debian 12's tc does.
#
#   netns tcdiff-$$ (lo)
#      tc qdisc add dev lo root netem SPEC     under strace -e write=all
#         |  RTM_NEWQDISC bytes (the kernel here has no sch_netem and
#         |  refuses it, after tc has parsed and sent it)
#         v
#      tc_nlcheck SPEC: decodes tc's tc_netem_qopt and TCA_NETEM_*
#      attributes and compares each field with netem_spec_parse(SPEC)
#
# For each spec of a fixed list and of 400 specs drawn from tc's grammar
# with a fixed seed: a spec tc sends must be accepted by reckon with every
# field equal; a spec tc refuses may be accepted by reckon (its grammar is a
# superset) and is counted. tc_nlcheck exits 3 when the dump holds no
# RTM_NEWQDISC (tc refused) and reckon accepts, 2 when reckon refuses. Needs root, strace and iproute2 6.1; exit 77
# otherwise.
set -euo pipefail
build=${1:?usage: tc_diff.sh BUILD_DIR}
check=$build/tests/netem/tc_nlcheck
[ -x "$check" ] || { echo "FAIL: $check missing"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root for a network namespace"; exit 77; }
command -v strace >/dev/null || { echo "skip: strace is not installed"; exit 77; }
tc -V 2>/dev/null | grep -q 'iproute2-6\.1\.' ||
	{ echo "skip: tc is not iproute2 6.1 ($(tc -V 2>&1 | head -1))"; exit 77; }

ns=tcdiff-$$
dump=$(mktemp)
cleanup() {
	ip netns del "$ns" 2>/dev/null || true
	rm -f "$dump"
}
trap cleanup EXIT
ip netns add "$ns"

fixed=(
	"delay 100ms"
	"delay 100"
	"delay 10ms 5"
	"delay 1.5"
	"delay 1.5ms 250us 25%"
	"latency 20msec 2msecs"
	"delay 10ms 5ms delay 20ms"
	"del 10ms"
	"d 3ms l 10"
	"limit 1k"
	"limit 1.5"
	"limit 2kb"
	"loss 2%"
	"loss 2"
	"loss 2% 25%"
	"drop 3%"
	"loss random 1%"
	"loss 0% loss 2%"
	"loss state 1%"
	"loss state 1% 10% 5% 70% 0.1%"
	"loss gemodel 1%"
	"loss gemodel 1% 10% 70% 0.1%"
	"delay 10ms loss 1% ecn"
	"duplicate 5%"
	"duplicate 5% 10% delay 1ms 1ms 5%"
	"corrupt 0.1%"
	"corrupt 0.1% 25%"
	"delay 10ms reorder 25% 50%"
	"delay 10ms reorder 25% gap 5"
	"delay 10ms reorder 25% gap 0"
	"delay 10ms r 5% g 010"
	"delay 10ms 2ms distribution normal"
	"delay 10ms 2ms distribution pareto"
	"delay 10ms 2ms di paretonormal"
	"rate 1mbit"
	"rate 100kbps"
	"rate 5Gbit"
	"rate 1mbit 20"
	"rate 1mbit -4 0x40 8"
	"slot 1ms"
	"slot 2"
	"slot 1ms 2ms packets 10"
	"slot 1ms 2ms bytes 64k"
	"slot 1ms 2ms packets 5 bytes 1500"
	"slot 1ms p 0x10 b 1kbit"
	"slot distribution normal 1ms 100us"
	"slot distribution pareto 5ms 1ms packets 3"
	"delay 20ms 5ms 30% distribution normal loss gemodel 2% 20% 80% 0.5% duplicate 1% corrupt 0.5% reorder 10% 5% gap 3 rate 10mbit 14 limit 500 slot 1ms 3ms packets 8 bytes 16k"
)

# Random specs from tc's grammar, seeded.
RANDOM=20261125
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
pct() { pick 0 0.1% 1% 2.5% 25% 50 100% 7%; }
tm() { pick 1 100 1.5 250us 1ms 2.5ms 10ms 100msec 1s 0.25s 20ms; }
gen() {
	local out=() k n=$((1 + RANDOM % 5)) i
	for ((i = 0; i < n; i++)); do
		k=$(pick delay loss duplicate corrupt reorder rate limit slot gap distribution ecn)
		case $k in
		delay) out+=("$(pick delay del latency d)" "$(tm)")
			((RANDOM % 2)) && out+=("$(tm)") && ((RANDOM % 2)) && out+=("$(pct)") ;;
		loss) case $((RANDOM % 4)) in
			0) out+=(loss "$(pct)") ;;
			1) out+=(loss "$(pct)" "$(pct)") ;;
			2) out+=(loss state "$(pct)" "$(pct)") ;;
			3) out+=(loss gemodel "$(pct)" "$(pct)" "$(pct)") ;;
			esac ;;
		duplicate|corrupt|reorder) out+=("$k" "$(pct)")
			((RANDOM % 2)) && out+=("$(pct)") ;;
		rate) out+=(rate "$(pick 8bit 1mbit 2Mbit 100kbps 1gbit 7kibit)")
			((RANDOM % 2)) && out+=("$(pick 0 14 -4 0x10)") ;;
		limit) out+=(limit "$(pick 1 100 1k 1000 2.5 0x10)") ;;
		slot) out+=(slot "$(tm)")
			((RANDOM % 2)) && out+=(packets "$(pick 1 5 010)")
			((RANDOM % 2)) && out+=(bytes "$(pick 1500 4k 0.5k)") ;;
		gap) out+=(gap "$(pick 0 1 5 0x3)") ;;
		distribution) out+=(distribution "$(pick normal pareto paretonormal)") ;;
		ecn) out+=(ecn) ;;
		esac
	done
	echo "${out[*]}"
}
random_specs=()
for ((j = 0; j < 400; j++)); do random_specs+=("$(gen)"); done

same=0 superset=0 refused=0 bad=0
for spec in "${fixed[@]}" "${random_specs[@]}"; do
	# shellcheck disable=SC2086 # the spec is words, as tc gets them
	ip netns exec "$ns" strace -f -qq -e trace=sendmsg -e write=all \
		-o "$dump" tc qdisc add dev lo root netem $spec 2>/dev/null || true
	rc=0
	out=$("$check" "$spec" <"$dump") || rc=$?
	case $rc in
	0) same=$((same + 1)) ;;
	3) superset=$((superset + 1)) ;;
	2) if ! grep -q 'bytes in buffer' "$dump"; then
		# neither sent anything: both refuse
		refused=$((refused + 1))
	   else
		echo "DIFF \"$spec\": tc sends it, reckon refuses:"; echo "$out"
		bad=$((bad + 1))
	   fi ;;
	*) echo "DIFF \"$spec\":"; echo "$out"; bad=$((bad + 1)) ;;
	esac
done
echo "tc 6.1 and reckon read $same specs the same; both refuse $refused;" \
	"tc refuses and reckon accepts $superset; $bad differ"
[ "$bad" -eq 0 ]
