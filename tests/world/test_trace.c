/*
 * test_trace.c: the trace and events CSV formats, the importer and the
 * checker. Written traces read back equal to the printed precision;
 * malformed files are rejected with their line; the importer maps
 * columns, numbers names and counts bad rows, keeps time right with a row
 * period when rows are rejected, and takes any 32-bit entity ids;
 * trace_check finds each kind of corruption and nothing in a clean trace.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testmap.h"
#include "trace.h"
#include "trace_check.h"
#include "trace_import.h"

static FILE *mem(const char *s)
{
	return fmemopen((void *)s, strlen(s), "r");
}

static void synth(struct trace *t, int ents, int ticks)
{
	trace_init(t);
	t->tick_ns = 15625000;
	t->seed = 77;
	snprintf(t->map, sizeof(t->map), "dust");
	for (int k = 0; k < ticks; k++)
		for (int e = 0; e < ents; e++) {
			struct trace_sample s = {
				.t_ns = k * t->tick_ns,
				.entity = (uint32_t)e * 3,
				.team = (uint8_t)(1 + e % 2),
				.alive = 1,
				.x = 100.123456 + k * 1.5,
				.y = 200 + e * 10.0,
				.z = 0.5,
				.vx = 96,
				.vy = -0.0004,
				.yaw = 359.9994,
				.health = (int16_t)(100 - k),
				.armor = 50,
				.ammo = 30,
				.stance = (uint8_t)(k % 3),
			};
			cr_assert_eq(trace_append(t, &s), 0);
		}
}

Test(world_trace, csv_round_trip)
{
	struct trace a, b;
	char *buf = NULL, err[128] = "";
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	synth(&a, 3, 50);
	cr_assert_eq(trace_write_csv(f, &a), 0);
	fclose(f);
	f = fmemopen(buf, n, "r");
	cr_assert_eq(trace_read_csv(f, &b, err, sizeof(err)), 0, "%s", err);
	fclose(f);
	cr_assert_eq(b.n, a.n);
	cr_assert_eq(b.tick_ns, a.tick_ns);
	cr_assert_eq(b.seed, 77);
	cr_assert_str_eq(b.map, "dust");
	for (size_t i = 0; i < a.n; i++) {
		cr_assert_eq(b.s[i].t_ns, a.s[i].t_ns); /* exact */
		cr_assert_eq(b.s[i].entity, a.s[i].entity);
		cr_assert_eq(b.s[i].team, a.s[i].team);
		cr_assert_eq(b.s[i].stance, a.s[i].stance);
		cr_assert_eq(b.s[i].health, a.s[i].health);
		/* printed with 4 decimals: error at most 5e-5 */
		cr_assert_float_eq(b.s[i].x, a.s[i].x, 5.0001e-5);
		cr_assert_float_eq(b.s[i].vx, a.s[i].vx, 5.0001e-4);
		cr_assert_float_eq(b.s[i].yaw, a.s[i].yaw, 5.0001e-4);
	}
	trace_free(&a);
	trace_free(&b);
	free(buf);
}

Test(world_trace, filter_and_entities)
{
	struct trace a, e;
	uint32_t ids[8];

	synth(&a, 4, 10);
	cr_assert_eq(trace_entities(&a, ids, 8), 4);
	cr_assert_eq(ids[0], 0);
	cr_assert_eq(ids[3], 9);
	cr_assert_eq(trace_entities(&a, ids, 2), 2);
	cr_assert_eq(ids[1], 3);
	cr_assert_eq(trace_filter_entity(&a, 6, &e), 0);
	cr_assert_eq(e.n, 10);
	for (size_t i = 0; i < e.n; i++)
		cr_assert_eq(e.s[i].entity, 6);
	trace_free(&e);
	trace_free(&a);
}

Test(world_trace, minimal_columns_get_defaults)
{
	struct trace t;
	char err[128];
	FILE *f = mem("t_ns,entity,x,y\n0,1,1.5,2\n100,1,2,2\n");

	cr_assert_eq(trace_read_csv(f, &t, err, sizeof(err)), 0, "%s", err);
	fclose(f);
	cr_assert_eq(t.n, 2);
	cr_assert_eq(t.s[0].alive, 1);
	cr_assert_eq(t.s[0].health, 100);
	cr_assert_eq(t.tick_ns, 100); /* inferred */
	trace_free(&t);
}

