/*
 * emulation.c: one emulated repetition of a scenario (see reckond.h).
 * Set-up order: the fps-clients' bot games, generated once each into game
 * files of the run directory (emulation_fps.c; each client is told its
 * file in RECKON_FPS_GAME, and the files go when the hosts have ended);
 * a fresh anonymous hub namespace; per host a shim in its
 * own network+PID namespace (ns/hostproc.c), a veth pair into it and its
 * addresses (ns/netns.c);
 * the backend (bridge_new on the hub ends, or a Linux bridge plus
 * knetem_apply inside each host for backend = kernel); then the daemon
 * returns to the namespace it came from, keeping the hub alive through a
 * descriptor, and releases the hosts. Everything the run creates hangs off
 * the daemon's descriptors and the shims, so it all disappears with them.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/wait.h>

#include "bridge.h"
#include "fps_opts.h"
#include "reckond.h"
#include "util.h"
#include "ns.h"
#include "kernel.h"
#include "log.h"
#include "results.h"

extern char **environ;

enum eng_state { ENG_RUNNING, ENG_STOPPING, ENG_DONE };

struct eng_host {
	struct hostproc hp;
	int hub_ifindex, host_ifindex;
	uint32_t ip;
	int stopped; /* we asked it to stop */
	int killed;  /* SIGKILL after the grace time */
	int failed;  /* ended on its own with a non-zero status */
	char log[PATH_MAX];
};

struct emulation {
	struct event_base *base;
	const struct scenario *sc;
	struct emulation_params p;
	char dir[PATH_MAX];
	emulation_done_fn done;
	void *arg;

	enum eng_state state;
	int orig_fd, hub_fd;
	unsigned n, live;
	struct eng_host *h;
	struct bridge *bridge;
	int kernel;
	struct netem_spec *spec; /* n * n: current spec per directed pair */
	unsigned char *has;	 /* n * n: pair has a spec */

	struct event *sigchld_ev, *dur_ev, *grace_ev, *sched_ev, *fin_ev;
	unsigned next_change;
	struct timespec t0;
	int64_t start_ns; /* agents' common t0 (CLOCK_MONOTONIC), see spawn */
	int64_t end_ns;	  /* elapsed when the run ended */
	FILE *changes;
	int result;
	int at_duration; /* stopped because the duration elapsed */
	uint64_t lost;	 /* frames the bridge itself lost (bridge_lost) */
	struct emu_games games; /* the fps-clients' game files */
	char why[160];
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t elapsed_ns(const struct emulation *e)
{
	if (e->state == ENG_DONE)
		return e->end_ns;
	return now_ns() - ((int64_t)e->t0.tv_sec * 1000000000 + e->t0.tv_nsec);
}

static struct timeval tv_of(int64_t ns)
{
	struct timeval tv;

