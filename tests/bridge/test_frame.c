/*
 * test_frame.c: Criterion tests of the bridge's frame classification
 * (daemon/bridge/frame.c): destination classes, IPv4 header validation, VLAN
 * tags, rejection of malformed frames without touching the output, the
 * RFC 1071 checksum against published vectors and the completion of a
 * partial (offloaded) UDP checksum.
 */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include "bridge_int.h"

/* 14-byte Ethernet header + 20-byte IPv4 header + 8-byte UDP header + 4
 * bytes of payload: 192.168.0.1:1000 -> 192.168.0.199:2000. */
static size_t make_udp(uint8_t *f, int vlan)
{
	static const uint8_t eth[12] = {0x02, 0, 0, 0, 0, 2,
					0x02, 0, 0, 0, 0, 1};
	size_t o = 12;

	memcpy(f, eth, 12);
	if (vlan) {
		f[o++] = 0x81;
		f[o++] = 0x00;
		f[o++] = 0x00;
		f[o++] = 0x05;
	}
	f[o++] = 0x08;
	f[o++] = 0x00;
	static const uint8_t ip[20] = {0x45, 0,	 0,   32,  0, 0,   0x40,
				       0,    64, 17,  0,   0, 192, 168,
				       0,    1,	 192, 168, 0, 199};
	memcpy(f + o, ip, 20);
	o += 20;
	static const uint8_t udp[12] = {0x03, 0xe8, 0x07, 0xd0, 0,   12,
					0,    0,    'a',  'b',	'c', 'd'};
	memcpy(f + o, udp, 12);
	return o + 12;
}

Test(frame, ipv4_udp_unicast)
{
	uint8_t f[64];
	size_t n = make_udp(f, 0);
	struct frame_info fi;
	uint32_t a;

	cr_assert_eq(frame_parse(f, n, &fi), 0);
	cr_assert_eq(fi.dst_class, FRAME_DST_UNICAST);
	cr_assert_eq(fi.ethertype, FRAME_ETH_P_IP);
	cr_assert(fi.is_ipv4);
	cr_assert_eq(fi.ip_proto, 17);
	cr_assert_eq(fi.l3_off, 14);
	cr_assert_eq(fi.l4_off, 34);
	cr_assert_eq(fi.ip_len, 32);
	memcpy(&a, (uint8_t[]){192, 168, 0, 199}, 4);
	cr_assert_eq(fi.ip_dst, a);
}

Test(frame, vlan_tag_is_skipped)
{
	uint8_t f[64];
	size_t n = make_udp(f, 1);
	struct frame_info fi;

	cr_assert_eq(frame_parse(f, n, &fi), 0);
	cr_assert(fi.is_ipv4);
	cr_assert_eq(fi.l3_off, 18);
	cr_assert_eq(fi.l4_off, 38);
}

Test(frame, ethernet_padding_is_accepted)
{
	uint8_t f[80] = {0};
	size_t n = make_udp(f, 0);
	struct frame_info fi;

	/* A 46-byte frame padded to 60 bytes on the wire. */
	cr_assert_eq(frame_parse(f, n < 60 ? 60 : n, &fi), 0);
	cr_assert(fi.is_ipv4);
	cr_assert_eq(fi.ip_len, 32);
}

Test(frame, arp_broadcast_and_multicast)
{
	uint8_t f[42] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02,
			 0,    0,    0,	   0,	 1,    0x08, 0x06};
	struct frame_info fi;

	cr_assert_eq(frame_parse(f, sizeof(f), &fi), 0);
	cr_assert_eq(fi.dst_class, FRAME_DST_BROADCAST);
	cr_assert_eq(fi.ethertype, FRAME_ETH_P_ARP);
	cr_assert_not(fi.is_ipv4);

	/* IPv6 all-nodes multicast 33:33:00:00:00:01, ethertype 0x86dd. */
	memcpy(f, (uint8_t[]){0x33, 0x33, 0, 0, 0, 1}, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	cr_assert_eq(frame_parse(f, sizeof(f), &fi), 0);
	cr_assert_eq(fi.dst_class, FRAME_DST_MULTICAST);
	cr_assert_not(fi.is_ipv4);
}

