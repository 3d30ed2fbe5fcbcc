// SPDX-License-Identifier: GPL-2.0
/*
 * cm_blast: play both sides of COUNT RDMA CM connection setups (REQ, REP,
 * RTU) through a router, as fast as raw sockets and sendmmsg() allow, for
 * the handshake-rate benchmark. SRC's packets leave from the namespace it
 * runs in, DST's from PEER_NETNS (a name under /run/netns or a path), so
 * both directions cross the router as real traffic does. Rounds of 64:
 * 64 REQs, then their 64 REPs, then their 64 RTUs, so a reply never
 * overtakes its request.
 *
 * "handshake" sends them as RDMA CM does, all on QP1's one UDP flow per
 * direction; "flows" sends the same packets, each from its own UDP source
 * port, so that each one is a new UDP flow to conntrack: the baseline.
 * BASE shifts comm IDs and QPNs so that repeated runs do not collide.
 * Packets are built (with the wire library's ICRC) before the clock
 * starts. Prints counts and seconds as JSON.
 *
 *   cm_blast handshake|flows SRC DST PEER_NETNS COUNT [BASE]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "blast.h"

#define CM_PKT_LEN	(20 + 8 + ROCE_BTH_LEN + ROCE_DETH_LEN + \
			 ROCE_MAD_LEN + ROCE_ICRC_LEN)
#define CM_DATA_OFF	(20 + 8 + ROCE_BTH_LEN + ROCE_DETH_LEN + \
			 ROCE_MAD_HDR_LEN)
#define QP1_SPORT	55410		/* what rdma_rxe and mlx5 use */
#define FIRST_SPORT	1024
#define RDMA_PS_TCP_PORT(p) (0x0000000001060000ULL | (p))

/* IPv4 | UDP | BTH (UD SEND_ONLY to QP1) | DETH | MAD header of @attr. */
static u8 *cm_header(u8 *buf, u32 src, u32 dst, u16 sport, u16 attr,
		     u64 tid)
{
	u8 *mad = buf + 20 + 8 + ROCE_BTH_LEN + ROCE_DETH_LEN;

	blast_ipv4_udp(buf, CM_PKT_LEN, src, dst, sport, false);
	buf[28] = ROCE_OP_UD_SEND_ONLY;
	put_unaligned_be16(0xffff, buf + 30);
	put_unaligned_be32(ROCE_GSI_QPN, buf + 32);
	put_unaligned_be32(0x80010000, buf + 40);	/* GSI Q_Key */
	put_unaligned_be32(ROCE_GSI_QPN, buf + 44);
	mad[0] = 1;					/* BaseVersion */
	mad[1] = 0x07;					/* CM class */
	mad[2] = 2;					/* ClassVersion */
	mad[3] = 3;					/* Send */
	put_unaligned_be64(tid, mad + 8);
	put_unaligned_be16(attr, mad + 16);
	return buf + CM_DATA_OFF;
}

static void icrc(u8 *buf)
{
	put_unaligned_le32(roce_icrc_calc(buf, 20, CM_PKT_LEN),
			   buf + CM_PKT_LEN - ROCE_ICRC_LEN);
}

/* An IPv4-mapped GID. */
static void put_gid(u8 *p, u32 addr)
{
	p[10] = 0xff;
	p[11] = 0xff;
	memcpy(p + 12, &addr, 4);
}

static void build_req(u8 *buf, u32 a, u32 b, u16 sport, u32 comm, u32 qpn)
{
	u8 *d = cm_header(buf, a, b, sport, ROCE_CM_REQ, 0x100000000ULL | comm);

	put_unaligned_be32(comm, d);
	put_unaligned_be64(RDMA_PS_TCP_PORT(18515), d + 8);
	put_unaligned_be32(qpn << 8 | 1, d + 32);	/* responder res. 1 */
	d[39] = 1;					/* initiator depth */
	d[43] = 20 << 3;				/* RC */
	put_unaligned_be32(0x123456 << 8 | 20 << 3 | 7, d + 44);
	put_unaligned_be16(0xffff, d + 48);
	put_gid(d + 56, a);
	put_gid(d + 72, b);
	d[93] = 64;					/* hop limit */
	d[140 + 1] = 4 << 4;				/* RDMA CM header */
	put_unaligned_be16(0xb0c1, d + 140 + 2);
	memcpy(d + 140 + 4 + 12, &a, 4);
	memcpy(d + 140 + 20 + 12, &b, 4);
	icrc(buf);
}

static void build_rep(u8 *buf, u32 b, u32 a, u16 sport, u32 comm,
		      u32 remote_comm, u32 qpn)
{
	u8 *d = cm_header(buf, b, a, sport, ROCE_CM_REP,
			  0x200000000ULL | remote_comm);

	put_unaligned_be32(comm, d);
	put_unaligned_be32(remote_comm, d + 4);
	put_unaligned_be32(qpn << 8, d + 12);
	put_unaligned_be32(0xabcdef << 8, d + 20);
	d[24] = 1;
	d[25] = 1;
	icrc(buf);
}

