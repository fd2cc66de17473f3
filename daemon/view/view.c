/*
 * view.c: `reckonctl view [-o FILE] [--host NAME] [--map NAME]
 * [--points N] RUN_DIR`. It picks the observer whose frames-HOST.csv is
 * in RUN_DIR (the first by name, or --host), reads its samples, arrivals
 * and lane names, every grid-*.csv and events-*.csv, draws the run's map
 * with the world library's SVG writer, and writes one HTML file (default
 * RUN_DIR/view.html) holding the map, the data as JSON and the script
 * that draws it: no file or network access is needed to open it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_io.h"
#include "util.h"
#include "view_int.h"
#include "world/map.h"
#include "world/map_svg.h"

#define MAP_WIDTH_PX 900

struct view_opts {
	const char *run, *out, *host, *map;
	size_t points;
};

static int usage(void)
{
	fprintf(stderr, "usage: reckonctl view [-o FILE] [--host NAME] "
			"[--map NAME] [--points N] RUN_DIR\n");
	return 2;
}

/* Options, each with its value in the next argument, and one RUN_DIR. */
static int parse(struct view_opts *o, int argc, char *argv[])
{
	long v;

	memset(o, 0, sizeof(*o));
	o->points = 4000;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i],
			   *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (a[0] != '-' || !a[1]) {
			if (o->run)
				return usage();
			o->run = a;
			continue;
		}
		if (!val) {
			fprintf(stderr, "reckonctl view: %s needs a value\n",
				a);
			return usage();
		}
		i++;
		if (!strcmp(a, "-o") || !strcmp(a, "--output"))
			o->out = val;
		else if (!strcmp(a, "--host"))
			o->host = val;
		else if (!strcmp(a, "--map"))
			o->map = val;
		else if (!strcmp(a, "--points") &&
			 !csv_long(val, 100, 10000000, &v))
			o->points = (size_t)v;
		else {
			fprintf(stderr, "reckonctl view: bad option %s %s\n", a,
				val);
			return usage();
		}
	}
	return o->run ? 0 : usage();
}

/* Names of files PREFIX-*.csv in dir, sorted; the caller frees. */
static int list(const char *dir, const char *prefix, char ***out, size_t *n)
{
	struct dirent **ents;
	int m = scandir(dir, &ents, NULL, alphasort);
	size_t pl = strlen(prefix);

	*out = NULL;
	*n = 0;
	if (m < 0)
		return -errno;
	*out = calloc((size_t)m + 1, sizeof(char *));
	for (int i = 0; i < m; i++) {
		const char *s = ents[i]->d_name;
		size_t sl = strlen(s);

		if (*out && !strncmp(s, prefix, pl) && s[pl] == '-' &&
		    sl > pl + 5 && !strcmp(s + sl - 4, ".csv"))
			(*out)[(*n)++] = strdup(s);
		free(ents[i]);
	}
	free(ents);
	return *out ? 0 : -ENOMEM;
}

static void list_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Files PREFIX-*.csv in dir, or -errno. */
static long count(const char *dir, const char *prefix)
{
	char **v;
	size_t n;
	int err = list(dir, prefix, &v, &n);

	if (err)
		return err;
	list_free(v, n);
	return (long)n;
}

/* The observers: --host, or every frames-HOST.csv (at most
 * VIEW_MAX_HOSTS, by name); none for a run with events and no observer
 * recording (an fps run). */
static int pick_hosts(const struct view_opts *o, struct view_data *d)
{
	char **v, rep[PATH_MAX];
	size_t n;
	int err = list(o->run, "frames", &v, &n);

	if (err) {
		fprintf(stderr, "reckonctl view: %s: %s\n", o->run,
			strerror(-err));
		return err;
	}
	if (o->host)
		snprintf(d->host[d->n_host++], sizeof(d->host[0]), "%s",
			 o->host);
	for (size_t i = 0; !o->host && i < n; i++) {
		if (d->n_host == VIEW_MAX_HOSTS) {
			fprintf(stderr,
				"reckonctl view: more than %d observers; "
				"the first %d drawn (--host NAME for "
				"another)\n",
				VIEW_MAX_HOSTS, VIEW_MAX_HOSTS);
			break;
		}
		snprintf(d->host[d->n_host++], sizeof(d->host[0]), "%.*s",
			 (int)(strlen(v[i]) - 11), v[i] + 7);
	}
	list_free(v, n);
	if (d->n_host || count(o->run, "events") > 0)
		return 0;
	snprintf(rep, sizeof(rep), "%s/rep-1", o->run);
	fprintf(stderr,
		"reckonctl view: %s has no frames-HOST.csv and no "
		"events-*.csv: run the observer with --samples HZ "
		"(docs/viewer.md)%s\n",
		o->run,
		access(rep, F_OK) ? ""
				  : "; with repetitions, give a rep-N "
				    "directory");
	return -ENOENT;
}

static int read_observer(const struct view_opts *o, const char *host,
			 struct view_data *d, char *why, size_t wlen)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/frames-%s.csv", o->run, host);
	err = view_read_frames(d, path, why, wlen);
	snprintf(path, sizeof(path), "%s/arrivals-%s.csv", o->run, host);
	if (!err)
		err = view_read_arrivals(d, path, why, wlen);
	snprintf(path, sizeof(path), "%s/metrics-%s.csv", o->run, host);
	if (!err)
		view_read_lanes(d, path);
	return err;
}

