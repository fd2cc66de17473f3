/*
 * ctl.h: the control socket (control.c), a UNIX stream socket of mode 0600.
 * The protocol is one request line per connection ("status", "status -j",
 * "set a>b SPEC", "stop", "run FILE<TAB>CWD"); the reply is "ok" or
 * "error" on its first line, then the body, then the server closes the
 * connection. docs/reckond.md describes it. Both ends live here: the server
 * on the daemon's libevent loop, the client for reckonctl.
 */
#ifndef RECKON_CONTROL_H
#define RECKON_CONTROL_H

#include <stddef.h>

#include <event2/event.h>

#define CONTROL_LINE_MAX 4096

/* A growing reply body. */
struct ctl_reply {
	char *buf;
	size_t len, cap;
	int failed; /* out of memory: reply is truncated */
};

void ctl_reply_printf(struct ctl_reply *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append s as a JSON string literal (quotes and escapes included). */
void ctl_reply_json_str(struct ctl_reply *r, const char *s);

/* Handle one request line (without its newline). Return 0 for "ok", or a
 * negative errno for "error"; either way the body is what was printed. */
typedef int (*control_handler)(void *arg, char *line, struct ctl_reply *r);

struct control;

/* The default socket path: $RECKON_SOCK, else /run/reckon/reckond.sock for
 * root, else $XDG_RUNTIME_DIR/reckon/reckond.sock, else
 * /tmp/reckon-UID/reckond.sock. Call before entering a user namespace. */
int control_default_path(char *buf, size_t len);

/* Bind path (creating its directory with mode 0700 when missing). A stale
 * socket is replaced; a live one gives -EADDRINUSE. */
int control_open(struct event_base *base, const char *path, control_handler fn,
		 void *arg, struct control **out);
void control_close(struct control *c);

/* Requests rejected so far: over-long lines, or none within 5 s. */
unsigned long control_rejected(const struct control *c);

/* Client: send line, collect the reply. *ok is 1 for "ok". The reply body
 * is malloc'd and NUL terminated. */
int control_request(const char *path, const char *line, int *ok, char **body);

#endif
