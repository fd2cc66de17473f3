#!/usr/bin/env bash
# bench_soak.sh BUILD_DIR [MINUTES=30] [AGENTS=32]: a soak of reckond and
# its agents (a benchmark that prints figures, never pass/fail). It writes
# a scenario of AGENTS reckon-agent hosts (PLAYERS players, default 4, or
# half of fewer than 8 agents, of BOTS_PER_PLAYER bots each, default 2, and
# the rest observers; dis and led lanes; every link `delay 50ms 10ms loss
# 2%`) lasting MINUTES, runs it with
# `reckond run` as root, and every 10 s samples VmRSS (/proc/PID/status)
# and the number of open descriptors (/proc/PID/fd) of reckond and of every
# reckon-agent below it in the process tree (descendants of the reckond it
# started whose executable is BUILD_DIR's reckon-agent). The samples go to
# a CSV (BUILD_DIR/soak/soak-AGENTSa-MINUTESm.csv, or $RECKON_SOAK_CSV).
# At the end it prints, per kind (reckond, player, observer), the medians
# of the first and last minute of the steady window and the least-squares
# slope of RSS (KiB/min) and fds (fds/min), and a verdict.
#
# Why few bots: every agent builds the whole play of every bot in process
# before it starts (agents/role/truth.h), about 11 KiB per bot-second at
# 64 Hz, so memory is AGENTS x bots x seconds; 8 bots for 30 minutes is
# about 160 MiB per agent, 5 GiB for 32 agents.
#
# The steady window starts WARMUP s (default 60, or a quarter of the run
# if shorter) after all agents are up, and ends at the last sample with
# all of them alive. Bounds of the verdict, per process over the window:
# - fds: growth under 1 (descriptors are whole numbers; one leaked per
#   repetition, connection or timer would show);
# - RSS: growth under 1 MiB. RSS moves in 4 KiB pages and glibc's heap
#   grows in 128 KiB steps (M_TOP_PAD), so allocator noise in a steady
#   state stays within a few steps; the summary also prints how few bytes
#   per forwarded frame 1 MiB is, i.e. the smallest per-frame leak the
#   bound would catch.
# An observer keeps every error sample (one double per entity, lane and
# frame, agents/role/observer.c err_push) for exact percentiles at the end:
# by design it grows by D = bots x lanes x tick_hz x 8 B/s. Each buffer
# doubles by realloc; below glibc's mmap threshold (dynamic, up to 32 MiB)
# the copy leaves the old block resident in the heap until a later
# allocation reuses it, and the old blocks sum to at most the live size,
# so the observer's RSS grows by between D and 2 D. Its bound is 2 D over
# the window plus the same 1 MiB; the printed "beyond" is its growth less
# D alone.
# RECKON_SOAK_SUMMARY=CSV prints the summary of an earlier (or still
# running) soak's CSV without running anything; give it the same AGENTS,
# PLAYERS and BOTS_PER_PLAYER.
# Cleans up with a trap; ends only the reckond it started (its hosts die
# with it: PR_SET_PDEATHSIG, docs/reckond.md). Needs root.
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR [MINUTES] [AGENTS]}" && pwd)
minutes=${2:-30}
agents=${3:-32}
players=${PLAYERS:-$((agents >= 8 ? 4 : (agents + 1) / 2))}
bpp=${BOTS_PER_PLAYER:-2}
period=10
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
map_dir=${RECKON_MAP_DIR:-$(cd "$here/../../scenarios/maps" && pwd)}

summary_only=${RECKON_SOAK_SUMMARY:-}
[ -n "$summary_only" ] || [ "$(id -u)" -eq 0 ] || { echo "bench_soak: needs root (namespaces)"; exit 0; }
for b in daemon/reckond agents/reckon-agent; do
	[ -x "$build/$b" ] || { echo "bench_soak: $build/$b is not built"; exit 1; }
done
case "$minutes$agents$players$bpp" in *[!0-9]*)
	echo "bench_soak: MINUTES, AGENTS, PLAYERS and BOTS_PER_PLAYER are whole numbers"; exit 1;;
