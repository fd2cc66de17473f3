/*
 * test_control.c: the control socket (daemon/ctl/control.c) over a real UNIX
 * socket. The server runs its libevent loop in a second thread; the tests
 * talk to it with control_request or a raw socket and check replies, the
 * socket's mode, rejection of over-long requests, of a peer of another
 * user and of a second daemon, and replacement of a stale socket.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <signal.h>

#include <criterion/criterion.h>

#include "ctl.h"

static char dir[] = "/tmp/reckon-ctl-test.XXXXXX";
static char path[96];
static struct event_base *base;
static struct control *ctl;
static pthread_t loop_thread;
static atomic_int quit;
static atomic_int handled;

static int handler(void *arg, char *line, struct ctl_reply *r)
{
	(void)arg;
	atomic_fetch_add(&handled, 1);
	if (strncmp(line, "fail", 4) == 0) {
		ctl_reply_printf(r, "refused: %s\n", line);
		return -EINVAL;
	}
	ctl_reply_printf(r, "got ");
	ctl_reply_json_str(r, line);
	ctl_reply_printf(r, "\n");
	return 0;
}

static void *loop(void *arg)
{
	(void)arg;
	while (!atomic_load(&quit))
		event_base_loop(base, EVLOOP_ONCE);
	return NULL;
}

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub/reckond.sock", dir);
	base = event_base_new();
	cr_assert_not_null(base);
	cr_assert_eq(control_open(base, path, handler, NULL, &ctl), 0);
	atomic_store(&quit, 0);
	atomic_store(&handled, 0);
	cr_assert_eq(pthread_create(&loop_thread, NULL, loop, NULL), 0);
}

static void teardown(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	/* wake the loop with a connection so it sees quit (and do not wait
	 * for an answer: the loop may stop right after accepting it) */
	atomic_store(&quit, 1);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		cr_log_warn("wake-up connect: %s", strerror(errno));
	close(fd);
	pthread_join(loop_thread, NULL);
	control_close(ctl);
	event_base_free(base);
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
	strcpy(dir, "/tmp/reckon-ctl-test.XXXXXX");
}

TestSuite(control, .init = setup, .fini = teardown);

Test(control, ok_reply_carries_body)
{
	char *body = NULL;
	int ok = 0;

	cr_assert_eq(control_request(path, "status \"x\"", &ok, &body), 0);
	cr_assert_eq(ok, 1);
	cr_assert_str_eq(body, "got \"status \\\"x\\\"\"\n");
	free(body);
}

Test(control, error_reply_is_not_ok)
{
	char *body = NULL;
	int ok = 1;

	cr_assert_eq(control_request(path, "fail now", &ok, &body), 0);
	cr_assert_eq(ok, 0);
	cr_assert_str_eq(body, "refused: fail now\n");
	free(body);
}

Test(control, socket_is_private)
{
	char sub[256];
	struct stat st;

	cr_assert_eq(stat(path, &st), 0);
	cr_assert(S_ISSOCK(st.st_mode));
	cr_assert_eq(st.st_mode & 0777, 0600);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	cr_assert_eq(stat(sub, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700, "directory mode %o",
		     st.st_mode & 0777);
}

Test(control, overlong_request_is_rejected_and_counted)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char big[CONTROL_LINE_MAX + 100], reply[128] = "";
	ssize_t n, got = 0;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	memset(big, 'x', sizeof(big));
	memcpy(sa.sun_path, path, strlen(path) + 1);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	/* the server may close before reading everything: ignore EPIPE */
	n = send(fd, big, sizeof(big), MSG_NOSIGNAL);
	(void)n;
	while ((n = read(fd, reply + got, sizeof(reply) - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	reply[got] = '\0';
	cr_assert_str_eq(reply, "error\nrequest line too long\n");
	cr_assert_eq(atomic_load(&handled), 0, "handler saw a bad request");
	cr_assert_eq(control_rejected(ctl), 1);
}

Test(control, newline_in_request_refused_by_client)
{
	char *body = NULL;
	int ok;

	cr_assert_eq(control_request(path, "set a>b\nstop", &ok, &body),
		     -EINVAL);
	cr_assert_null(body);
}

Test(control, second_daemon_gets_eaddrinuse)
{
	struct event_base *b2 = event_base_new();
	struct control *c2 = NULL;

	cr_assert_eq(control_open(b2, path, handler, NULL, &c2), -EADDRINUSE);
	cr_assert_null(c2);
	event_base_free(b2);
}

Test(control, stale_socket_is_replaced_and_file_is_not)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct event_base *b2 = event_base_new();
	struct control *c2 = NULL;
	char stale[96], plain[96];
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	FILE *f;

	/* a socket file nobody listens on: what a killed daemon leaves */
	snprintf(stale, sizeof(stale), "%s/stale.sock", dir);
	memcpy(sa.sun_path, stale, strlen(stale) + 1);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	cr_assert_eq(control_open(b2, stale, handler, NULL, &c2), 0);
	control_close(c2);
	cr_assert_eq(access(stale, F_OK), -1, "close must unlink the socket");

	snprintf(plain, sizeof(plain), "%s/plain", dir);
	f = fopen(plain, "w");
	cr_assert_not_null(f);
	fclose(f);
	cr_assert_eq(control_open(b2, plain, handler, NULL, &c2), -EEXIST);
	unlink(plain);
	event_base_free(b2);
}

/* A client of another user (nobody) that reaches the socket, here because
 * its modes were opened up, is refused without reaching the handler, and
 * counted. */
Test(control, foreign_peer_is_refused_and_counted)
{
	char sub[96];
	pid_t pid;
	int st;

	if (geteuid() != 0)
		cr_skip_test("needs root to connect as another user");
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	cr_assert_eq(chmod(dir, 0755), 0);
	cr_assert_eq(chmod(sub, 0755), 0);
	cr_assert_eq(chmod(path, 0666), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		char buf[64] = "";
		ssize_t n, got = 0;
		int fd;

		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(2);
		signal(SIGPIPE, SIG_IGN);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		memcpy(sa.sun_path, path, strlen(path) + 1);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			_exit(3);
		if (write(fd, "status\n", 7) != 7)
			_exit(4);
		while ((n = read(fd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
			got += n;
		_exit(strcmp(buf, "error\npermission denied\n") == 0 ? 0 : 5);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d",
		  st);
	cr_expect_eq(atomic_load(&handled), 0);
	cr_expect_eq(control_rejected(ctl), 1);
}
