// SPDX-License-Identifier: GPL-2.0
/*
 * roce_blast: send RoCEv2 RC SEND_ONLY packets as fast as a raw socket and
 * sendmmsg() allow, for a benchmark. The destination QP cycles through
 * QPN_BASE .. QPN_BASE + QPNS - 1 so that lookups spread over that many QP
 * entries; one UDP flow, so one conntrack. Optionally ECN CE. Built with the
 * wire library for a correct ICRC. At most 4096 distinct packets are built
 * beforehand, so the sender costs the same whatever QPNS is; beyond 4096,
 * their QPNs are spread evenly over the range. Sends for SECONDS (at most
 * 3600), then prints packets sent and seconds as JSON, with the send rate
 * of every quarter second ("slice_pps"): on a busy host a run is slowed
 * in stretches, which its slices show. -e marks every packet ECN CE. With
 * -i and -g, packets leave through a packet socket on IFACE, to the next
 * hop's MAC, instead of through the IP stack: the sender then costs less
 * than the router. -s sets the UDP source port (default 0xd000): the one
 * an RC pair's QP numbers give, for its data to be that pair's.
 *
 *   roce_blast [-e] [-s SPORT] [-i IFACE -g MAC] SRC DST SECONDS [QPNS [QPN_BASE [PAYLOAD]]]
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "blast.h"

#define VARIANTS 4096
#define SLICE_SECONDS 0.25

/* IPv4 | UDP | BTH (SEND_ONLY to @dqpn) | payload | ICRC */
static u32 build(u8 *buf, u32 src, u32 dst, u16 sport, u32 dqpn, u32 payload,
		 bool ce)
{
	u32 len = 20 + 8 + ROCE_BTH_LEN + payload + ROCE_ICRC_LEN;

	blast_ipv4_udp(buf, len, src, dst, sport, ce);
	buf[28] = 0x04;
	put_unaligned_be16(0xffff, buf + 30);
	put_unaligned_be32(dqpn & ROCE_QPN_MASK, buf + 32);
	put_unaligned_le32(roce_icrc_calc(buf, 20, len), buf + len - 4);
	return len;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-e] [-s SPORT] [-i IFACE -g MAC] SRC DST SECONDS [QPNS [QPN_BASE [PAYLOAD]]]\n",
		prog);
}

int main(int argc, char **argv)
{
	static u8 pkts[VARIANTS][1600];
	static u8 *ptrs[VARIANTS];
	static u32 lens[VARIANTS];
	const char *prog = argv[0], *ifname = NULL, *mac = NULL;
	u32 src, dst, qpns, base, payload, nvar, i, k, off = 0;
	struct sockaddr_in to_ip = { .sin_family = AF_INET };
	struct sockaddr_ll to_ll;
	unsigned long long sent = 0, slice_sent = 0;
	double secs, t0, t, slice_t0, *slice_pps;
	unsigned int slices = 0, max_slices;
	unsigned long sport = 0xd000;
	bool ce = false;
	socklen_t tolen;
	void *to;
	int fd, opt;

	while ((opt = getopt(argc, argv, "es:i:g:")) != -1) {
		switch (opt) {
		case 'e':
			ce = true;
			break;
		case 's':
			sport = strtoul(optarg, NULL, 0);
			if (!sport || sport > 0xffff) {
				fprintf(stderr, "roce_blast: bad SPORT\n");
				return 2;
			}
			break;
		case 'i':
			ifname = optarg;
			break;
		case 'g':
			mac = optarg;
			break;
		default:
			print_usage(prog);
			return 2;
		}
	}
	argv += optind - 1;
	argc -= optind - 1;
	if (argc < 4 || !ifname != !mac ||
	    inet_pton(AF_INET, argv[1], &src) != 1 ||
	    inet_pton(AF_INET, argv[2], &dst) != 1) {
		print_usage(prog);
		return 2;
	}
	secs = atof(argv[3]);
	qpns = argc > 4 ? strtoul(argv[4], NULL, 0) : 1;
	base = argc > 5 ? strtoul(argv[5], NULL, 0) : 0x100;
	payload = argc > 6 ? strtoul(argv[6], NULL, 0) : 64;
	if (!qpns || payload > 1500 || !(secs > 0 && secs <= 3600)) {
		fprintf(stderr, "roce_blast: bad QPNS, PAYLOAD or SECONDS\n");
		return 2;
	}
	nvar = qpns < VARIANTS ? qpns : VARIANTS;
	for (i = 0; i < nvar; i++) {
		ptrs[i] = pkts[i];
		lens[i] = build(pkts[i], src, dst, sport,
				base + i * (qpns / nvar), payload, ce);
	}
	if (ifname) {
		fd = blast_packet_socket(ifname, mac, &to_ll);
		to = &to_ll;
		tolen = sizeof(to_ll);
	} else {
		fd = blast_socket();
		to_ip.sin_addr.s_addr = dst;
		to = &to_ip;
		tolen = sizeof(to_ip);
	}
	if (fd < 0)
		return 1;
	/* A slice ends after SLICE_SECONDS or more: never more than this. */
	max_slices = secs / SLICE_SECONDS + 1;
	slice_pps = calloc(max_slices, sizeof(*slice_pps));
	if (!slice_pps) {
		perror("roce_blast: calloc");
		return 1;
	}
	t0 = blast_now();
	slice_t0 = t0;
	do {
		k = nvar - off < BLAST_BATCH ? nvar - off : BLAST_BATCH;
		sent += blast_send(fd, to, tolen, ptrs + off, lens + off, k);
		off = (off + k) % nvar;
		t = blast_now();
		if (t - slice_t0 >= SLICE_SECONDS && slices < max_slices) {
			slice_pps[slices++] = (sent - slice_sent) / (t - slice_t0);
			slice_sent = sent;
			slice_t0 = t;
		}
	} while (t - t0 < secs);
	printf("{\"sent\": %llu, \"seconds\": %.3f, \"slice_pps\": [",
	       sent, t - t0);
	for (i = 0; i < slices; i++)
		printf("%s%.0f", i ? ", " : "", slice_pps[i]);
	printf("]}\n");
	free(slice_pps);
	return 0;
}
