// SPDX-License-Identifier: GPL-2.0
/*
 * Sends the rocect family raw messages with unknown attributes, wrong
 * types and lengths, out-of-range values, missing attributes and unknown
 * commands, and checks that each is refused with the expected errno (and an
 * extack message) and that the QP table and configuration did not change.
 * TAP output, closed by "N passed, N failed".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/rocect.h>

static struct mnl_socket *nl;
static char buf[8192];
static unsigned short family;
static unsigned int seq, ntest, passed, failed;
static char extack[256];

static struct nlmsghdr *msg(unsigned short type, unsigned char cmd,
			    unsigned short flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

/* An error or ACK: remember the kernel's message; return its error. */
static int ack_error(const struct nlmsghdr *r)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(r);
	unsigned int off = sizeof(*e);
	const struct nlattr *a;

	if (!(r->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	if (!(r->nlmsg_flags & NLM_F_ACK_TLVS))
		return e->error;
	mnl_attr_for_each(a, r, off)
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(extack, sizeof(extack), "%s", mnl_attr_get_str(a));
	return e->error;
}

/* Send, read replies until the ACK; return its error (0 or -errno). */
static int talk(struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char rbuf[65536];
	struct nlmsghdr *r;
	int n;

	extack[0] = 0;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(nl, rbuf, sizeof(rbuf));
		if (n < 0)
			return -errno;
		for (r = (struct nlmsghdr *)rbuf; mnl_nlmsg_ok(r, n);
		     r = mnl_nlmsg_next(r, &n)) {
			if (r->nlmsg_type == NLMSG_ERROR)
				return ack_error(r);
			if (r->nlmsg_type == NLMSG_DONE)
				return 0;
			if (cb)
				cb(r, data);
		}
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			family = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(*(unsigned int *)data)++;
	return MNL_CB_OK;
}

static unsigned int qp_count(void)
{
	unsigned int n = 0;

	talk(msg(family, ROCECT_CMD_QP_GET, NLM_F_DUMP), count_cb, &n);
	return n;
}

static void result(int ok, const char *what, int got, int want)
{
	ntest++;
	if (ok) {
		passed++;
		printf("ok %u - %s (%s%s%s)\n", ntest, what, strerror(-got),
		       extack[0] ? ": " : "", extack);
	} else {
		failed++;
		printf("not ok %u - %s: got %d (%s), want %d\n", ntest, what,
		       got, strerror(-got), want);
	}
}

static void expect(struct nlmsghdr *nlh, int want, const char *what)
{
	int got = talk(nlh, NULL, NULL);

	result(got == want, what, got, want);
}

/*
 * A wrong attribute length is refused with EINVAL or ERANGE, depending on
 * the policy type and the kernel version: either is correct.
 */
static void expect_bad_len(struct nlmsghdr *nlh, const char *what)
{
	int got = talk(nlh, NULL, NULL);

	result(got == -EINVAL || got == -ERANGE, what, got, -EINVAL);
}

static void put_key(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SADDR4, htonl(0x0a000101));
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DADDR4, htonl(0x0a000201));
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DQPN, 0x2a);
}

