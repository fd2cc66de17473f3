/*
 * bridge_harness.c: runs the userspace impairment bridge on its own, for
 * the netns tests and the delay bench. It builds a minimal struct scenario
 * by hand from the command line (hosts, [link] specs parsed with
 * netem_spec_parse, capture settings), opens the bridge on the given
 * hub-side veths on a precise-timer libevent base, prints "ready rx=NAME"
 * once the sockets are bound, and at SIGTERM/SIGINT (or after -t seconds)
 * prints every directed link's counters and the bridge-wide counters as
 * key=value lines. `bridge_harness -x IFNAME...` only turns offloads off
 * on those interfaces (netns_offloads_off, in the namespace it runs in).
 *
 * usage: bridge_harness [-r pcap|ring] [-O] [-s seed] [-t secs]
 *            [-p pcapdir [-S snaplen] [-M maxbytes] [-B|-A]]
 *            [-l A:B:SPEC]... [-d A:B:SPEC]... NAME=IFNAME,MAC,IP ...
 *        bridge_harness -x IFNAME...
 *   -r receive backend (default: RECKON_BRIDGE_RX, else pcap);
 *   -O offloads off on the hub-side interfaces first;
 *   -l sets SPEC on both directions of A-B, -d on A->B only;
 *   -B captures before impairment only, -A after only (default both).
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <event2/event.h>

#include "bridge.h"
#include "netem.h"
#include "ns.h"
#include "reckond.h"
#include "scenario.h"
#include "util.h"

static void usage(void)
{
	fprintf(stderr, "usage: bridge_harness [-r pcap|ring] [-O] [-s seed] "
			"[-t secs] [-p pcapdir [-S snaplen] "
			"[-M maxbytes] [-B|-A]]\n"
			"           [-l A:B:SPEC]... [-d A:B:SPEC]... "
			"NAME=IFNAME,MAC,IP ...\n"
			"       bridge_harness -x IFNAME...\n");
	exit(2);
}

static int parse_port(const char *arg, struct sc_host *h, struct bridge_port *p)
{
	char buf[128], *eq, *ifn, *mac, *ip, *save = NULL;
	unsigned m[6];
	struct in_addr a;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	eq = strchr(buf, '=');
	if (eq == NULL || eq == buf || eq - buf >= SC_NAME_MAX)
		return -1;
	*eq = '\0';
	ifn = strtok_r(eq + 1, ",", &save);
	mac = strtok_r(NULL, ",", &save);
	ip = strtok_r(NULL, ",", &save);
	if (ifn == NULL || mac == NULL || ip == NULL)
		return -1;
	if (sscanf(mac, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4],
		   &m[5]) != 6 ||
	    inet_pton(AF_INET, ip, &a) != 1)
		return -1;
	p->ifindex = (int)if_nametoindex(ifn);
	if (p->ifindex == 0) {
		fprintf(stderr, "bridge_harness: %s: no such interface\n", ifn);
		return -1;
	}
	for (int i = 0; i < 6; i++)
		p->mac[i] = (unsigned char)m[i];
	p->ip = a.s_addr;
	snprintf(h->name, sizeof(h->name), "%s", buf);
	snprintf(h->addr, sizeof(h->addr), "%s", ip);
	return 0;
}

struct linkarg {
	char a[SC_NAME_MAX], b[SC_NAME_MAX];
	const char *spec;
	int both;
};

static int split_link(char *arg, struct linkarg *la, int both)
{
	char *c1 = strchr(arg, ':'), *c2;

	if (c1 == NULL || (c2 = strchr(c1 + 1, ':')) == NULL)
		return -1;
	*c1 = *c2 = '\0';
	if (strlen(arg) >= SC_NAME_MAX || strlen(c1 + 1) >= SC_NAME_MAX)
		return -1;
	strcpy(la->a, arg);
	strcpy(la->b, c1 + 1);
	la->spec = c2 + 1;
	la->both = both;
	return 0;
}

/* Find or add the sc_link of the unordered pair {x, y}; returns the spec
 * slot for the direction x->y. */
static struct netem_spec *link_slot(struct scenario *sc, unsigned x, unsigned y)
{
	for (unsigned i = 0; i < sc->nlinks; i++) {
		struct sc_link *l = &sc->links[i];

		if (l->a == x && l->b == y)
			return &l->fwd;
		if (l->a == y && l->b == x)
			return &l->rev;
	}
	struct sc_link *l = &sc->links[sc->nlinks++];

