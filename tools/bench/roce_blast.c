// SPDX-License-Identifier: GPL-2.0
/*
 * roce_blast: send RoCEv2 RC SEND_ONLY packets as fast as a raw socket and
 * sendmmsg() allow, for a benchmark. The destination QP cycles through
 * QPN_BASE .. QPN_BASE + QPNS - 1 so that lookups spread over that many QP
 * entries; one UDP flow, so one conntrack. Optionally ECN CE. Built with the
 * wire library for a correct ICRC. At most 4096 distinct packets are built
 * beforehand, so the sender costs the same whatever QPNS is; beyond 4096,
 * their QPNs are spread evenly over the range. Prints packets sent and
 * seconds as JSON.
 *
 *   roce_blast SRC DST SECONDS [QPNS [QPN_BASE [PAYLOAD [ce]]]]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"

#define BATCH	64
#define VARIANTS 4096

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* IPv4 | UDP | BTH (SEND_ONLY to @dqpn) | payload | ICRC */
static u32 build(u8 *buf, u32 src, u32 dst, u32 dqpn, u32 payload, bool ce)
{
	u32 len = 20 + 8 + ROCE_BTH_LEN + payload + ROCE_ICRC_LEN;

	memset(buf, 0, len);
	buf[0] = 0x45;
	buf[1] = ce ? ROCE_ECN_CE : ROCE_ECN_ECT0;
	put_unaligned_be16(len, buf + 2);
	put_unaligned_be16(0x4000, buf + 6);
	buf[8] = 64;
	buf[9] = 17;
	memcpy(buf + 12, &src, 4);
	memcpy(buf + 16, &dst, 4);
	put_unaligned_be16(roce_ip_fast_csum(buf, 5), buf + 10);
	put_unaligned_be16(0xd000, buf + 20);
	put_unaligned_be16(ROCE_UDP_PORT, buf + 22);
	put_unaligned_be16(len - 20, buf + 24);
	buf[28] = 0x04;
	put_unaligned_be16(0xffff, buf + 30);
	put_unaligned_be32(dqpn & ROCE_QPN_MASK, buf + 32);
	put_unaligned_le32(roce_icrc_calc(buf, 20, len), buf + len - 4);
	return len;
}

int main(int argc, char **argv)
{
	static u8 pkts[VARIANTS][1600];
	static u32 lens[VARIANTS];
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in to = { .sin_family = AF_INET };
	u32 src, dst, qpns, base, payload, nvar, i;
	unsigned long long sent = 0, n = 0;
	double secs, t0, t;
	bool ce;
	int fd;

	if (argc < 4 || inet_pton(AF_INET, argv[1], &src) != 1 ||
	    inet_pton(AF_INET, argv[2], &dst) != 1) {
		fprintf(stderr, "usage: %s SRC DST SECONDS [QPNS [QPN_BASE [PAYLOAD [ce]]]]\n",
			argv[0]);
		return 2;
	}
	secs = atof(argv[3]);
	qpns = argc > 4 ? strtoul(argv[4], NULL, 0) : 1;
	base = argc > 5 ? strtoul(argv[5], NULL, 0) : 0x100;
	payload = argc > 6 ? strtoul(argv[6], NULL, 0) : 64;
	ce = argc > 7 && !strcmp(argv[7], "ce");
	if (!qpns || payload > 1500 || secs <= 0) {
		fprintf(stderr, "roce_blast: bad QPNS, PAYLOAD or SECONDS\n");
		return 2;
	}
	nvar = qpns < VARIANTS ? qpns : VARIANTS;
	for (i = 0; i < nvar; i++)
		lens[i] = build(pkts[i], src, dst, base + i * (qpns / nvar),
				payload, ce);
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		perror("raw socket");
		return 1;
	}
	to.sin_addr.s_addr = dst;
	for (i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr = (struct msghdr){
			.msg_name = &to, .msg_namelen = sizeof(to),
			.msg_iov = &iov[i], .msg_iovlen = 1,
		};
	}
	t0 = now();
	do {
		for (i = 0; i < BATCH; i++, n++) {
			u32 v = n % nvar;

			iov[i].iov_base = pkts[v];
			iov[i].iov_len = lens[v];
		}
		int r = sendmmsg(fd, msgs, BATCH, 0);

		if (r > 0)
			sent += r;
		t = now();
	} while (t - t0 < secs);
	printf("{\"sent\": %llu, \"seconds\": %.3f}\n", sent, t - t0);
	return 0;
}
