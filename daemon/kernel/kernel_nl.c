/*
 * kernel_nl.c: the kernel backend's netlink plumbing: an rtnetlink socket
 * with extended acks and a send buffer big enough for a netem message
 * with two 16384-entry tables, one request and its ack (a refusal comes
 * back as -errno with the kernel's own message), and the one way the
 * backend's files write a reason. A leaf: it calls only libnl.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "kernel.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* Big enough for a netem message with two 16384-entry tables. */
#define KNETEM_SOCK_BUF (512 * 1024)

void knetem_say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

struct ack_ctx {
	int err;       /* positive errno from the kernel, 0 for none */
	char msg[160]; /* extended ack message, "" when none */
};

/* NLMSG_ERROR handler: keep the errno and the extended ack text. With
 * NETLINK_CAP_ACK the echoed request is only its header, so the TLVs
 * start right after struct nlmsgerr. */
static int err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct ack_ctx *c = arg;
	struct nlmsghdr *h = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *a;
	size_t off = sizeof(*e);
	int rem;

	(void)nla;
	c->err = e->error < 0 ? -e->error : EIO;
	c->msg[0] = '\0';
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	if (h->nlmsg_len < NLMSG_HDRLEN + off)
		return NL_STOP;
	rem = (int)(h->nlmsg_len - NLMSG_HDRLEN - off);
	a = nla_find((struct nlattr *)((char *)e + off), rem,
		     NLMSGERR_ATTR_MSG);
	if (a && nla_len(a) > 0) {
		size_t n = (size_t)nla_len(a);

		if (n >= sizeof(c->msg))
			n = sizeof(c->msg) - 1;
		memcpy(c->msg, nla_data(a), n);
		c->msg[n] = '\0';
		/* The kernel's messages end with a full stop; ours add
		 * context after them. */
		n = strlen(c->msg);
		while (n && (c->msg[n - 1] == '.' || c->msg[n - 1] == '\n'))
			c->msg[--n] = '\0';
	}
	return NL_STOP;
}

int knetem_sock_open(struct nl_sock **out)
{
	struct nl_sock *sk;
	int one = 1;

	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	if (nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		return -EIO;
	}
	if (nl_socket_set_buffer_size(sk, KNETEM_SOCK_BUF, KNETEM_SOCK_BUF) <
	    0) {
		nl_socket_free(sk);
		return -ENOBUFS;
	}
	/* Extended acks are best effort: old kernels just give errno. */
	(void)setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK,
			 &one, sizeof(one));
	(void)setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK,
			 &one, sizeof(one));
	*out = sk;
	return 0;
}

int knetem_talk(struct nl_sock *sk, struct nl_msg *msg, char *why, size_t len)
{
	struct ack_ctx c = {0};
	int r;

	if (nl_socket_modify_err_cb(sk, NL_CB_CUSTOM, err_cb, &c) < 0)
		return -ENOMEM;
	r = nl_send_auto(sk, msg);
	if (r < 0) {
		knetem_say(why, len, "netlink send: %s", nl_geterror(r));
		return r == -NLE_NOMEM ? -ENOMEM : -EIO;
	}
	r = nl_wait_for_ack(sk);
	if (c.err) {
		knetem_say(why, len, "%s", c.msg[0] ? c.msg : strerror(c.err));
		return -c.err;
	}
	if (r < 0) {
		knetem_say(why, len, "netlink: %s", nl_geterror(r));
		return -EIO;
	}
	return 0;
}
