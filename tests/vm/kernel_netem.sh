#!/usr/bin/env bash
# kernel_netem.sh: backend = kernel end to end, on a kernel that has
# sch_netem. This machine's kernel may not (and may not load modules), so
# the test boots Debian's own kernel under qemu (TCG: no KVM needed) with
# an initramfs it builds here: busybox, reckond, iputils ping, iproute2's
# tc and ip with the libraries ldd lists, and the kernel modules the
# backend needs (veth, bridge, sch_htb, cls_u32, sch_netem) with their
# dependencies read from each module's depends= field. init.sh runs
# kernel-netem.ini in the guest and prints the results on the serial
# console; this script checks them. The guest first runs
# tests/kernel/kernel_apply_live (knetem_apply/knetem_change read back,
# real UDP through the qdiscs), which skips on this machine's kernel.
#
#   guest ns a eth0 =veth= [hub: kernel bridge] =veth= eth0 ns b
#   a's eth0 egress: htb + u32 -> netem "delay 20ms loss 10%" (to b)
#   b's eth0 egress: htb + u32 -> netem "delay 20ms loss 5%"  (to a)
#
# Checks:
# - counters add up exactly (under TCG netem's counters are exact and
#   nothing else drops ICMP on this path): a's netem saw every request
#   (sent + dropped = ping's 600), b's netem saw one reply per delivered
#   request, ping received exactly what b's netem sent.
# - each netem's drop count is binomial(n, p) with its spec's p: it must lie
#   within 5 sigma, sigma = sqrt(n p (1 - p)). For n = 600, p = 0.10 that is
#   60 +- 36.7; a false failure has probability below 1e-6 per check.
# - RTTs: netem never delivers early, so ping's minimum RTT is at least the
#   40 ms the two directions add. Emulation only makes packets late, so
#   the upper bound is loose (the mean must stay under 40 ms + 2 s; a
#   wrong unit, e.g. 20 s or 20 us, fails one of the two bounds).
#
# The Debian kernel package is fetched with apt-get download into
# BUILD/vm-cache once and reused. Skips (77) with the reason when qemu,
# busybox-static or cpio are missing (deploy/setup.sh installs them) or
# when apt cannot provide the kernel package (no network, no apt lists).
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=$build/vm-cache
reckond=$build/daemon/reckond
want_mods="veth bridge sch_htb cls_u32 sch_netem"
count=600

