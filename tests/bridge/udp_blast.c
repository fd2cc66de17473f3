/*
 * udp_blast.c: paced UDP sender and one-way-delay receiver for the bridge
 * bench. The sender puts a sequence number and its CLOCK_MONOTONIC send
 * time in every datagram; the receiver, in another namespace on the same
 * machine (namespaces share the clock), takes the kernel's arrival stamp
 * (SO_TIMESTAMPNS, CLOCK_REALTIME, mapped to CLOCK_MONOTONIC by an offset
 * read once) and reports the one-way delay minus the configured delay:
 * p50, p99, max, how many datagrams arrived, and how many arrived
 * after one with a higher sequence number (out of order).
 *
 * SOCKS (1..8, default 1) sends the datagrams from that many sockets in
 * turn, one thread, so the receiver's out-of-order count shows whether a
 * host's sends keep their order across its sockets. BURST (default 1)
 * wakes once per BURST datagrams' worth of time and sends them back to
 * back, or GAP_US microseconds apart (spinning) when given.
 *
 * "timer" measures the platform's floor for the same job: how late an
 * absolute CLOCK_MONOTONIC timerfd, waited for with epoll as the bridge
 * does, wakes this process.
 *
 * usage: udp_blast send IP PORT RATE COUNT [SIZE [SOCKS [BURST [GAP_US]]]]
 *        udp_blast recv PORT COUNT TIMEOUT_S DELAY_NS
 *        udp_blast timer PERIOD_NS COUNT
 *        udp_blast raw IFNAME DSTMAC ETHERTYPE HEXBYTES [LEN]
 * "raw" sends one hand-made Ethernet frame (source MAC = IFNAME's) so the
 * tests can offer the bridge malformed input; LEN zero-pads the frame to
 * LEN bytes (up to 65549, a 65535-byte MTU) to offer oversized frames.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>

struct blast_hdr {
	uint64_t seq;
	int64_t sent_ns;
};

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = {t / 1000000000, t % 1000000000};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static int do_send(const char *ip, int port, double rate, long count,
		   size_t size, int nsock, long burst, int64_t gap)
{
	struct sockaddr_in to = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port)};
	unsigned char buf[1500];
	int64_t start, interval, tick;
	long sent = 0;
	int fd[8];

	if (size < sizeof(struct blast_hdr) || size > sizeof(buf) ||
	    rate <= 0 || count <= 0 || nsock < 1 || nsock > 8 || burst < 1 ||
	    inet_pton(AF_INET, ip, &to.sin_addr) != 1)
		return 2;
	for (int k = 0; k < nsock; k++) {
		fd[k] = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd[k] < 0) {
			perror("udp_blast: socket");
			return 1;
		}
	}
	memset(buf, 0xa5, sizeof(buf));
	interval = (int64_t)(1e9 / rate);
	/* Wake at most every 100 us (or once a burst) and send what is due:
	 * per-packet sleeps at 50k/s would cost more CPU than the bridge has
	 * on 2 cores. */
	tick = interval * burst > 100000 ? interval * burst : 100000;
	start = clock_ns(CLOCK_MONOTONIC);
	while (sent < count) {
		int64_t now = clock_ns(CLOCK_MONOTONIC);
		long due = ((long)((now - start) / (interval * burst)) + 1) * burst;

		if (due > count)
			due = count;
		for (int64_t t = now; sent < due; t += gap) {
			struct blast_hdr h;

			while (gap > 0 && clock_ns(CLOCK_MONOTONIC) < t)
				; /* spin: the gap is shorter than a sleep */
			h = (struct blast_hdr){(uint64_t)sent,
					       clock_ns(CLOCK_MONOTONIC)};

			memcpy(buf, &h, sizeof(h));
			if (sendto(fd[sent % nsock], buf, size, 0,
				   (struct sockaddr *)&to, sizeof(to)) < 0 &&
			    errno != ENOBUFS && errno != EAGAIN) {
				perror("udp_blast: sendto");
				return 1;
			}
			sent++;
		}
		sleep_until(now + tick);
	}
	for (int k = 0; k < nsock; k++)
		close(fd[k]);
	printf("sent=%ld\n", sent);
	return 0;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int do_recv(int port, long count, double timeout_s, int64_t delay_ns)
{
	struct sockaddr_in me = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_ANY)};
	int64_t *err, off, deadline;
	long got = 0, ooo = 0;
	uint64_t top = 0;
	int fd, one = 1, sz = 64 << 20;

	if (count <= 0)
		return 2;
	err = calloc((size_t)count, sizeof(*err));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (err == NULL || fd < 0)
		return 1;
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		perror("udp_blast: bind");
		return 1;
	}
	{
		int64_t m0 = clock_ns(CLOCK_MONOTONIC);
		int64_t r = clock_ns(CLOCK_REALTIME);
		int64_t m1 = clock_ns(CLOCK_MONOTONIC);

		off = r - (m0 + (m1 - m0) / 2);
	}
	printf("listening\n");
	fflush(stdout);
	deadline = clock_ns(CLOCK_MONOTONIC) + (int64_t)(timeout_s * 1e9);
	while (got < count) {
		unsigned char buf[2048], cbuf[256];
		struct iovec iov = {buf, sizeof(buf)};
		struct msghdr m = {.msg_iov = &iov,
				   .msg_iovlen = 1,
				   .msg_control = cbuf,
				   .msg_controllen = sizeof(cbuf)};
		struct pollfd pfd = {fd, POLLIN, 0};
		int64_t now = clock_ns(CLOCK_MONOTONIC), arr = -1;
		struct blast_hdr h;
		struct cmsghdr *c;
		ssize_t n;

		if (now >= deadline)
			break;
		if (poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1) <= 0)
			continue;
		n = recvmsg(fd, &m, MSG_DONTWAIT);
		if (n < (ssize_t)sizeof(h))
			continue;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_SOCKET &&
			    c->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;

				memcpy(&ts, CMSG_DATA(c), sizeof(ts));
				arr = (int64_t)ts.tv_sec * 1000000000 +
				      ts.tv_nsec - off;
			}
		if (arr < 0)
			arr = clock_ns(CLOCK_MONOTONIC);
		memcpy(&h, buf, sizeof(h));
		if (got > 0 && h.seq < top)
			ooo++;
		else
			top = h.seq;
		err[got++] = arr - h.sent_ns - delay_ns;
	}
	close(fd);
	if (got == 0) {
		printf("received=0\n");
		free(err);
		return 1;
	}
	qsort(err, (size_t)got, sizeof(*err), cmp64);
	printf("received=%ld min_us=%.1f p50_us=%.1f p99_us=%.1f max_us=%.1f "
	       "out_of_order=%ld\n",
	       got, err[0] / 1e3, err[(got - 1) / 2] / 1e3,
	       err[(long)((got - 1) * 0.99)] / 1e3, err[got - 1] / 1e3, ooo);
	free(err);
	return 0;
}

