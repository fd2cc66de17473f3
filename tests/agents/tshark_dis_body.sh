#!/usr/bin/env bash
# tshark_dis_body.sh: tshark, an independent DIS decoder, reads reckon's
# body-axis PDUs as IEEE 1278.1 means them. An entity drives a circle of
# radius 200 u at 1.5 rad/s (300 u/s); the player sends RVB updates
# every 0.25 s (heartbeat) to an observer through reckond. In the
# capture, every PDU's linear velocity is the body-axis velocity, x
# forward, y right, z down: (300, 0, 0) whatever the heading, where a
# world-frame velocity would be (300 cos h, 300 sin h, 0); the body
# acceleration dV_b/dt is 0 (a steady turn; the inertial acceleration in
# body axes would be (0, -450, 0)), and the angular velocity is
# (0, 0, -1.5) (a left turn about a down axis). A second run
# places the map on the earth (--geo-origin 52,4.5,10 --geo-scale 1.5):
# the velocity is then (450, 0, 0) m/s, and the latitude, longitude and
# height computed in awk from tshark's ECEF location (Bowring/fixed point
# on WGS-84) match the origin moved by the entity's game position, whose
# time comes from the PDU's reckon timing record (send_ns), and the
# Euler angles, read as the standard's ECEF -> body rotation, put the
# body x axis level along the entity's heading and body z straight down.
#
#   ns p1 --delay 5ms--> [hub: bridge, pcap/p1-obs.after.pcap] --> ns obs
. "$(dirname "$0")/lib.sh"
# the option is refused unless complete and in range
for bad in "--geo-scale 2" "--geo-origin 1,2,3" \
	"--geo-origin 91,0,0 --geo-scale 2" "--geo-origin 1,2,3 --geo-scale 0"; do
	# shellcheck disable=SC2086
	if "$agent" player --map dust --to 127.0.0.1 $bad >"$tmp/o" 2>&1 ||
		! grep -q -- "--geo" "$tmp/o"; then
		fail "reckon-agent player $bad: not refused naming the option"
	fi
done
need_root
need_tool ip
need_tool tshark

# 64 Hz, 6 s: x = 200 cos(wt), y = 200 sin(wt), heading wt + 90 deg.
{
	echo "# reckon trace v1"
	echo "# map=control"
	echo "# seed=0"
	echo "# tick_ns=15625000"
	echo "t,entity,team,alive,x,y,z,vx,vy,vz,yaw,health,armor,ammo,stance"
	awk 'BEGIN {
		r = 200; w = 1.5; pi = atan2(0, -1)
		for (k = 0; k < 64 * 6; k++) {
			t = k / 64; a = w * t
			yaw = (a + pi / 2) * 180 / pi; yaw -= 360 * int(yaw / 360)
			printf "%.9f,1,1,1,%.9f,%.9f,0,%.9f,%.9f,0,%.9f,100,0,0,0\n",
				t, r * cos(a), r * sin(a), -r * w * sin(a),
				r * w * cos(a), yaw
		}
	}'
} >"$tmp/circle.csv"

lane="--predictor dis:algorithm=rvb,heartbeat=0.25,pos_threshold=2,orient_threshold=0"