skip() { echo "SKIP: $*"; exit 77; }
fail() {
	echo "FAIL: $*"
	[ -f "${tmp:-}/console.log" ] && { echo "--- console (last 60 lines)"; tail -n 60 "$tmp/console.log"; }
	exit 1
}
apply_live=$build/tests/kernel/kernel_apply_live
[ -x "$reckond" ] || fail "no reckond in $build/daemon"
[ -x "$apply_live" ] || fail "no kernel_apply_live in $build/tests/kernel"
for t in qemu-system-x86_64 cpio ldd strings apt-get dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed (deploy/setup.sh installs it)"
done
busybox=/bin/busybox
[ -x "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1 ||
	skip "$busybox is not the static busybox (install busybox-static)"

tmp=$(mktemp -d /tmp/reckon-vm.XXXXXX)
qpid=
cleanup() {
	[ -n "$qpid" ] && kill -KILL "$qpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The kernel: the package linux-image-amd64 currently depends on.
mkdir -p "$cache"
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
	apt-get update -qq >/dev/null 2>&1
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
fi
[ -n "$pkg" ] || skip "apt knows no linux-image-amd64 (apt-cache depends linux-image-amd64 is empty; no Debian apt lists?)"
kdir=$cache/$pkg
if [ ! -f "$kdir/ok" ]; then
	rm -rf "$kdir"; mkdir -p "$kdir/x"
	deb=$(ls "$cache"/"${pkg}"_*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		chmod 777 "$cache"   # apt downloads as _apt where it can
		(cd "$cache" && apt-get download -q "$pkg") >"$tmp/apt.log" 2>&1 ||
			skip "apt-get download $pkg failed: $(tail -n 2 "$tmp/apt.log" | tr '\n' ' ')"
		deb=$(ls "$cache"/"${pkg}"_*.deb | head -n 1)
	fi
	# Modules, then their dependencies, until none is missing.
	todo=$want_mods
	while [ -n "$todo" ]; do
		pats=$(for m in $todo; do printf "*/%s.ko " "$m"; done)
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$kdir/x" --wildcards './boot/vmlinuz-*' $pats ||
			fail "$deb lacks one of: $todo"
		next=
		for m in $todo; do
			f=$(find "$kdir/x" -name "$m.ko" | head -n 1)
			for d in $(strings -a "$f" | sed -n 's/^depends=//p' | tr ',' ' '); do
				[ -n "$(find "$kdir/x" -name "$d.ko")" ] || next="$next $d"
			done
		done
		todo=$(printf '%s\n' $next | sort -u | tr '\n' ' ')
		todo=${todo% }
	done
	touch "$kdir/ok"
fi
vmlinuz=$(ls "$kdir"/x/boot/vmlinuz-* | head -n 1)

# Load order: each module after its dependencies.
order=
add_mod() {
	case " $order " in *" $1 "*) return ;; esac
	local f d
	f=$(find "$kdir/x" -name "$1.ko" | head -n 1)
	for d in $(strings -a "$f" | sed -n 's/^depends=//p' | tr ',' ' '); do
		add_mod "$d"
	done
	order="$order $1"
}
for m in $want_mods; do add_mod "$m"; done

# The initramfs.
root=$tmp/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,modules,etc}
cp "$busybox" "$root/bin/busybox"
for a in $("$busybox" --list); do
	case $a in tc|ip|ping|busybox) ;; *) ln -s busybox "$root/bin/$a" ;; esac
