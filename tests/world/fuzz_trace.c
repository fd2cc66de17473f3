/*
 * fuzz_trace.c: libFuzzer target for the trace and events CSV readers
 * and the column-mapped importer (built with -DRECKON_FUZZ=ON and clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"
#include "trace_check.h"
#include "trace_import.h"
#include "trace_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[128];
	struct trace t;
	struct trace_events ev;
	struct trace_import_opts o;
	FILE *f;

	if (size == 0)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (f && trace_read_csv(f, &t, err, sizeof(err)) == 0) {
		struct trace_stats_opts so;
		struct trace_stats st;
		struct trace_check_opts co;
		struct trace_problem p[4];

		trace_stats_defaults(&so);
		(void)trace_stats(&t, NULL, &so, &st);
		trace_check_defaults(&co);
		(void)trace_check(&t, NULL, &co, p, 4);
		trace_free(&t);
	}
	if (f)
		fclose(f);
	f = fmemopen((void *)data, size, "r");
	if (f && trace_events_read_csv(f, &ev, err, sizeof(err)) == 0)
		trace_events_free(&ev);
	if (f)
		fclose(f);
	trace_import_defaults(&o);
	o.tick_ns = 1000;
	if (trace_import_mapping("entity=a,x=b,y=c,yaw=d", &o, err,
				 sizeof(err)) == 0) {
		f = fmemopen((void *)data, size, "r");
		if (f &&
		    trace_import_csv(f, &o, &t, NULL, err, sizeof(err)) == 0)
			trace_free(&t);
		if (f)
			fclose(f);
	}
	return 0;
}
