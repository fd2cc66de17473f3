#!/usr/bin/env bash
# help.sh: every program and every command answers --help with its usage
# on stdout and exit status 0, and refuses an option it does not take with
# exit status 2 and one line on stderr that names the option (no usage
# text dumped). reckond without a command says which socket it serves
# instead of appearing to hang. No root needed.
. "$(dirname "$0")/lib.sh"
agent=$build/agents/reckon-agent
[ -x "$agent" ] || fail "no reckon-agent in $build/agents"

n=0
# check_help PROG ARGS...: PROG ARGS --help exits 0 with a usage line on
# stdout; PROG ARGS --no-such-flag exits 2 naming the flag on stderr.
check_help() {
	local out err rc
	"$@" --help >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ "$rc" -eq 0 ] || fail "'$* --help' exited $rc: $(head -c 300 "$tmp/e")"
	grep -q '^usage: ' "$tmp/o" || fail "'$* --help' printed no usage line on stdout"
	"$@" --no-such-flag >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ "$rc" -eq 2 ] || fail "'$* --no-such-flag' exited $rc, expected 2"
	grep -q -- "--no-such-flag" "$tmp/e" || fail "'$* --no-such-flag' does not name the flag: $(head -c 300 "$tmp/e")"
	n=$((n + 1))
}

check_help "$reckond"
for c in run sim sweep cleanup; do
	check_help "$reckond" "$c"
done
check_help "$reckonctl"
for c in spec status set stop run shutdown view merge; do
	check_help "$reckonctl" "$c"
done
check_help "$agent"
for c in trace replay player observer relay now fps-server fps-client; do
	check_help "$agent" "$c"
done
for c in gen check stats import map-svg map-check; do
	check_help "$agent" trace "$c"
done
# every command reckon-agent --help lists is covered above
for c in $("$agent" --help | sed -n 's/^ *\(usage:\)\{0,1\} *reckon-agent \([a-z-]*\).*/\2/p' | sort -u); do
	case " trace replay player observer relay now fps-server fps-client " in
	*" $c "*) ;;
	*) fail "reckon-agent --help lists '$c', which this test does not check" ;;
	esac
done

# a usage error is one line plus the pointer to --help, not the usage
"$agent" player --map dust --predictor lde --to 10.0.0.1 >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] || fail "unknown predictor: not exit 2"
head -n 1 "$tmp/e" | grep -q "unknown predictor 'lde'" || fail "unknown predictor not on line 1: $(cat "$tmp/e")"
[ "$(wc -l <"$tmp/e")" -le 2 ] || fail "usage error printed $(wc -l <"$tmp/e") lines"

# reckond without a command serves, and says so on stderr
"$reckond" -s "$sock" >"$tmp/o" 2>"$tmp/serve" &
bg_pid=$!
for _ in $(seq 100); do
	grep -q "serving $sock" "$tmp/serve" && break
	sleep 0.1
done
grep -q "serving $sock" "$tmp/serve" || fail "reckond (service) did not say which socket it serves: $(cat "$tmp/serve")"
"$reckonctl" -s "$sock" shutdown >/dev/null || fail "shutdown failed"
wait "$bg_pid"
bg_pid=
pass "$n commands answer --help and name an unknown flag; the service names its socket"
