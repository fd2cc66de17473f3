/*
 * fuzz_control.c: libFuzzer target for the control socket's server side
 * (daemon/ctl/control.c): request framing, the line limit, the reply and the
 * JSON string writer. Each input is sent as raw bytes by a client of a
 * real control socket (a UNIX stream socket under /tmp) on the target's
 * libevent loop, which then half-closes. Invariants (abort on a break):
 * the reply starts with "ok\n" or "error\n", or is empty for an empty
 * request; a request without a newline in its first CONTROL_LINE_MAX
 * octets is refused as too long and counted, without reaching the
 * handler; otherwise the handler gets exactly the octets before the first
 * newline (up to a NUL, as a C string), and what it echoed through
 * ctl_reply_json_str comes back as a quoted string. The handler parses
 * the spec of "set A>B SPEC" with netem_spec_parse, as the daemon does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "ctl.h"
#include "netem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct {
	struct event_base *base;
	struct control *ctl;
	char path[108];
	char got[CONTROL_LINE_MAX + 1];
	int called;
} F;

static int handler(void *arg, char *line, struct ctl_reply *r)
{
	struct netem_spec s;
	char err[256];

	(void)arg;
	F.called++;
	snprintf(F.got, sizeof(F.got), "%s", line);
	ctl_reply_json_str(r, line);
	ctl_reply_printf(r, "\n");
	if (strncmp(line, "set ", 4) == 0) {
		const char *sp = strchr(line + 4, ' ');

		if (sp == NULL || netem_spec_parse(sp + 1, &s, err, sizeof(err)) < 0)
			return -EINVAL;
		return 0;
	}
	return strcmp(line, "status") == 0 ? 0 : -ENOTSUP;
}

static void teardown(void)
{
	char dir[sizeof(F.path)];

	control_close(F.ctl);
	snprintf(dir, sizeof(dir), "%s", F.path);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
}

static void setup(void)
{
	snprintf(F.path, sizeof(F.path), "/tmp/reckon-fuzz-ctl-%d/sock",
		 (int)getpid());
	F.base = event_base_new();
	if (F.base == NULL || control_open(F.base, F.path, handler, NULL,
					   &F.ctl) < 0)
		abort();
	atexit(teardown);
}

/* Send data, half-close, run the loop until the server closes; returns
 * the reply (malloc'd, NUL terminated) and its length in *len. */
static char *exchange(const uint8_t *data, size_t size, size_t *len)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t sent = 0, cap = 256;
	char *buf = malloc(cap);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0), done = 0;

	*len = 0;
	memcpy(sa.sun_path, F.path, strlen(F.path) + 1);
	if (buf == NULL || fd < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		abort();
	while (!done) {
		ssize_t n;

		if (sent < size) {
			n = send(fd, data + sent, size - sent, MSG_NOSIGNAL);
			if (n > 0)
				sent += (size_t)n;
			else if (errno == EPIPE || errno == ECONNRESET)
				sent = size; /* refused as too long */
			if (sent == size)
				shutdown(fd, SHUT_WR);
		} else if (sent == 0) {
			shutdown(fd, SHUT_WR);
			sent = 1; /* empty request: shut down once */
		}
		event_base_loop(F.base, EVLOOP_NONBLOCK);
		n = read(fd, buf + *len, cap - *len - 1);
		if (n > 0) {
			*len += (size_t)n;
			if (cap - *len < 64 && (buf = realloc(buf, cap *= 2)) == NULL)
				abort();
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			done = 1;
		}
	}
	close(fd);
	buf[*len] = '\0';
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t head = nl ? (size_t)(nl - data) : size, len;
	unsigned long rej;
	char want[CONTROL_LINE_MAX + 1], *reply;
	int too_long = head >= CONTROL_LINE_MAX;

	if (F.base == NULL)
		setup();
	rej = control_rejected(F.ctl);
	F.called = 0;
	reply = exchange(data, size, &len);
	if (size == 0) {
		if (len != 0 || F.called)
			abort();
	} else if (too_long) {
		if (F.called || control_rejected(F.ctl) != rej + 1 ||
		    strcmp(reply, "error\nrequest line too long\n") != 0)
			abort();
	} else {
		memcpy(want, data, head);
		want[head] = '\0';
		if (F.called != 1 || strcmp(F.got, want) != 0)
			abort();
		if (strncmp(reply, "ok\n\"", 4) != 0 &&
		    strncmp(reply, "error\n\"", 7) != 0)
			abort();
	}
	free(reply);
	return 0;
}
