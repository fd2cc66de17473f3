/*
 * map_svg.c: SVG rendering of a map for the docs (docs/maps/NAME.svg).
 * Walls are merged into horizontal runs per row so the file stays small;
 * world y grows downwards as in SVG, so no flip is needed. Trace paths
 * break where an entity dies or jumps (respawn).
 */
#include "map_svg.h"

#include <errno.h>
#include <math.h>

static const char *team_colour(int team)
{
	static const char *c[] = {"#7a7a7a", "#d9822b", "#2b6cd9", "#2ba84a",
				  "#a82ba0"};

	return c[team >= 0 && team <= 4 ? team : 0];
}

static const char *item_colour(enum map_item_kind k)
{
	switch (k) {
	case ITEM_HEALTH:
		return "#e03030";
	case ITEM_ARMOR:
		return "#e0c020";
	case ITEM_WEAPON:
		return "#303030";
	default:
		return "#8040c0";
	}
}

static void overlay(FILE *f, const struct map_svg_opts *o, double k)
{
	static const char *pal[] = {"#e6194b", "#3cb44b", "#4363d8", "#f58231",
				    "#911eb4", "#42d4f4", "#f032e6", "#9a6324",
				    "#800000", "#000075"};
	const struct trace *t = o->t;
	int64_t tmax = t->n ? t->s[0].t_ns + (int64_t)(o->seconds * 1e9) : 0;
	uint32_t ids[16];
	size_t ne = trace_entities(t, ids, 16);

	if ((int)ne > o->max_entities)
		ne = (size_t)o->max_entities;
	for (size_t e = 0; e < ne; e++) {
		int open = 0;
		double px = 0, py = 0;

		for (size_t i = 0; i < t->n && t->s[i].t_ns <= tmax; i++) {
			const struct trace_sample *s = &t->s[i];

			if (s->entity != ids[e])
				continue;
			if (!s->alive ||
			    (open && hypot(s->x - px, s->y - py) > 100 + 12)) {
				if (open)
					fprintf(f, "\"/>\n");
				open = 0;
				if (!s->alive)
					continue;
			}
			if (!open) {
				fprintf(f,
					"<path fill=\"none\" stroke=\"%s\" "
					"stroke-width=\"1.5\" "
					"stroke-opacity=\"0.8\" "
					"d=\"M",
					pal[e % 10]);
				open = 1;
			}
			/* thin the line: a point every 12 u is enough */
			if (open == 2 && hypot(s->x - px, s->y - py) < 12)
				continue;
			fprintf(f, " %.1f %.1f", s->x * k, s->y * k);
			open = 2;
			px = s->x;
			py = s->y;
		}
		if (open)
			fprintf(f, "\"/>\n");
	}
}

int map_svg_write(FILE *f, const struct map *m, const struct map_svg_opts *o)
{
	double W = o && o->width_px > 0 ? o->width_px : 900;
	double k = W / (m->w * m->cell), c = m->cell * k;
	double H = m->h * c;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.1f %.1f\" "
		"font-family=\"sans-serif\">\n",
		W, H + 24, W, H + 24);
	fprintf(f,
		"<title>reckon map %s (%s, cell %.0f u, %dx%d cells)"
		"</title>\n",
		m->name, map_mode_name(m->mode), m->cell, m->w, m->h);
	fprintf(f, "<rect width=\"%.1f\" height=\"%.1f\" fill=\"#f4f1ea\"/>\n",
		W, H);
	for (int r = 0; r < m->h; r++) {
		for (int x = 0; x < m->w;) {
			int cell = m->cells[r * m->w + x], run = 1;

			while (x + run < m->w &&
			       m->cells[r * m->w + x + run] == cell)
				run++;
			if (cell != MAP_FLOOR)
				fprintf(f,
					"<rect x=\"%.1f\" y=\"%.1f\" "
					"width=\"%.1f\" height=\"%.1f\" "
					"fill=\"%s\"/>\n",
					x * c, r * c, run * c + 0.5, c + 0.5,
					cell == MAP_WALL ? "#3b3b3b"
							 : "#b07a3c");
			x += run;
		}
	}
	for (int i = 0; i < m->nobj; i++) {
		const struct map_objective *ob = &m->obj[i];

		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
			"fill=\"#ff000022\" stroke=\"#c00000\" "
			"stroke-dasharray=\"4 3\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" "
			"text-anchor=\"middle\" fill=\"#c00000\">%s</text>\n",
			ob->x * k, ob->y * k, ob->r * k, ob->x * k,
			ob->y * k + 6, fmax(12, c * 1.2), ob->name);
	}
	for (int i = 0; i < m->nroutes; i++) {
		const struct map_route *rt = &m->routes[i];

		fprintf(f, "<path fill=\"none\" stroke=\"#5a8a5a\" "
			   "stroke-width=\"1\" stroke-dasharray=\"6 4\" "
			   "d=\"M");
		for (int j = 0; j < rt->n + (rt->loop ? 1 : 0); j++) {
			const struct map_waypoint *w =
				&m->waypoints[rt->wp[j % rt->n]];

			fprintf(f, " %.1f %.1f", w->x * k, w->y * k);
		}
		fprintf(f, "\"><title>route %s</title></path>\n", rt->name);
	}
	for (int i = 0; i < m->nwaypoints; i++)
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
			"fill=\"#2d6a2d\"><title>waypoint %s</title>"
			"</circle>\n",
			m->waypoints[i].x * k, m->waypoints[i].y * k,
			m->waypoints[i].name);
	for (int i = 0; i < m->nspawns; i++)
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
			"fill=\"%s\"><title>spawn team %d</title></circle>\n",
			m->spawns[i].x * k, m->spawns[i].y * k,
			fmax(2.5, c * 0.3), team_colour(m->spawns[i].team),
			m->spawns[i].team);
	for (int i = 0; i < m->nitems; i++) {
		const struct map_item *it = &m->items[i];
		double s = fmax(5, c * 0.5);

		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\"><title>%s %d, respawn "
			"%.0f s</title></rect>\n",
			it->x * k - s / 2, it->y * k - s / 2, s, s,
			item_colour(it->kind), map_item_kind_name(it->kind),
			it->amount, it->respawn_s);
	}
	if (o && o->t)
		overlay(f, o, k);
	fprintf(f,
		"<text x=\"4\" y=\"%.1f\" font-size=\"12\" fill=\"#333\">%s: "
		"%s, %dx%d cells of %.0f u; spawns by team colour, "
		"objectives red, items squares (red health, yellow armor, "
		"black weapon, purple ammo), routes dashed green</text>\n",
		H + 16, m->name, map_mode_name(m->mode), m->w, m->h, m->cell);
	fprintf(f, "</svg>\n");
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