static int read_all(const struct view_opts *o, struct view_data *d)
{
	const char *kinds[] = {"grid", "events"};
	char path[PATH_MAX], why[PATH_MAX + 128] = "";
	int err;

	err = 0;
	for (size_t h = 0; !err && h < d->n_host; h++) {
		d->cur = (int)h;
		err = read_observer(o, d->host[h], d, why, sizeof(why));
	}
	for (int k = 0; !err && k < 2; k++) {
		char **v;
		size_t n;

		err = list(o->run, kinds[k], &v, &n);
		for (size_t i = 0; !err && i < n; i++) {
			snprintf(path, sizeof(path), "%s/%s", o->run, v[i]);
			err = k ? view_read_events(d, path, why, sizeof(why))
				: view_read_grids(d, path, why, sizeof(why));
		}
		list_free(v, n);
	}
	if (err)
		fprintf(stderr, "reckonctl view: %s\n",
			why[0] ? why : strerror(-err));
	return err;
}

/* The map as inline SVG (the XML declaration left out) and its scale,
 * px per game unit; "" and 0 without a map. */
static char *map_svg(const struct view_opts *o, double *k)
{
	char name[256], path[PATH_MAX + 64], scen[PATH_MAX], why[256] = "";
	struct map_svg_opts so = {.width_px = MAP_WIDTH_PX};
	struct map m;
	char *buf = NULL, *body;
	size_t len = 0;
	FILE *f, *mf;
	int rc;

	*k = 0;
	snprintf(scen, sizeof(scen), "%s/scenario.ini", o->run);
	if (o->map)
		snprintf(name, sizeof(name), "%s", o->map);
	else if (view_read_map_name(scen, name, sizeof(name)))
		return strdup("");
	mf = agent_map_open(name, path, sizeof(path));
	if (!mf) {
		fprintf(stderr,
			"reckonctl view: map '%s' not found; drawing "
			"without it (--map NAME or $RECKON_MAP_DIR)\n",
			name);
		return strdup("");
	}
	rc = map_read(mf, &m, why, sizeof(why));
	fclose(mf);
	if (rc) {
		fprintf(stderr, "reckonctl view: %s: %s; drawing without it\n",
			path, why[0] ? why : strerror(-rc));
		return strdup("");
	}
	f = open_memstream(&buf, &len);
	if (f && map_svg_write(f, &m, &so) == 0)
		*k = MAP_WIDTH_PX / (m.w * m.cell);
	if (f)
		fclose(f);
	map_free(&m);
	if (!buf || !*k) {
		free(buf);
		*k = 0;
		return strdup("");
	}
	body = strstr(buf, "<svg");
	memmove(buf, body ? body : buf, strlen(body ? body : buf) + 1);
	return buf;
}

static int write_page(const struct view_opts *o, struct view_data *d,
		      const char *svg, double k)
{
	char out[PATH_MAX], tmp[PATH_MAX + 16];
	FILE *f;

	if (o->out)
		snprintf(out, sizeof(out), "%s", o->out);
	else
		snprintf(out, sizeof(out), "%s/view.html", o->run);
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "reckonctl view: %s: %s\n", tmp,
			strerror(errno));
		return -errno;
	}
	fputs(view_page_head, f);
	fprintf(f,
		"<div id=\"map\" data-k=\"%.9g\">%s<canvas id=\"cv\">"
		"</canvas></div>\n",
		k, svg);
	fputs("<script id=\"data\" type=\"application/json\">{\"hosts\":[", f);
	for (size_t h = 0; h < d->n_host; h++) {
		fputs(h ? "," : "", f);
		view_json_str(f, d->host[h]);
	}
	fputc(']', f);
	fputs(",\"run\":", f);
	view_json_str(f, o->run);
	fprintf(f, ",\"k\":%.9g,\"d\":", k);
	view_json_write(f, d, o->points);
	fputs("}</script>\n", f);
	fputs(view_page_tail, f);
	if (ferror(f) | fclose(f) || rename(tmp, out)) {
		fprintf(stderr, "reckonctl view: writing %s failed\n", out);
		unlink(tmp);
		return -EIO;
	}
	printf("%s\n", out);
	return 0;
}

int ctl_view(int argc, char *argv[])
{
	struct view_opts o;
	struct view_data d = {0};
	char *svg;
	double k;
	int err;

	if (parse(&o, argc, argv))
		return 2;
	if (pick_hosts(&o, &d) || read_all(&o, &d)) {
		view_data_free(&d);
		return 1;
	}
	if (d.n_host && d.n_fr == 0)
		fprintf(stderr,
			"reckonctl view: the frames files of %s have "
			"no samples\n",
			o.run);
	svg = map_svg(&o, &k);
	err = svg ? write_page(&o, &d, svg, k) : -ENOMEM;
	free(svg);
	if (d.bad_rows)
		fprintf(stderr, "reckonctl view: %zu malformed rows skipped\n",
			d.bad_rows);
	view_data_free(&d);
	return err ? 1 : 0;
}
