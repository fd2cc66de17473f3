/*
 * pcap_frame.h: test helper shared by the pcap writers: wraps a UDP
 * payload in Ethernet + IPv4 + UDP headers (10.0.0.1 -> 10.0.0.2, valid
 * IP and UDP checksums) so tshark can dissect it from a file.
 */
#ifndef RECKON_TEST_PROTO_PCAP_FRAME_H
#define RECKON_TEST_PROTO_PCAP_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define PCAP_FRAME_OVERHEAD (14 + 20 + 8)

/* Writes the frame into f (room for n + PCAP_FRAME_OVERHEAD octets) and
 * returns its length; id is the IPv4 identification. */
size_t pcap_frame_udp(uint8_t *f, const uint8_t *payload, size_t n, unsigned id,
		      unsigned sport, unsigned dport);

#endif
