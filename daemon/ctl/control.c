/*
 * control.c: the control socket on both sides. The server accepts on a
 * libevent listener, reads one request line per connection (at most
 * CONTROL_LINE_MAX bytes, within 5 s, else the connection is dropped and
 * counted), refuses (and counts) it when the peer's SO_PEERCRED uid is
 * neither its own nor root, else hands it to the daemon's handler; writes
 * "ok"/"error", the body, and closes. Connections still open when the server closes are
 * freed with it. The client connects, writes the line, shuts down its
 * write side and reads to EOF.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>

#include "ctl.h"
#include "util.h"

struct control {
	struct event_base *base;
	struct event *listen_ev;
	int fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	control_handler fn;
	void *arg;
	unsigned long rejected; /* over-long, timed-out or foreign requests */
	long unmapped_uid;	/* peers' uid outside our user namespace, or -1 */
	struct conn *conns;	/* open connections */
};

struct conn {
	struct control *ctl;
	struct conn *next, **pprev; /* in ctl->conns */
	struct event *ev;
	int fd;
	int foreign; /* refused once its request is read (peer_allowed) */
	size_t len;
	char line[CONTROL_LINE_MAX + 1];
};

void ctl_reply_printf(struct ctl_reply *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return;
	for (;;) {
		size_t room = r->cap - r->len;

		va_start(ap, fmt);
		n = vsnprintf(r->buf ? r->buf + r->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			r->failed = 1;
			return;
		}
		if ((size_t)n < room) {
			r->len += (size_t)n;
			return;
		}
		size_t cap = r->cap ? r->cap * 2 : 1024;
		while (cap - r->len <= (size_t)n)
			cap *= 2;
		char *nb = realloc(r->buf, cap);
		if (nb == NULL) {
			r->failed = 1;
			return;
		}
		r->buf = nb;
		r->cap = cap;
	}
}

static void put_reply(void *arg, const char *s, size_t n)
{
	ctl_reply_printf((struct ctl_reply *)arg, "%.*s", (int)n, s);
}

void ctl_reply_json_str(struct ctl_reply *r, const char *s)
{
	json_write_str(s, put_reply, r);
}

int control_default_path(char *buf, size_t len)
{
	const char *env = getenv("RECKON_SOCK");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (env != NULL && env[0] != '\0')
		n = snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/run/reckon/reckond.sock");
	else if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, len, "%s/reckon/reckond.sock", xdg);
	else
		n = snprintf(buf, len, "/tmp/reckon-%u/reckond.sock",
			     (unsigned)getuid());
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int fill_addr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	strcpy(sa->sun_path, path);
	return 0;
}

/* Create the socket's directory, private to us, when it does not exist;
 * an existing directory must be ours and not writable by others. */
static int ensure_dir(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *slash;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0700) == 0)
		return 0;
	if (errno != EEXIST)
		return -errno;
	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() && (st.st_mode & S_IWOTH) &&
	    !(st.st_mode & S_ISVTX))
		return -EPERM;
	return 0;
}

static void conn_free(struct conn *c)
{
	*c->pprev = c->next;
	if (c->next != NULL)
		c->next->pprev = c->pprev;
	event_free(c->ev);
	close(c->fd);
	free(c);
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* client went away or stalled past the timeout
				 */
		p += w;
		n -= (size_t)w;
	}
}

static void conn_answer(struct conn *c)
{
	struct ctl_reply r = {0};
	struct timeval tv = {.tv_sec = 2};
	int rc, fl;

	/* a refused peer still has its request read, so that closing does
	 * not reset the connection before it reads why */
	if (c->foreign) {
		c->ctl->rejected++;
		ctl_reply_printf(&r, "permission denied\n");
		rc = -EPERM;
	} else {
		rc = c->ctl->fn(c->ctl->arg, c->line, &r);
	}
	/* Reply with a blocking write bounded by a send timeout: replies are
	 * small and the client is waiting for them. */
	fl = fcntl(c->fd, F_GETFL);
	if (fl >= 0)
		fcntl(c->fd, F_SETFL, fl & ~O_NONBLOCK);
	setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	write_all(c->fd, rc == 0 ? "ok\n" : "error\n", rc == 0 ? 3 : 6);
	if (r.buf != NULL)
		write_all(c->fd, r.buf, r.len);
	if (r.failed)
		write_all(c->fd, "(reply truncated: out of memory)\n", 33);
	free(r.buf);
	conn_free(c);
}

static void conn_read(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	char *nl;
	ssize_t n;

	if (what & EV_TIMEOUT) {
		c->ctl->rejected++;
		conn_free(c);
		return;
	}
	n = read(fd, c->line + c->len, CONTROL_LINE_MAX - c->len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		if (c->len == 0) {
			conn_free(c);
			return;
		}
		c->line[c->len] = '\0'; /* EOF ends the request too */
		conn_answer(c);
		return;
	}
	c->len += (size_t)n;
	c->line[c->len] = '\0';
	nl = memchr(c->line, '\n', c->len);
	if (nl != NULL) {
		*nl = '\0';
		conn_answer(c);
		return;
	}
	if (c->len >= CONTROL_LINE_MAX) {
		static const char msg[] = "error\nrequest line too long\n";

		c->ctl->rejected++;
		write_all(fd, msg, sizeof(msg) - 1);
		conn_free(c);
	}
}

