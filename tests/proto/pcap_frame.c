/*
 * pcap_frame.c: Ethernet + IPv4 + UDP framing for the pcap test helpers
 * (pcap_frame.h), with the RFC 1071 one's-complement checksums.
 */
#include <string.h>

#include "pcap_frame.h"

#define ETH_LEN 14
#define IP_LEN	20
#define UDP_LEN 8

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

size_t pcap_frame_udp(uint8_t *f, const uint8_t *payload, size_t n, unsigned id,
		      unsigned sport, unsigned dport)
{
	static const uint8_t dst[6] = {0x02, 0, 0, 0, 0, 0x02};
	static const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0x01};
	static const uint8_t saddr[4] = {10, 0, 0, 1}, daddr[4] = {10, 0, 0, 2};
	uint8_t *ip = f + ETH_LEN, *udp = ip + IP_LEN;
	uint32_t s;

	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	put16(f + 12, 0x0800);

	memset(ip, 0, IP_LEN);
	ip[0] = 0x45;
	put16(ip + 2, (unsigned)(IP_LEN + UDP_LEN + n));
	put16(ip + 4, id & 0xffff);
	put16(ip + 6, 0x4000); /* DF */
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, saddr, 4);
	memcpy(ip + 16, daddr, 4);
	put16(ip + 10, fold(sum16(ip, IP_LEN, 0)));

	put16(udp, sport);
	put16(udp + 2, dport);
	put16(udp + 4, (unsigned)(UDP_LEN + n));
	put16(udp + 6, 0);
	memcpy(udp + UDP_LEN, payload, n);
	/* pseudo-header: addresses, protocol, UDP length */
	s = sum16(ip + 12, 8, 0) + 17 + (uint32_t)(UDP_LEN + n);
	s = fold(sum16(udp, UDP_LEN + n, s));
	put16(udp + 6, s ? s : 0xffff);
	return ETH_LEN + IP_LEN + UDP_LEN + n;
}
