/*
 * userns.c: rootless operation through unprivileged user namespaces
 * (user_namespaces(7)). The daemon unshares CLONE_NEWUSER | CLONE_NEWNET,
 * denies setgroups and maps its real uid and gid to 0, after which it holds
 * CAP_NET_ADMIN and CAP_SYS_ADMIN over every namespace it creates next (the
 * hub and the hosts), but over nothing on the machine itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ns.h"

static int active;

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = errno;
	close(fd);
	if (n != (ssize_t)strlen(text))
		return n < 0 ? -err : -EIO;
	return 0;
}

int userns_active(void)
{
	return active;
}

int userns_enter(char *msg, size_t msglen)
{
	uid_t uid = getuid(), euid = geteuid();
	gid_t gid = getgid();
	char map[64];
	int err;

	if (euid == 0)
		return 0;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0) {
		err = errno;
		snprintf(msg, msglen,
			 "not root, and unprivileged user namespaces are "
			 "unavailable (unshare: %s); either run as root "
			 "(sudo reckond ...) or enable them with "
			 "`sysctl -w kernel.unprivileged_userns_clone=1` "
			 "(Debian) and/or `sysctl -w user.max_user_namespaces="
			 "15000`, or on Ubuntu "
			 "`sysctl -w "
			 "kernel.apparmor_restrict_unprivileged_userns=0`",
			 strerror(err));
		return -err;
	}
	err = write_file("/proc/self/setgroups", "deny");
	if (err == 0) {
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
		err = write_file("/proc/self/uid_map", map);
	}
	if (err == 0) {
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
		err = write_file("/proc/self/gid_map", map);
	}
	if (err < 0) {
		snprintf(msg, msglen,
			 "user namespace created but its uid/gid map could not "
			 "be written (%s); run as root instead",
			 strerror(-err));
		return err;
	}
	active = 1;
	return 0;
}