static void build_rtu(u8 *buf, u32 a, u32 b, u16 sport, u32 comm,
		      u32 remote_comm)
{
	u8 *d = cm_header(buf, a, b, sport, ROCE_CM_RTU,
			  0x300000000ULL | comm);

	put_unaligned_be32(comm, d);
	put_unaligned_be32(remote_comm, d + 4);
	icrc(buf);
}

/* A raw socket in the namespace @ns (a name under /run/netns or a path). */
static int peer_socket(const char *ns)
{
	char path[256];
	int nsfd, fd;

	snprintf(path, sizeof(path), "%s%s", strchr(ns, '/') ? "" : "/run/netns/",
		 ns);
	nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (nsfd < 0 || setns(nsfd, CLONE_NEWNET)) {
		perror(path);
		return -1;
	}
	close(nsfd);
	fd = blast_socket();
	return fd;
}

int main(int argc, char **argv)
{
	struct sockaddr_in to_a = { .sin_family = AF_INET }, to_b = to_a;
	unsigned long count, base, i, k, sent = 0;
	u8 **req, **rep, **rtu, *mem;
	int fd_a, fd_b;
	u32 a, b, *lens;
	bool flows;
	double t0, t1;

	if (argc < 6 || (strcmp(argv[1], "handshake") && strcmp(argv[1], "flows")) ||
	    inet_pton(AF_INET, argv[2], &a) != 1 ||
	    inet_pton(AF_INET, argv[3], &b) != 1) {
		fprintf(stderr,
			"usage: %s handshake|flows SRC DST PEER_NETNS COUNT [BASE]\n",
			argv[0]);
		return 2;
	}
	flows = !strcmp(argv[1], "flows");
	count = strtoul(argv[5], NULL, 0);
	base = argc > 6 ? strtoul(argv[6], NULL, 0) : 0;
	/* One source port per packet in "flows"; comm IDs must not be 0. */
	if (!count || (flows && 3 * count > 65536 - FIRST_SPORT) ||
	    base + count >= 0x400000) {
		fprintf(stderr, "cm_blast: COUNT 1-%d for flows, BASE + COUNT < 0x400000\n",
			(65536 - FIRST_SPORT) / 3);
		return 2;
	}

	mem = calloc(3 * count, CM_PKT_LEN);
	req = calloc(3 * count, sizeof(*req));
	lens = calloc(BLAST_BATCH, sizeof(*lens));
	if (!mem || !req || !lens) {
		fprintf(stderr, "cm_blast: out of memory\n");
		return 1;
	}
	rep = req + count;
	rtu = rep + count;
	for (i = 0; i < count; i++) {
		u32 n = base + i, comm_a = 0x10000000 + n, comm_b = 0x20000000 + n;
		u32 qpn_a = 0x400000 + n, qpn_b = 0x800000 + n;

		req[i] = mem + i * CM_PKT_LEN;
		rep[i] = mem + (count + i) * CM_PKT_LEN;
		rtu[i] = mem + (2 * count + i) * CM_PKT_LEN;
		build_req(req[i], a, b, flows ? FIRST_SPORT + 3 * i : QP1_SPORT,
			  comm_a, qpn_a);
		build_rep(rep[i], b, a, flows ? FIRST_SPORT + 3 * i + 1 : QP1_SPORT,
			  comm_b, comm_a, qpn_b);
		build_rtu(rtu[i], a, b, flows ? FIRST_SPORT + 3 * i + 2 : QP1_SPORT,
			  comm_a, comm_b);
	}
	for (i = 0; i < BLAST_BATCH; i++)
		lens[i] = CM_PKT_LEN;

	fd_a = blast_socket();
	fd_b = peer_socket(argv[4]);
	if (fd_a < 0 || fd_b < 0)
		return 1;

	to_b.sin_addr.s_addr = b;
	to_a.sin_addr.s_addr = a;
	t0 = blast_now();
	for (i = 0; i < count; i += k) {
		k = count - i < BLAST_BATCH ? count - i : BLAST_BATCH;
		sent += blast_send(fd_a, &to_b, sizeof(to_b), req + i, lens, k);
		sent += blast_send(fd_b, &to_a, sizeof(to_a), rep + i, lens, k);
		sent += blast_send(fd_a, &to_b, sizeof(to_b), rtu + i, lens, k);
	}
	t1 = blast_now();
	printf("{\"mode\": \"%s\", \"handshakes\": %lu, \"packets\": %lu, ",
	       argv[1], count, 3 * count);
	printf("\"sent\": %lu, \"seconds\": %.3f}\n", sent, t1 - t0);
	free(mem);
	free(req);
	free(lens);
	return 0;
}
