/*
 * cleanup.c: `reckond cleanup`. A reckond keeps its namespaces anonymous
 * and held only by its own processes, so a killed daemon normally leaves
 * nothing; this removes what could still be there: named namespaces
 * /run/netns/reckon-* (e.g. made by hand for `ip netns exec` debugging),
 * interfaces named reckon-* or rk<N>/rkbr in the current namespace, and
 * control sockets under /run/reckon/ that no daemon answers any more.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netlink/netlink.h>
#include <netlink/cache.h>
#include <netlink/route/link.h>

#include "log.h"
#include "reckond.h"

static int ours(const char *name)
{
	if (strncmp(name, "reckon-", 7) == 0 || strcmp(name, "rkbr") == 0)
		return 1;
	if (strncmp(name, "rk", 2) != 0 || name[2] == '\0')
		return 0;
	for (const char *p = name + 2; *p; p++)
		if (!isdigit((unsigned char)*p))
			return 0;
	return 1;
}

static int clean_netns(int verbose)
{
	DIR *d = opendir("/run/netns");
	struct dirent *de;
	char path[300];
	int n = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "reckon-", 7) != 0)
			continue;
		snprintf(path, sizeof(path), "/run/netns/%s", de->d_name);
		umount2(path, MNT_DETACH);
		if (unlink(path) == 0) {
			n++;
			if (verbose)
				log_info("removed namespace %s", path);
		} else {
			log_warn("%s", path);
		}
	}
	closedir(d);
	return n;
}

static int clean_links(int verbose)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_cache *cache = NULL;
	struct nl_object *o;
	int n = 0, err;

	if (sk == NULL)
		return -ENOMEM;
	if (nl_connect(sk, NETLINK_ROUTE) < 0 ||
	    rtnl_link_alloc_cache(sk, AF_UNSPEC, &cache) < 0) {
		nl_socket_free(sk);
		return -EIO;
	}
	for (o = nl_cache_get_first(cache); o != NULL;
	     o = nl_cache_get_next(o)) {
		struct rtnl_link *l = (struct rtnl_link *)o;
		const char *name = rtnl_link_get_name(l);

		if (name == NULL || !ours(name))
			continue;
		err = rtnl_link_delete(sk, l);
		if (err == 0) {
			n++;
			if (verbose)
				log_info("removed interface %s", name);
		} else if (err != -NLE_OBJ_NOTFOUND && err != -NLE_NODEV) {
			/* (the peer of a veth removed just before is gone) */
			log_warnx("cannot remove interface %s: %s", name,
				  nl_geterror(err));
		}
	}
	nl_cache_free(cache);
	nl_socket_free(sk);
	return n;
}

static int clean_sockets(int verbose)
{
	DIR *d = opendir("/run/reckon");
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		size_t len = strlen(de->d_name);
		int fd;

		if (len < 5 || strcmp(de->d_name + len - 5, ".sock") != 0)
			continue;
		if (len > sizeof(sa.sun_path) - 13)
			continue;
		memcpy(sa.sun_path, "/run/reckon/", 12);
		memcpy(sa.sun_path + 12, de->d_name, len + 1);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			break;
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 &&
		    errno == ECONNREFUSED && unlink(sa.sun_path) == 0) {
			n++;
			if (verbose)
				log_info("removed stale socket %s",
					 sa.sun_path);
		}
		close(fd);
	}
	closedir(d);
	return n;
}

int run_cleanup(int verbose)
{
	int a = clean_netns(verbose);
	int b = clean_links(verbose);
	int c = clean_sockets(verbose);

	if (b < 0)
		return b;
	return a + b + c;
}