done
cp "$reckond" "$apply_live" "$root/usr/bin/"
cp /usr/bin/ping "$root/usr/bin/ping"
cp /usr/sbin/tc /usr/sbin/ip "$root/usr/sbin/"
for b in "$reckond" "$apply_live" /usr/bin/ping /usr/sbin/tc /usr/sbin/ip; do
	for l in $(ldd "$b" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$l")"
		cp -L "$l" "$root$l"
	done
done
for m in $order; do cp "$(find "$kdir/x" -name "$m.ko" | head -n 1)" "$root/modules/"; done
echo $order | tr ' ' '\n' >"$root/modules.order"
cp "$here/kernel-netem.ini" "$root/scenario.ini"
cp "$here/init.sh" "$root/init"
echo 'root:x:0:0:root:/:/bin/sh' >"$root/etc/passwd"
(cd "$root" && find . | cpio -o -H newc --quiet) >"$tmp/initrd" || fail "cpio failed"

echo "kernel: $pkg ($(basename "$vmlinuz")); modules:$order"
echo "initramfs: $(du -k "$tmp/initrd" | cut -f1) KiB"
t0=$(date +%s)
qemu-system-x86_64 -accel tcg -cpu max -m 512 -smp 1 -nodefaults \
	-display none -no-reboot -serial "file:$tmp/console.log" \
	-kernel "$vmlinuz" -initrd "$tmp/initrd" \
	-append "console=ttyS0 panic=-1 quiet rdinit=/init" &
qpid=$!
# The guest powers off when init is done; 600 s bounds a hung guest.
for _ in $(seq 600); do kill -0 "$qpid" 2>/dev/null || break; sleep 1; done
if kill -0 "$qpid" 2>/dev/null; then
	fail "guest still running after 600 s"
fi
wait "$qpid"; qrc=$?; qpid=
t1=$(date +%s)
con=$tmp/console.log
tr -d '\r' <"$con" >"$con.n" && mv "$con.n" "$con"
grep -q '^@@ done' "$con" || fail "guest did not finish (qemu exit $qrc)"
grep -q 'insmod .* failed' "$con" && fail "a module did not load"
section() { awk -v s="@@ file $1" '$0 == s { on = 1; next } /^@@ / { on = 0 } on' "$con"; }
rc=$(sed -n 's/^@@ rc //p' "$con")
boot=$(sed -n 's/^@@ start //p' "$con"); end=$(sed -n 's/^@@ end //p' "$con")
echo "qemu wall time $((t1 - t0)) s; guest boot to reckond ${boot} s, run $(awk -v a="$boot" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s"
al=$(sed -n 's/^@@ apply_live rc //p' "$con")
[ "$al" = 0 ] || { section apply_live; fail "kernel_apply_live exited with '$al' in the guest"; }
echo "kernel_apply_live passed in the guest: $(section apply_live | tail -n 1)"
[ "$rc" = 0 ] || { section err; fail "reckond exited with $rc in the guest"; }

alog=$(section a.log); blog=$(section b.log)
sent=$(echo "$alog" | sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p')
recv=$(echo "$alog" | sed -n 's/.* \([0-9]*\) received.*/\1/p')
[ "$sent" = "$count" ] || { echo "$alog"; fail "ping sent '$sent', expected $count"; }
# "qdisc netem N: parent 1:M ..." then " Sent B bytes P pkt (dropped D, ...)"
netem_stats() {
	awk '/^qdisc netem/ { on = 1; next } /^qdisc/ { on = 0 }
	     on && /Sent/ { p = $4; d = $7; sub(/,/, "", d); print p, d; exit }'
}
read -r a_pass a_drop < <(echo "$alog" | netem_stats)
read -r b_pass b_drop < <(echo "$blog" | netem_stats)
[ -n "${a_pass:-}" ] && [ -n "${b_pass:-}" ] || {
	echo "$alog"; echo "$blog"; fail "no netem qdisc counters in the hosts' tc output"; }
echo "a>b netem: passed $a_pass dropped $a_drop; b>a netem: passed $b_pass dropped $b_drop; ping $sent sent $recv received"

[ $((a_pass + a_drop)) -eq "$sent" ] ||
	fail "a's netem saw $((a_pass + a_drop)) requests, ping sent $sent"
[ $((b_pass + b_drop)) -eq "$a_pass" ] ||
	fail "b's netem saw $((b_pass + b_drop)) replies, a's netem passed $a_pass requests"
[ "$recv" -eq "$b_pass" ] ||
	fail "ping received $recv replies, b's netem passed $b_pass"
binom_ok() { # drops n p
	awk -v x="$1" -v n="$2" -v p="$3" 'BEGIN { m = n * p; s = sqrt(n * p * (1 - p))
		printf "%d drops of %d, expected %.1f +- %.1f (5 sigma)\n", x, n, m, 5 * s
		exit !(x >= m - 5 * s && x <= m + 5 * s) }'
}
msg=$(binom_ok "$a_drop" "$sent" 0.10) || fail "a>b loss 10%: $msg"
echo "a>b loss 10%: $msg"
msg=$(binom_ok "$b_drop" "$a_pass" 0.05) || fail "b>a loss 5%: $msg"
echo "b>a loss 5%: $msg"

rtt=$(echo "$alog" | sed -n 's/^rtt min\/avg\/max\/mdev = \([0-9.]*\)\/\([0-9.]*\)\/.*/\1 \2/p')
read -r rmin ravg <<<"$rtt"
[ -n "${rmin:-}" ] || fail "no rtt line in ping's output"
awk -v m="$rmin" 'BEGIN { exit !(m >= 40) }' ||
	fail "minimum RTT $rmin ms is below the 40 ms netem adds"
awk -v m="$ravg" 'BEGIN { exit !(m < 2040) }' ||
	fail "mean RTT $ravg ms: the 20 ms delays came out seconds long"
echo "PASS: kernel netem in a Debian guest: counters exact, losses within 5 sigma, RTT min $rmin ms avg $ravg ms (>= 40 ms)"
