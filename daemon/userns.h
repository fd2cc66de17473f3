/*
 * userns.h: running without root. When the daemon is not root it unshares a
 * user namespace (mapping its own uid and gid to 0 inside) together with a
 * network namespace, and gains in them the capabilities a run needs, so a
 * normal user runs a scenario without sudo. Nothing is left behind: the
 * namespaces belong to the daemon's processes only.
 */
#ifndef RECKON_USERNS_H
#define RECKON_USERNS_H

#include <stddef.h>

/* As root: nothing to do (returns 0). Otherwise enter a user+network
 * namespace; on failure returns -errno and explains what to do in msg.
 * Must be called while the process is single-threaded. */
int userns_enter(char *msg, size_t msglen);

/* 1 when userns_enter switched to a user namespace. */
int userns_active(void);

#endif
