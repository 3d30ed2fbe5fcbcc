// SPDX-License-Identifier: GPL-2.0
/*
 * roce_send: send IP packets given as hex lines (from the IP header, one
 * packet per line) through a raw socket, so the sending host's own routing
 * and netfilter hooks see them. Used by the kselftests to replay packets
 * that scapy crafted, without paying scapy's start-up for every packet.
 *
 *   roce_send [-c COUNT] [-i USEC] [FILE]     (default: standard input)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_PKT 9000

static int unhex_line(const char *s, unsigned char *buf, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (*s && *s != '\n') {
		if (*s == ' ' || *s == '\r') {
			s++;
			continue;
		}
		if (n == max || sscanf(s, "%2x", &b) != 1 || !s[1] ||
		    s[1] == '\n')
			return -1;
		buf[n++] = b;
		s += 2;
	}
	return n;
}

static int send_one(int fd4, int fd6, const unsigned char *p, int len)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };

	if (len >= 20 && p[0] >> 4 == 4) {
		memcpy(&sin.sin_addr, p + 16, 4);
		return sendto(fd4, p, len, 0, (struct sockaddr *)&sin,
			      sizeof(sin));
	}
	if (len >= 40 && p[0] >> 4 == 6) {
		memcpy(&sin6.sin6_addr, p + 24, 16);
		return sendto(fd6, p, len, 0, (struct sockaddr *)&sin6,
			      sizeof(sin6));
	}
	errno = EPROTONOSUPPORT;
	return -1;
}

int main(int argc, char **argv)
{
	static unsigned char pkt[MAX_PKT];
	static char line[2 * MAX_PKT + 64];
	unsigned long count = 1, usec = 0, i, sent = 0;
	int fd4, fd6, opt, len, lineno = 0;
	FILE *in = stdin;

	while ((opt = getopt(argc, argv, "c:i:")) != -1) {
		switch (opt) {
		case 'c':
			count = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			usec = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-c COUNT] [-i USEC] [FILE]\n",
				argv[0]);
			return 2;
		}
	}
	if (optind < argc) {
		in = fopen(argv[optind], "r");
		if (!in) {
			perror(argv[optind]);
			return 1;
		}
	}
	/* IPPROTO_RAW implies that the packet carries its own IP header. */
	fd4 = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	fd6 = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
	if (fd4 < 0 || fd6 < 0) {
		perror("raw socket");
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		len = unhex_line(line, pkt, sizeof(pkt));
		if (len <= 0) {
			fprintf(stderr, "line %d: not a hex packet\n", lineno);
			return 1;
		}
		for (i = 0; i < count; i++) {
			if (send_one(fd4, fd6, pkt, len) < 0) {
				fprintf(stderr, "line %d: send: %s\n", lineno,
					strerror(errno));
				return 1;
			}
			sent++;
			if (usec)
				usleep(usec);
		}
	}
	fprintf(stderr, "roce_send: %lu packets sent\n", sent);
	return 0;
}