Test(frame, malformed_frames_are_rejected_and_output_untouched)
{
	uint8_t f[64];
	size_t n = make_udp(f, 0);
	struct frame_info fi, keep;

	memset(&fi, 0x5a, sizeof(fi));
	keep = fi;
	cr_assert_eq(frame_parse(f, 13, &fi), -EINVAL); /* runt */
	cr_assert_eq(frame_parse(NULL, 60, &fi), -EINVAL);

	uint8_t v[16];
	memcpy(v, f, 12);
	v[12] = 0x81;
	v[13] = 0x00;
	v[14] = 0; /* truncated VLAN tag */
	cr_assert_eq(frame_parse(v, 15, &fi), -EINVAL);

	cr_assert_eq(frame_parse(f, 14 + 19, &fi), -EINVAL); /* short IP */
	f[14] = 0x44; /* IHL 4: below the minimum */
	cr_assert_eq(frame_parse(f, n, &fi), -EINVAL);
	f[14] = 0x65; /* version 6 under ethertype IPv4 */
	cr_assert_eq(frame_parse(f, n, &fi), -EINVAL);
	f[14] = 0x4f; /* IHL 60 bytes: beyond the frame */
	cr_assert_eq(frame_parse(f, n, &fi), -EINVAL);
	f[14] = 0x45;
	f[17] = 200; /* total length beyond the frame */
	cr_assert_eq(frame_parse(f, n, &fi), -EINVAL);
	f[17] = 10; /* total length below the header length */
	cr_assert_eq(frame_parse(f, n, &fi), -EINVAL);
	cr_assert_eq(memcmp(&fi, &keep, sizeof(fi)), 0);
}

Test(frame, rfc1071_vectors)
{
	/* RFC 1071 section 3 example: sum 0xddf2, checksum ~ = 0x220d. */
	static const uint8_t r[8] = {0x00, 0x01, 0xf2, 0x03,
				     0xf4, 0xf5, 0xf6, 0xf7};
	/* A textbook IPv4 header (192.168.0.1 -> 192.168.0.199), whose
	 * checksum is 0xb861. */
	static const uint8_t ip[20] = {0x45, 0,	   0,	 0x73, 0, 0,	0x40,
				       0,    0x40, 0x11, 0,    0, 0xc0, 0xa8,
				       0,    1,	   0xc0, 0xa8, 0, 0xc7};

	cr_assert_eq(frame_csum_fold(frame_csum_add(0, r, sizeof(r))), 0x220d);
	cr_assert_eq(frame_csum_fold(frame_csum_add(0, ip, sizeof(ip))),
		     0xb861);
	/* Odd length: the last byte is the high half of a zero-padded
	 * word. */
	cr_assert_eq(frame_csum_add(0, (uint8_t[]){0x12, 0x34, 0x56}, 3),
		     0x1234u + 0x5600u);
}

/* The pseudo-header sum of the test datagram (RFC 768). */
static uint32_t pseudo(const uint8_t *f)
{
	uint32_t s = frame_csum_add(0, f + 26, 8); /* src and dst */

	return s + 17 + 12; /* protocol, UDP length */
}

Test(frame, partial_checksum_is_completed)
{
	uint8_t f[64];
	size_t n = make_udp(f, 0);
	uint16_t part = (uint16_t)~frame_csum_fold(pseudo(f));

	/* What the sender's stack leaves under checksum offload: the
	 * uncomplemented pseudo-header sum in the UDP checksum field. */
	f[40] = (uint8_t)(part >> 8);
	f[41] = (uint8_t)part;
	cr_assert_eq(frame_csum_complete(f, n, 34, 6), 0);
	cr_assert_neq(f[40] | f[41], 0);
	/* A receiver's check: pseudo header + segment sums to 0xffff. */
	cr_assert_eq(frame_csum_fold(pseudo(f) + frame_csum_add(0, f + 34, 12)),
		     0);
	/* One flipped bit is caught by that check. */
	cr_assert_eq(frame_flip_bit(f, n, 44, 3), 0);
	cr_assert_neq(
		frame_csum_fold(pseudo(f) + frame_csum_add(0, f + 34, 12)), 0);
	cr_assert_eq(frame_flip_bit(f, n, 44, 3), 0);
	cr_assert_eq(frame_csum_fold(pseudo(f) + frame_csum_add(0, f + 34, 12)),
		     0);
}

Test(frame, checksum_and_flip_bounds)
{
	uint8_t f[64];
	size_t n = make_udp(f, 0);

	cr_assert_eq(frame_csum_complete(f, n, n + 1, 0), -EINVAL);
	cr_assert_eq(frame_csum_complete(f, n, n - 1, 0), -EINVAL);
	cr_assert_eq(frame_csum_complete(f, n, 34, 11), -EINVAL);
	cr_assert_eq(frame_flip_bit(f, n, (int32_t)n, 0), -EINVAL);
	cr_assert_eq(frame_flip_bit(f, n, -1, 0), -EINVAL);
	cr_assert_eq(frame_flip_bit(f, n, 0, 8), -EINVAL);
	cr_assert_eq(frame_flip_bit(f, n, 0, 7), 0);
	cr_assert_eq(f[0], 0x82);
}