# capture GEOARGS: run the scenario, write "send_ns vx vy vz x y z" lines
# of the captured PDUs to $tmp/pdus.
capture() {
	cat >"$tmp/cap.ini" <<INI
[scenario]
name = agents-body-axes
duration = 8s
seed = 2

[host p1]
role = player
args = --trace $tmp/circle.csv $lane $1 --to {addr:obs}

[host obs]
role = observer
args = --trace $tmp/circle.csv $lane $1 --linger 0.5

[link p1 obs]
forward = delay 5ms

[capture]
enabled = yes
INI
	run_scenario "$tmp/cap.ini"
	[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
	local pcap=$rundir/pcap/p1-obs.after.pcap
	[ -s "$pcap" ] || fail "no $pcap"
	tshark -n -r "$pcap" -d udp.port==47000,dis -T fields -E separator=' ' \
		-E occurrence=f -Y 'dis.pdu_type == 1' \
		-e dis.str_data \
		-e dis.entity_linear_velocity.x -e dis.entity_linear_velocity.y \
		-e dis.entity_linear_velocity.z -e dis.entity_location.x \
		-e dis.entity_location.y -e dis.entity_location.z \
		-e dis.entity_orientation.psi -e dis.entity_orientation.theta \
		-e dis.entity_orientation.phi \
		-e dis.entity_linear_acceleration.x \
		-e dis.entity_linear_acceleration.y \
		-e dis.entity_linear_acceleration.z \
		-e dis.entity_angular_velocity.x \
		-e dis.entity_angular_velocity.y \
		-e dis.entity_angular_velocity.z \
		2>"$tmp/tshark.err" >"$tmp/fields" || fail "tshark failed"
	# the timing record's data ends with the 16 hex digits of send_ns
	awk '{ h = substr($1, length($1) - 15); n = 0
		for (i = 1; i <= 16; i++)
			n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		$1 = sprintf("%.0f", n); print
	}' "$tmp/fields" >"$tmp/pdus"
	[ "$(wc -l <"$tmp/pdus")" -ge 20 ] ||
		fail "$(wc -l <"$tmp/pdus") PDUs captured, want >= 20 (6 s at 4/s)"
	# The observer, decoding with the same option, applies every PDU and
	# follows the circle: RVB is exact on it, so its error stays below
	# the 2 u threshold plus what the entity moves while an update is
	# under way, 300 u/s x (5 ms link delay + one 15.6 ms frame) = 6.2 u:
	# 8.2 u. A wrong decode would be off by the earth's radius.
	local m=$rundir/metrics-obs.csv
	[ -s "$m" ] || fail "no $m"
	awk -F, -v a="$(col "$m" applied)" -v e="$(col "$m" err_max)" \
		-v n="$(wc -l <"$tmp/pdus")" '
		NR > 1 { rows++; if ($a != n || !($e < 8.2)) bad = 1
			 print "observer applied " $a " of " n ", err_max " $e }
		END { exit bad || rows != 1 }' "$m" >"$tmp/obs" ||
		fail "observer: $(cat "$tmp/obs")"
}

# Fields of $tmp/pdus: send_ns, velocity 2-4, location 5-7, psi theta
# phi 8-10, acceleration 11-13, angular velocity 14-16.
# tshark prints float32 fields with 6 significant digits (450 and 449.999
# are 5e-4 apart; an angle near 3 is within 5e-6), the location with 15.
# Body velocity: float32 on the wire, rounded from C R0 v computed in
# double: 450 u/s has a float32 step of 3e-5, the circle's velocity is
# printed with 9 decimals in the trace, and tshark's 6 digits add 5e-4:
# checked to 1e-3.
# The same bound holds for the acceleration, a difference of two such
# velocities over a tick (1/64 s): 9 decimals give 1e-9 * 2 * 64 < 1e-6.
# The yaw rate is a difference of 9-decimal degrees over a tick: 1e-4.
# The first PDU (send_ns 0) has no earlier sample, so no yaw rate.
check_body() { # SPEED
	awk -v s="$1" '
		function abs(x) { return x < 0 ? -x : x }
		{ n++
		  if (abs($2 - s) > 1e-3 || abs($3) > 1e-3 || abs($4) > 1e-3 ||
		      abs($11) > 1e-3 || abs($12) > 1e-3 || abs($13) > 1e-3 ||
		      abs($14) > 1e-4 || abs($15) > 1e-4 ||
		      ($1 > 0 && abs($16 + 1.5) > 1e-4)) {
			print "send_ns " $1 ": v " $2, $3, $4 " a " $11, $12, $13 \
				" w " $14, $15, $16
			bad++
		  }
		}
		END { exit bad > 0 || n == 0 }' "$tmp/pdus" ||
		fail "body axes: want v ($1, 0, 0), a 0, w (0, 0, -1.5)"
}

capture ""
check_body 300
# Without placement psi is the heading (yaw), theta 0 and phi pi (DIS
# body z down in a z-up world); tshark prints 6 digits, 5e-6 rad: 2e-5.
awk 'function abs(x) { return x < 0 ? -x : x }
	BEGIN { pi = atan2(0, -1) }
	{ h = 1.5 * $1 / 1e9 + pi / 2; d = $8 - atan2(sin(h), cos(h))
	  d = atan2(sin(d), cos(d))
	  if (abs(d) > 2e-5 || abs($9) > 2e-5 || abs(abs($10) - pi) > 2e-5) {
		print "send_ns " $1 ": psi theta phi " $8, $9, $10; bad++ } }
	END { exit bad > 0 }' "$tmp/pdus" || fail "orientation without placement"
pass "$(wc -l <"$tmp/pdus") RVB PDUs: body velocity (300, 0, 0) u/s, acceleration 0, angular velocity (0, 0, -1.5), psi = heading"

