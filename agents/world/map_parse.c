/*
 * map_parse.c: the map text format (docs/world.md, "Map format"). Two
 * passes over a private copy of the buffer: first the grid between
 * "grid" and "end" is read into cells and marker letters, then the header
 * directives are applied, so a header line can name marker letters drawn
 * anywhere in the grid. Every error names its line; nothing is written to
 * the caller's map unless the whole file is valid.
 */
#include "map.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOK 40

struct line {
	char *s;
	int no;
};

static int fail(char *err, size_t errlen, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int line, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (err && errlen) {
		k = snprintf(err, errlen, "line %d: ", line);
		if (k >= 0 && (size_t)k < errlen) {
			va_start(ap, fmt);
			vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
			va_end(ap);
		}
	}
	return -EINVAL;
}

static int tokenize(char *s, char **tok, int max)
{
	int n = 0;
	char *hash = strchr(s, '#');

	if (hash)
		*hash = '\0'; /* header comments */
	while (*s) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		if (n == max)
			return -E2BIG;
		tok[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Record why a field failed and return the error code. */
static int why_err(const char **why, const char *msg, int rc)
{
	*why = msg;
	return rc;
}

static int is_marker(int c)
{
	return isalnum(c);
}

static int copy_name(char *dst, const char *src)
{
	size_t n = strlen(src);

	if (n == 0 || n >= MAP_NAME_LEN)
		return -EINVAL;
	memcpy(dst, src, n + 1);
	return 0;
}

/* Cells named by a position: one marker letter (every cell holding it) or
 * "COL ROW". Writes up to max cell indices; returns the count or <0. */
static int resolve_pos(const struct map *m, char **tok, int ntok, int *cells,
		       int max, const char **why)
{
	long c, r;
	int n = 0;

	if (ntok == 1 && strlen(tok[0]) == 1 &&
	    is_marker((unsigned char)tok[0][0])) {
		for (int i = 0; i < m->w * m->h; i++) {
			if (m->marks[i] != tok[0][0])
				continue;
			if (n == max)
				return why_err(why,
					       "marker used on too many cells",
					       -E2BIG);
			cells[n++] = i;
		}
		if (n == 0)
			return why_err(why,
				       "marker letter not found in the grid",
				       -ENOENT);
		return n;
	}
	if (ntok == 2 && parse_int(tok[0], 0, m->w - 1, &c) == 0 &&
	    parse_int(tok[1], 0, m->h - 1, &r) == 0) {
		cells[0] = (int)(r * m->w + c);
		if (m->cells[cells[0]] == MAP_WALL)
			return why_err(why, "position is inside a wall",
				       -EINVAL);
		return 1;
	}
	return why_err(why, "position must be one marker letter or COL ROW",
		       -EINVAL);
}

static void cell_centre(const struct map *m, int idx, double *x, double *y)
{
	*x = ((idx % m->w) + 0.5) * m->cell;
	*y = ((idx / m->w) + 0.5) * m->cell;
}

static int parse_grid(struct map *m, struct line *ln, int first, int last)
{
	size_t w = 0;

	for (int i = first; i < last; i++) {
		size_t n = strlen(ln[i].s);

		while (n > 0 &&
		       (ln[i].s[n - 1] == '\r' || ln[i].s[n - 1] == ' '))
			ln[i].s[--n] = '\0';
		if (n > w)
			w = n;
	}
	m->w = (int)w;
	m->h = last - first;
	if (m->w == 0 || m->h == 0 || m->w > MAP_MAX_DIM || m->h > MAP_MAX_DIM)
		return -ERANGE;
	m->cells = malloc(w * (size_t)m->h);
	m->marks = calloc(w * (size_t)m->h, 1);
	if (!m->cells || !m->marks)
		return -ENOMEM;
	memset(m->cells, MAP_WALL, w * (size_t)m->h);
	return 0;
}

static int apply(struct map *m, char **tok, int nt, int line, char *err,
		 size_t errlen, int *seen_version)
{
	int cells[MAP_MAX_DIM];
	const char *why = "";
	long l;
	double d;
	int n;

	if (strcmp(tok[0], "reckon-map") == 0) {
		if (nt != 2 || strcmp(tok[1], "1"))
			return fail(err, errlen, line,
				    "unsupported format version (want "
				    "'reckon-map 1')");
		*seen_version = 1;
		return 0;
	}
	if (!*seen_version)
		return fail(err, errlen, line,
			    "first directive must be 'reckon-map 1'");
	if (strcmp(tok[0], "name") == 0) {
		if (nt != 2 || strlen(tok[1]) >= sizeof(m->name))
			return fail(err, errlen, line, "usage: name NAME");
		snprintf(m->name, sizeof(m->name), "%s", tok[1]);
	} else if (strcmp(tok[0], "mode") == 0) {
		static const char *modes[] = {"defuse", "deathmatch", "teams",
					      "loop"};
		int k = -1;

		for (int i = 0; nt == 2 && i < 4; i++)
			if (strcmp(tok[1], modes[i]) == 0)
				k = i;
		if (k < 0)
			return fail(err, errlen, line,
				    "mode must be defuse, deathmatch, teams "
				    "or loop");
		m->mode = (enum map_mode)k;
	} else if (strcmp(tok[0], "cell") == 0) {
		/* handled before the grid: see map_parse */
	} else if (strcmp(tok[0], "team") == 0) {
		if (nt != 3 || parse_int(tok[1], 1, MAP_MAX_TEAMS, &l) ||
		    copy_name(m->team_name[l], tok[2]))
			return fail(err, errlen, line,
				    "usage: team ID(1-%d) NAME", MAP_MAX_TEAMS);
		if (l > m->nteams)
			m->nteams = (int)l;
	} else if (strcmp(tok[0], "spawn") == 0) {
		if (nt < 3 || parse_int(tok[1], 0, MAP_MAX_TEAMS, &l))
			return fail(err, errlen, line, "usage: spawn TEAM POS");
		if (l > 0 && !m->team_name[l][0])
			return fail(err, errlen, line,
				    "team %ld not declared before", l);
		n = resolve_pos(m, tok + 2, nt - 2, cells, MAP_MAX_DIM, &why);
		if (n < 0)
			return fail(err, errlen, line, "spawn: %s", why);
		for (int i = 0; i < n; i++) {
			struct map_spawn *s = &m->spawns[m->nspawns];

			if (m->nspawns == MAP_MAX_SPAWNS)
				return fail(err, errlen, line,
					    "more than %d spawns",
					    MAP_MAX_SPAWNS);
			s->team = (uint8_t)l;
			cell_centre(m, cells[i], &s->x, &s->y);
			m->nspawns++;
		}
	} else if (strcmp(tok[0], "objective") == 0) {
		struct map_objective *o = &m->obj[m->nobj];
		double sx = 0, sy = 0, r = 0;

		if (nt < 3 || copy_name(o->name, tok[1]))
			return fail(err, errlen, line,
				    "usage: objective NAME POS");
		if (m->nobj == MAP_MAX_OBJ)
			return fail(err, errlen, line,
				    "more than %d objectives", MAP_MAX_OBJ);
		if (map_find_objective(m, tok[1]) >= 0)
			return fail(err, errlen, line,
				    "objective '%s' defined twice", tok[1]);
		n = resolve_pos(m, tok + 2, nt - 2, cells, MAP_MAX_DIM, &why);
		if (n < 0)
			return fail(err, errlen, line, "objective: %s", why);
		for (int i = 0; i < n; i++) {
			double x, y;

			cell_centre(m, cells[i], &x, &y);
			sx += x;
			sy += y;
		}
		o->x = sx / n;
		o->y = sy / n;
		for (int i = 0; i < n; i++) {
			double x, y;

			cell_centre(m, cells[i], &x, &y);
			if (hypot(x - o->x, y - o->y) > r)
				r = hypot(x - o->x, y - o->y);
		}
		o->r = r + m->cell / 2;
		m->nobj++;
	} else if (strcmp(tok[0], "item") == 0) {
		static const char *kinds[] = {"health", "armor", "weapon",
					      "ammo"};
		int k = -1;
		long amount;

		for (int i = 0; nt >= 5 && i < 4; i++)
			if (strcmp(tok[1], kinds[i]) == 0)
				k = i;
		if (k < 0 || parse_int(tok[2], 1, 1000, &amount) ||
		    parse_num(tok[3], 0, 3600, &d))
			return fail(err, errlen, line,
				    "usage: item health|armor|weapon|ammo "
				    "AMOUNT RESPAWN_S POS");
		n = resolve_pos(m, tok + 4, nt - 4, cells, MAP_MAX_DIM, &why);
		if (n < 0)
			return fail(err, errlen, line, "item: %s", why);
		for (int i = 0; i < n; i++) {
			struct map_item *it = &m->items[m->nitems];

			if (m->nitems == MAP_MAX_ITEMS)
				return fail(err, errlen, line,
					    "more than %d items",
					    MAP_MAX_ITEMS);
			it->kind = (enum map_item_kind)k;
			it->amount = (int)amount;
			it->respawn_s = d;
			cell_centre(m, cells[i], &it->x, &it->y);
			m->nitems++;
		}
	} else if (strcmp(tok[0], "waypoint") == 0) {
		struct map_waypoint *w = &m->waypoints[m->nwaypoints];

		if (nt < 3 || copy_name(w->name, tok[1]))
			return fail(err, errlen, line,
				    "usage: waypoint NAME POS");
		if (m->nwaypoints == MAP_MAX_WAYPOINTS)
			return fail(err, errlen, line, "more than %d waypoints",
				    MAP_MAX_WAYPOINTS);
		if (map_find_waypoint(m, tok[1]) >= 0)
			return fail(err, errlen, line,
				    "waypoint '%s' defined twice", tok[1]);
		n = resolve_pos(m, tok + 2, nt - 2, cells, MAP_MAX_DIM, &why);
		if (n < 0)
			return fail(err, errlen, line, "waypoint: %s", why);
		if (n != 1)
			return fail(err, errlen, line,
				    "waypoint marker must mark one cell");
		cell_centre(m, cells[0], &w->x, &w->y);
		m->nwaypoints++;
	} else if (strcmp(tok[0], "route") == 0) {
		struct map_route *r = &m->routes[m->nroutes];
		int i = 2;

		if (nt < 3 || copy_name(r->name, tok[1]))
			return fail(err, errlen, line,
				    "usage: route NAME [loop] WAYPOINT...");
		if (m->nroutes == MAP_MAX_ROUTES)
			return fail(err, errlen, line, "more than %d routes",
				    MAP_MAX_ROUTES);
		if (map_find_route(m, tok[1]) >= 0)
			return fail(err, errlen, line,
				    "route '%s' defined twice", tok[1]);
		r->loop = strcmp(tok[2], "loop") == 0;
		i += r->loop;
		r->n = 0;
		for (; i < nt; i++) {
			int w = map_find_waypoint(m, tok[i]);

			if (w < 0)
				return fail(err, errlen, line,
					    "route: unknown waypoint '%s' "
					    "(declare waypoints first)",
					    tok[i]);
			if (r->n == MAP_MAX_ROUTE_LEN)
				return fail(err, errlen, line,
					    "route longer than %d",
					    MAP_MAX_ROUTE_LEN);
			r->wp[r->n++] = w;
		}
		if (r->n < 1 || (r->loop && r->n < 2))
			return fail(err, errlen, line,
				    "route needs a waypoint (a loop two)");
		m->nroutes++;
	} else {
		return fail(err, errlen, line, "unknown directive '%s'",
			    tok[0]);
	}
	return 0;
}

/* The summed-area table of the walls (map.h), once the grid is final. */
static int sum_walls(struct map *m)
{
	size_t w = (size_t)m->w + 1;

	m->walls = calloc(w * ((size_t)m->h + 1), sizeof(*m->walls));
	if (!m->walls)
		return -ENOMEM;
	for (size_t y = 0; y < (size_t)m->h; y++)
		for (size_t x = 0; x < (size_t)m->w; x++)
			m->walls[(y + 1) * w + x + 1] =
				m->walls[y * w + x + 1] +
				m->walls[(y + 1) * w + x] -
				m->walls[y * w + x] +
				(m->cells[y * (size_t)m->w + x] == MAP_WALL);
	return 0;
}

int map_parse(const char *buf, size_t len, struct map *out, char *err,
	      size_t errlen)
{
	struct map *m;
	struct line *ln = NULL;
	char *copy, *p, *tok[MAX_TOK];
	int nl = 0, grid = -1, end = -1, rc = 0, seen_version = 0;

	if (memchr(buf, '\0', len))
		return fail(err, errlen, 1, "NUL byte in map text");
	m = calloc(1, sizeof(*m));
	copy = malloc(len + 1);
	ln = malloc((len + 2) * sizeof(*ln));
	if (!m || !copy || !ln) {
		free(m);
		free(copy);
		free(ln);
		return -ENOMEM;
	}
	memcpy(copy, buf, len);
	copy[len] = '\0';
	for (p = copy;;) {
		char *nlc = strchr(p, '\n');

		ln[nl].s = p;
		ln[nl].no = nl + 1;
		nl++;
		if (!nlc)
			break;
		*nlc = '\0';
		p = nlc + 1;
	}
	/* find the grid section and the cell size first */
	for (int i = 0; i < nl; i++) {
		char tmp[64];
		int nt;

		if (grid < 0) {
			snprintf(tmp, sizeof(tmp), "%s", ln[i].s);
			nt = tokenize(tmp, tok, MAX_TOK);
			if (nt == 1 && strcmp(tok[0], "grid") == 0)
				grid = i;
			if (nt == 2 && strcmp(tok[0], "cell") == 0 &&
			    parse_num(tok[1], 1, 4096, &m->cell)) {
				rc = fail(err, errlen, ln[i].no,
					  "cell size must be 1..4096 units");
				goto out;
			}
		} else {
			char *s = ln[i].s;

			while (*s == ' ' || *s == '\t')
				s++;
			if (strncmp(s, "end", 3) == 0 &&
			    (s[3] == '\0' || isspace((unsigned char)s[3]))) {
				end = i;
				break;
			}
		}
	}
	if (grid < 0) {
		rc = fail(err, errlen, nl, "no 'grid' line");
		goto out;
	}
	if (end < 0) {
		rc = fail(err, errlen, grid + 1, "grid not closed by 'end'");
		goto out;
	}
	if (m->cell <= 0) {
		rc = fail(err, errlen, grid + 1, "no 'cell SIZE' before grid");
		goto out;
	}
	for (int i = end + 1; i < nl; i++) {
		int nt = tokenize(ln[i].s, tok, MAX_TOK);

		if (nt != 0) {
			rc = fail(err, errlen, ln[i].no,
				  "text after the grid's 'end'");
			goto out;
		}
	}
	rc = parse_grid(m, ln, grid + 1, end);
	if (rc == -ERANGE) {
		rc = fail(err, errlen, grid + 1,
			  "grid must be 1..%d cells each way", MAP_MAX_DIM);
		goto out;
	} else if (rc) {
		goto out;
	}
	for (int r = 0; r < m->h; r++) {
		const char *s = ln[grid + 1 + r].s;

		for (int c = 0; s[c]; c++) {
			size_t i = (size_t)r * (size_t)m->w + (size_t)c;
			unsigned char ch = (unsigned char)s[c];

			if (ch == '#' || ch == ' ') {
				m->cells[i] = MAP_WALL;
			} else if (ch == '.') {
				m->cells[i] = MAP_FLOOR;
			} else if (ch == '+') {
				m->cells[i] = MAP_DOOR;
			} else if (is_marker(ch)) {
				m->cells[i] = MAP_FLOOR;
				m->marks[i] = (char)ch;
			} else {
				rc = fail(err, errlen, ln[grid + 1 + r].no,
					  "column %d: unknown grid character "
					  "0x%02x (use # . + space or a "
					  "letter/digit marker)",
					  c + 1, ch);
				goto out;
			}
		}
	}
	for (int i = 0; i < grid; i++) {
		int nt = tokenize(ln[i].s, tok, MAX_TOK);

		if (nt < 0) {
			rc = fail(err, errlen, ln[i].no, "too many words");
			goto out;
		}
		if (nt == 0)
			continue;
		rc = apply(m, tok, nt, ln[i].no, err, errlen, &seen_version);
		if (rc)
			goto out;
	}
	if (!seen_version) {
		rc = fail(err, errlen, 1, "missing 'reckon-map 1'");
		goto out;
	}
	if (m->nspawns == 0) {
		rc = fail(err, errlen, grid + 1, "map has no spawn");
		goto out;
	}
	rc = sum_walls(m);
out:
	free(copy);
	free(ln);
	if (rc) {
		map_free(m);
		free(m);
		return rc;
	}
	*out = *m;
	free(m);
	return 0;
}

int map_read(FILE *f, struct map *out, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	for (;;) {
		size_t got;

		if (cap - len < 4096) {
			char *p;

			if (cap > (1u << 24)) {
				free(buf);
				return fail(err, errlen, 0,
					    "map file larger than 16 MiB");
			}
			p = realloc(buf, cap ? cap * 2 : 8192);
			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
			cap = cap ? cap * 2 : 8192;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		return -EIO;
	}
	rc = map_parse(buf, len, out, err, errlen);
	free(buf);
	return rc;
}