	memset(l, 0, sizeof(*l));
	l->a = x;
	l->b = y;
	netem_spec_init(&l->fwd);
	netem_spec_init(&l->rev);
	return &l->fwd;
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	(void)sig;
	(void)what;
	event_base_loopbreak(arg);
}

static void print_counters(const struct bridge *b, const struct scenario *sc)
{
	struct netem_counters c;
	struct bridge_stats st;

	for (unsigned i = 0; i < sc->nhosts; i++)
		for (unsigned j = 0; j < sc->nhosts; j++) {
			if (i == j || bridge_counters(b, i, j, &c) < 0)
				continue;
			printf("link %s->%s in=%llu delivered=%llu "
			       "drop_loss=%llu "
			       "drop_limit=%llu duplicated=%llu corrupted=%llu "
			       "reordered=%llu ecn_marked=%llu bytes_in=%llu "
			       "bytes_delivered=%llu\n",
			       sc->hosts[i].name, sc->hosts[j].name,
			       (unsigned long long)c.in,
			       (unsigned long long)c.delivered,
			       (unsigned long long)c.drop_loss,
			       (unsigned long long)c.drop_limit,
			       (unsigned long long)c.duplicated,
			       (unsigned long long)c.corrupted,
			       (unsigned long long)c.reordered,
			       (unsigned long long)c.ecn_marked,
			       (unsigned long long)c.bytes_in,
			       (unsigned long long)c.bytes_delivered);
		}
	bridge_stats(b, &st);
	printf("bridge passthrough=%llu malformed=%llu unknown_dst=%llu "
	       "oversize=%llu pool_full=%llu link_errors=%llu rx_errors=%llu "
	       "rx_dropped=%llu "
	       "send_errors=%llu csum_completed=%llu capture_skipped=%llu "
	       "capture_errors=%llu ring_blocks=%llu ring_frames=%llu "
	       "tx_batches=%llu pcap_frames=%llu pcap_reads=%llu "
	       "tx_too_big=%llu\n",
	       (unsigned long long)st.passthrough,
	       (unsigned long long)st.malformed,
	       (unsigned long long)st.unknown_dst,
	       (unsigned long long)st.oversize,
	       (unsigned long long)st.pool_full,
	       (unsigned long long)st.link_errors,
	       (unsigned long long)st.rx_errors,
	       (unsigned long long)st.rx_dropped,
	       (unsigned long long)st.send_errors,
	       (unsigned long long)st.csum_completed,
	       (unsigned long long)st.capture_skipped,
	       (unsigned long long)st.capture_errors,
	       (unsigned long long)st.ring_blocks,
	       (unsigned long long)st.ring_frames,
	       (unsigned long long)st.tx_batches,
	       (unsigned long long)st.pcap_frames,
	       (unsigned long long)st.pcap_reads,
	       (unsigned long long)st.tx_too_big);
	fflush(stdout);
}