int main(void)
{
	struct nlmsghdr *nlh;
	unsigned int before;
	unsigned char six[16] = { 0xfd };

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID)) {
		perror("netlink");
		return 1;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &(int){ 1 }, sizeof(int));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &(int){ 1 }, sizeof(int));
	seq = time(NULL);
	nlh = msg(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ROCECT_FAMILY_NAME);
	if (talk(nlh, family_cb, NULL) || !family) {
		printf("1..0 # SKIP rocect family not registered\n");
		return 4;
	}

	/* One valid entry, so that "no state change" has something to keep. */
	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 0x17);
	expect(nlh, 0, "valid QP_NEW accepted");
	before = qp_count();

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 0x18);
	mnl_attr_put_u32(nlh, 99, 1);
	expect(nlh, -EINVAL, "unknown attribute type 99 refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 0x18);
	mnl_attr_put_u64(nlh, ROCECT_A_QP_PACKETS, 5);
	expect(nlh, -EINVAL, "reply-only attribute (packets) in a request refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SADDR4, htonl(0x0a000109));
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DADDR4, htonl(0x0a000201));
	mnl_attr_put_u16(nlh, ROCECT_A_QP_DQPN, 7);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 0x18);
	expect_bad_len(nlh, "DQPN as u16 (wrong length) refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 0x1000000);
	expect(nlh, -ERANGE, "SQPN 0x1000000 (beyond 24 bits) refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	mnl_attr_put(nlh, ROCECT_A_QP_SADDR6, 15, six);
	mnl_attr_put(nlh, ROCECT_A_QP_DADDR6, 16, six);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DQPN, 1);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 2);
	expect_bad_len(nlh, "15-byte IPv6 address refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SADDR4, htonl(0x0a000101));
	mnl_attr_put(nlh, ROCECT_A_QP_DADDR6, 16, six);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DQPN, 1);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 2);
	expect(nlh, -EINVAL, "IPv4 source with IPv6 destination refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SADDR4, htonl(0x0a000101));
	mnl_attr_put(nlh, ROCECT_A_QP_SADDR6, 16, six);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DADDR4, htonl(0x0a000201));
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DQPN, 1);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 2);
	expect(nlh, -EINVAL, "both IPv4 and IPv6 source refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 0x18);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_IIF, 999999);
	expect(nlh, -ENODEV, "QP_NEW bound to no interface refused");

	nlh = msg(family, ROCECT_CMD_QP_DEL, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_IIF, 1);
	expect(nlh, -EINVAL, "QP_DEL with IIF (qp-new's alone) refused");

	nlh = msg(family, ROCECT_CMD_QP_GET, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_IIF, 1);
	expect(nlh, -EINVAL, "QP_GET dump with IIF refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	put_key(nlh);
	expect(nlh, -EINVAL, "QP_NEW without SQPN refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DADDR4, htonl(0x0a000201));
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DQPN, 1);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 2);
	expect(nlh, -EINVAL, "QP_NEW without source address refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 2);
	mnl_attr_put_u8(nlh, ROCECT_A_QP_ORIGIN, ROCECT_ORIGIN_LEARNED);
	expect(nlh, -EINVAL, "QP_NEW claiming origin learned refused");

	nlh = msg(family, ROCECT_CMD_QP_NEW, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 0x17);
	expect(nlh, -EEXIST, "duplicate QP_NEW refused");

	nlh = msg(family, ROCECT_CMD_QP_GET, 0);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_DQPN, 0x2a);
	expect(nlh, -EINVAL, "QP_GET without addresses refused");

	nlh = msg(family, ROCECT_CMD_QP_GET, 0);
	put_key(nlh);
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SQPN, 0x17);
	expect(nlh, -EINVAL, "QP_GET (not a dump) with a dump's SQPN filter refused");

	nlh = msg(family, ROCECT_CMD_QP_DEL, 0);
	put_key(nlh);
	mnl_attr_put_u8(nlh, ROCECT_A_QP_ORIGIN, ROCECT_ORIGIN_MANAGED);
	expect(nlh, -EINVAL, "QP_DEL with ORIGIN (not in its request) refused");

	nlh = msg(family, ROCECT_CMD_QP_FLUSH, 0);
	put_key(nlh);
	expect(nlh, -EINVAL, "QP_FLUSH with a key (origin only) refused");

	nlh = msg(family, ROCECT_CMD_QP_FLUSH, 0);
	mnl_attr_put_u8(nlh, ROCECT_A_QP_ORIGIN, 7);
	expect(nlh, -ERANGE, "QP_FLUSH with origin 7 refused");

	nlh = msg(family, ROCECT_CMD_STATS_GET, 0);
	mnl_attr_put_u32(nlh, ROCECT_A_STATS_PACKETS, 1);
	expect(nlh, -EINVAL, "attribute on STATS_GET (takes none) refused");

	nlh = msg(family, ROCECT_CMD_CONFIG_SET, 0);
	mnl_attr_put_u32(nlh, ROCECT_A_CONFIG_MAX_QPS, 0);
	expect(nlh, -ERANGE, "max-qps 0 refused");

	nlh = msg(family, ROCECT_CMD_CONFIG_SET, 0);
	mnl_attr_put_u32(nlh, ROCECT_A_CONFIG_IDLE_TIMEOUT, 30);
	mnl_attr_put_u8(nlh, ROCECT_A_CONFIG_UNKNOWN_QP, 2);
	expect(nlh, -ERANGE, "unknown-qp 2 refused, with the valid timeout");

	nlh = msg(family, ROCECT_CMD_CONFIG_SET, 0);
	expect(nlh, -EINVAL, "empty CONFIG_SET refused");

	nlh = msg(family, ROCECT_CMD_QP_CREATE_NTF, 0);
	expect(nlh, -EOPNOTSUPP, "notification command sent as request refused");

	nlh = msg(family, 200, 0);
	expect(nlh, -EOPNOTSUPP, "unknown command 200 refused");

	/* A truncated attribute header: the message ends mid-attribute. */
	nlh = msg(family, ROCECT_CMD_QP_GET, 0);
	put_key(nlh);
	nlh->nlmsg_len -= 2;
	expect(nlh, -EINVAL, "truncated attribute refused");

	result(qp_count() == before, "QP table unchanged by refused requests",
	       0, 0);
	nlh = msg(family, ROCECT_CMD_QP_GET, 0);
	put_key(nlh);
	expect(nlh, 0, "the valid entry is intact");

	nlh = msg(family, ROCECT_CMD_QP_DEL, 0);
	put_key(nlh);
	expect(nlh, 0, "cleanup: entry deleted");
	printf("1..%u\n%u passed, %u failed\n", ntest, passed, failed);
	mnl_socket_close(nl);
	return failed ? 1 : 0;
}
