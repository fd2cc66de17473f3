#!/usr/bin/env bash
# table.sh TABLE SWEEP_DIR...: one table of docs/STUDY.md, in markdown,
# from the sweep.csv of the study's sweeps (scenarios/study/*.ini run by
# `reckond sweep -o DIR`). The figures are those of sweep.csv as they
# stand (mean +- the 95% confidence half-width over the repetitions,
# Student t), rounded for print; nothing is computed but the RTT (twice
# the one-way delay of the grid) and the ranking of `best`.
#
#   table.sh rtt      PRED              error mean by predictor and RTT
#   table.sh loss     PRED BURST        error mean by loss, RTT 100, jitter 10
#   table.sh p95      PRED BURST        error p95, the same points
#   table.sh jitter   PRED              error mean by jitter, RTT 100, loss 1%
#   table.sh cost     PRED              updates/s and bytes/s per entity
#   table.sh best     PRED BURST        lowest error mean, every RTT and loss
#   table.sh all      PRED BURST        every point: error mean per predictor
#   table.sh lc-acc   LC LC_BURST       hit-registration accuracy by loss
#   table.sh lc-sbc   LC LC_BURST       SBC per 100 hits by loss
#   table.sh lc-rtt-acc LC              accuracy by RTT, jitter 10, no loss
#   table.sh lc-rtt-sbc LC              SBC per 100 hits by RTT, the same
#
# PRED, BURST: the sweep directories of predictors.ini and
# predictors-burst.ini; LC, LC_BURST those of lagcomp.ini and
# lagcomp-burst.ini.
set -euo pipefail
export LC_ALL=C
die() {
	echo "table.sh: $*" >&2
	exit 1
}
[ $# -ge 2 ] || die "usage: table.sh TABLE SWEEP_DIR... (see the header)"
table=$1
shift
for d in "$@"; do
	[ -s "$d/sweep.csv" ] || die "$d: no sweep.csv (run reckond sweep -o $d first)"
done

# rows FILE...: the sweep.csv rows as "key=value" records for awk, with
# the loss of a burst sweep written "4b" style (bursty, burst 4) and the
# RTT derived from the one-way delay; one line per row:
# rtt jitter loss name value-columns... (by header name, see fields)
rows() {
	awk -F, '
	FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		d = $c["link.delay"]; sub(/ms$/, "", d)
		j = $c["link.jitter"]; sub(/ms$/, "", j)
		if ("link.burst_rate" in c) { l = $c["link.burst_rate"]; sub(/%$/, "", l); l = l "b" }
		else { l = $c["link.loss"]; sub(/%$/, "", l) }
		name = ("predictor" in c) ? $c["predictor"] : ""
		printf "%d %s %s %s", 2 * d, j, l, name
		n = split(cols, want, " ")
		for (k = 1; k <= n; k++)
			printf " %s", (want[k] in c) ? ($c[want[k]] == "" ? "-" : $c[want[k]]) : "-"
		printf "\n"
	}' cols="$COLS" "$@"
}

# pm MEAN HALF DIGITS: "m ± h"
pm_awk='function pm(m, h, p) {
	if (m == "-" || m == "") return "n/a"
	if (h == "-" || h == "") return sprintf("%." p "f", m)
	return sprintf("%." p "f ± %." p "f", m, h)
}'

# grid PRED_ORDER_FROM_FILE: rows of predictors, columns of one axis
pred_by() { # pred_by AXIS FILTER DIGITS COLUMN_LABELS... < rows
	awk -v axis="$1" -v filt="$2" -v p="$3" -v labels="$4" "$pm_awk"'
	{
		split($0, f, " ")
		if (filt == "rtt100j10" && !(f[1] == 100 && f[2] == 10)) next
		if (filt == "j0l0" && !(f[2] == 0 && f[3] == "0")) next
		if (filt == "rtt100l1" && !(f[1] == 100 && f[3] == "1")) next
		if (filt == "j10l0" && !(f[2] == 10 && f[3] == "0")) next
		key = axis == "rtt" ? f[1] : axis == "loss" ? f[3] : f[2]
		if (!(f[4] in seen)) { seen[f[4]] = 1; order[++np] = f[4] }
		v[f[4], key] = pm(f[5], f[6], p) (f[7] != "" ? " " f[7] : "")
	}
	END {
		n = split(labels, lab, " ")
		printf "| predictor |"
		for (k = 1; k <= n; k++) printf " %s |", head(lab[k])
		printf "\n|---|"
		for (k = 1; k <= n; k++) printf "---|"
		printf "\n"
		for (i = 1; i <= np; i++) {
			printf "| %s |", order[i]
			for (k = 1; k <= n; k++) {
				x = (order[i], lab[k]) in v ? v[order[i], lab[k]] : "n/a"
				printf " %s |", x
			}
			printf "\n"
		}
	}
	function head(x) {
		if (axis == "rtt") return "RTT " x " ms"
		if (axis == "jitter") return "jitter " x " ms"
		if (x ~ /b$/) { sub(/b$/, "", x); return x "% bursty" }
		return x "% random"
	}'
}

case $table in
rtt)
	COLS="err_mean err_mean_ci95" rows "$1/sweep.csv" |
		pred_by rtt j0l0 1 "0 50 100 200 300"
	;;