static int do_timer(int64_t period, long count)
{
	struct epoll_event ev = {.events = EPOLLIN};
	int64_t *late, t;
	int tfd, ep;

	if (period <= 0 || count <= 0)
		return 2;
	late = calloc((size_t)count, sizeof(*late));
	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	ep = epoll_create1(0);
	if (late == NULL || tfd < 0 || ep < 0 ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev) < 0)
		return 1;
	t = clock_ns(CLOCK_MONOTONIC);
	for (long i = 0; i < count; i++) {
		struct itimerspec its = {{0, 0}, {0, 0}};
		uint64_t ticks;

		t += period;
		its.it_value.tv_sec = t / 1000000000;
		its.it_value.tv_nsec = t % 1000000000;
		timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
		while (epoll_wait(ep, &ev, 1, -1) < 0 && errno == EINTR)
			;
		if (read(tfd, &ticks, sizeof(ticks)) < 0)
			return 1;
		late[i] = clock_ns(CLOCK_MONOTONIC) - t;
	}
	qsort(late, (size_t)count, sizeof(*late), cmp64);
	printf("timer n=%ld p50_us=%.1f p99_us=%.1f max_us=%.1f\n", count,
	       late[(count - 1) / 2] / 1e3,
	       late[(long)((count - 1) * 0.99)] / 1e3, late[count - 1] / 1e3);
	free(late);
	close(tfd);
	close(ep);
	return 0;
}

static int do_raw(const char *ifname, const char *dst, const char *type,
		  const char *hex, size_t pad)
{
	struct sockaddr_ll sll = {.sll_family = AF_PACKET};
	static unsigned char f[65549];
	unsigned m[6], t;
	struct ifreq ifr;
	size_t n = 14;
	int fd;

	if (sscanf(dst, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4],
		   &m[5]) != 6 ||
	    sscanf(type, "%x", &t) != 1 || strlen(ifname) >= IFNAMSIZ)
		return 2;
	for (int i = 0; i < 6; i++)
		f[i] = (unsigned char)m[i];
	f[12] = (unsigned char)(t >> 8);
	f[13] = (unsigned char)t;
	for (; hex[0] && hex[1] && n < sizeof(f); hex += 2) {
		unsigned b;

		if (sscanf(hex, "%2x", &b) != 1)
			return 2;
		f[n++] = (unsigned char)b;
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("udp_blast: packet socket");
		return 1;
	}
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("udp_blast: SIOCGIFHWADDR");
		return 1;
	}
	memcpy(f + 6, ifr.ifr_hwaddr.sa_data, 6);
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, f, 6);
	if (pad < 60)
		pad = 60; /* the Ethernet minimum */
	if (pad > sizeof(f))
		return 2;
	if (n < pad) {
		memset(f + n, 0, pad - n);
		n = pad;
	}
	if (sendto(fd, f, n, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("udp_blast: sendto");
		return 1;
	}
	close(fd);
	return 0;
}

int main(int argc, char *argv[])
{
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (argc >= 6 && strcmp(argv[1], "send") == 0)
		return do_send(argv[2], atoi(argv[3]), atof(argv[4]),
			       atol(argv[5]),
			       argc > 6 ? (size_t)atol(argv[6]) : 64,
			       argc > 7 ? atoi(argv[7]) : 1,
			       argc > 8 ? atol(argv[8]) : 1,
			       argc > 9 ? atoll(argv[9]) * 1000 : 0);
	if (argc == 6 && strcmp(argv[1], "recv") == 0)
		return do_recv(atoi(argv[2]), atol(argv[3]), atof(argv[4]),
			       atoll(argv[5]));
	if ((argc == 6 || argc == 7) && strcmp(argv[1], "raw") == 0)
		return do_raw(argv[2], argv[3], argv[4], argv[5],
			      argc == 7 ? (size_t)atol(argv[6]) : 0);
	if (argc == 4 && strcmp(argv[1], "timer") == 0)
		return do_timer(atoll(argv[2]), atol(argv[3]));
	fprintf(stderr, "usage: udp_blast send IP PORT RATE COUNT [SIZE [SOCKS [BURST [GAP_US]]]]\n"
			"       udp_blast recv PORT COUNT TIMEOUT_S DELAY_NS\n"
			"       udp_blast timer PERIOD_NS COUNT\n"
			"       udp_blast raw IFNAME DSTMAC ETHERTYPE HEXBYTES "
			"[LEN]\n");
	return 2;
}