esac
observers=$((agents - players))
bots=$((players * bpp))
if [ "$agents" -gt 64 ] || [ "$players" -lt 1 ] || [ "$observers" -lt 1 ] ||
	[ "$bots" -gt 64 ] || [ "$minutes" -lt 1 ]; then
	echo "bench_soak: need 1 <= PLAYERS < AGENTS <= 64 (a scenario's limit)," \
		"PLAYERS x BOTS_PER_PLAYER <= 64 ([game] bots) and MINUTES >= 1"
	exit 1
fi
csv=${summary_only:-${RECKON_SOAK_CSV:-$build/soak/soak-${agents}a-${minutes}m.csv}}
mkdir -p "$(dirname "$csv")"
lanes=2
tick_hz=64
frames=0
agent_exe=$(readlink -f "$build/agents/reckon-agent")

tmp=$(mktemp -d /tmp/reckon-soak.XXXXXX)
rpid=
cleanup() {
	if [ -n "$rpid" ] && kill -0 "$rpid" 2>/dev/null; then
		kill -TERM "$rpid"
		for _ in $(seq 50); do kill -0 "$rpid" 2>/dev/null || break; sleep 0.2; done
		kill -0 "$rpid" 2>/dev/null && kill -KILL "$rpid"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- summary --------------------------------------------------------------
summary() { # CSV: print the summary and exit
	# The steady window: from WARMUP after every agent is up (has the
	# descriptors it holds at the end: an agent builds its whole play
	# with 3 open, then opens its sockets and timers) to the last sample
	# with every agent alive.
	t_end=$(awk -F, -v n="$agents" 'NR > 1 && $3 != "reckond" { c[$1]++ }
		END { hi = -1; for (t in c) if (c[t] == n && t + 0 > hi) hi = t + 0; print hi }' "$1")
	if [ "$t_end" = -1 ]; then
		echo "bench_soak: never saw all $agents agents at once; no summary"
		exit 1
	fi
	t_up=$(awk -F, -v e="$t_end" 'NR > 1 && $3 != "reckond" && $1 <= e {
			t[NR] = $1; p[NR] = $2; f[NR] = $6; if ($1 + 0 == e + 0) fin[$2] = $6 }
		END {
			for (i = 2; i <= NR; i++)
				if ((p[i] in fin) && f[i] == fin[p[i]] && !(p[i] in up)) up[p[i]] = t[i]
			m = 0; for (q in up) if (up[q] > m) m = up[q]; print m
		}' "$1")
	span=$(echo "$t_end - $t_up" | bc)
	warmup=${WARMUP:-$(echo "s = $span / 4; if (s > 60) 60 else s" | bc)}
	t0=$(echo "$t_up + $warmup" | bc)
	echo "steady window: ${t0} s to ${t_end} s after start" \
		"(all agents up at ${t_up} s, warm-up ${warmup} s)"
	obs_growth=$(echo "scale=1; $bots * $lanes * $tick_hz * 60 * 8 / 1024" | bc)
	
	median() { sort -n | awk '{ v[NR] = $1 } END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	printf '%-9s %5s %11s %11s %12s %8s %8s %9s  %s\n' kind procs "rss0 KiB" "rss1 KiB" "KiB/min" \
		fds0 fds1 "fds/min" verdict
	for kind in reckond player observer; do
		w=$(awk -F, -v k="$kind" -v a="$t0" -v b="$t_end" 'NR > 1 && $3 == k && $1 >= a && $1 <= b' "$1")
		[ -n "$w" ] || continue
		procs=$(cut -d, -f2 <<<"$w" | sort -u | wc -l)
		first=$(awk -F, -v a="$t0" '$1 < a + 60' <<<"$w")
		last=$(awk -F, -v b="$t_end" '$1 > b - 60' <<<"$w")
		r0=$(cut -d, -f5 <<<"$first" | median); r1=$(cut -d, -f5 <<<"$last" | median)
		f0=$(cut -d, -f6 <<<"$first" | median); f1=$(cut -d, -f6 <<<"$last" | median)
		# pooled within-process least squares: each process its own intercept,
		# one slope; also the largest per-process growth over the window
		read -r sr sf gr gf <<<"$(awk -F, -v T="$(echo "$t_end - $t0" | bc)" '
			{ n[$2]++; st[$2] += $1; sr[$2] += $5; sf[$2] += $6; t[NR] = $1; p[NR] = $2; r[NR] = $5; f[NR] = $6 }
			END {
				for (i = 1; i <= NR; i++) {
					dt = t[i] - st[p[i]] / n[p[i]]
					sxx += dt * dt; sxr += dt * (r[i] - sr[p[i]] / n[p[i]]); sxf += dt * (f[i] - sf[p[i]] / n[p[i]])
					pxx[p[i]] += dt * dt; pxr[p[i]] += dt * r[i]; pxf[p[i]] += dt * f[i]
				}
				for (q in n) if (pxx[q] > 0) {
					g = pxr[q] / pxx[q] * T; if (g > gr) gr = g
					g = pxf[q] / pxx[q] * T; if (g > gf) gf = g
				}
				printf "%.1f %.3f %.0f %.2f\n", sxx ? sxr / sxx * 60 : 0, sxx ? sxf / sxx * 60 : 0, gr, gf
			}' <<<"$w")"
		mins=$(echo "scale=3; ($t_end - $t0) / 60" | bc)
		expect=0
		[ "$kind" = observer ] && expect=$obs_growth
		# the verdict judges the worst process, not the pooled slope
		beyond=$(echo "scale=1; $gr - $expect * $mins" | bc)
		fgrow=$gf
		if [ "$(echo "$beyond < 1024 + $expect * $mins && $fgrow < 1 && $fgrow > -1" | bc)" -eq 1 ]; then
			verdict=flat
		else
			verdict="NOT flat"
		fi
		printf '%-9s %5s %11s %11s %12s %8s %8s %9s  %s\n' "$kind" "$procs" "$r0" "$r1" "$sr" "$f0" "$f1" "$sf" \
			"$verdict (worst of $mins min: +$gr KiB, $beyond beyond design; +$gf fds)"
	done
	echo "bounds per process over the window: fds under +1; RSS under +1024 KiB" \
		"(observers: +1024 KiB + 2 D, D = $bots bots x $lanes lanes x $tick_hz Hz x 8 B = $obs_growth KiB/min)"
	[ "$frames" -gt 0 ] && echo "1 MiB over $frames frames is $(echo "scale=4; 1048576 / $frames" | bc) B per frame"
	exit 0
}

# --- the scenario ---------------------------------------------------------
{
	echo "; bench_soak.sh: $players players x $bpp bots, $observers observers, $minutes min"
	echo "[scenario]"
	echo "name = soak"
	echo "duration = ${minutes}m"
	echo "seed = 1"
	echo "results = $tmp/results"
	echo "[game]"
	echo "map = dust"
	echo "bots = $bots"
	echo "[predictor dis]"
	echo "[predictor led]"
	for i in $(seq 1 "$players"); do printf '[host p%d]\nrole = player\n' "$i"; done
	for i in $(seq 1 "$observers"); do printf '[host o%d]\nrole = observer\n' "$i"; done
	echo "[defaults]"
	echo "link = delay 50ms 10ms loss 2%"
} >"$tmp/soak.ini"

[ -z "$summary_only" ] || summary "$csv"
"$build/daemon/reckond" -n "$tmp/soak.ini" 2>"$tmp/check" ||
	{ cat "$tmp/check"; exit 1; }

# --- sampling -------------------------------------------------------------
# kinds[pid]: reckond, player or observer; hosts[pid]: its host name
declare -A kinds hosts
descendants() {
	ps -e -o pid= -o ppid= | awk -v root="$1" '
		{ kid[$2] = kid[$2] " " $1 }
		END {
			n = 1; q[1] = root
			for (i = 1; i <= n; i++) {
				m = split(kid[q[i]], c, " ")
				for (j = 1; j <= m; j++) { q[++n] = c[j]; print c[j] }
			}
		}'
}
classify() { # pid: sets kinds/hosts for a reckon-agent, else kinds=-
	local p=$1 role
	if [ "$(readlink -f "/proc/$p/exe" 2>/dev/null)" != "$agent_exe" ]; then
		kinds[$p]=-
		return
	fi
	role=$(tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | sed -n 2p)
	kinds[$p]=${role:-agent}
	hosts[$p]=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^RECKON_HOST=//p')
}
sample1() { # t pid kind host
	local rss fds
	rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$2/status" 2>/dev/null)
	fds=$(ls -U "/proc/$2/fd" 2>/dev/null | wc -l)
	[ -n "$rss" ] && echo "$1,$2,$3,$4,$rss,$fds"
}

echo "t_s,pid,kind,host,rss_kib,fds" >"$csv"
echo "bench_soak: $agents agents ($players players x $bpp bots, $observers observers)," \
	"dis+led, links 'delay 50ms 10ms loss 2%', $minutes min; samples every ${period} s to $csv"
t_start=$(date +%s.%N)
(cd "$tmp" && RECKON_AGENT="$agent_exe" RECKON_MAP_DIR="$map_dir" \
	exec "$build/daemon/reckond" -s "$tmp/sock" run "$tmp/soak.ini") >"$tmp/out" 2>"$tmp/err" &
rpid=$!
kinds[$rpid]=reckond
hosts[$rpid]=-
next=0
while kill -0 "$rpid" 2>/dev/null; do
	t=$(echo "$(date +%s.%N) - $t_start" | bc)
	t=$(printf '%.1f' "$t")
	sample1 "$t" "$rpid" reckond - >>"$csv"
	for p in $(descendants "$rpid"); do
		[ -n "${kinds[$p]:-}" ] || classify "$p"
		[ "${kinds[$p]}" = - ] || sample1 "$t" "$p" "${kinds[$p]}" "${hosts[$p]}" >>"$csv"
	done
	# the next multiple of the period: a sample that ran late is not
	# followed by a burst of catch-up samples
	next=$(echo "$t / $period * $period + $period" | bc)
	while kill -0 "$rpid" 2>/dev/null; do
		now=$(echo "$(date +%s.%N) - $t_start" | bc)
		[ "$(echo "$now >= $next" | bc)" -eq 1 ] && break
		sleep 0.5
	done
done
wait "$rpid"
rc=$?
rpid=
echo "reckond exited $rc after $(printf '%.0f' "$(echo "$(date +%s.%N) - $t_start" | bc)") s"
[ "$rc" -eq 0 ] || { tail -n 20 "$tmp/err"; }

# --- the run's own figures ------------------------------------------------
run=$(sed -n 's/^results: //p' "$tmp/out")
if [ -n "$run" ] && [ -f "$run/counters.csv" ]; then
	frames=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "in") c = i; next }
		c { s += $c } END { print s + 0 }' "$run/counters.csv")
	echo "frames into the bridge: $frames"
fi
if [ -n "$run" ] && [ -d "$run/hosts" ]; then
	# "reckon-agent H: N wake-ups, timer lateness mean X us, max Y us"
	cat "$run"/hosts/*.log | awk '/timer lateness/ {
			gsub(/,/, ""); n++
			for (i = 1; i <= NF; i++) {
				if ($i == "mean") { m = $(i + 1); if (m > mm) mm = m; s += m }
				if ($i == "max") { x = $(i + 1); if (x > mx) mx = x }
			}
		}
		END { if (n) printf "agent timer lateness (%d agents): mean of means %.0f us, " \
			"worst mean %.0f us, worst single %.0f us\n", n, s / n, mm, mx }'
	grep -h -i "fail\|error" "$run"/hosts/*.log | sort | uniq -c | head -n 5
fi

summary "$csv"