int main(int argc, char *argv[])
{
	static struct scenario sc;
	static struct bridge_conf conf;
	static struct bridge_port ports[SC_MAX_HOSTS];
	struct linkarg la[64];
	unsigned nla = 0;
	const char *pcap_dir = NULL;
	struct event_config *cfg;
	struct event_base *base;
	struct event *sigterm, *sigint, *stop = NULL;
	struct bridge *b;
	double secs = 0;
	char err[256];
	enum bridge_rx rx;
	int ch, rc, offl = 0;

	if (argc >= 3 && strcmp(argv[1], "-x") == 0) {
		for (int i = 2; i < argc; i++)
			if ((rc = netns_offloads_off(argv[i])) < 0) {
				fprintf(stderr,
					"bridge_harness: %s: offloads: %s\n",
					argv[i], strerror(-rc));
				return 1;
			}
		return 0;
	}
	sc.seed = 1;
	sc.capture.before = sc.capture.after = 1;
	sc.capture.snaplen = 65535;
	while ((ch = getopt(argc, argv, "ABM:OS:d:l:p:r:s:t:")) != -1) {
		switch (ch) {
		case 'O':
			offl = 1;
			break;
		case 'r':
			if (bridge_rx_parse(optarg, &rx) < 0) {
				fprintf(stderr,
					"bridge_harness: -r %s: not "
					"pcap or ring\n",
					optarg);
				return 2;
			}
			bridge_set_default_rx(rx);
			break;
		case 'A':
			sc.capture.before = 0;
			sc.capture.after = 1;
			break;
		case 'B':
			sc.capture.before = 1;
			sc.capture.after = 0;
			break;
		case 'M':
			if (num_parse_u64(optarg, &sc.capture.max_bytes) < 0)
				usage();
			break;
		case 'S':
			sc.capture.snaplen = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'p':
			pcap_dir = optarg;
			sc.capture.enabled = 1;
			break;
		case 's':
			if (num_parse_u64(optarg, &sc.seed) < 0)
				usage();
			break;
		case 't':
			secs = strtod(optarg, NULL);
			break;
		case 'd':
		case 'l':
			if (nla == 64 ||
			    split_link(optarg, &la[nla], ch == 'l') < 0)
				usage();
			nla++;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2 || argc > SC_MAX_HOSTS)
		usage();
	snprintf(sc.name, sizeof(sc.name), "bridge-harness");
	for (int i = 0; i < argc; i++) {
		if (parse_port(argv[i], &sc.hosts[i], &ports[i]) < 0) {
			fprintf(stderr, "bridge_harness: bad port '%s'\n",
				argv[i]);
			return 2;
		}
		sc.hosts[i].index = (unsigned)i;
		if (offl) {
			char ifn[IF_NAMESIZE];

			if (if_indextoname((unsigned)ports[i].ifindex, ifn) ==
				    NULL ||
			    (rc = netns_offloads_off(ifn)) < 0) {
				fprintf(stderr,
					"bridge_harness: port %d: "
					"cannot turn offloads off\n",
					i);
				return 1;
			}
		}
	}
	sc.nhosts = (unsigned)argc;
	sc.links = calloc(nla ? nla : 1, sizeof(*sc.links));
	if (sc.links == NULL)
		return 1;
	for (unsigned k = 0; k < nla; k++) {
		int x = scenario_host(&sc, la[k].a),
		    y = scenario_host(&sc, la[k].b);
		struct netem_spec s;

		if (x < 0 || y < 0 || x == y) {
			fprintf(stderr, "bridge_harness: bad link %s:%s\n",
				la[k].a, la[k].b);
			return 2;
		}
		if (netem_spec_parse(la[k].spec, &s, err, sizeof(err)) < 0) {
			fprintf(stderr, "bridge_harness: '%s': %s\n",
				la[k].spec, err);
			return 2;
		}
		*link_slot(&sc, (unsigned)x, (unsigned)y) = s;
		if (la[k].both)
			*link_slot(&sc, (unsigned)y, (unsigned)x) = s;
	}

	cfg = event_config_new();
	if (cfg == NULL)
		return 1;
	event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
	base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	if (base == NULL) {
		fprintf(stderr, "bridge_harness: no event base\n");
		return 1;
	}
	if (bridge_default_rx(&rx) < 0) {
		fprintf(stderr,
			"bridge_harness: RECKON_BRIDGE_RX='%s': not "
			"pcap or ring\n",
			getenv("RECKON_BRIDGE_RX"));
		return 2;
	}
	emulation_bridge_conf(&sc, &conf);
	rc = bridge_new(base, &conf, sc.seed, ports, sc.nhosts, pcap_dir, &b);
	if (rc < 0) {
		fprintf(stderr, "bridge_harness: bridge_new (rx %s): %s\n",
			bridge_rx_name(rx), strerror(-rc));
		return 1;
	}
	sigterm = evsignal_new(base, SIGTERM, on_signal, base);
	sigint = evsignal_new(base, SIGINT, on_signal, base);
	evsignal_add(sigterm, NULL);
	evsignal_add(sigint, NULL);
	if (secs > 0) {
		struct timeval tv = {
			(time_t)secs,
			(suseconds_t)((secs - (time_t)secs) * 1e6)};

		stop = evtimer_new(base, on_signal, base);
		evtimer_add(stop, &tv);
	}
	printf("ready rx=%s\n", bridge_rx_name(bridge_rx_of(b)));
	fflush(stdout);
	event_base_dispatch(base);

	print_counters(b, &sc);
	bridge_free(b);
	event_free(sigterm);
	event_free(sigint);
	if (stop)
		event_free(stop);
	event_base_free(base);
	free(sc.links);
	return 0;
}
