#!/bin/sh
# tests/vm/init.sh: /init of the guest kernel_netem.sh boots. It mounts the
# kernel file systems, loads the modules listed in /modules.order (in that
# order), runs tests/kernel's kernel_apply_live, then reckond on /scenario.ini and prints everything the host side
# checks to the serial console between "@@ name" markers, then powers off.
export PATH=/bin:/usr/bin:/usr/sbin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
echo "@@ modules"
while read -r m; do
	insmod "/modules/$m.ko" && echo "loaded $m" || echo "insmod $m failed"
done </modules.order
/usr/sbin/ip link set lo up
cd /tmp || exit 1
echo "@@ file apply_live"
/usr/bin/kernel_apply_live 2>&1
echo "@@ apply_live rc $?"
echo "@@ start $(cut -d' ' -f1 /proc/uptime)"
/usr/bin/reckond -s /tmp/reckond.sock run /scenario.ini >/tmp/out 2>/tmp/err
rc=$?
echo "@@ end $(cut -d' ' -f1 /proc/uptime)"
echo "@@ rc $rc"
run=$(sed -n 's/^results: //p' /tmp/out)
for f in /tmp/out /tmp/err "$run"/hosts/a.log "$run"/hosts/b.log; do
	echo "@@ file $(basename "$f")"
	[ -f "$f" ] && cat "$f"
done
echo "@@ done"
sync
poweroff -f
