/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark senders share: a clock, an IPv4/UDP header writer,
 * raw IP and packet sockets, and a loop that pushes prepared packets
 * through them with sendmmsg().
 */
#ifndef ROCECT_BLAST_H
#define ROCECT_BLAST_H

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>

#include "wire.h"

#define BLAST_BATCH	64

static inline double blast_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * IPv4 and UDP headers for a RoCEv2 packet of @len IP bytes; the caller
 * writes from offset 28 on and the ICRC last.
 */
static inline void blast_ipv4_udp(u8 *buf, u32 len, u32 src, u32 dst,
				  u16 sport, bool ce)
{
	struct roce_ip_udp h = {
		.family = 4, .tos = ce ? ROCE_ECN_CE : ROCE_ECN_ECT0,
		.ttl = 64, .df = true, .sport = sport,
	};

	memcpy(h.saddr, &src, 4);
	memcpy(h.daddr, &dst, 4);
	memset(buf, 0, len);
	roce_put_ip_udp(buf, len, &h);
}

/* A raw IPv4 socket whose packets carry their own header. */
static inline int blast_socket(void)
{
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);

	if (fd < 0)
		perror("raw socket");
	return fd;
}

/*
 * A packet socket on @ifname that hands IPv4 packets straight to the
 * device, addressed to @mac, past the qdisc: cheaper per packet than the
 * IP stack, so that the router, not the sender, sets the rate. Fills @to.
 */
static inline int blast_packet_socket(const char *ifname, const char *mac,
				      struct sockaddr_ll *to)
{
	int fd, one = 1;

	*to = (struct sockaddr_ll){
		.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_IP),
		.sll_ifindex = if_nametoindex(ifname), .sll_halen = ETH_ALEN,
	};
	if (!to->sll_ifindex ||
	    sscanf(mac, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &to->sll_addr[0],
		   &to->sll_addr[1], &to->sll_addr[2], &to->sll_addr[3],
		   &to->sll_addr[4], &to->sll_addr[5]) != ETH_ALEN) {
		fprintf(stderr, "no interface %s or bad MAC address %s\n",
			ifname, mac);
		return -1;
	}
	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_IP));
	if (fd < 0 || setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
				 sizeof(one))) {
		perror("packet socket");
		return -1;
	}
	return fd;
}

/*
 * Send @n prepared packets to @to on @fd, BLAST_BATCH per sendmmsg() call.
 * Return: how many the kernel took.
 */
static inline unsigned long blast_send(int fd, const void *to, socklen_t tolen,
				       u8 *const *pkts, const u32 *lens,
				       unsigned long n)
{
	struct mmsghdr msgs[BLAST_BATCH];
	struct iovec iov[BLAST_BATCH];
	unsigned long done = 0, sent = 0;
	unsigned int i, k;
	int r;

	while (done < n) {
		k = n - done < BLAST_BATCH ? n - done : BLAST_BATCH;
		for (i = 0; i < k; i++) {
			iov[i].iov_base = pkts[done + i];
			iov[i].iov_len = lens[done + i];
			msgs[i].msg_hdr = (struct msghdr){
				.msg_name = (void *)to, .msg_namelen = tolen,
				.msg_iov = &iov[i], .msg_iovlen = 1,
			};
		}
		r = sendmmsg(fd, msgs, k, 0);
		if (r > 0)
			sent += r;
		/* A full queue drops, as a router would: go on. */
		done += k;
	}
	return sent;
}

#endif /* ROCECT_BLAST_H */
