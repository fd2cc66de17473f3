# crossval_bound.awk: the per-sample bound D(t) of check 3 of
# tests/sim/crossval.sh (the derivation is in that script's header), and
# the check of every error sample against it. Input: the lanes file
# ("lane predictor Bmin Bmax"), then twice (pass=1, pass=2) the events of
# one repetition sorted by lane, entity and time:
#   A lane entity lo hi   an update applied in both modes, arrived at lo
#                         in the earlier mode and at hi in the later
#   F lane entity t err_e err_s xe ye xs ys tx ty
#                         a frame sampled in both modes (shown e, shown s,
#                         truth)
#   U lane entity t e|s err
#                         a frame sampled in one mode only, and its error
#   X lane entity         the modes applied different updates of it
# Pass 1 measures S, the largest speed of the display and of the truth of
# each (lane, entity) in either mode; pass 2 runs D(t) along the updates.
# Each paired simulated sample and the range its emulated twin must lie
# in ("lane entity err lo hi") goes to the file named by -v ranges. Output, one line per (lane,
# entity): lane entity excluded matched
# unmatched sumD maxD maxdiff maxratio violations flips exact exactmax S
# delta_max umax_e umax_s, where exact counts the samples with D = 0,
# exactmax is their largest difference and umax_e, umax_s are the
# largest errors sampled in one mode only.

function dist(ax, ay, bx, by) { return sqrt((ax - bx)^2 + (ay - by)^2) }
function max(a, b) { return a > b ? a : b }

# the position bound of row k at time t (see the header of crossval.sh)
function dpos(k, t, g) {
	if (!have[k] || t >= hi[k] + bmax[ln[k]])
		return 0
	g = 1 - max(0, (t - hi[k]) / bmax[ln[k]])
	return kk[k] * dd[k] + g * (cp[k] + g * (t - lo[k]) * cv[k])
}

# the bound on the difference of the blended velocities V_b
function dvel(k, t, g) {
	if (!have[k] || t >= hi[k] + bmax[ln[k]])
		return 0
	g = 1 - max(0, (t - hi[k]) / bmax[ln[k]])
	return g * cv[k] + 2 * spd[k] * dd[k] / bmin[ln[k]]
}

FILENAME == lanes { bmin[$1] = $3; bmax[$1] = $4; next }

{ k = $2 " " $3; ln[k] = $2; row[k] = 1 }

pass == 1 && $1 == "F" {
	v = 0
	if (k in pt) {
		step = dist($11, $12, ptx[k], pty[k])
		dt = $4 - pt[k]
		# a path ends at a respawn or teleport: bots move at most
		# 250 u/s, 3.9 u a tick, so a larger truth step is one
		if (step <= 8 && dt > 0)
			v = max(step, max(dist($7, $8, pxe[k], pye[k]),
					  dist($9, $10, pxs[k], pys[k]))) / dt
	}
	# the positions have 0.1 u steps: 0.15 u over a tick, 10 u/s
	i = nf[k]++
	ft[k, i] = $4
	fv[k, i] = v + 10
	pt[k] = $4; ptx[k] = $11; pty[k] = $12
	pxe[k] = $7; pye[k] = $8; pxs[k] = $9; pys[k] = $10
	next
}
pass == 1 { next }

# pass 2
$1 == "X" { excl[k] = 1; next }
$1 == "U" {
	unm[k]++
	umax[k, $5] = max(umax[k, $5], $6 + 0.005)
	next
}
$1 == "A" {
	ncp = have[k] ? dpos(k, $4) + ($5 - $4) * cv[k] : 0
	ncv = have[k] ? dvel(k, $4) : 0
	lo[k] = $4; hi[k] = $5; dd[k] = $5 - $4; cp[k] = ncp; cv[k] = ncv
	have[k] = 1
	dmax[k] = max(dmax[k], dd[k])
	# S: the largest speed in the frames around the update, from a
	# convergence time before its first arrival (the old display) to
	# one after the last (its own and its model's)
	b = bmax[$2]
	while (ptr[k] < nf[k] && ft[k, ptr[k]] < lo[k] - b)
		ptr[k]++
	spd[k] = 10
	for (i = ptr[k]; i < nf[k] && ft[k, i] <= hi[k] + b + tick; i++)
		spd[k] = max(spd[k], fv[k, i])
	kk[k] = spd[k] * (2 + 8 * b / (27 * bmin[$2]))
	smax[k] = max(smax[k], spd[k])
	next
}
$1 == "F" {
	d = dpos(k, $4)
	# between the two arrivals one mode shows the new blend, the other
	# the old display, and a blend can turn within the frame: bound the
	# difference by the one at the frame before (when both showed the
	# old display) plus how far each display moved since
	if (have[k] && $4 >= lo[k] && $4 < hi[k] && (k in qt)) {
		moved = dist($7, $8, qxe[k], qye[k]) + dist($9, $10, qxs[k], qys[k])
		d = max(d, qd[k] + moved + 0.3)
	}
	qt[k] = $4; qd[k] = d
	qxe[k] = $7; qye[k] = $8; qxs[k] = $9; qys[k] = $10
	diff = $5 - $6
	if (diff < 0)
		diff = -diff
	n[k]++
	sum[k] += d
	mx[k] = max(mx[k], d)
	mdiff[k] = max(mdiff[k], diff)
	# the file rounds each error to 0.01: 0.01 between two of them
	ratio[k] = max(ratio[k], diff / (d + 0.01))
	if (diff > d + 0.01)
		viol[k]++
	# the range of the emulated sample, from the simulated one
	printf "%s %s %.4f %.4f\n", k, $6, max(0, $6 - d - 0.005), $6 + d + 0.005 >ranges
	if (d == 0) {
		exact[k]++
		emax[k] = max(emax[k], diff)
	}
	# a sample within D of the threshold may lie on either side of it
	if ($6 - thr <= d + 0.01 && thr - $6 <= d + 0.01)
		flips[k]++
}
END {
	for (k in row)
		printf "%s %d %d %d %.6f %.6f %.2f %.4f %d %d %d %.2f %.1f %.4f %.3f %.3f\n",
			k, excl[k], n[k], unm[k], sum[k], mx[k], mdiff[k],
			ratio[k], viol[k], flips[k], exact[k], emax[k],
			smax[k], dmax[k], umax[k, "e"], umax[k, "s"]
}
