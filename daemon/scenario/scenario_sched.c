/*
 * scenario_sched.c: a [link A B] section's time-varying impairment, the
 * `schedule` statements or the `trace` CSV file, checked when the
 * scenario loads (errors name the file and line) and turned into a
 * netem_sched by the hosts that run the link: the userspace bridge and
 * the simulator. The trace's path is made absolute at load time so the
 * canonical scenario runs from any directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netem_sched.h"
#include "scenario.h"
#include "scenario_int.h"

/* Traces longer than this are refused rather than read into memory. */
#define SC_TRACE_MAX_BYTES (64u << 20)

static int read_text(const char *path, char **out, size_t *len)
{
	struct stat st;
	char *buf;
	ssize_t n;
	size_t got = 0;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > SC_TRACE_MAX_BYTES) {
		err = S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL) {
		err = -ENOMEM;
		goto out;
	}
	while (got < (size_t)st.st_size &&
	       (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	*out = buf;
	*len = got;
out:
	close(fd);
	return err;
}

int scenario_link_schedule(const struct sc_link *l, struct netem_sched **out,
			   char *err, size_t len)
{
	char why[256] = "";
	char *text = NULL;
	size_t n = 0;
	int rc;

	*out = NULL;
	if (l->sched[0] != '\0') {
		rc = netem_sched_parse(l->sched, out, why, sizeof(why));
		if (rc < 0)
			snprintf(err, len, "schedule: %s", why);
		return rc;
	}
	if (l->trace[0] == '\0')
		return 0;
	rc = read_text(l->trace, &text, &n);
	if (rc < 0) {
		snprintf(err, len, "trace: %s: %s", l->trace,
			 rc == -EFBIG ? "over 64 MiB" : strerror(-rc));
		return rc;
	}
	rc = netem_trace_parse_csv(text, n, out, why, sizeof(why));
	if (rc < 0)
		snprintf(err, len, "trace: %s: %s", l->trace, why);
	free(text);
	return rc;
}

int sc_resolve_path(const char *scenario_path, const char *trace, char *out,
		    size_t len)
{
	char joined[PATH_MAX], dir[PATH_MAX];
	int n;

	if (trace[0] == '/') {
		n = snprintf(joined, sizeof(joined), "%s", trace);
	} else {
		snprintf(dir, sizeof(dir), "%s", scenario_path);
		n = snprintf(joined, sizeof(joined), "%s/%s", dirname(dir),
			     trace);
	}
	if (n < 0 || (size_t)n >= sizeof(joined))
		return -ENAMETOOLONG;
	if (realpath(joined, dir) == NULL)
		return -errno;
	if (strlen(dir) >= len)
		return -ENAMETOOLONG;
	memcpy(out, dir, strlen(dir) + 1);
	return 0;
}

void sc_check_link_sched(struct sc_loader *L, const struct sc_section *s,
			 struct sc_link *l)
{
	struct netem_sched *sched;
	char err[400];
	int rc;

	if (l->sched[0] && l->trace[0]) {
		sc_report(L, sc_key_line(L, s, "trace"), s->name, "trace",
			  "schedule and trace are exclusive: a trace is a "
			  "schedule of steps");
		return;
	}
	if (l->trace[0]) {
		char abs[SC_SCHED_MAX];

		rc = sc_resolve_path(L->path, l->trace, abs, sizeof(abs));
		if (rc < 0) {
			sc_report(L, sc_key_line(L, s, "trace"), s->name,
				  "trace", "%s: %s", l->trace, strerror(-rc));
			return;
		}
		memcpy(l->trace, abs, sizeof(abs));
	}
	rc = scenario_link_schedule(l, &sched, err, sizeof(err));
	if (rc < 0) {
		sc_report(L, sc_key_line(L, s, l->trace[0] ? "trace" : "schedule"),
			  s->name, l->trace[0] ? "trace" : "schedule", "%s",
			  strchr(err, ' ') + 1);
		return;
	}
	netem_sched_free(sched);
	if ((l->sched[0] || l->trace[0]) &&
	    L->sc->backend == SC_BACKEND_KERNEL &&
	    L->sc->mode == SC_MODE_EMULATE)
		sc_report(L, sc_key_line(L, s, l->trace[0] ? "trace" : "schedule"),
			  s->name, l->trace[0] ? "trace" : "schedule",
			  "needs backend = userspace (the kernel backend "
			  "changes specs only at [schedule] times)");
}