Test(world_trace, parse_errors_name_the_line)
{
	static const struct {
		const char *text;
		int line;
	} cases[] = {
		{"t,entity,x\n0,1,2\n", 1},			/* no y */
		{"# c\nt,entity,x,y\n0,1,2,3\n0.5,1,x,3\n", 4}, /* bad x */
		{"t,entity,x,y\n0,1,2,3\n0,1,2,3\n", 3},	/* duplicate */
		{"t,entity,x,y\n1,1,2,3\n0.5,1,2,3\n", 3},	/* backwards */
		{"t,entity,x,y,alive\n0,1,2,3,2\n", 2},		/* alive 2 */
		{"t,entity,x,y\n0,-1,2,3\n", 2},		/* entity */
		{"t,entity,x,y\n0,1,nan,3\n", 2},		/* not finite */
		{"t,entity,x,y\n0,1,2\n", 2},			/* short row */
		{"t,entity,x,y\n1e3,1,2,3\n", 2}, /* time format */
		{"", 0},			  /* empty */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trace t = {.n = 12345};
		char err[128] = "", want[32];
		FILE *f = fmemopen((void *)cases[i].text,
				   strlen(cases[i].text) + 1, "r");

		/* +1 keeps fmemopen happy with "", the NUL is rejected too */
		if (!cases[i].text[0]) {
			fclose(f);
			f = fopen("/dev/null", "r");
		}
		cr_assert_eq(trace_read_csv(f, &t, err, sizeof(err)), -EINVAL,
			     "case %zu accepted", i);
		fclose(f);
		snprintf(want, sizeof(want), "line %d:", cases[i].line);
		cr_assert(strncmp(err, want, strlen(want)) == 0,
			  "case %zu: '%s' (want %s)", i, err, want);
		cr_assert_eq(t.n, 12345, "output touched on error");
	}
}

Test(world_trace, events_round_trip_and_errors)
{
	struct trace_events a, b;
	char *buf = NULL, err[128] = "";
	size_t n = 0;
	FILE *f;

	trace_events_init(&a);
	for (int i = 0; i < 5; i++) {
		struct trace_event e = {
			.t_ns = i * 1000000,
			.kind = (enum trace_event_kind)i,
			.entity = (uint32_t)i,
			.target = i == 4 ? TRACE_NONE : 7,
			.x = 1.25,
			.y = -3.5,
			.value = -i,
		};
		cr_assert_eq(trace_events_append(&a, &e), 0);
	}
	f = open_memstream(&buf, &n);
	cr_assert_eq(trace_events_write_csv(f, &a), 0);
	fclose(f);
	f = fmemopen(buf, n, "r");
	cr_assert_eq(trace_events_read_csv(f, &b, err, sizeof(err)), 0, "%s",
		     err);
	fclose(f);
	cr_assert_eq(b.n, 5);
	for (int i = 0; i < 5; i++) {
		cr_assert_eq(b.e[i].kind, a.e[i].kind);
		cr_assert_eq(b.e[i].target, a.e[i].target);
		cr_assert_eq(b.e[i].value, a.e[i].value);
		cr_assert_eq(b.e[i].t_ns, a.e[i].t_ns);
	}
	trace_events_free(&a);
	trace_events_free(&b);
	free(buf);
	f = mem("t,kind,entity,target,x,y,z,value\n0,explode,1,-,0,0,0,0\n");
	cr_assert_eq(trace_events_read_csv(f, &b, err, sizeof(err)), -EINVAL);
	fclose(f);
	cr_assert(strncmp(err, "line 2:", 7) == 0, "%s", err);
}