/* Only our own user and root may drive the daemon: the socket's mode
 * already says so, and the peer's credentials are checked as well, for a
 * socket whose directory or mode someone else changed. A daemon in its
 * own user namespace (reckond as a normal user) sees root outside it as
 * the overflow uid, so that uid is let through there: only root can pass
 * the 0600 mode without being our user. */
static int peer_allowed(const struct control *ctl, int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return 0;
	return cr.uid == geteuid() || cr.uid == 0 ||
	       (long)cr.uid == ctl->unmapped_uid;
}

/* The overflow uid when we run in a user namespace of our own (its uid
 * map is not the identity of the initial namespace), else -1. */
static long unmapped_uid(void)
{
	unsigned long in, out, count;
	long uid = 65534;
	FILE *f = fopen("/proc/self/uid_map", "r");
	int n;

	if (f == NULL)
		return -1;
	n = fscanf(f, "%lu %lu %lu", &in, &out, &count);
	fclose(f);
	if (n == 3 && in == 0 && out == 0 && count == 4294967295UL)
		return -1;
	f = fopen("/proc/sys/kernel/overflowuid", "r");
	if (f != NULL) {
		if (fscanf(f, "%ld", &uid) != 1)
			uid = 65534;
		fclose(f);
	}
	return uid;
}

static void ctl_accept(evutil_socket_t lfd, short what, void *arg)
{
	struct control *ctl = arg;
	struct timeval tv = {.tv_sec = 5};
	struct conn *c;
	int fd;

	(void)what;
	fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		close(fd);
		return;
	}
	c->ctl = ctl;
	c->fd = fd;
	c->foreign = !peer_allowed(ctl, fd);
	c->ev = event_new(ctl->base, fd, EV_READ | EV_PERSIST, conn_read, c);
	if (c->ev == NULL || event_add(c->ev, &tv) < 0) {
		if (c->ev != NULL)
			event_free(c->ev);
		close(fd);
		free(c);
		return;
	}
	c->next = ctl->conns;
	c->pprev = &ctl->conns;
	if (ctl->conns != NULL)
		ctl->conns->pprev = &c->next;
	ctl->conns = c;
}

int control_open(struct event_base *base, const char *path, control_handler fn,
		 void *arg, struct control **out)
{
	struct sockaddr_un sa;
	struct control *ctl;
	struct stat st;
	mode_t old;
	int fd, err;

	err = fill_addr(path, &sa);
	if (err < 0)
		return err;
	err = ensure_dir(path);
	if (err < 0)
		return err;
	if (lstat(path, &st) == 0) {
		int probe;

		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe < 0)
			return -errno;
		err = connect(probe, (struct sockaddr *)&sa, sizeof(sa));
		close(probe);
		if (err == 0)
			return -EADDRINUSE; /* another reckond answers there */
		unlink(path);		    /* stale: its daemon is gone */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	old = umask(0177);
	err = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (err < 0 || chmod(path, 0600) < 0 || listen(fd, 16) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	ctl = calloc(1, sizeof(*ctl));
	if (ctl == NULL) {
		close(fd);
		unlink(path);
		return -ENOMEM;
	}
	ctl->base = base;
	ctl->fd = fd;
	ctl->fn = fn;
	ctl->arg = arg;
	ctl->unmapped_uid = unmapped_uid();
	snprintf(ctl->path, sizeof(ctl->path), "%s", path);
	ctl->listen_ev =
		event_new(base, fd, EV_READ | EV_PERSIST, ctl_accept, ctl);
	if (ctl->listen_ev == NULL || event_add(ctl->listen_ev, NULL) < 0) {
		if (ctl->listen_ev != NULL)
			event_free(ctl->listen_ev);
		close(fd);
		unlink(path);
		free(ctl);
		return -ENOMEM;
	}
	*out = ctl;
	return 0;
}

void control_close(struct control *c)
{
	if (c == NULL)
		return;
	while (c->conns != NULL)
		conn_free(c->conns);
	event_free(c->listen_ev);
	close(c->fd);
	unlink(c->path);
	free(c);
}

unsigned long control_rejected(const struct control *c)
{
	return c->rejected;
}

int control_request(const char *path, const char *line, int *ok, char **body)
{
	struct sockaddr_un sa;
	char *buf = NULL, *nl;
	size_t len = 0, cap = 0;
	int fd, err;

	if (strchr(line, '\n') != NULL || strlen(line) >= CONTROL_LINE_MAX)
		return -EINVAL;
	err = fill_addr(path, &sa);
	if (err < 0)
		return err;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	write_all(fd, line, strlen(line));
	write_all(fd, "\n", 1);
	shutdown(fd, SHUT_WR);
	for (;;) {
		ssize_t n;

		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (nb == NULL) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			cap += 65536;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			free(buf);
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	nl = strchr(buf, '\n');
	if (nl == NULL ||
	    (strncmp(buf, "ok\n", 3) != 0 && strncmp(buf, "error\n", 6) != 0)) {
		free(buf);
		return -EPROTO;
	}
	*ok = buf[0] == 'o';
	memmove(buf, nl + 1, len - (size_t)(nl + 1 - buf) + 1);
	*body = buf;
	return 0;
}