	if (ns < 0)
		ns = 0;
	tv.tv_sec = (time_t)(ns / 1000000000);
	tv.tv_usec = (suseconds_t)(ns % 1000000000 / 1000);
	return tv;
}

/* reckon-agent ROLE ARGS through sh, so ARGS are shell words; exec hosts
 * run their command line with sh -c. */
static char **host_argv(const struct emulation *e, const struct sc_host *sh,
			char *script, size_t len)
{
	static char sh_path[] = "/bin/sh", dash_c[] = "-c";
	char **argv = calloc(5, sizeof(*argv));

	if (argv == NULL)
		return NULL;
	argv[0] = sh_path;
	argv[1] = dash_c;
	argv[2] = script;
	if (sh->exec[0] != '\0') {
		snprintf(script, len, "%s", sh->exec);
	} else {
		snprintf(script, len, "exec \"$0\" %s %s", sh->role, sh->args);
		argv[3] = (char *)e->p.agent;
	}
	return argv;
}

/* The daemon's environment plus what a host needs to know about itself. */
static char **host_envp(const struct emulation *e, unsigned i)
{
	const struct sc_host *sh = &e->sc->hosts[i];
	size_t n = 0, k = 0;
	char **env;

	while (environ[n] != NULL)
		n++;
	env = calloc(n + 10, sizeof(*env));
	if (env == NULL)
		return NULL;
	for (size_t j = 0; j < n; j++)
		if (strncmp(environ[j], "RECKON_", 7) != 0)
			env[k++] = strdup(environ[j]);
	if (asprintf(&env[k++], "RECKON_HOST=%s", sh->name) < 0 ||
	    asprintf(&env[k++], "RECKON_HOST_INDEX=%u", i) < 0 ||
	    asprintf(&env[k++], "RECKON_ADDR=%s", sh->addr) < 0 ||
	    asprintf(&env[k++], "RECKON_SEED=%" PRIu64, e->p.seed) < 0 ||
	    asprintf(&env[k++], "RECKON_REP=%u", e->p.rep) < 0 ||
	    asprintf(&env[k++], "RECKON_RUN_DIR=%s", e->dir) < 0 ||
	    asprintf(&env[k++], "RECKON_START_NS=%" PRId64, e->start_ns) < 0 ||
	    asprintf(&env[k++], "RECKON_DURATION_MS=%" PRId64,
		     e->sc->duration_ns / 1000000) < 0 ||
	    (emu_games_file(&e->games, i) &&
	     asprintf(&env[k++], "%s=%s", FPS_GAME_ENV,
		      emu_games_file(&e->games, i)) < 0))
		env[--k] = NULL;
	return env;
}

static void free_strv(char **v)
{
	if (v == NULL)
		return;
	for (size_t i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

static int spawn_host(struct emulation *e, unsigned i)
{
	const struct sc_host *sh = &e->sc->hosts[i];
	struct eng_host *h = &e->h[i];
	struct hostproc_cmd cmd;
	char *script = malloc(2 * SC_TEXT_MAX + PATH_MAX);
	char **argv = NULL, **envp = NULL;
	int fd, err = -ENOMEM;

	if (results_path(h->log, sizeof(h->log), "%s/hosts/%s.log", e->dir,
			 sh->name) < 0) {
		free(script);
		return -ENAMETOOLONG;
	}
	fd = open(h->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		log_warn("%s", h->log);
		free(script);
		return err;
	}
	if (script != NULL)
		argv = host_argv(e, sh, script, 2 * SC_TEXT_MAX + PATH_MAX);
	envp = host_envp(e, i);
	if (argv != NULL && envp != NULL) {
		cmd.argv = argv;
		cmd.envp = envp;
		cmd.log_fd = fd;
		cmd.nice = sh->nice;
		err = hostproc_spawn(&cmd, &h->hp);
		if (err < 0)
			log_warnx("host %s: cannot start its namespace: %s",
				  sh->name, strerror(-err));
	}
	close(fd);
	free(argv);
	free(script);
	free_strv(envp);
	return err;
}

static void ensure_spec_table(struct emulation *e)
{
	for (unsigned i = 0; i < e->n; i++)
		for (unsigned j = 0; j < e->n; j++) {
			const struct netem_spec *s =
				i == j ? NULL : scenario_link_spec(e->sc, i, j);

			if (s != NULL) {
				e->spec[i * e->n + j] = *s;
				e->has[i * e->n + j] = 1;
			}
		}
}

static int setup_kernel(struct emulation *e)
{
	char why[256];
	int *idx = calloc(e->n, sizeof(*idx));
	uint32_t *dst = calloc(e->n, sizeof(*dst));
	const struct netem_spec **specs = calloc(e->n, sizeof(*specs));
	struct netem_spec none;
	int err = -ENOMEM;

	netem_spec_init(&none);
	if (idx == NULL || dst == NULL || specs == NULL)
		goto out;
	for (unsigned i = 0; i < e->n; i++)
		idx[i] = e->h[i].hub_ifindex;
	err = netns_bridge_ports(idx, e->n);
	if (err < 0) {
		log_warnx("kernel backend: bridge: %s", strerror(-err));
		goto out;
	}
	/* Host i's eth0 egress gets one netem per destination j, in host
	 * order with i itself skipped: knetem's dst_index k maps to j. */
	for (unsigned i = 0; i < e->n && err == 0; i++) {
		unsigned k = 0;

		for (unsigned j = 0; j < e->n; j++) {
			if (j == i)
				continue;
			dst[k] = e->h[j].ip;
			specs[k++] = e->has[i * e->n + j]
					     ? &e->spec[i * e->n + j]
					     : &none;
		}
		err = netns_enter(e->h[i].hp.nsfd);
		if (err == 0) {
			err = knetem_apply(e->h[i].host_ifindex, dst, specs, k,
					   why, sizeof(why));
			if (err < 0)
				log_warnx("kernel backend: host %s: %s",
					  e->sc->hosts[i].name, why);
			if (netns_enter(e->hub_fd) < 0 && err == 0)
				err = -errno;
		}
	}
out:
	free(idx);
	free(dst);
	free(specs);
	return err;
}

/* RECKON_BRIDGE_RX picks the bridge's receive path; a bad value fails
 * before any namespace exists. */
static int check_bridge_rx(void)
{
	enum bridge_rx rx;
	int64_t spin;
	int nice, err = bridge_default_rx(&rx);

	if (err < 0) {
		log_warnx("RECKON_BRIDGE_RX='%s': use pcap (the default) or "
			  "ring",
			  getenv("RECKON_BRIDGE_RX"));
		return err;
	}
	err = bridge_spin_from_env(&spin);
	if (err < 0) {
		log_warnx("RECKON_BRIDGE_SPIN_US='%s': use microseconds, 0 "
			  "to 1000",
			  getenv("RECKON_BRIDGE_SPIN_US"));
		return err;
	}
	err = bridge_nice_from_env(&nice);
	if (err < 0)
		log_warnx("RECKON_BRIDGE_NICE='%s': use a niceness, -20 to 19",
			  getenv("RECKON_BRIDGE_NICE"));
	return err;
}

/* [link] schedule and trace keys: each link follows its schedule from the
 * moment the hosts start, the origin of [schedule] times too (the
 * simulator's time 0). */
static int setup_schedules(struct emulation *e)
{
	int64_t t0 = (int64_t)e->t0.tv_sec * 1000000000 + e->t0.tv_nsec;

	for (unsigned i = 0; i < e->sc->nlinks; i++) {
		const struct sc_link *l = &e->sc->links[i];
		struct netem_sched *s;
		char why[400];
		int err;

		err = scenario_link_schedule(l, &s, why, sizeof(why));
		if (err < 0) {
			log_warnx("link %s %s: %s", e->sc->hosts[l->a].name,
				  e->sc->hosts[l->b].name, why);
			return err;
		}
		if (s == NULL)
			continue;
		err = bridge_set_schedule(e->bridge, l->a, l->b, s, t0);
		if (err == 0)
			err = bridge_set_schedule(e->bridge, l->b, l->a, s, t0);
		netem_sched_free(s);
		if (err < 0) {
			log_warnx("link %s %s: schedule: %s",
				  e->sc->hosts[l->a].name,
				  e->sc->hosts[l->b].name, strerror(-err));
			return err;
		}
	}
	return 0;
}

/* The link spec of src->dst in the scenario arg, for the bridge. */
static const struct netem_spec *link_spec_of(const void *arg, unsigned src,
					     unsigned dst)
{
	return scenario_link_spec(arg, src, dst);
}

_Static_assert(SC_NAME_MAX == BRIDGE_NAME_MAX, "host names fit the bridge");
_Static_assert(SC_MAX_HOSTS <= BRIDGE_MAX_PORTS, "hosts fit the bridge");

void emulation_bridge_conf(const struct scenario *sc, struct bridge_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->nhosts = sc->nhosts;
	for (unsigned i = 0; i < sc->nhosts; i++)
		memcpy(c->hosts[i].name, sc->hosts[i].name, BRIDGE_NAME_MAX);
	c->capture.enabled = sc->capture.enabled;
	c->capture.before = sc->capture.before;
	c->capture.after = sc->capture.after;
	c->capture.snaplen = sc->capture.snaplen;
	c->capture.max_bytes = sc->capture.max_bytes;
	c->link_spec = link_spec_of;
	c->link_arg = sc;
}

static int setup_backend(struct emulation *e)
{
	struct bridge_conf conf;
	struct bridge_port *ports;
	char pcap[PATH_MAX];
	int err;

	if (e->kernel)
		return setup_kernel(e);
	ports = calloc(e->n, sizeof(*ports));
	if (ports == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i < e->n; i++) {
		ports[i].ifindex = e->h[i].hub_ifindex;
		netns_host_mac(i, ports[i].mac);
		ports[i].ip = e->h[i].ip;
	}
	err = results_path(pcap, sizeof(pcap), "%s/pcap", e->dir);
	if (err == 0 && e->sc->capture.enabled)
		err = results_mkdirs(pcap);
	if (err < 0) {
		log_warnx("%s: %s", pcap, strerror(-err));
		free(ports);
		return err;
	}
	emulation_bridge_conf(e->sc, &conf);
	err = bridge_new(e->base, &conf, e->p.seed, ports, e->n,
			 e->sc->capture.enabled ? pcap : NULL, &e->bridge);
	if (err < 0)
		log_warnx("userspace bridge: %s", strerror(-err));
	free(ports);
	return err;
}

/* Every host's address, in e->h[i].ip and in *ip (the caller frees it,
 * also on failure). */
static int host_addrs(struct emulation *e, uint32_t **ip)
{
	*ip = calloc(e->n, sizeof(**ip));
	if (*ip == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i < e->n; i++) {
		const struct sc_host *sh = &e->sc->hosts[i];
		struct in_addr a;

		if (inet_pton(AF_INET, sh->addr, &a) != 1) {
			log_warnx("host %s: bad address '%s'", sh->name,
				  sh->addr);
			return -EINVAL;
		}
		(*ip)[i] = e->h[i].ip = a.s_addr;
	}
	return 0;
}

/* Everything up to "go": runs with the thread in the hub namespace. */
static int setup_network(struct emulation *e)
{
	uint32_t net, *ip = NULL;
	unsigned prefix;
	int err;

	err = netns_parse_subnet(e->sc->subnet, &net, &prefix);
	if (err < 0) {
		log_warnx("subnet %s: %s", e->sc->subnet, strerror(-err));
		return err;
	}
	err = netns_new_hub();
	if (err < 0) {
		log_warnx("cannot create the hub network namespace: %s",
			  strerror(-err));
		return err;
	}
	err = netns_open_self(&e->hub_fd);
	if (err == 0)
		err = host_addrs(e, &ip);
	for (unsigned i = 0; err == 0 && i < e->n; i++) {
		err = spawn_host(e, i);
		if (err < 0)
			break;
		e->live++;
		err = netns_veth_add(i, e->h[i].hp.pid, &e->h[i].hub_ifindex);
		if (err == 0)
			err = netns_host_setup(e->h[i].hp.nsfd, e->hub_fd, ip,
					       e->n, i, prefix,
					       &e->h[i].host_ifindex);
		if (err < 0)
			log_warnx("host %s: network set-up: %s",
				  e->sc->hosts[i].name, strerror(-err));
	}
	free(ip);
	return err < 0 ? err : setup_backend(e);
}

/* counters.csv and hosts.csv; a file that cannot be written (a full
 * disk) fails the repetition, whose other files stay as they were. */
static void write_results(struct emulation *e)
{
	struct netem_counters *c = calloc((size_t)e->n * e->n, sizeof(*c));
	struct results_host *rh = calloc(e->n, sizeof(*rh));
	int err;

	if (c == NULL || rh == NULL) {
		log_warnx("%s: results: %s", e->dir, strerror(ENOMEM));
		e->result = e->result ? e->result : 1;
	} else {
		for (unsigned i = 0; e->bridge != NULL && i < e->n; i++)
			for (unsigned j = 0; j < e->n; j++)
				if (i != j)
					bridge_counters(e->bridge, i, j,
							&c[i * e->n + j]);
		err = results_counters(e->dir, e->sc, e->p.rep, e->p.seed, c);
		if (err < 0) {
			log_warnx("%s/counters.csv: %s", e->dir,
				  strerror(-err));
			e->result = e->result ? e->result : 1;
		}
		for (unsigned i = 0; i < e->n; i++) {
			const struct eng_host *h = &e->h[i];

			rh[i].pid = h->hp.pid;
			rh[i].status = h->hp.status;
			/* ended: stopped by reckond at the scenario's
			 * end, as planned; stopped: before it */
			rh[i].outcome =
				!h->hp.exited ? "aborted"
				: h->killed   ? "killed"
				: h->failed   ? "failed"
				: h->stopped
					? (e->at_duration ? "ended" : "stopped")
				: h->hp.status == 0 ? "ok"
						    : "failed";
		}
		err = results_hosts(e->dir, e->sc, e->p.rep, rh);
		if (err < 0) {
			log_warnx("%s/hosts.csv: %s", e->dir, strerror(-err));
			e->result = e->result ? e->result : 1;
		}
	}
	free(c);
	free(rh);
}

/* For each failed host: how it ended and the line of its log that says
 * why (results_error_line), with where the whole log is. */
/* Frames the userspace bridge lost on its own, not by a link's spec:
 * dropped by the kernel before it read them, too big, no pool slot, no
 * link, impossible ring entries, injections refused. */
static uint64_t bridge_lost(const struct bridge *b, char *why, size_t len)
{
	struct bridge_stats bs;

	if (bridge_stats(b, &bs) < 0)
		return 0;
	snprintf(why, len,
		 "kernel dropped before read %" PRIu64 ", too big %" PRIu64
		 ", no pool slot %" PRIu64 ", no link %" PRIu64
		 ", bad ring entry %" PRIu64 ", injection refused %" PRIu64,
		 bs.rx_dropped, bs.oversize, bs.pool_full, bs.link_errors,
		 bs.rx_errors, bs.send_errors);
	return bs.rx_dropped + bs.oversize + bs.pool_full + bs.link_errors +
	       bs.rx_errors + bs.send_errors;
}

static void report_failures(const struct emulation *e)
{
	char cause[512], how[96];
	unsigned lines = 0;

	for (unsigned i = 0; i < e->n; i++) {
		const struct eng_host *h = &e->h[i];

		if (!h->failed)
			continue;
		if (results_error_line(h->log, cause, sizeof(cause), &lines) <
		    0)
			snprintf(cause, sizeof(cause), "(its log is empty)");
		if (h->hp.status > 128)
			snprintf(how, sizeof(how), "killed by signal %d (%s)",
				 h->hp.status - 128,
				 strsignal(h->hp.status - 128));
		else
			snprintf(how, sizeof(how), "exit status %d",
				 h->hp.status);
		log_warnx("host %s failed: %s: %s\n  (%u line(s) in %s)",
			  e->sc->hosts[i].name, how, cause, lines, h->log);
	}
}

static void finish(evutil_socket_t fd, short what, void *arg)
{
	struct emulation *e = arg;

	(void)fd;
	(void)what;
	e->end_ns = elapsed_ns(e);
	e->state = ENG_DONE;
	event_del(e->dur_ev);
	event_del(e->grace_ev);
	event_del(e->sched_ev);
	event_del(e->sigchld_ev);
	write_results(e);
	report_failures(e);
	if (e->bridge != NULL) {
		char why[256];

		e->lost = bridge_lost(e->bridge, why, sizeof(why));
		if (e->lost > 0)
			log_warnx("repetition %u: the bridge itself lost %" PRIu64
				  " frame(s): %s",
				  e->p.rep, e->lost, why);
		bridge_free(e->bridge);
		e->bridge = NULL;
	}
	for (unsigned i = 0; i < e->n; i++)
		hostproc_release(&e->h[i].hp);
	emu_games_remove(&e->games);
	if (e->hub_fd >= 0)
		close(e->hub_fd); /* the hub and its veths go away now */
	e->hub_fd = -1;
	if (e->changes != NULL)
		fclose(e->changes);
	e->changes = NULL;
	log_info("%s: repetition %u ended after %.1f s (%s)", e->sc->name,
		 e->p.rep, (double)e->end_ns / 1e9,
		 e->why[0] ? e->why : "all hosts exited");
	e->done(e, e->arg);
}

static void kill_all(struct emulation *e, int sig)
{
	for (unsigned i = 0; i < e->n; i++) {
		struct eng_host *h = &e->h[i];

		if (h->hp.pid <= 0 || h->hp.exited)
			continue;
		if (sig == SIGKILL)
			h->killed = 1;
		else
			h->stopped = 1;
		hostproc_signal(&h->hp, sig);
	}
}

static void on_grace(evutil_socket_t fd, short what, void *arg)
{
	struct emulation *e = arg;

	(void)fd;
	(void)what;
	if (e->live > 0)
		log_warnx("%u host(s) ignored SIGTERM; killing them", e->live);
	kill_all(e, SIGKILL);
}

void emulation_stop(struct emulation *e, const char *why)
{
	struct timeval tv;

	if (e->state != ENG_RUNNING)
		return;
	e->state = ENG_STOPPING;
	snprintf(e->why, sizeof(e->why), "%s", why);
	event_del(e->dur_ev);
	event_del(e->sched_ev);
	if (e->live == 0) {
		event_active(e->fin_ev, EV_TIMEOUT, 0);
		return;
	}
	kill_all(e, SIGTERM);
	tv = tv_of(e->p.grace_ns);
	event_add(e->grace_ev, &tv);
}

static void on_duration(evutil_socket_t fd, short what, void *arg)
{
	struct emulation *e = arg;

	(void)fd;
	(void)what;
	if (e->state == ENG_RUNNING)
		e->at_duration = 1;
	emulation_stop(e, "duration elapsed");
}

static void on_sigchld(evutil_socket_t fd, short what, void *arg)
{
	struct emulation *e = arg;
	pid_t pid;
	int st;

	(void)fd;
	(void)what;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (unsigned i = 0; i < e->n; i++) {
			struct eng_host *h = &e->h[i];

			if (h->hp.pid != pid || h->hp.exited)
				continue;
			hostproc_reaped(&h->hp, st);
			e->live--;
			log_debug("host %s (pid %d) exited with status %d",
				  e->sc->hosts[i].name, (int)pid, h->hp.status);
			if (!h->stopped && !h->killed && h->hp.status != 0) {
				h->failed = 1;
				if (e->result == 0)
					e->result = h->hp.status;
				if (e->state == ENG_RUNNING) {
					char why[96];

					snprintf(why, sizeof(why),
						 "host %s failed",
						 e->sc->hosts[i].name);
					emulation_stop(e, why);
				}
			}
		}
	}
	if (e->live == 0 && e->state != ENG_DONE)
		event_active(e->fin_ev, EV_TIMEOUT, 0);
}

static void log_change(struct emulation *e, unsigned src, unsigned dst,
		       const struct netem_spec *s, const char *origin)
{
	char text[512];
	double t = (double)elapsed_ns(e) / 1e9;

	netem_spec_print(s, text, sizeof(text));
	log_info("t=%.3f s: %s>%s set to '%s' (%s)", t, e->sc->hosts[src].name,
		 e->sc->hosts[dst].name, text, origin);
	if (e->changes != NULL) {
		fprintf(e->changes, "%.6f,%s,%s,%s,\"%s\"\n", t, origin,
			e->sc->hosts[src].name, e->sc->hosts[dst].name, text);
		fflush(e->changes);
	}
}

int emulation_set(struct emulation *e, unsigned src, unsigned dst,
		  const struct netem_spec *s, const char *origin)
{
	char why[256];
	int err;

	if (src >= e->n || dst >= e->n || src == dst)
		return -EINVAL;
	if (e->state == ENG_DONE)
		return -ESRCH;
	if (e->kernel) {
		unsigned k = dst > src ? dst - 1 : dst;

		err = netns_enter(e->h[src].hp.nsfd);
		if (err < 0)
			return err;
		err = knetem_change(e->h[src].host_ifindex, k, s, why,
				    sizeof(why));
		if (netns_enter(e->orig_fd) < 0 && err == 0)
			err = -errno;
		if (err < 0)
			log_warnx("kernel backend: %s", why);
	} else {
		err = bridge_set_spec(e->bridge, src, dst, s);
	}
	if (err < 0)
		return err;
	e->spec[src * e->n + dst] = *s;
	e->has[src * e->n + dst] = 1;
	log_change(e, src, dst, s, origin);
	return 0;
}

static void arm_schedule(struct emulation *e)
{
	struct timeval tv;

	if (e->next_change >= e->sc->nchanges)
		return;
	tv = tv_of(e->sc->changes[e->next_change].at_ns - elapsed_ns(e));
	event_add(e->sched_ev, &tv);
}

static void on_schedule(evutil_socket_t fd, short what, void *arg)
{
	struct emulation *e = arg;
	int64_t t = elapsed_ns(e);

	(void)fd;
	(void)what;
	while (e->next_change < e->sc->nchanges &&
	       e->sc->changes[e->next_change].at_ns <= t) {
		const struct sc_change *c = &e->sc->changes[e->next_change++];
		int err =
			emulation_set(e, c->src, c->dst, &c->spec, "schedule");

		if (err < 0)
			log_warnx("schedule: %s>%s: %s",
				  e->sc->hosts[c->src].name,
				  e->sc->hosts[c->dst].name, strerror(-err));
	}
	arm_schedule(e);
}

/* Undo a partial set-up: no host has been released yet, so SIGKILL and a
 * blocking reap end them at once. */
static void abort_setup(struct emulation *e)
{
	for (unsigned i = 0; i < e->n; i++) {
		struct eng_host *h = &e->h[i];

		if (h->hp.pid > 0 && !h->hp.exited) {
			kill(h->hp.pid, SIGKILL);
			waitpid(h->hp.pid, NULL, 0);
			h->hp.exited = 1;
		}
		hostproc_release(&h->hp);
	}
	if (e->bridge != NULL)
		bridge_free(e->bridge);
	e->bridge = NULL;
	if (e->orig_fd >= 0)
		netns_enter(e->orig_fd);
	if (e->hub_fd >= 0)
		close(e->hub_fd);
	e->hub_fd = -1;
}

static int check_kernel(void)
{
	char why[256];
	int err = knetem_probe(why, sizeof(why));

	if (err < 0)
		log_warnx("backend = kernel is unavailable: %s", why);
	return err;
}

int emulation_start(struct event_base *base, const struct emulation_params *p,
		    emulation_done_fn done, void *arg, struct emulation **out)
{
	struct emulation *e = calloc(1, sizeof(*e));
	char path[PATH_MAX];
	int err = -ENOMEM;

	if (e == NULL)
		return -ENOMEM;
	e->base = base;
	e->sc = p->sc;
	e->p = *p;
	snprintf(e->dir, sizeof(e->dir), "%s", p->dir);
	e->p.dir = e->dir;
	e->done = done;
	e->arg = arg;
	e->n = p->sc->nhosts;
	e->orig_fd = e->hub_fd = -1;
	e->kernel = p->sc->backend == SC_BACKEND_KERNEL;
	e->h = calloc(e->n, sizeof(*e->h));
	e->spec = calloc((size_t)e->n * e->n, sizeof(*e->spec));
	e->has = calloc((size_t)e->n * e->n, 1);
	e->sigchld_ev = evsignal_new(base, SIGCHLD, on_sigchld, e);
	e->dur_ev = evtimer_new(base, on_duration, e);
	e->grace_ev = evtimer_new(base, on_grace, e);
	e->sched_ev = evtimer_new(base, on_schedule, e);
	e->fin_ev = evtimer_new(base, finish, e);
	if (!e->h || !e->spec || !e->has || !e->sigchld_ev || !e->dur_ev ||
	    !e->grace_ev || !e->sched_ev || !e->fin_ev)
		goto fail;
	for (unsigned i = 0; i < e->n; i++)
		e->h[i].hp.go_fd = e->h[i].hp.nsfd = -1;
	ensure_spec_table(e);

	if (e->kernel && (err = check_kernel()) < 0)
		goto fail;
	if (!e->kernel && (err = check_bridge_rx()) < 0)
		goto fail;
	err = results_path(path, sizeof(path), "%s/hosts", e->dir);
	if (err == 0)
		err = results_mkdirs(path);
	if (err < 0) {
		log_warnx("%s: %s", path, strerror(-err));
		goto fail;
	}
	err = results_path(path, sizeof(path), "%s/changes.csv", e->dir);
	e->changes = err < 0 ? NULL : fopen(path, "we");
	if (e->changes == NULL) {
		err = -errno;
		log_warn("%s", path);
		goto fail;
	}
	fprintf(e->changes, "time_s,origin,src,dst,spec\n");
	/* SIGCHLD first: a host that dies during set-up is still noticed. */
	if (event_add(e->sigchld_ev, NULL) < 0)
		goto fail;
	err = netns_open_self(&e->orig_fd);
	if (err < 0)
		goto fail;
	/* The fps-clients' games, before the start time is set: their
	 * generation does not eat into the agents' start-up lead. */
	err = emu_games_write(&e->games, e->sc, e->dir, e->p.seed, e->p.rep);
	if (err < 0)
		goto fail;
	/* Every agent of this repetition starts its clock at the same
	 * monotonic instant, after set-up (bench: ~16 ms per host) is done:
	 * 0.5 s plus 25 ms per host from now. */
	e->start_ns = now_ns() + 500000000LL + 25000000LL * e->n;
	err = setup_network(e);
	if (err == 0 && netns_enter(e->orig_fd) < 0)
		err = -errno;
	if (err < 0) {
		abort_setup(e);
		goto fail;
	}

	clock_gettime(CLOCK_MONOTONIC, &e->t0);
	if (e->bridge != NULL && (err = setup_schedules(e)) < 0) {
		abort_setup(e);
		goto fail;
	}
	e->state = ENG_RUNNING;
	for (unsigned i = 0; i < e->n; i++) {
		hostproc_go(&e->h[i].hp);
		log_info("host %s: %s, pid %d, log %s", e->sc->hosts[i].name,
			 e->sc->hosts[i].addr, (int)e->h[i].hp.pid,
			 e->h[i].log);
	}
	if (e->sc->duration_ns > 0) {
		struct timeval tv = tv_of(e->sc->duration_ns);

		event_add(e->dur_ev, &tv);
	}
	arm_schedule(e);
	*out = e;
	return 0;
fail:
	if (e->sigchld_ev != NULL)
		event_del(e->sigchld_ev);
	e->state = ENG_DONE;
	emulation_free(e);
	return err < 0 ? err : -ENOMEM;
}

static const char *host_state(const struct eng_host *h)
{
	if (!h->hp.exited)
		return h->stopped ? "stopping" : "running";
	if (h->killed)
		return "killed";
	if (h->failed)
		return "failed";
	return h->stopped ? "stopped" : "exited";
}

static void status_hosts(const struct emulation *e, FILE *r, int json)
{
	pid_t pids[64];

	for (unsigned i = 0; i < e->n; i++) {
		const struct eng_host *h = &e->h[i];
		int np = h->hp.exited ? 0 : hostproc_members(&h->hp, pids, 64);

		if (np > 64)
			np = 64;
		if (json) {
			fprintf(r,
				"%s{\"name\": \"%s\", \"addr\": \"%s\", "
				"\"state\": \"%s\", \"pid\": %d, "
				"\"status\": ",
				i ? ", " : "", e->sc->hosts[i].name,
				e->sc->hosts[i].addr, host_state(h),
				(int)h->hp.pid);
			if (h->hp.exited)
				fprintf(r, "%d", h->hp.status);
			else
				fprintf(r, "null");
			fprintf(r, ", \"pids\": [");
			for (int k = 0; k < np; k++)
				fprintf(r, "%s%d", k ? ", " : "", (int)pids[k]);
			fprintf(r, "], \"log\": ");
			json_fputs_str(r, h->log);
			fprintf(r, "}");
		} else {
			fprintf(r, "  %-12s %-15s %-8s pid %d",
				e->sc->hosts[i].name, e->sc->hosts[i].addr,
				host_state(h), (int)h->hp.pid);
			if (h->hp.exited)
				fprintf(r, " status %d", h->hp.status);
			if (np > 1)
				fprintf(r, " (%d processes)", np);
			fprintf(r, "\n");
		}
	}
}

static void status_links(const struct emulation *e, FILE *r, int json)
{
	int first = 1;

	for (unsigned i = 0; i < e->n; i++)
		for (unsigned j = 0; j < e->n; j++) {
			struct netem_counters c;
			char text[512] = "";

			if (i == j)
				continue;
			memset(&c, 0, sizeof(c));
			if (e->bridge != NULL)
				bridge_counters(e->bridge, i, j, &c);
			if (!e->has[i * e->n + j] && c.in == 0)
				continue;
			if (e->has[i * e->n + j])
				netem_spec_print(&e->spec[i * e->n + j], text,
						 sizeof(text));
			if (json) {
				fprintf(r, "%s{\"link\": \"%s>%s\", \"spec\": ",
					first ? "" : ", ", e->sc->hosts[i].name,
					e->sc->hosts[j].name);
				json_fputs_str(r, text);
				fprintf(r,
					", \"in\": %" PRIu64
					", \"delivered\": %" PRIu64
					", \"drop_loss\": %" PRIu64
					", \"drop_limit\": %" PRIu64
					", \"duplicated\": %" PRIu64
					", \"corrupted\": %" PRIu64
					", \"reordered\": %" PRIu64
					", \"bytes_in\": %" PRIu64
					", \"bytes_delivered\": %" PRIu64
					", \"counted\": %s}",
					c.in, c.delivered, c.drop_loss,
					c.drop_limit, c.duplicated, c.corrupted,
					c.reordered, c.bytes_in,
					c.bytes_delivered,
					e->kernel ? "false" : "true");
			} else if (e->kernel) {
				/* sch_netem counts in the kernel; the
				 * bridge's counters do not exist here. */
				fprintf(r,
					"  %s>%s  '%s'  (kernel netem: no "
					"per-link counters)\n",
					e->sc->hosts[i].name,
					e->sc->hosts[j].name, text);
			} else {
				fprintf(r,
					"  %s>%s  '%s'  in %" PRIu64
					" delivered %" PRIu64 " lost %" PRIu64
					" overlimit %" PRIu64 " dup %" PRIu64
					" corrupt %" PRIu64
					" reordered %" PRIu64 "\n",
					e->sc->hosts[i].name,
					e->sc->hosts[j].name, text, c.in,
					c.delivered, c.drop_loss, c.drop_limit,
					c.duplicated, c.corrupted, c.reordered);
			}
			first = 0;
		}
}

/* Frames that never reached a link: counted by the bridge, shown here. */
static void status_bridge(const struct emulation *e, FILE *r, int json)
{
	struct bridge_stats bs;

	if (e->bridge == NULL || bridge_stats(e->bridge, &bs) < 0)
		return;
	fprintf(r,
		json ? ", \"bridge\": {\"passthrough\": %" PRIu64
		       ", \"malformed\": %" PRIu64 ", \"unknown_dst\": %" PRIu64
		       ", \"dropped_other\": %" PRIu64
		       ", \"send_errors\": %" PRIu64 "}"
		     : "bridge: passthrough %" PRIu64 " malformed %" PRIu64
		       " unknown-dst %" PRIu64 " dropped-other %" PRIu64
		       " send-errors %" PRIu64 "\n",
		bs.passthrough, bs.malformed, bs.unknown_dst,
		bs.oversize + bs.pool_full + bs.link_errors + bs.rx_errors,
		bs.send_errors);
}

void emulation_status(const struct emulation *e, FILE *r, int json)
{
	static const char *const st[] = {"running", "stopping", "done"};
	double el = (double)elapsed_ns(e) / 1e9;
	double dur = (double)e->sc->duration_ns / 1e9;

	if (json) {
		fprintf(r,
			"\"state\": \"%s\", \"rep\": %u, \"seed\": %" PRIu64
			", \"backend\": \"%s\", \"elapsed_s\": %.3f, "
			"\"duration_s\": %.3f, \"dir\": ",
			st[e->state], e->p.rep, e->p.seed,
			e->kernel ? "kernel" : "userspace", el, dur);
		json_fputs_str(r, e->dir);
		fprintf(r, ", \"hosts\": [");
		status_hosts(e, r, 1);
		fprintf(r, "], \"links\": [");
		status_links(e, r, 1);
		fprintf(r, "]");
		status_bridge(e, r, 1);
		return;
	}
	fprintf(r,
		"state %s, repetition %u, seed %" PRIu64
		", backend %s, %.1f/%.1f s\nresults %s\nhosts:\n",
		st[e->state], e->p.rep, e->p.seed,
		e->kernel ? "kernel" : "userspace", el, dur, e->dir);
	status_hosts(e, r, 0);
	fprintf(r, "links:\n");
	status_links(e, r, 0);
	status_bridge(e, r, 0);
}

void emulation_progress(const struct emulation *e, char *buf, size_t len)
{
	size_t o;
	int n, shown = 0, more = 0;

	n = snprintf(buf, len, "[%6.1fs/%.1fs]", (double)elapsed_ns(e) / 1e9,
		     (double)e->sc->duration_ns / 1e9);
	o = n > 0 ? (size_t)n : 0;
	for (unsigned i = 0; i < e->n && o < len; i++)
		for (unsigned j = 0; j < e->n && o < len; j++) {
			struct netem_counters c;

			if (i == j || !e->has[i * e->n + j])
				continue;
			if (shown == 4) {
				more++;
				continue;
			}
			memset(&c, 0, sizeof(c));
			if (e->bridge != NULL)
				bridge_counters(e->bridge, i, j, &c);
			n = snprintf(buf + o, len - o,
				     " %s>%s %" PRIu64 "/%" PRIu64,
				     e->sc->hosts[i].name, e->sc->hosts[j].name,
				     c.delivered, c.drop_loss + c.drop_limit);
			o += n > 0 ? (size_t)n : 0;
			shown++;
		}
	if (more > 0 && o < len)
		snprintf(buf + o, len - o, " (+%d links)", more);
}

uint64_t emulation_lost(const struct emulation *e)
{
	return e->lost;
}

int emulation_result(const struct emulation *e)
{
	if (e->result != 0)
		return e->result;
	for (unsigned i = 0; i < e->n; i++)
		if (e->h[i].failed)
			return 1;
	return 0;
}

void emulation_free(struct emulation *e)
{
	if (e == NULL)
		return;
	if (e->state != ENG_DONE) {
		/* Freed while running (daemon shutting down): end it now. */
		kill_all(e, SIGKILL);
		for (unsigned i = 0; i < e->n; i++)
			if (e->h[i].hp.pid > 0 && !e->h[i].hp.exited) {
				waitpid(e->h[i].hp.pid, NULL, 0);
				e->h[i].hp.exited = 1;
			}
		if (e->bridge != NULL)
			bridge_free(e->bridge);
		if (e->hub_fd >= 0)
			close(e->hub_fd);
		for (unsigned i = 0; i < e->n; i++)
			hostproc_release(&e->h[i].hp);
	}
	emu_games_remove(&e->games);
	if (e->sigchld_ev != NULL)
		event_free(e->sigchld_ev);
	if (e->dur_ev != NULL)
		event_free(e->dur_ev);
	if (e->grace_ev != NULL)
		event_free(e->grace_ev);
	if (e->sched_ev != NULL)
		event_free(e->sched_ev);
	if (e->fin_ev != NULL)
		event_free(e->fin_ev);
	if (e->changes != NULL)
		fclose(e->changes);
	if (e->orig_fd >= 0)
		close(e->orig_fd);
	free(e->h);
	free(e->spec);
	free(e->has);
	free(e);
}