Test(world_trace, import_maps_columns_and_counts_bad_rows)
{
	struct trace_import_opts o;
	struct trace_import_report rep;
	struct trace t;
	char err[200] = "";
	FILE *f = mem("Name,Team,Position.X,Position.Y,ms\n"
		      "alice,Terrorist,0,0,0\n"
		      "bob,CounterTerrorist,100,100,0\n"
		      "alice,Terrorist,1,0,10\n"
		      "bob,CounterTerrorist,100,99,10\n"
		      "alice,Terrorist,oops,0,20\n"
		      "alice,Terrorist,2,0,20\n"
		      "alice,Terrorist,3,0,20\n");

	trace_import_defaults(&o);
	o.time_scale = 1e-3;
	cr_assert_eq(trace_import_mapping("t=ms,entity=Name,team=Team,"
					  "x=Position.X,y=Position.Y",
					  &o, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(trace_import_csv(f, &o, &t, &rep, err, sizeof(err)), 0,
		     "%s", err);
	fclose(f);
	cr_assert_eq(rep.rows, 7);
	cr_assert_eq(rep.rejected, 1);
	cr_assert_eq(rep.first_bad_line[0], 6);
	cr_assert_eq(rep.duplicates, 1);
	cr_assert_eq(t.n, 5);
	cr_assert_eq(t.tick_ns, 10000000);
	/* alice = 0, bob = 1; teams numbered from 1 */
	cr_assert_eq(t.s[0].entity, 0);
	cr_assert_eq(t.s[1].team, 2);
	/* finite-difference velocity: 1 u in 10 ms = 100 u/s */
	cr_assert_float_eq(t.s[2].vx, 100, 1e-9);
	cr_assert_float_eq(t.s[3].vy, -100, 1e-9);
	cr_assert_float_eq(t.s[3].yaw, 270, 1e-9);
	trace_free(&t);

	trace_import_defaults(&o);
	cr_assert_eq(trace_import_mapping("t=time,x=a", &o, err, sizeof(err)),
		     -EINVAL);
	cr_assert_eq(
		trace_import_mapping("speed=a,x=a,y=b", &o, err, sizeof(err)),
		-EINVAL);
	cr_assert_eq(
		trace_import_mapping("t=time,x=px,y=py", &o, err, sizeof(err)),
		0);
	f = mem("time,px\n0,1\n");
	cr_assert_eq(trace_import_csv(f, &o, &t, &rep, err, sizeof(err)),
		     -EINVAL);
	fclose(f);
	cr_assert(strstr(err, "py"), "%s", err);
}

/* --tick-ms: each entity's rows are numbered in file order, and a
 * rejected row keeps its number, so the rows after it stay at their
 * time. Two players walk east at 120 u/s (1.2 u per 10 ms row); alice has
 * a malformed row in the middle, bob has none. */
Test(world_trace, import_tick_rejected_rows_keep_their_slot)
{
	struct trace_import_opts o;
	struct trace_import_report rep;
	struct trace t;
	char err[200] = "";
	char *csv = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&csv, &len);

	fprintf(f, "who,px,py\n");
	for (int k = 0; k < 10; k++) {
		if (k == 4)
			fprintf(f, "alice,oops,0\n");
		else
			fprintf(f, "alice,%.1f,0\n", 1.2 * k);
		fprintf(f, "bob,%.1f,50\n", 1.2 * k);
	}
	fprintf(f, ",1,1\n"); /* no entity: no slot to use, skipped */
	fclose(f);
	trace_import_defaults(&o);
	o.tick_ns = 10000000;
	cr_assert_eq(trace_import_mapping("entity=who,x=px,y=py", &o, err,
					  sizeof(err)),
		     0, "%s", err);
	f = mem(csv);
	cr_assert_eq(trace_import_csv(f, &o, &t, &rep, err, sizeof(err)), 0,
		     "%s", err);
	fclose(f);
	cr_assert_eq(rep.rows, 21);
	cr_assert_eq(rep.rejected, 2);
	cr_assert_eq(t.n, 19);
	cr_assert_eq(t.tick_ns, 10000000);
	for (size_t i = 0; i < t.n; i++) {
		const struct trace_sample *s = &t.s[i];
		int k = (int)llround(s->x / 1.2);

		/* the sample's time is its row's slot */
		cr_assert_eq(s->t_ns, (int64_t)k * 10000000, "entity %u x %g",
			     s->entity, s->x);
		cr_assert(s->entity != 0 || k != 4, "the bad row came back");
		/* the true speed, also across alice's gap (20 ms, 2.4 u) */
		if (k > 0)
			cr_assert_float_eq(s->vx, 120, 1e-6,
					   "entity %u at %d: vx %g", s->entity,
					   k, s->vx);
	}
	trace_free(&t);
	free(csv);
}

/* Entity ids are any numbers up to 2^32-2 and many of them: memory goes
 * with the ids present, not their size (with a row period the importer
 * used to allocate a counter for every id up to the largest). */
Test(world_trace, import_large_and_many_entity_ids)
{
	static const uint32_t big[] = {4294967294u, 7, 4000000000u};
	struct trace_import_opts o;
	struct trace_import_report rep;
	struct trace t;
	char err[200] = "";
	char *csv = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&csv, &len);
	enum { MANY = 5000 };

	fprintf(f, "id,x,y\n");
	for (int k = 0; k < 3; k++)
		for (int e = 0; e < 3; e++)
			fprintf(f, "%u,%d,%d\n", big[e], 10 * k, e);
	fclose(f);
	trace_import_defaults(&o);
	o.tick_ns = 50000000;
	cr_assert_eq(
		trace_import_mapping("entity=id,x=x,y=y", &o, err, sizeof(err)),
		0);
	f = mem(csv);
	cr_assert_eq(trace_import_csv(f, &o, &t, &rep, err, sizeof(err)), 0,
		     "%s", err);
	fclose(f);
	free(csv);
	cr_assert_eq(rep.rejected, 0);
	cr_assert_eq(t.n, 9);
	for (size_t i = 0; i < t.n; i++) {
		/* sorted by (time, entity): 7, 4000000000, 4294967294 */
		static const uint32_t order[] = {7, 4000000000u, 4294967294u};

		cr_assert_eq(t.s[i].entity, order[i % 3]);
		cr_assert_eq(t.s[i].t_ns, (int64_t)(i / 3) * 50000000);
		if (i >= 3)
			cr_assert_float_eq(t.s[i].vx, 200, 1e-9);
	}
	trace_free(&t);

	/* many ids, scattered over the 32-bit range, rows interleaved */
	csv = NULL;
	f = open_memstream(&csv, &len);
	fprintf(f, "id,x,y\n");
	for (int k = 0; k < 2; k++)
		for (uint32_t e = 0; e < MANY; e++)
			fprintf(f, "%u,%d,0\n", e * 858993u + 3u, k);
	fclose(f);
	f = mem(csv);
	cr_assert_eq(trace_import_csv(f, &o, &t, &rep, err, sizeof(err)), 0,
		     "%s", err);
	fclose(f);
	free(csv);
	cr_assert_eq(t.n, 2 * MANY);
	for (size_t i = 0; i < t.n; i++) {
		cr_assert_eq(t.s[i].t_ns, i < MANY ? 0 : 50000000);
		cr_assert_float_eq(t.s[i].vx, i < MANY ? 0 : 20, 1e-9);
	}
	trace_free(&t);
}