loss | p95)
	[ $# -eq 2 ] || die "$table: give PRED and BURST"
	if [ "$table" = loss ]; then COLS="err_mean err_mean_ci95"; else COLS="err_p95 err_p95_ci95"; fi
	COLS=$COLS rows "$1/sweep.csv" "$2/sweep.csv" |
		pred_by loss rtt100j10 1 "0 1 5 10 1b 5b 10b"
	;;
jitter)
	COLS="err_mean err_mean_ci95" rows "$1/sweep.csv" |
		pred_by jitter rtt100l1 1 "0 10 30"
	;;
cost)
	COLS="updates_per_s updates_per_s_ci95 bytes_per_s bytes_per_s_ci95 delivery" \
		rows "$1/sweep.csv" | awk "$pm_awk"'
	$1 == 0 && $2 == 0 && $3 == "0" {
		printf "| %s | %s | %s |\n", $4, pm($5, $6, 2), pm($7, $8, 0)
	}' | { echo "| predictor | updates/s per entity | bytes/s per entity |"
		echo "|---|---|---|"
		cat; }
	;;
best)
	[ $# -eq 2 ] || die "best: give PRED and BURST"
	# The lowest error mean at each RTT and loss (jitter 10 ms), and every
	# predictor whose interval overlaps the best one's (not separated).
	COLS="err_mean err_mean_ci95 updates_per_s" rows "$1/sweep.csv" "$2/sweep.csv" |
		awk '$2 == 10 {
		k = $1 SUBSEP $3
		m[k, $4] = $5; h[k, $4] = $6; u[k, $4] = $7
		if (!(k in best) || $5 < m[k, best[k]]) best[k] = $4
		names[k] = names[k] " " $4
	}
	END {
		nl = split("0 1 5 10 1b 5b 10b", ls, " ")
		printf "| RTT |"
		for (j = 1; j <= nl; j++) {
			x = ls[j]; b = sub(/b$/, "", x)
			printf " %s%% %s |", x, b ? "bursty" : "random"
		}
		printf "\n|---|"
		for (j = 1; j <= nl; j++) printf "---|"
		printf "\n"
		split("0 50 100 200 300", rs, " ")
		for (i = 1; i <= 5; i++) {
			printf "| %s ms |", rs[i]
			for (j = 1; j <= nl; j++) {
				k = rs[i] SUBSEP ls[j]
				if (!(k in best)) { printf " n/a |"; continue }
				b = best[k]
				s = sprintf("**%s** %.1f", b, m[k, b])
				n = split(names[k], nm, " ")
				tie = ""
				for (q = 1; q <= n; q++)
					if (nm[q] != b && m[k, nm[q]] - m[k, b] <= h[k, nm[q]] + h[k, b])
						tie = tie (tie == "" ? "" : ", ") nm[q]
				printf " %s%s |", s, tie == "" ? "" : " (≈ " tie ")"
			}
			printf "\n"
		}
	}'
	;;
all)
	[ $# -eq 2 ] || die "all: give PRED and BURST"
	COLS="err_mean err_mean_ci95" rows "$1/sweep.csv" "$2/sweep.csv" |
		awk "$pm_awk"'
	{
		k = $1 " | " $2 " | " $3
		if (!(k in seen)) { seen[k] = 1; key[++nk] = k }
		if (!($4 in sp)) { sp[$4] = 1; order[++np] = $4 }
		v[k, $4] = pm($5, $6, 1)
	}
	END {
		printf "%s", "| RTT ms | jitter ms | loss (%) |"
		for (i = 1; i <= np; i++) printf " %s |", order[i]
		printf "\n|---|---|---|"
		for (i = 1; i <= np; i++) printf "---|"
		printf "\n"
		for (r = 1; r <= nk; r++) {
			x = key[r]; sub(/b$/, " bursty", x)
			printf "| %s |", x
			for (i = 1; i <= np; i++) printf " %s |", v[key[r], order[i]]
			printf "\n"
		}
	}'
	;;
lc-acc | lc-sbc | lc-rtt-acc | lc-rtt-sbc)
	case $table in lc-acc | lc-sbc) [ $# -eq 2 ] || die "$table: give LC and LC_BURST" ;; esac
	case $table in
	*acc) COLS="lc_reg_accuracy lc_reg_accuracy_ci95" ;;
	*) COLS="lc_sbc100_low lc_sbc100_low_ci95 lc_sbc100_high lc_sbc100_high_ci95 lc_hits_low lc_hits_high" ;;
	esac
	case $table in
	*acc) digits=3 ;;
	*) digits=2 ;;
	esac
	files=()
	for d in "$@"; do files+=("$d/sweep.csv"); done
	COLS=$COLS rows "${files[@]}" | sed 's/^\([^ ]* [^ ]* [^ ]* \)lagcomp-/\1/' |
		awk -v sbc="${table##*-}" '
		# SBC per 100 hits of the victim class that has the hits at this
		# point (every client has the same ping: RTT under the 50 ms
		# ALC threshold makes every victim low-ping); both when both do.
		sbc != "sbc" { print; next }
		{
			lo = $9 + 0 > 0; hi = $10 + 0 > 0
			if (hi && !lo) print $1, $2, $3, $4, $7, $8, "(high)"
			else if (lo && !hi) print $1, $2, $3, $4, $5, $6, "(low)"
			else print $1, $2, $3, $4, $7, $8, sprintf("(high;~low~%.2f)", $5)
		}' | case $table in
		lc-rtt-*) pred_by rtt j10l0 "$digits" "0 50 100 200 300" ;;
		*) pred_by loss rtt100j10 "$digits" "0 1 5 10 1b 5b 10b" ;;
		esac | sed 's/^| predictor |/| mode |/; s/~/ /g'
	;;
*)
	die "unknown table '$table' (see the header)"
	;;
esac
