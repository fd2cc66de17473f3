/*
 * results.c: writes a run's results directory (see results.h). Every file
 * is written to a temporary name and renamed into place, so a reader never
 * sees half a file; CSV has a header row and JSON is one object per file.
 */
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "results.h"
#include "util.h"

int results_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int results_mkdirs(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int results_mkdir_run(const char *parent, const char *name, char *out,
		      size_t outlen)
{
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	int err = results_mkdirs(parent);

	if (err < 0)
		return err;
	if (localtime_r(&now, &tm) == NULL)
		return -EINVAL;
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (unsigned k = 1; k < 100; k++) {
		int e = k == 1 ? results_path(out, outlen, "%s/%s-%s", parent,
					      name, stamp)
			       : results_path(out, outlen, "%s/%s-%s-%u",
					      parent, name, stamp, k);

		if (e < 0)
			return e;
		if (mkdir(out, 0755) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

FILE *results_open_tmp(const char *path, char *tmp, size_t tmplen)
{
	if (results_path(tmp, tmplen, "%s.tmp", path) < 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(tmp, "we");
}

int results_commit(FILE *f, const char *tmp, const char *path)
{
	int err = 0;

	/* the buffered tail fails here on a full disk: keep its errno */
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		err = errno ? -errno : -EIO;
	if (fclose(f) != 0 && err == 0)
		err = errno ? -errno : -EIO;
	if (err) {
		unlink(tmp);
		return err;
	}
	if (rename(tmp, path) < 0) {
		err = -errno;
		unlink(tmp);
		return err;
	}
	return 0;
}

void results_csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputs(",", f);
}

void results_json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

size_t results_split_csv(char *line, char **f, size_t max)
{
	int n;

	line[strcspn(line, "\r\n")] = '\0';
	n = csv_split(line, f, max > INT_MAX ? INT_MAX : (int)max);
	return n < 0 ? max + 1 : (size_t)n;
}

int results_has_token(const char *list, const char *tok, size_t n)
{
	while (*list) {
		size_t l = strcspn(list, " ");

		if (l == n && !strncmp(list, tok, n))
			return 1;
		list += l;
		list += strspn(list, " ");
	}
	return 0;
}

/* dir/name through a temporary file. */
static FILE *open_tmp(const char *dir, const char *name, char *path,
		      size_t plen, char *tmp, size_t tmplen)
{
	if (results_path(path, plen, "%s/%s", dir, name) < 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return results_open_tmp(path, tmp, tmplen);
}

int results_scenario(const char *dir, const struct scenario *sc)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f = open_tmp(dir, "scenario.ini", path, sizeof(path), tmp,
			   sizeof(tmp));
	int err;

	if (f == NULL)
		return -errno;
	err = scenario_print(f, sc);
	if (err < 0) {
		fclose(f);
		unlink(tmp);
		return err;
	}
	return results_commit(f, tmp, path);
}

static void csv_row(FILE *f, unsigned rep, const char *src, const char *dst,
		    const struct netem_counters *c)
{
	fprintf(f,
		"%u,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 "\n",
		rep, src, dst, c->in, c->delivered, c->drop_loss, c->drop_limit,
		c->duplicated, c->corrupted, c->reordered, c->ecn_marked,
		c->bytes_in, c->bytes_delivered);
}

static void json_row(FILE *f, const char *src, const char *dst,
		     const struct netem_counters *c, int last)
{
	fprintf(f,
		"    {\"src\": \"%s\", \"dst\": \"%s\", \"in\": %" PRIu64
		", \"delivered\": %" PRIu64 ", \"drop_loss\": %" PRIu64
		", \"drop_limit\": %" PRIu64 ", \"duplicated\": %" PRIu64
		", \"corrupted\": %" PRIu64 ", \"reordered\": %" PRIu64
		", \"ecn_marked\": %" PRIu64 ", \"bytes_in\": %" PRIu64
		", \"bytes_delivered\": %" PRIu64 "}%s\n",
		src, dst, c->in, c->delivered, c->drop_loss, c->drop_limit,
		c->duplicated, c->corrupted, c->reordered, c->ecn_marked,
		c->bytes_in, c->bytes_delivered, last ? "" : ",");
}

int results_counters(const char *dir, const struct scenario *sc, unsigned rep,
		     uint64_t seed, const struct netem_counters *c)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	unsigned n = sc->nhosts, k = 0, total = n * (n - 1);
	FILE *f;
	int err;

	/* Host names are [A-Za-z0-9_-] (scenario.c checks), so they need no
	 * CSV quoting or JSON escaping. */
	f = open_tmp(dir, "counters.csv", path, sizeof(path), tmp, sizeof(tmp));
	if (f == NULL)
		return -errno;
	fprintf(f, "rep,src,dst,in,delivered,drop_loss,drop_limit,duplicated,"
		   "corrupted,reordered,ecn_marked,bytes_in,bytes_delivered\n");
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++)
			if (i != j)
				csv_row(f, rep, sc->hosts[i].name,
					sc->hosts[j].name, &c[i * n + j]);
	err = results_commit(f, tmp, path);
	if (err < 0)
		return err;

	f = open_tmp(dir, "counters.json", path, sizeof(path), tmp,
		     sizeof(tmp));
	if (f == NULL)
		return -errno;
	fprintf(f,
		"{\n  \"scenario\": \"%s\",\n  \"rep\": %u,\n"
		"  \"seed\": %" PRIu64 ",\n  \"links\": [\n",
		sc->name, rep, seed);
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++)
			if (i != j)
				json_row(f, sc->hosts[i].name,
					 sc->hosts[j].name, &c[i * n + j],
					 ++k == total);
	fprintf(f, "  ]\n}\n");
	return results_commit(f, tmp, path);
}

int results_hosts(const char *dir, const struct scenario *sc, unsigned rep,
		  const struct results_host *h)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f = open_tmp(dir, "hosts.csv", path, sizeof(path), tmp,
			   sizeof(tmp));

	if (f == NULL)
		return -errno;
	fprintf(f, "rep,host,addr,pid,status,outcome\n");
	for (unsigned i = 0; i < sc->nhosts; i++)
		fprintf(f, "%u,%s,%s,%d,%d,%s\n", rep, sc->hosts[i].name,
			sc->hosts[i].addr, (int)h[i].pid, h[i].status,
			h[i].outcome);
	return results_commit(f, tmp, path);
}

