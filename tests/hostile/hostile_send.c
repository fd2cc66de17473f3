/*
 * hostile_send.c: sends hostile datagrams to agent lanes, for hostile.sh.
 * Usage: hostile_send PDU_FILE ADDR PORT... where PDU_FILE holds one
 * valid reckon update PDU. To every port it sends, in this order:
 *   truncated  the PDU cut to 0, 11, 100 and len - 1 octets     (4)
 *   oversized  the PDU padded to 1500 and to 65000 octets        (2)
 *   bad-version   the PDU with protocol version 6                (3)
 *   bad-pdu-type  the PDU with PDU type 2 (Fire)                 (2)
 *   garbage    random octets (fixed seed), lengths 1..1400       (20)
 *   forged     the PDU with DIS site 9: valid DIS, no reckon update,
 *              sent once and replayed twice                      (3)
 * and prints one "PORT VERDICT COUNT" line per verdict it expects the
 * receiving lane to count. The expectations of the first five kinds are
 * fixed by construction; for the garbage it asks the decoder (what the
 * receiver does with it is the point, not which check fires). Forged
 * PDUs are "ok" for the decoder, and "not-reckon-update" for an observer.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto/espdu.h"

#define BIG 65000

static unsigned long long rng = 0x5eedbadd0ull;

static unsigned next(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rng >> 33);
}

static unsigned long counts[RECKON_ESPDU_NVERDICTS];

static void send_one(int fd, const struct sockaddr_in *to, const void *b,
		     size_t len, enum reckon_espdu_verdict expect)
{
	if (sendto(fd, b, len, 0, (const struct sockaddr *)to, sizeof(*to)) !=
	    (ssize_t)len) {
		perror("hostile_send: sendto");
		exit(1);
	}
	counts[expect]++;
	usleep(1000); /* let the receiver drain: 65000-octet datagrams fill
		       * a receive buffer capped by net.core.rmem_max fast */
}

int main(int argc, char *argv[])
{
	static uint8_t pdu[BIG], b[BIG];
	struct sockaddr_in to = {.sin_family = AF_INET};
	size_t len;
	FILE *f;
	int fd;

	if (argc < 4 || (f = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "usage: hostile_send PDU_FILE ADDR PORT...\n");
		return 2;
	}
	len = fread(pdu, 1, sizeof(pdu), f);
	fclose(f);
	if (reckon_espdu_decode(pdu, len, NULL) != RECKON_ESPDU_OK ||
	    inet_pton(AF_INET, argv[2], &to.sin_addr) != 1) {
		fprintf(stderr, "hostile_send: %s is no valid PDU or %s no "
			"IPv4 address\n", argv[1], argv[2]);
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return 1;
	for (int p = 3; p < argc; p++) {
		const size_t cut[] = {0, 11, 100, len - 1}, big[] = {1500, BIG};

		to.sin_port = htons((uint16_t)atoi(argv[p]));
		memset(counts, 0, sizeof(counts));
		for (int i = 0; i < 4; i++)
			send_one(fd, &to, pdu, cut[i], RECKON_ESPDU_TRUNCATED);
		for (int i = 0; i < 2; i++) {
			memset(b, 0, big[i]);
			memcpy(b, pdu, len);
			send_one(fd, &to, b, big[i], RECKON_ESPDU_OVERSIZED);
		}
		memcpy(b, pdu, len);
		b[0] = 6;
		for (int i = 0; i < 3; i++)
			send_one(fd, &to, b, len, RECKON_ESPDU_BAD_VERSION);
		memcpy(b, pdu, len);
		b[2] = 2;
		for (int i = 0; i < 2; i++)
			send_one(fd, &to, b, len, RECKON_ESPDU_BAD_PDU_TYPE);
		for (int i = 0; i < 20; i++) {
			size_t n = 1 + next() % 1400;

			for (size_t k = 0; k < n; k++)
				b[k] = (uint8_t)next();
			send_one(fd, &to, b, n, reckon_espdu_decode(b, n, NULL));
		}
		memcpy(b, pdu, len);
		b[12] = 0;
		b[13] = 9; /* site 9 */
		if (reckon_espdu_decode(b, len, NULL) != RECKON_ESPDU_OK) {
			fprintf(stderr, "hostile_send: forged PDU invalid\n");
			return 1;
		}
		for (int i = 0; i < 3; i++)
			send_one(fd, &to, b, len, RECKON_ESPDU_OK);
		for (int v = 0; v < RECKON_ESPDU_NVERDICTS; v++)
			if (counts[v])
				printf("%s %s %lu\n", argv[p],
				       reckon_espdu_verdict_name(v), counts[v]);
	}
	close(fd);
	return 0;
}