static size_t check_one(struct trace *t, const struct map *m)
{
	struct trace_check_opts o;
	struct trace_problem p[4];

	trace_check_defaults(&o);
	o.m = m;
	return trace_check(t, NULL, &o, p, 4);
}

Test(world_trace, check_finds_each_corruption)
{
	struct map m;
	struct trace t;

	tm_from_grid(&m, 64, ".......#..\n..........");
	/* clean: 1.5 u per tick at 64 Hz = 96 u/s, in the free row */
	trace_init(&t);
	t.tick_ns = 15625000;
	for (int k = 0; k < 100; k++) {
		struct trace_sample s = {.t_ns = k * t.tick_ns,
					 .alive = 1,
					 .x = 10 + 1.5 * k,
					 .y = 96,
					 .vx = 96};
		trace_append(&t, &s);
	}
	cr_assert_eq(check_one(&t, &m), 0);
	t.s[50].vx = 300; /* reported speed */
	cr_assert_eq(check_one(&t, &m), 1);
	t.s[50].vx = 96;
	t.s[50].x += 10; /* implied speed: two jumps */
	cr_assert_eq(check_one(&t, &m), 2);
	t.s[50].alive = 0; /* a dead sample breaks the chain */
	cr_assert_eq(check_one(&t, &m), 0);
	t.s[50].alive = 1;
	t.s[50].x -= 10;
	t.s[60].y = 32; /* into the wall cell (7,0)? no: x is ~100 */
	t.s[60].x = 7 * 64 + 10;
	t.s[59].alive = t.s[61].alive = 0;
	cr_assert_eq(check_one(&t, &m), 1); /* inside a wall */
	t.s[60].y = 96;
	t.s[60].x = 10 + 1.5 * 60;
	t.s[59].alive = t.s[61].alive = 1;
	t.s[70].t_ns = t.s[68].t_ns; /* time goes backwards */
	cr_assert_geq(check_one(&t, &m), 1);
	trace_free(&t);
	map_free(&m);
}
