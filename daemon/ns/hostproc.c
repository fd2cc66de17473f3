/*
 * hostproc.c: the host shim. clone(CLONE_NEWNET | CLONE_NEWPID) gives a
 * child that is PID 1 of a fresh PID namespace inside a fresh network
 * namespace. It arms PR_SET_PDEATHSIG(SIGKILL) first and then blocks on a
 * pipe, so a daemon that dies before or after that point takes it along
 * (EOF on the pipe, or the death signal). Being PID 1 is what makes the
 * guarantee hold for setuid or file-capability programs such as ping, whose
 * exec clears their own death signal: when PID 1 exits the kernel SIGKILLs
 * the rest of the namespace.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ns.h"

#define SHIM_STACK (256 * 1024)

struct shim_arg {
	const struct hostproc_cmd *cmd;
	int go_rd;
};

static volatile sig_atomic_t shim_child;

static void shim_forward(int sig)
{
	if (shim_child > 0)
		kill(-(pid_t)shim_child, sig);
}

static void shim_signals_default(void)
{
	sigset_t none;

	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL); /* SIGKILL/SIGSTOP/RT fail harmlessly */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Runs in the child of clone(): PID 1 of the host's PID namespace. */
static int shim_main(void *p)
{
	const struct shim_arg *a = p;
	const struct hostproc_cmd *cmd = a->cmd;
	struct sigaction sa;
	sigset_t fwd, old;
	pid_t child, w;
	int st = 0, nullfd;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	shim_signals_default();
	if (dup2(cmd->log_fd, STDOUT_FILENO) < 0 ||
	    dup2(cmd->log_fd, STDERR_FILENO) < 0)
		_exit(HOSTPROC_ABORTED);
	if (a->go_rd != 3 && dup2(a->go_rd, 3) < 0)
		_exit(HOSTPROC_ABORTED);
	close_range(4, ~0U, 0);
	nullfd = open("/dev/null", O_RDWR);
	if (nullfd >= 0 && nullfd != STDIN_FILENO) {
		dup2(nullfd, STDIN_FILENO);
		close(nullfd);
	}
	/* The daemon writes one byte once the namespace is wired; EOF means
	 * it died first. */
	if (read(3, &c, 1) != 1)
		_exit(HOSTPROC_ABORTED);
	close(3);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = shim_forward;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&fwd);
	sigaddset(&fwd, SIGTERM);
	sigaddset(&fwd, SIGINT);
	sigaddset(&fwd, SIGHUP);
	sigprocmask(SIG_BLOCK, &fwd, &old);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	child = fork();
	if (child < 0) {
		dprintf(STDERR_FILENO, "reckon host shim: fork: %s\n",
			strerror(errno));
		_exit(HOSTPROC_ABORTED);
	}
	if (child == 0) {
		setpgid(0, 0);
		shim_signals_default();
		if (setpriority(PRIO_PROCESS, 0, cmd->nice) < 0)
			dprintf(STDERR_FILENO,
				"reckon host shim: nice %d: %s (left at %d)\n",
				cmd->nice, strerror(errno),
				getpriority(PRIO_PROCESS, 0));
		execve(cmd->argv[0], cmd->argv, cmd->envp);
		dprintf(STDERR_FILENO, "reckon host shim: exec %s: %s\n",
			cmd->argv[0], strerror(errno));
		_exit(HOSTPROC_NOEXEC);
	}
	setpgid(child, child);
	shim_child = child;
	sigprocmask(SIG_SETMASK, &old, NULL);

	/* PID 1 reaps every orphan of the namespace until its command ends. */
	for (;;) {
		int s;

		w = waitpid(-1, &s, 0);
		if (w == child) {
			st = s;
			break;
		}
		if (w < 0 && errno != EINTR)
			break;
	}
	if (WIFSIGNALED(st))
		_exit(128 + WTERMSIG(st));
	_exit(WEXITSTATUS(st));
}

int hostproc_spawn(const struct hostproc_cmd *cmd, struct hostproc *hp)
{
	struct shim_arg a;
	char path[64];
	int pfd[2], nsfd, err;
	char *stack;
	pid_t pid;

	if (cmd->argv == NULL || cmd->argv[0] == NULL)
		return -EINVAL;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	stack = malloc(SHIM_STACK);
	if (stack == NULL) {
		close(pfd[0]);
		close(pfd[1]);
		return -ENOMEM;
	}
	a.cmd = cmd;
	a.go_rd = pfd[0];
	/* The child gets its own copy of the stack memory (no CLONE_VM). */
	pid = clone(shim_main, stack + SHIM_STACK,
		    CLONE_NEWNET | CLONE_NEWPID | SIGCHLD, &a);
	err = errno;
	free(stack);
	close(pfd[0]);
	if (pid < 0) {
		close(pfd[1]);
		return -err;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (nsfd < 0) {
		err = errno;
		close(pfd[1]); /* the shim reads EOF and exits */
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -err;
	}
	hp->pid = pid;
	hp->go_fd = pfd[1];
	hp->nsfd = nsfd;
	hp->exited = 0;
	hp->status = 0;
	return 0;
}

int hostproc_go(struct hostproc *hp)
{
	char c = 'g';
	ssize_t n;

	if (hp->go_fd < 0)
		return -EALREADY;
	n = write(hp->go_fd, &c, 1);
	close(hp->go_fd);
	hp->go_fd = -1;
	return n == 1 ? 0 : -EPIPE;
}

int hostproc_signal(const struct hostproc *hp, int sig)
{
	if (hp->exited || hp->pid <= 0)
		return -ESRCH;
	return kill(hp->pid, sig) < 0 ? -errno : 0;
}

void hostproc_reaped(struct hostproc *hp, int wstatus)
{
	hp->exited = 1;
	if (WIFSIGNALED(wstatus))
		hp->status = 128 + WTERMSIG(wstatus);
	else
		hp->status = WEXITSTATUS(wstatus);
}

int hostproc_members(const struct hostproc *hp, pid_t *pids, unsigned max)
{
	struct stat want, st;
	struct dirent *de;
	unsigned n = 0;
	char path[64];
	DIR *d;

	if (hp->nsfd < 0 || fstat(hp->nsfd, &want) < 0)
		return -EBADF;
	d = opendir("/proc");
	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end != '\0' || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/ns/net", pid);
		if (stat(path, &st) < 0)
			continue; /* gone, or not ours to look at */
		if (st.st_ino != want.st_ino || st.st_dev != want.st_dev)
			continue;
		if (n < max)
			pids[n] = (pid_t)pid;
		n++;
	}
	closedir(d);
	return (int)n;
}

void hostproc_release(struct hostproc *hp)
{
	if (hp->go_fd >= 0)
		close(hp->go_fd);
	if (hp->nsfd >= 0)
		close(hp->nsfd);
	hp->go_fd = -1;
	hp->nsfd = -1;
}
