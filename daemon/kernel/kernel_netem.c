/*
 * kernel_netem.c: the kernel netem backend's entry points. knetem_probe
 * finds out whether this kernel has sch_netem by adding a real netem qdisc
 * on lo inside a throwaway network namespace (a forked child that unshares
 * its network namespace, so nothing survives it) and, when that fails,
 * reads the kernel config to say why. knetem_apply, knetem_change and
 * knetem_clear talk rtnetlink through libnl with extended acks, so a
 * refusal comes back with the kernel's own message. The htb tree (and
 * knetem_clear) is in tc_htb.c, the netem message in tc_netem_msg.c, the
 * rtnetlink socket and its acks in kernel_nl.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "kernel.h"
#include "netem.h"

extern char **environ;

/* ---- probe ------------------------------------------------------------ */

struct probe_res {
	int err;
	char msg[160];
};

/* Runs in the forked child, inside its own new network namespace. */
static void probe_child(struct probe_res *r)
{
	struct netem_spec s;
	struct nl_sock *sk;
	struct nl_msg *m;
	int lo;

	if (unshare(CLONE_NEWNET) < 0) {
		r->err = -errno;
		snprintf(r->msg, sizeof(r->msg),
			 "cannot create a scratch network namespace: %s",
			 strerror(errno));
		return;
	}
	lo = (int)if_nametoindex("lo");
	if (!lo) {
		r->err = -ENODEV;
		snprintf(r->msg, sizeof(r->msg), "no lo in a new namespace");
		return;
	}
	r->err = knetem_sock_open(&sk);
	if (r->err) {
		snprintf(r->msg, sizeof(r->msg), "cannot open rtnetlink: %s",
			 strerror(-r->err));
		return;
	}
	netem_spec_init(&s);
	s.latency_ns = 1000000;
	r->err = knetem_msg_netem(lo, TC_H_ROOT, KNETEM_ROOT_HANDLE,
				  NLM_F_CREATE | NLM_F_EXCL, 0, &s, NULL, &m,
				  r->msg, sizeof(r->msg));
	if (!r->err) {
		r->err = knetem_talk(sk, m, r->msg, sizeof(r->msg));
		nlmsg_free(m);
	}
	nl_socket_free(sk);
}

/* What the kernel config says about an option: 'y', 'm', 'n' (is not set)
 * or 0 when no config was found. */
struct kconfig {
	char netem;
	char modules;
	char where[96];
};

static void kconfig_line(struct kconfig *k, const char *line)
{
	static const char netem[] = "CONFIG_NET_SCH_NETEM";
	static const char mods[] = "CONFIG_MODULES";
	const char *p = line;
	char *v = NULL;
	size_t n;

	if (!strncmp(p, "# ", 2)) {
		p += 2;
		if (!strstr(p, " is not set"))
			return;
	}
	n = strcspn(p, "= ");
	if (n == sizeof(netem) - 1 && !strncmp(p, netem, n))
		v = &k->netem;
	else if (n == sizeof(mods) - 1 && !strncmp(p, mods, n))
		v = &k->modules;
	if (!v)
		return;
	if (p[n] == '=' && (p[n + 1] == 'y' || p[n + 1] == 'm'))
		*v = p[n + 1];
	else if (p[n] == ' ')
		*v = 'n';
}

static void kconfig_read_fd(struct kconfig *k, FILE *f)
{
	char line[256];

	while (fgets(line, sizeof(line), f))
		kconfig_line(k, line);
}

/* /boot/config-$(uname -r) as text, else /proc/config.gz through gzip
 * (a Debian essential package), so no compression library is needed. */