lat0=52 lon0=4.5 h0=10 s=1.5
capture "--geo-origin $lat0,$lon0,$h0 --geo-scale $s"
check_body 450
# Geodetic position of each PDU's ECEF location against the origin moved
# by (east, north) = s (x, y) on the tangent plane, x, y of the circle at
# send_ns. To first order, dlat = north / M and dlon = east / (N cos lat0)
# (M, N the meridian and prime vertical radii); the second-order terms of
# the tangent plane are below d^2 (1 + tan lat0) / (2 R^2) = 2.5e-9 rad
# (1.5e-7 deg) for d <= 300 m, and the height rises by d^2 / (2 R) <=
# 7 mm. Checked to 1e-6 deg (0.11 m) and 0.02 m; swapping east and north
# or dropping the scale is off by more than 1e-4 deg. Angles are float32
# (1.2e-7 rad each) printed by tshark to 6 digits (5e-6 rad each); the
# heading and the tilts move by at most the sum of the three angle errors
# over cos(theta) (theta here within 0.7 rad: factor 1.3), 2e-5 rad:
# checked to 5e-5 (2.5e-9 squared).
awk -v lat0="$lat0" -v lon0="$lon0" -v h0="$h0" -v s="$s" '
	function asin(x) { return atan2(x, sqrt(1 - x * x)) }
	BEGIN { pi = atan2(0, -1); a = 6378137; f = 1 / 298.257223563
		e2 = f * (2 - f); d = pi / 180
		sl = sin(lat0 * d); cl = cos(lat0 * d)
		so = sin(lon0 * d); co = cos(lon0 * d)
		N0 = a / sqrt(1 - e2 * sl * sl)
		M0 = a * (1 - e2) / (1 - e2 * sl * sl) ^ 1.5 }
	{
		t = $1 / 1e9; x = 200 * cos(1.5 * t); y = 200 * sin(1.5 * t)
		X = $5; Y = $6; Z = $7; p = sqrt(X * X + Y * Y)
		phi = atan2(Z, p * (1 - e2))
		for (i = 0; i < 20; i++) {
			N = a / sqrt(1 - e2 * sin(phi) ^ 2); h = p / cos(phi) - N
			phi = atan2(Z, p * (1 - e2 * N / (N + h)))
		}
		N = a / sqrt(1 - e2 * sin(phi) ^ 2); h = p / cos(phi) - N
		lat = phi / d; lon = atan2(Y, X) / d
		# body x (row 1 of the ECEF -> body matrix) and body z (row 3)
		# in the origin east-north-up frame: x level along the game
		# heading 1.5 t + 90 deg, counted from east; z straight down
		ps = $8; th = $9; ph = $10
		bx[1] = cos(th) * cos(ps); bx[2] = cos(th) * sin(ps); bx[3] = -sin(th)
		bz[1] = cos(ph) * sin(th) * cos(ps) + sin(ph) * sin(ps)
		bz[2] = cos(ph) * sin(th) * sin(ps) - sin(ph) * cos(ps)
		bz[3] = cos(ph) * cos(th)
		ev[1] = -so; ev[2] = co; ev[3] = 0
		nv[1] = -sl * co; nv[2] = -sl * so; nv[3] = cl
		uv[1] = cl * co; uv[2] = cl * so; uv[3] = sl
		xe = xn = xu = zu = 0
		for (k = 1; k <= 3; k++) {
			xe += bx[k] * ev[k]; xn += bx[k] * nv[k]
			xu += bx[k] * uv[k]; zu += bz[k] * uv[k]
		}
		hd = atan2(xn, xe) - (1.5 * t + pi / 2); hd = atan2(sin(hd), cos(hd))
		if (hd * hd > 2.5e-9 || xu * xu > 2.5e-9 || (zu + 1) ^ 2 > 2.5e-9) {
			printf "send_ns %s: heading off by %g, body x up %g, body z up %g\n",
				$1, hd, xu, zu
			bad++
		}
		wlat = lat0 + s * y / M0 / d; wlon = lon0 + s * x / (N0 * cos(lat0 * d)) / d
		el = lat - wlat; eo = lon - wlon; eh = h - h0
		if (el * el > 1e-12 || eo * eo > 1e-12 || eh * eh > 4e-4) {
			printf "send_ns %s: lat %.9f lon %.9f h %.4f, want %.9f %.9f %.4f\n",
				$1, lat, lon, h, wlat, wlon, h0
			bad++
		}
		n++
	}
	END { exit bad > 0 || n == 0 }' "$tmp/pdus" ||
	fail "ECEF locations or geocentric Euler angles do not match"
pass "$(wc -l <"$tmp/pdus") geo PDUs: body velocity (450, 0, 0) m/s, lat/lon/height from ECEF match the origin, Euler angles give the heading"
