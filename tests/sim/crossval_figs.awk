# crossval_figs.awk: the figures part of check 3 of tests/sim/crossval.sh
# (the derivation is in that script's header). Input: the per-(lane,
# entity) lines of crossval_bound.awk; the metrics of both modes joined
# ("lane entity" then predictor, frames, err_mean, err_p50, err_p95,
# err_max and over_s emulated, then the same simulated); the paired
# simulated samples, and the lower and the upper ends of the ranges of
# their emulated twins (crossval_bound.awk), each sorted ("lane entity
# value"). Prints the samples' verdict and the side-by-side table (emu,
# sim, |diff|, bound, diff/bound) of one repetition; exits 1 when a
# sample or a figure is out of its bound.

function max(a, b) { return a > b ? a : b }
function min(a, b) { return a < b ? a : b }
function clip(r, n) { return r < 1 ? 1 : r > n ? n : r }
# the nearest rank of quantile q among n values, as the observer takes it
function rank(q, n, x) { x = q * n; x = int(x) + (x > int(x)); return x < 1 ? 1 : x }

# the bound of quantile q of row k: each paired emulated sample lies in
# [y - D, y + D] around its simulated twin y, so the j-th smallest of
# them lies between the j-th smallest lower end L(j) and upper end U(j)
# (order statistics are monotone in every value). A quantile at rank r
# among n + m values (m unpaired) lies between the paired ones at ranks
# r - m and r. So the emulated quantile is in [L(lo), U(hi)] and the
# simulated one in [Y(lo), Y(hi)], lo = min(r_e - m_e, r_s - m_s),
# hi = max(r_e, r_s); below rank 1 the ends are 0, above rank n they
# are the largest paired end or unpaired sample of the mode.
function qbound(k, q, re, rs, lo, hi, ylo, llo, yhi, uhi) {
	re = rank(q, ne[k]); rs = rank(q, ns[k])
	lo = min(re - me[k], rs - ms[k])
	hi = max(re, rs)
	ylo = lo < 1 ? 0 : Y[k, lo]
	llo = lo < 1 ? 0 : L[k, lo]
	yhi = hi > n[k] ? max(Y[k, n[k]], uxs[k]) : Y[k, hi]
	uhi = hi > n[k] ? max(U[k, n[k]], uxe[k]) : U[k, hi]
	return max(uhi - ylo, yhi - llo)
}

function row(k, fig, a, b, bound, d, r) {
	d = a - b
	if (d < 0)
		d = -d
	r = bound > 0 ? d / bound : (d > 0 ? 999 : 0)
	printf "%s  %-4s e%-3s %-9s %12.6f %12.6f %10.6f %10.6f  %5.3f%s\n",
		what, pred[k], ent[k], fig, a, b, d, bound, r,
		(d > bound ? "  OUT" : "")
	worst[pred[k] " " fig] = max(worst[pred[k] " " fig], r)
	if (d > bound)
		bad++
}

FILENAME == ARGV[1] {
	k = $1 " " $2
	excl[k] = $3; n[k] = $4; unm[k] = $5; sumd[k] = $6; maxd[k] = $7
	mdiff[k] = $8; sratio[k] = $9; viol[k] = $10; flips[k] = $11
	exact[k] = $12; emax[k] = $13; spd[k] = $14; dlt[k] = $15
	uxe[k] = $16; uxs[k] = $17
	next
}
FILENAME == ARGV[2] {
	k = $1 " " $2
	order[++rows] = k; ent[k] = $2; pred[k] = $3
	ne[k] = $4; ns[k] = $11
	for (i = 0; i < 5; i++) {
		fe[k, i] = $(5 + i); fs[k, i] = $(12 + i)
	}
	next
}
FILENAME == ARGV[3] { k = $1 " " $2; Y[k, ++ny[k]] = $3; next }
FILENAME == ARGV[4] { k = $1 " " $2; L[k, ++nl[k]] = $3; next }
{ k = $1 " " $2; U[k, ++nu[k]] = $3 }

END {
	printf "%s  pred entity figure         emulated    simulated     |diff|      bound  diff/bound\n", what
	for (j = 1; j <= rows; j++) {
		k = order[j]
		if (!(k in n)) {
			printf "%s: %s entity %s: no samples\n", what, pred[k], ent[k]
			bad++
			continue
		}
		if (excl[k]) {
			printf "%s  %-4s e%-3s not compared: the modes applied different updates (jitter reordered them in one)\n",
				what, pred[k], ent[k]
			skipped++
			continue
		}
		me[k] = ne[k] - n[k]; ms[k] = ns[k] - n[k]
		if (me[k] < 0 || ms[k] < 0 || me[k] + ms[k] != unm[k] || nl[k] != n[k] || nu[k] != n[k]) {
			printf "%s: %s entity %s: %d and %d frames, %d paired, %d unpaired\n",
				what, pred[k], ent[k], ne[k], ns[k], n[k], unm[k]
			bad++
			continue
		}
		if (viol[k] || emax[k] > 0.01) {
			printf "%s: %s entity %s: %d samples out of their bound D, largest difference where D = 0: %.2f\n",
				what, pred[k], ent[k], viol[k], emax[k]
			bad++
		}
		big = max(fe[k, 3], fs[k, 3])
		row(k, "err_mean", fe[k, 0], fs[k, 0],
		    (sumd[k] + 2 * (me[k] + ms[k]) * big) / min(ne[k], ns[k]))
		row(k, "err_p50", fe[k, 1], fs[k, 1],
		    qbound(k, 0.50))
		row(k, "err_p95", fe[k, 2], fs[k, 2],
		    qbound(k, 0.95))
		row(k, "err_max", fe[k, 3], fs[k, 3],
		    qbound(k, 1))
		row(k, "over_s", fe[k, 4], fs[k, 4],
		    tick * (flips[k] + me[k] + ms[k]) + 1e-6)
		printf "%s  %-4s e%-3s samples: %d paired (%d unpaired), %d with D = 0 (all equal), largest |diff| %.2f, max D %.3f, largest |diff|/(D+0.01) %.3f; S %.0f u/s, largest arrival shift %.3f ms\n",
			what, pred[k], ent[k], n[k], unm[k], exact[k], mdiff[k],
			maxd[k], sratio[k], spd[k], dlt[k] * 1000
		compared++
	}
	for (w in worst)
		printf "%s: worst diff/bound of %s: %.3f\n", what, w, worst[w] | "sort"
	close("sort")
	if (compared < skipped || compared == 0) {
		printf "%s: only %d of %d rows compared\n", what, compared, rows
		bad++
	}
	exit bad > 0
}