static void kconfig_read(struct kconfig *k)
{
	char path[96];
	struct utsname u;
	posix_spawn_file_actions_t fa;
	char *argv[] = {"gzip", "-dc", "/proc/config.gz", NULL};
	FILE *f;
	int pfd[2], st;
	pid_t pid;

	memset(k, 0, sizeof(*k));
	if (uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		f = fopen(path, "re");
		if (f) {
			kconfig_read_fd(k, f);
			fclose(f);
			snprintf(k->where, sizeof(k->where), "%s", path);
			return;
		}
	}
	if (access("/proc/config.gz", R_OK) < 0 || pipe2(pfd, O_CLOEXEC) < 0)
		return;
	if (posix_spawn_file_actions_init(&fa)) {
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	st = posix_spawnp(&pid, "gzip", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (st) {
		close(pfd[0]);
		return;
	}
	f = fdopen(pfd[0], "r");
	if (f) {
		kconfig_read_fd(k, f);
		fclose(f);
	} else {
		close(pfd[0]);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (k->netem || k->modules)
		snprintf(k->where, sizeof(k->where), "/proc/config.gz");
}

static int have_modprobe(void)
{
	return access("/sbin/modprobe", X_OK) == 0 ||
	       access("/usr/sbin/modprobe", X_OK) == 0;
}

static int probe_reason(int err, const char *kmsg, char *why, size_t len)
{
	struct kconfig k;

	if (err != -ENOENT && err != -EOPNOTSUPP) {
		knetem_say(why, len,
		    "cannot test for sch_netem (%s): the kernel backend needs "
		    "root or CAP_SYS_ADMIN+CAP_NET_ADMIN; use backend = "
		    "userspace",
		    kmsg[0] ? kmsg : strerror(-err));
		return err;
	}
	kconfig_read(&k);
	switch (k.netem) {
	case 'n':
		knetem_say(why, len,
		    "this kernel has no sch_netem (CONFIG_NET_SCH_NETEM is "
		    "not set, per %s): use backend = userspace",
		    k.where);
		break;
	case 'm':
		/* The kernel asks modprobe itself (request_module); when
		 * that failed, say what is missing. */
		knetem_say(why, len,
		    "sch_netem is a module (CONFIG_NET_SCH_NETEM=m) that the "
		    "kernel could not load (%s%s): install the kernel's "
		    "modules and 'modprobe sch_netem', or use backend = "
		    "userspace",
		    kmsg[0] ? kmsg : strerror(-err),
		    k.modules == 'n'   ? "; CONFIG_MODULES is not set"
		    : !have_modprobe() ? "; no modprobe installed"
		    : access("/lib/modules", F_OK) ? "; no /lib/modules"
						   : "");
		break;
	case 'y':
		knetem_say(why, len,
		    "the kernel refused a netem qdisc (%s) although "
		    "CONFIG_NET_SCH_NETEM=y: use backend = userspace",
		    kmsg[0] ? kmsg : strerror(-err));
		break;
	default:
		knetem_say(why, len,
		    "this kernel has no sch_netem (adding a netem qdisc "
		    "failed: %s; no kernel config was found to check "
		    "CONFIG_NET_SCH_NETEM): use backend = userspace",
		    kmsg[0] ? kmsg : strerror(-err));
		break;
	}
	return -EOPNOTSUPP;
}

int knetem_probe(char *why, size_t len)
{
	struct probe_res r;
	size_t got = 0;
	ssize_t n;
	int pfd[2], st;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0) {
		knetem_say(why, len, "cannot test for sch_netem: pipe: %s",
		    strerror(errno));
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		st = errno;
		close(pfd[0]);
		close(pfd[1]);
		knetem_say(why, len, "cannot test for sch_netem: fork: %s",
		    strerror(st));
		return -st;
	}
	if (pid == 0) {
		memset(&r, 0, sizeof(r));
		close(pfd[0]);
		probe_child(&r);
		if (write(pfd[1], &r, sizeof(r)) != (ssize_t)sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	while (got < sizeof(r)) {
		n = read(pfd[0], (char *)&r + got, sizeof(r) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(r)) {
		knetem_say(why, len,
		    "cannot test for sch_netem: the probe process "
		    "died");
		return -ECHILD;
	}
	r.msg[sizeof(r.msg) - 1] = '\0';
	if (!r.err)
		return 0;
	return probe_reason(r.err, r.msg, why, len);
}

/* ---- apply / change / clear ------------------------------------------- */

int knetem_apply_reg(int ifindex, const uint32_t *dst_ip,
		     const struct netem_spec *const *specs, unsigned n,
		     const struct netem_dist_registry *reg, char *why,
		     size_t len)
{
	struct nl_msg **msgs;
	struct nl_sock *sk;
	char sub[160];
	unsigned i, built = 0;
	int err;

	if (ifindex <= 0 || !dst_ip || !specs || !n || n > KNETEM_MAX_DST) {
		knetem_say(why, len,
		    "kernel netem: bad arguments (%u destinations, "
		    "1..%u allowed)",
		    n, KNETEM_MAX_DST);
		return -EINVAL;
	}
	msgs = calloc(n, sizeof(*msgs));
	if (!msgs)
		return -ENOMEM;
	/* Build every message first: a bad spec changes nothing. */
	for (i = 0; i < n; i++, built++) {
		if (!specs[i]) {
			err = -EINVAL;
			snprintf(sub, sizeof(sub), "no spec");
			goto bad_spec;
		}
		err = knetem_msg_netem(ifindex, KNETEM_CLASSID(i),
				       KNETEM_LEAF_HANDLE(i),
				       NLM_F_CREATE | NLM_F_EXCL, 0, specs[i],
				       reg, &msgs[i], sub, sizeof(sub));
		if (err)
			goto bad_spec;
	}
	err = knetem_sock_open(&sk);
	if (err) {
		knetem_say(why, len, "kernel netem: cannot open rtnetlink: %s",
		    strerror(-err));
		goto out;
	}
	err = knetem_clear_sk(sk, ifindex);
	if (!err)
		err = knetem_tree_build_sk(sk, ifindex, dst_ip, n, why, len);
	if (err) {
		(void)knetem_clear_sk(sk, ifindex);
		nl_socket_free(sk);
		goto out;
	}
	for (i = 0; i < n; i++) {
		err = knetem_talk(sk, msgs[i], sub, sizeof(sub));
		if (err) {
			knetem_say(why, len, "netem leaf for destination %u: %s", i,
			    sub);
			(void)knetem_clear_sk(sk, ifindex);
			break;
		}
	}
	nl_socket_free(sk);
	goto out;
bad_spec:
	knetem_say(why, len, "destination %u: %s", i, sub);
out:
	for (i = 0; i < built; i++)
		nlmsg_free(msgs[i]);
	free(msgs);
	return err;
}

int knetem_apply(int ifindex, const uint32_t *dst_ip,
		 const struct netem_spec *const *specs, unsigned n, char *why,
		 size_t len)
{
	return knetem_apply_reg(ifindex, dst_ip, specs, n, NULL, why, len);
}

int knetem_change_reg(int ifindex, unsigned dst_index,
		      const struct netem_spec *spec,
		      const struct netem_dist_registry *reg, char *why,
		      size_t len)
{
	struct nl_sock *sk;
	struct nl_msg *m;
	char sub[160];
	int err;

	if (ifindex <= 0 || !spec || dst_index >= KNETEM_MAX_DST) {
		knetem_say(why, len, "kernel netem change: bad arguments");
		return -EINVAL;
	}
	/* Flags 0: change the existing leaf in place (no create), so queued
	 * packets stay; KNETEM_MSG_CHANGE overrides every sticky value. */
	err = knetem_msg_netem(ifindex, KNETEM_CLASSID(dst_index),
			       KNETEM_LEAF_HANDLE(dst_index), 0,
			       KNETEM_MSG_CHANGE, spec, reg, &m, sub,
			       sizeof(sub));
	if (err) {
		knetem_say(why, len, "destination %u: %s", dst_index, sub);
		return err;
	}
	err = knetem_sock_open(&sk);
	if (!err) {
		err = knetem_talk(sk, m, sub, sizeof(sub));
		if (err)
			knetem_say(why, len, "netem change for destination %u: %s",
			    dst_index, sub);
		nl_socket_free(sk);
	} else {
		knetem_say(why, len, "kernel netem: cannot open rtnetlink: %s",
		    strerror(-err));
	}
	nlmsg_free(m);
	return err;
}

int knetem_change(int ifindex, unsigned dst_index,
		  const struct netem_spec *spec, char *why, size_t len)
{
	return knetem_change_reg(ifindex, dst_index, spec, NULL, why, len);
}