/* Is line (NUL terminated) a reckon-agent line that is no warning or
 * statistic? */
static int agent_cause(const char *line)
{
	return !strncmp(line, "reckon-agent", 12) && !strstr(line, "warning") &&
	       !strstr(line, "wake-ups") && !strstr(line, "--help");
}

int results_error_line(const char *path, char *out, size_t outlen,
		       unsigned *nlines)
{
	char *line = NULL, agent[512] = "", last[512] = "";
	size_t cap = 0;
	ssize_t n;
	int found = 0;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -errno;
	*nlines = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\r\n")] = '\0';
		++*nlines;
		if (!line[0])
			continue;
		if (!found && strcasestr(line, "error")) {
			snprintf(out, outlen, "%s", line);
			found = 1;
		}
		if (!agent[0] && agent_cause(line))
			snprintf(agent, sizeof(agent), "%s", line);
		snprintf(last, sizeof(last), "%s", line);
	}
	free(line);
	fclose(f);
	if (!found)
		snprintf(out, outlen, "%s", agent[0] ? agent : last);
	return out[0] ? 0 : -ENOENT;
}

int results_tail(const char *path, unsigned lines, char *out, size_t outlen)
{
	char buf[4096];
	size_t o = 0;
	ssize_t n;
	off_t size;
	unsigned seen = 0;
	char *p, *start;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (outlen == 0)
		return -EINVAL;
	if (fd < 0)
		return -errno;
	size = lseek(fd, 0, SEEK_END);
	if (size < 0)
		size = 0;
	if (size > (off_t)(sizeof(buf) - 1))
		lseek(fd, size - (off_t)(sizeof(buf) - 1), SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	start = buf;
	for (p = buf + n; p > buf; p--) {
		if (p[-1] == '\n' && ++seen == lines) {
			start = p;
			break;
		}
	}
	out[0] = '\0';
	for (char *line = strtok(start, "\n"); line != NULL && o < outlen;
	     line = strtok(NULL, "\n")) {
		int w = snprintf(out + o, outlen - o, "  %s\n", line);

		if (w < 0)
			break;
		o += (size_t)w;
	}
	return 0;
}
