/*
 * scenario_keys.c: the scenario key table (see scenario_int.h) and its
 * rendering as the markdown key reference of docs/scenario.md. Adding a
 * key means adding a row here; the loader, the canonical printer and the
 * docs test all follow.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scenario_int.h"

const char *const sk_section_names[SS_COUNT] = {
	[SS_SCENARIO] = "scenario",
	[SS_DEFAULTS] = "defaults",
	[SS_CAPTURE] = "capture",
	[SS_GAME] = "game",
	[SS_PREDICTOR] = "predictor NAME",
	[SS_HOST] = "host NAME",
	[SS_LINK] = "link A B",
	[SS_SCHEDULE] = "schedule",
	[SS_SWEEP] = "sweep",
};

static const char *const backends[] = {"userspace", "kernel", NULL};
static const char *const modes[] = {"emulate", "simulate", NULL};
static const char *const seeds[] = {"common", "independent", NULL};
static const char *const fairs[] = {"auto", "on", "off", NULL};
static const char *const topologies[] = {"p2p", "client-server", NULL};

#define SEC_NS	       1000000000ULL
#define F(type, field) offsetof(type, field), sizeof(((type *)0)->field)

const struct sk_key sk_keys[] = {
	{SS_SCENARIO, "name", SK_NAME, NULL, 0, 0, NULL,
	 F(struct scenario, name),
	 "Name of the scenario; a run writes RESULTS/NAME-TIME/. Letters, "
	 "digits, '.', '_' and '-'. Default: the file name without .ini."},
	{SS_SCENARIO, "seed", SK_U64, "1", 0, UINT64_MAX, NULL,
	 F(struct scenario, seed),
	 "Seed of every random stream (netem links, agents), decimal or 0x "
	 "hex. A file without a seed gets seed 1, so its runs are "
	 "reproducible; printed in the canonical form."},
	{SS_SCENARIO, "duration", SK_DURATION, "10s", 100000000ULL,
	 7 * 24 * 3600 * SEC_NS, NULL, F(struct scenario, duration_ns),
	 "How long one repetition runs, with a unit: ns, us, ms, s, m, h "
	 "(60s, 10m, 500ms, 1.5s)."},
	{SS_SCENARIO, "repetitions", SK_UINT, "1", 1, 10000, NULL,
	 F(struct scenario, repetitions),
	 "How many times the scenario runs; the runtime gives each "
	 "repetition its own seed, derived from seed."},
	{SS_SCENARIO, "backend", SK_ENUM, "userspace", 0, 0, backends,
	 F(struct scenario, backend),
	 "Impairment backend: the userspace bridge (any kernel, "
	 "deterministic) or kernel tc netem (needs sch_netem)."},
	{SS_SCENARIO, "mode", SK_ENUM, "emulate", 0, 0, modes,
	 F(struct scenario, mode),
	 "emulate: real namespaces and processes; simulate: one process in "
	 "virtual time with the same engine."},
	{SS_SCENARIO, "results", SK_PATH, "results", 0, 0, NULL,
	 F(struct scenario, results_dir),
	 "Directory that receives NAME-TIME/ run directories; a relative "
	 "path is relative to reckond's working directory."},
	{SS_SCENARIO, "subnet", SK_SUBNET, "10.77.0.0/24", 8, 30, NULL,
	 F(struct scenario, subnet),
	 "IPv4 network of the hosts; the host with index i (file order, "
	 "from 0) gets network address + i + 1. Host bits must be zero."},

	{SS_DEFAULTS, "link", SK_NETEM, NULL, 0, 0, NULL,
	 F(struct scenario, default_link),
	 "Spec for both directions of every host pair that has no [link] "
	 "section. Unset: such pairs pass traffic unimpaired."},
	{SS_DEFAULTS, "label", SK_NAME, NULL, 0, 0, NULL,
	 F(struct scenario, default_label),
	 "Condition label of the results (summary.csv's condition column) "
	 "for hosts whose link has no label of its own. Unset: the label is "
	 "the spec of the link a player sends on (or an observer receives "
	 "on), folded: `delay 50ms 10ms loss 2%` gives "
	 "`delay50ms-10ms-loss2pct`; `none` when unimpaired."},
	{SS_DEFAULTS, "fair", SK_ENUM, "auto", 0, 0, fairs,
	 F(struct scenario, fair),
	 "When the like-for-like settings (docs/comparing.md) fill the "
	 "[predictor] parameters a scenario leaves unset: auto, when it "
	 "compares two or more predictor instances; on, always; off, never "
	 "(every predictor keeps its own defaults)."},

	{SS_CAPTURE, "enabled", SK_BOOL, "no", 0, 0, NULL,
	 F(struct sc_capture, enabled),
	 "Write pcap files of every directed link."},
	{SS_CAPTURE, "before", SK_BOOL, "yes", 0, 0, NULL,
	 F(struct sc_capture, before),
	 "Capture frames as sent, before the impairment."},
	{SS_CAPTURE, "after", SK_BOOL, "yes", 0, 0, NULL,
	 F(struct sc_capture, after),
	 "Capture frames as delivered, after the impairment."},
	{SS_CAPTURE, "snaplen", SK_UINT, "262144", 64, 262144, NULL,
	 F(struct sc_capture, snaplen),
	 "Bytes kept of each frame (pcap snap length)."},
	{SS_CAPTURE, "max_size", SK_SIZE, "0", 0, 1ULL << 40, NULL,
	 F(struct sc_capture, max_bytes),
	 "Largest pcap file, bytes with optional k, M, G (x1024); 0 is "
	 "unlimited."},

	{SS_GAME, "map", SK_NAME, NULL, 0, 0, NULL, F(struct sc_game, map),
	 "Map the bots play (scenarios/maps/NAME.map, or $RECKON_MAP_DIR); "
	 "checked at load time. Exactly one of map and trace."},
	{SS_GAME, "trace", SK_TEXT, NULL, 0, 0, NULL,
	 F(struct sc_game, trace_text),
	 "A movement trace (docs/trace-format.md; relative to the scenario "
	 "file) played instead of bots on a map; parsed at load time."},
	{SS_GAME, "bots", SK_UINT, "8", 1, 64, NULL, F(struct sc_game, bots),
	 "Number of bots on the map; the players share them out (every "
	 "N-th bot to each of N players) unless a host names its own."},
	{SS_GAME, "duration", SK_DURATION, NULL, 1000000000ULL,
	 7 * 24 * 3600 * SEC_NS, NULL, F(struct sc_game, duration_ns),
	 "Length of the play. Unset: the scenario's duration less a 4 s "
	 "lead (agents start 0.5 s + 25 ms per host into a repetition and "
	 "the observer lingers 1 s after the play)."},
	{SS_GAME, "tick_hz", SK_UINT, "64", 1, 1000, NULL,
	 F(struct sc_game, tick_hz),
	 "Simulation ticks per second of the bots (with map)."},
	{SS_GAME, "topology", SK_ENUM, "p2p", 0, 0, topologies,
	 F(struct sc_game, topology),
	 "p2p: players send to the observers; client-server: players send "
	 "to a relay host (role = relay), which forwards to the observers. "
	 "Recorded in every metrics row."},

	{SS_PREDICTOR, "type", SK_NAME, NULL, 0, 0, NULL,
	 F(struct sk_pred_in, type),
	 "Registered predictor this instance runs (docs/predictors.md). "
	 "Default: the section's NAME, so [predictor dis] needs no type; "
	 "[predictor dis20] with type = dis is a second dis. NAME is what "
	 "the results show."},
	{SS_PREDICTOR, "PARAM", SK_TEXT, NULL, 0, 0, NULL, 0, 0,
	 "Any parameter of the type's own table (docs/predictors.md), "
	 "checked against it: unknown keys get a suggestion, values their "
	 "range or choices. Unset parameters take the like-for-like "
	 "settings when the scenario compares predictors ([defaults] fair), "
	 "else the predictor's default."},

	{SS_HOST, "role", SK_NAME, NULL, 0, 0, NULL, F(struct sc_host, role),
	 "reckon-agent role this host runs: player (plays bots and sends "
	 "updates), observer (receives and measures the error) or relay "
	 "(client-server: forwards players' updates). Exactly one of role "
	 "and exec."},
	{SS_HOST, "to", SK_TEXT, NULL, 0, 0, NULL, F(struct sc_host, to_text),
	 "Hosts this player or relay sends to, by name (blank or comma "
	 "separated). Default: every observer (players in client-server: "
	 "every relay)."},
	{SS_HOST, "bots", SK_TEXT, NULL, 0, 0, NULL,
	 F(struct sc_host, bots_text),
	 "Bots this player plays, as ids and ranges (`0-3,6`), each below "
	 "[game] bots and played by one host only. Unset in every player: "
	 "the bots are shared out."},
	{SS_HOST, "args", SK_TEXT, NULL, 0, 0, NULL,
	 F(struct sc_host, args_text),
	 "Expert escape hatch: more reckon-agent options (agents/io "
	 "agent_opts.c), with {placeholders} expanded, checked at load "
	 "time by the agent's own parser. With [game], options the "
	 "sections set (--map, --predictor, --to ...) are refused here. "
	 "Only with role."},
	{SS_HOST, "exec", SK_TEXT, NULL, 0, 0, NULL,
	 F(struct sc_host, exec_text),
	 "Any command to run instead of reckon-agent (ping, iperf3, ...), "
	 "with {placeholders} expanded. Quote it if it contains ; or #."},
	{SS_HOST, "nice", SK_INT, "0", (uint64_t)-20, 19, NULL,
	 F(struct sc_host, nice),
	 "Scheduling niceness of the host's command in an emulated run "
	 "(setpriority(2); lower runs first). On a machine with fewer "
	 "cores than hosts, a server that every client waits on wakes on "
	 "time with a lower value. The simulator has no scheduler and "
	 "ignores it."},

	{SS_LINK, "forward", SK_NETEM, NULL, 0, 0, NULL,
	 F(struct sk_link_in, fwd),
	 "Spec of direction A to B. Unset: that direction is unimpaired."},
	{SS_LINK, "reverse", SK_NETEM, NULL, 0, 0, NULL,
	 F(struct sk_link_in, rev),
	 "Spec of direction B to A. Unset: that direction is unimpaired."},
	{SS_LINK, "both", SK_NETEM, NULL, 0, 0, NULL,
	 F(struct sk_link_in, both),
	 "Spec of both directions; not together with forward or reverse."},
	{SS_LINK, "schedule", SK_TEXT, NULL, 0, 0, NULL,
	 F(struct sk_link_in, sched),
	 "Steps and ramps over both directions' specs, from the start of "
	 "each repetition: `at 10s delay 100ms; ramp 20s 30s loss 0% 5%` "
	 "(docs/netem.md). Userspace backend and simulator only."},
	{SS_LINK, "label", SK_NAME, NULL, 0, 0, NULL,
	 F(struct sk_link_in, label),
	 "Condition label of the hosts that talk over this link (see "
	 "[defaults] label)."},
	{SS_LINK, "trace", SK_TEXT, NULL, 0, 0, NULL,
	 F(struct sk_link_in, trace),
	 "A trace-driven link: a CSV file (relative to the scenario file) "
	 "of time, delay, loss, rate ... rows applied to both directions "
	 "(docs/netem.md). Not together with schedule. Userspace backend and "
	 "simulator only."},

	{SS_SCHEDULE, "at TIME SRC>DST", SK_NETEM, NULL, 0,
	 7 * 24 * 3600 * SEC_NS, NULL, 0, 0,
	 "At TIME after the start (a duration, at most the scenario's), "
	 "replace the spec of link `SRC>DST` by the value; `SRC<DST` is "
	 "the direction DST to SRC and `SRC<>DST` changes both."},

	{SS_SWEEP, "mode", SK_ENUM, "simulate", 0, 0, modes,
	 F(struct sc_sweep, mode),
	 "How every grid point runs: in the simulator (virtual time, the "
	 "default for sweeps) or emulated in namespaces (needs root)."},
	{SS_SWEEP, "seeds", SK_ENUM, "common", 0, 0, seeds,
	 F(struct sc_sweep, seeds),
	 "common: every point runs repetition r with the same seed "
	 "(common random numbers: the same movement under every "
	 "condition); independent: each point gets its own seed, derived "
	 "from seed and the point index."},
	{SS_SWEEP, "link.PARAM", SK_AXIS, NULL, 0, 0, NULL, 0, 0,
	 "An axis over one netem parameter of every link (both directions "
	 "of every host pair, [schedule] changes included): any of the "
	 "37 netem parameters, e.g. delay, jitter, loss, ge_p, p13, rate, "
	 "gap, slot_min, distribution (the list: docs/sweeps.md). Values "
	 "in netem units."},
	{SS_SWEEP, "link.SRC>DST.PARAM", SK_AXIS, NULL, 0, 0, NULL, 0, 0,
	 "The same on one direction (`SRC<DST` is DST to SRC) or, with "
	 "`SRC<>DST`, both directions of one pair."},
	{SS_SWEEP, "predictor.NAME.KEY", SK_AXIS, NULL, 0, 0, NULL, 0, 0,
	 "An axis over parameter KEY of predictor instance NAME (a "
	 "[predictor NAME] section, or `--predictor NAME` in args): every "
	 "host's lane of it gets KEY=value."},
};

const size_t sk_nkeys = sizeof(sk_keys) / sizeof(sk_keys[0]);

const struct sk_key *sk_find(enum sk_section sec, const char *name)
{
	for (size_t i = 0; i < sk_nkeys; i++)
		if (sk_keys[i].sec == sec && strcmp(sk_keys[i].name, name) == 0)
			return &sk_keys[i];
	return NULL;
}

int sk_defaults(enum sk_section sec, void *target)
{
	char err[256];

	for (size_t i = 0; i < sk_nkeys; i++) {
		const struct sk_key *k = &sk_keys[i];
		if (k->sec != sec || k->def == NULL)
			continue;
		int rc = sk_parse(k, k->def, target, err, sizeof(err));
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const char *type_name(enum sk_type t)
{
	switch (t) {
	case SK_NAME:
		return "name";
	case SK_TEXT:
		return "text";
	case SK_PATH:
		return "path";
	case SK_U64:
		return "integer";
	case SK_UINT:
	case SK_INT:
		return "integer";
	case SK_DURATION:
		return "duration";
	case SK_BOOL:
		return "boolean";
	case SK_ENUM:
		return "choice";
	case SK_SIZE:
		return "size";
	case SK_SUBNET:
		return "IPv4 subnet";
	case SK_NETEM:
		return "netem spec";
	case SK_AXIS:
		return "axis";
	}
	return "?";
}

static void md_range(FILE *f, const struct sk_key *k)
{
	char a[32], b[32];

	switch (k->type) {
	case SK_NAME:
	case SK_TEXT:
	case SK_PATH:
		if (k->size)
			fprintf(f, "up to %zu characters", k->size - 1);
		break;
	case SK_U64:
	case SK_UINT:
		fprintf(f, "%llu to %llu", (unsigned long long)k->min,
			(unsigned long long)k->max);
		break;
	case SK_INT:
		fprintf(f, "%lld to %lld", (long long)(int64_t)k->min,
			(long long)(int64_t)k->max);
		break;
	case SK_DURATION:
		num_format_duration((int64_t)k->min, a, sizeof(a));
		num_format_duration((int64_t)k->max, b, sizeof(b));
		fprintf(f, "%s to %s", a, b);
		break;
	case SK_SIZE:
		fprintf(f, "0 to %lluG", (unsigned long long)(k->max >> 30));
		break;
	case SK_ENUM:
		for (size_t i = 0; k->choices[i]; i++)
			fprintf(f, "%s`%s`", i ? " \\| " : "", k->choices[i]);
		break;
	case SK_SUBNET:
		fprintf(f, "prefix /%llu to /%llu", (unsigned long long)k->min,
			(unsigned long long)k->max);
		break;
	case SK_BOOL:
		fputs("yes/no, true/false, on/off, 1/0", f);
		break;
	case SK_NETEM:
		fputs("tc-netem syntax", f);
		break;
	case SK_AXIS:
		fputs("values, or `A..B step S`", f);
		break;
	}
}

int scenario_keys_markdown(FILE *f)
{
	for (int s = 0; s < SS_COUNT; s++) {
		fprintf(f, "%s### [%s]\n\n", s ? "\n" : "",
			sk_section_names[s]);
		fputs("| key | type | default | range | meaning |\n", f);
		fputs("|---|---|---|---|---|\n", f);
		for (size_t i = 0; i < sk_nkeys; i++) {
			const struct sk_key *k = &sk_keys[i];
			if ((int)k->sec != s)
				continue;
			fprintf(f, "| `%s` | %s | %s%s%s | ", k->name,
				type_name(k->type), k->def ? "`" : "",
				k->def ? k->def : "unset", k->def ? "`" : "");
			md_range(f, k);
			fprintf(f, " | %s |\n", k->doc);
		}
	}
	return ferror(f) ? -EIO : 0;
}
