/*
 * bridge_pcap.c: the userspace bridge's `pcap` receive backend, the
 * default. Each port reads its hub-side veth through a libpcap handle in
 * immediate mode (on Linux a TPACKET_V2 ring that wakes the reader for
 * every frame, where the `ring` backend's TPACKET_V3 blocks wait up to
 * their 1 ms retire timeout), incoming direction only, nanosecond
 * stamps, non-blocking, its selectable fd watched by libevent. On
 * wake-up pcap_dispatch drains a batch; each frame enters the engine at
 * its pcap stamp mapped to CLOCK_MONOTONIC, exactly as the ring path
 * does. Injection stays on the port's AF_PACKET socket (bridge_tx.c).
 * libpcap gives no virtio-net header, so frames carry a zero one: the
 * runtime turns veth offloads off (netns_offloads_off), and a GSO
 * super-frame read anyway is counted oversize and dropped.
 */
#include <errno.h>
#include <string.h>

#include <net/if.h>

#include "bridge_int.h"

#define PCAP_SNAPLEN	65535
#define PCAP_BUF_BUDGET (256 << 20) /* bytes over all ports */
#define PCAP_BUF_MAX	(4 << 20)  /* per port */
#define PCAP_BUF_MIN	(1 << 20)
#define PCAP_BATCH	256 /* frames per pcap_dispatch, then timers run */

/* What a pcap_dispatch callback needs besides the port. */
struct pcap_ctx {
	struct bport *pt;
	int64_t now, rt;
};

static void on_frame(u_char *user, const struct pcap_pkthdr *h,
		     const u_char *bytes)
{
	struct pcap_ctx *cx = (struct pcap_ctx *)user;
	struct bridge *b = cx->pt->b;
	struct virtio_net_hdr vh;
	uint64_t pass = b->st.passthrough;
	int64_t t;

	b->st.pcap_frames++;
	if (h->caplen < h->len || h->len > FRAME_LARGE_CAP) {
		b->st.oversize++; /* cut by the snap length, or over a slot */
		return;
	}
	/* PCAP_TSTAMP_PRECISION_NANO: tv_usec holds nanoseconds of
	 * CLOCK_REALTIME, the kernel's stamp of the frame. */
	t = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec - cx->rt;
	if (t > cx->now)
		cx->now = br_mono_ns(); /* arrived during this dispatch */
	if (t > cx->now || t <= cx->now - 1000000000)
		t = cx->now;
	memset(&vh, 0, sizeof(vh));
	br_rx_frame(b, cx->pt->idx, &vh, (uint8_t *)(uintptr_t)bytes, h->caplen,
		    t);
	/* A passthrough frame points into libpcap's ring slot (and at vh),
	 * which is returned to the kernel when this callback ends. */
	if (b->st.passthrough != pass)
		br_tx_flush_all(b);
}

static void on_readable(evutil_socket_t fd, short what, void *arg)
{
	struct bport *pt = arg;
	struct bridge *b = pt->b;
	struct pcap_ctx cx = {.pt = pt};
	int n;

	(void)fd;
	(void)what;
	cx.rt = br_rt_offset();
	cx.now = br_mono_ns();
	n = pcap_dispatch(pt->pc, PCAP_BATCH, on_frame, (u_char *)&cx);
	if (n < 0)
		b->st.rx_errors++;
	else if (n > 0)
		b->st.pcap_reads++;
	br_run_due(b);
}

static int pcap_err(int rc)
{
	switch (rc) {
	case PCAP_ERROR_NO_SUCH_DEVICE:
		return -ENODEV;
	case PCAP_ERROR_PERM_DENIED:
	case PCAP_ERROR_PROMISC_PERM_DENIED:
		return -EPERM;
	case PCAP_ERROR_IFACE_NOT_UP:
		return -ENETDOWN;
	default:
		return -EIO;
	}
}

int br_pcap_open(struct bridge *b, unsigned i, const struct bridge_port *p)
{
	struct bport *pt = &b->ports[i];
	char ifname[IF_NAMESIZE], errbuf[PCAP_ERRBUF_SIZE];
	int buf = PCAP_BUF_BUDGET / (int)b->n, rc, fd;

	if ((rc = br_tx_socket(b, i, p)) < 0)
		return rc;
	if (if_indextoname((unsigned)p->ifindex, ifname) == NULL)
		return -errno;
	buf = buf > PCAP_BUF_MAX   ? PCAP_BUF_MAX
	      : buf < PCAP_BUF_MIN ? PCAP_BUF_MIN
				   : buf;
	pt->pc = pcap_create(ifname, errbuf);
	if (pt->pc == NULL)
		return -ENOMEM;
	if (pcap_set_snaplen(pt->pc, PCAP_SNAPLEN) != 0 ||
	    pcap_set_promisc(pt->pc, 1) != 0 ||
	    pcap_set_immediate_mode(pt->pc, 1) != 0 ||
	    pcap_set_buffer_size(pt->pc, buf) != 0 ||
	    pcap_set_tstamp_precision(pt->pc, PCAP_TSTAMP_PRECISION_NANO) != 0)
		return -EINVAL;
	rc = pcap_activate(pt->pc);
	if (rc < 0)
		return pcap_err(rc);
	/* Only what the host sent: our own injections leave this veth. */
	if (pcap_setdirection(pt->pc, PCAP_D_IN) != 0 ||
	    pcap_setnonblock(pt->pc, 1, errbuf) != 0)
		return -EIO;
	fd = pcap_get_selectable_fd(pt->pc);
	if (fd < 0)
		return -EIO;
	pt->ev = event_new(b->base, fd, EV_READ | EV_PERSIST, on_readable, pt);
	if (pt->ev == NULL || event_add(pt->ev, NULL) < 0)
		return -ENOMEM;
	return 0;
}

uint64_t br_pcap_drops(struct bport *pt)
{
	struct pcap_stat ps;

	/* libpcap keeps the running totals itself. */
	if (pt->pc != NULL && pcap_stats(pt->pc, &ps) == 0)
		pt->kdrops = ps.ps_drop;
	return pt->kdrops;
}
