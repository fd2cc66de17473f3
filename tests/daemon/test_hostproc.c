/*
 * test_hostproc.c: the host shim (daemon/ns/hostproc.c) with real processes
 * and namespaces: the command runs as PID 2 of a new PID namespace inside a
 * new network namespace, only after hostproc_go, with its output in the
 * log, at the niceness asked for whatever the daemon's own is; exit
 * statuses and signals come back as documented; a shim whose
 * daemon vanishes before the start exits without running anything. Needs
 * root (or unprivileged user namespaces); skipped otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <criterion/criterion.h>

#include "ns.h"

static char logpath[] = "/tmp/reckon-hostproc.XXXXXX";
static int logfd = -1;

static void setup(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root for network and PID namespaces");
	logfd = mkstemp(logpath);
	cr_assert_geq(logfd, 0);
}

static void teardown(void)
{
	if (logfd >= 0) {
		close(logfd);
		unlink(logpath);
	}
	strcpy(logpath, "/tmp/reckon-hostproc.XXXXXX");
	logfd = -1;
}

TestSuite(hostproc, .init = setup, .fini = teardown);

static void spawn_nice(const char *script, int nice, struct hostproc *hp)
{
	static char sh[] = "/bin/sh", c[] = "-c";
	static char buf[512];
	static char env0[] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
	char *argv[] = { sh, c, buf, NULL };
	char *envp[] = { env0, NULL };
	struct hostproc_cmd cmd = { argv, envp, logfd, nice };

	snprintf(buf, sizeof(buf), "%s", script);
	cr_assert_eq(hostproc_spawn(&cmd, hp), 0);
}

static void spawn(const char *script, struct hostproc *hp)
{
	spawn_nice(script, 0, hp);
}

static int reap(struct hostproc *hp)
{
	int st;

	cr_assert_eq(waitpid(hp->pid, &st, 0), hp->pid);
	hostproc_reaped(hp, st);
	hostproc_release(hp);
	return hp->status;
}

static void read_log(char *buf, size_t len)
{
	ssize_t n = pread(logfd, buf, len - 1, 0);

	cr_assert_geq(n, 0);
	buf[n] = '\0';
}

Test(hostproc, runs_as_pid2_in_its_own_namespaces)
{
	struct hostproc hp;
	struct stat mine;
	char log[256];
	unsigned long ino = 0;
	int pid = 0;

	spawn("echo pid=$$ net=$(stat -L -c %i /proc/self/ns/net)", &hp);
	cr_assert_eq(hostproc_go(&hp), 0);
	cr_assert_eq(reap(&hp), 0);
	read_log(log, sizeof(log));
	cr_assert_eq(sscanf(log, "pid=%d net=%lu", &pid, &ino), 2, "log: %s",
		     log);
	cr_assert_eq(pid, 2, "the shim is PID 1, its command PID 2");
	cr_assert_eq(stat("/proc/self/ns/net", &mine), 0);
	cr_assert_neq(ino, (unsigned long)mine.st_ino);
}

/* Field 19 of /proc/self/stat is the niceness (the command name in field
 * 2 is "sh", no blanks). */
static int logged_nice(void)
{
	char log[512];
	int nice = 99;

	read_log(log, sizeof(log));
	cr_assert_eq(sscanf(log,
			    "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
			    "%*u %*u %*u %*d %*d %*d %d",
			    &nice),
		     1, "log: %s", log);
	return nice;
}

Test(hostproc, runs_at_its_niceness)
{
	struct hostproc hp;
	int was = getpriority(PRIO_PROCESS, 0);

	/* the daemon's own niceness (the bridge's -10) is not inherited */
	cr_assert_eq(setpriority(PRIO_PROCESS, 0, -5), 0);
	spawn_nice("cat /proc/self/stat", 7, &hp);
	cr_assert_eq(setpriority(PRIO_PROCESS, 0, was), 0);
	cr_assert_eq(hostproc_go(&hp), 0);
	cr_assert_eq(reap(&hp), 0);
	cr_assert_eq(logged_nice(), 7);
	cr_assert_eq(ftruncate(logfd, 0), 0);
	cr_assert_eq(lseek(logfd, 0, SEEK_SET), 0);
	cr_assert_eq(setpriority(PRIO_PROCESS, 0, -5), 0);
	spawn("cat /proc/self/stat", &hp);
	cr_assert_eq(setpriority(PRIO_PROCESS, 0, was), 0);
	cr_assert_eq(hostproc_go(&hp), 0);
	cr_assert_eq(reap(&hp), 0);
	cr_assert_eq(logged_nice(), 0);
}

Test(hostproc, nothing_runs_before_go)
{
	struct hostproc hp;
	char log[64];

	spawn("echo started", &hp);
	/* the shim is blocked on its start pipe: give a wrongly started
	 * command time to write (a pass here cannot be a false failure) */
	usleep(100000);
	read_log(log, sizeof(log));
	cr_assert_str_empty(log);
	cr_assert_eq(hostproc_go(&hp), 0);
	cr_assert_eq(reap(&hp), 0);
	read_log(log, sizeof(log));
	cr_assert_str_eq(log, "started\n");
}

Test(hostproc, exit_status_comes_back)
{
	struct hostproc hp;

	spawn("exit 7", &hp);
	hostproc_go(&hp);
	cr_assert_eq(reap(&hp), 7);
}

Test(hostproc, sigterm_reaches_the_command)
{
	struct hostproc hp;
	pid_t pids[8];
	int n;

	spawn("exec sleep 100", &hp);
	hostproc_go(&hp);
	/* the command appears once the shim has forked it */
	for (int k = 0; k < 500; k++) {
		n = hostproc_members(&hp, pids, 8);
		if (n >= 2)
			break;
		usleep(10000);
	}
	cr_assert_eq(n, 2, "shim and sleep, got %d", n);
	cr_assert(pids[0] == hp.pid || pids[1] == hp.pid);
	cr_assert_eq(hostproc_signal(&hp, SIGTERM), 0);
	cr_assert_eq(reap(&hp), 128 + SIGTERM);
}

Test(hostproc, missing_program_is_127)
{
	struct hostproc hp;
	static char prog[] = "/nonexistent/reckon-agent";
	char *argv[] = { prog, NULL };
	char *envp[] = { NULL };
	struct hostproc_cmd cmd = { argv, envp, logfd, 0 };
	char log[256];

	cr_assert_eq(hostproc_spawn(&cmd, &hp), 0);
	hostproc_go(&hp);
	cr_assert_eq(reap(&hp), HOSTPROC_NOEXEC);
	read_log(log, sizeof(log));
	cr_assert(strstr(log, "No such file") != NULL, "log: %s", log);
}

Test(hostproc, daemon_gone_before_go_aborts)
{
	struct hostproc hp;
	char log[64];

	spawn("echo must-not-run", &hp);
	/* what the kernel does when the daemon dies: its end of the pipe
	 * closes without the start byte */
	close(hp.go_fd);
	hp.go_fd = -1;
	cr_assert_eq(reap(&hp), HOSTPROC_ABORTED);
	read_log(log, sizeof(log));
	cr_assert_str_empty(log);
}
