// SPDX-License-Identifier: GPL-2.0
/*
 * dump_pause - a dump of the rocect family paused across a change.
 *
 *   dump_pause qp|conn COMMAND
 *
 * Asks for a dump of the QP or connection table and reads nothing: the
 * kernel fills one message buffer and the dump waits, its walk stopped at
 * the first entry that did not fit. Then it runs COMMAND (with sh -c, e.g.
 * a flush and a sleep long enough for the table to shrink and an RCU grace
 * period to pass), reads the rest of the dump and prints
 *
 *   entries N first F intr 0|1
 *
 * N: the entries the dump returned; F: those of them in its first buffer,
 * filled before COMMAND ran; intr: a message, or NLMSG_DONE, was flagged
 * NLM_F_DUMP_INTR. Exits 0 if the dump ended with NLMSG_DONE, 1
 * on an error, 2 on bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/rocect.h>

static struct mnl_socket *nl;
static char buf[8192];

static struct nlmsghdr *request(unsigned short type, unsigned char cmd,
				unsigned short flags, unsigned int seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

static int family_id_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			*(unsigned short *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static unsigned short family_id(void)
{
	struct nlmsghdr *nlh;
	unsigned short id = 0;
	int n;

	nlh = request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_ACK, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ROCECT_FAMILY_NAME);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 0;
	while ((n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0)
		if (mnl_cb_run(buf, n, 1, 0, family_id_cb, &id) <= MNL_CB_STOP)
			break;
	return id;
}

int main(int argc, char **argv)
{
	unsigned int entries = 0, first = 0, intr = 0, reads = 0;
	unsigned short family;
	struct nlmsghdr *nlh;
	unsigned char cmd;
	int n, done = 0;

	if (argc != 3 || (strcmp(argv[1], "qp") && strcmp(argv[1], "conn"))) {
		fprintf(stderr, "usage: dump_pause qp|conn COMMAND\n");
		return 2;
	}
	cmd = argv[1][0] == 'q' ? ROCECT_CMD_QP_GET : ROCECT_CMD_CONN_GET;
	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("dump_pause: netlink");
		return 1;
	}
	family = family_id();
	if (!family) {
		fprintf(stderr, "dump_pause: no family %s\n", ROCECT_FAMILY_NAME);
		return 1;
	}
	nlh = request(family, cmd, NLM_F_DUMP, 2);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		perror("dump_pause: send");
		return 1;
	}
	/* The dump has filled its first buffer and waits for a read. */
	if (system(argv[2]) != 0)
		fprintf(stderr, "dump_pause: '%s' failed\n", argv[2]);
	while (!done && (n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0) {
		/* One read returns one buffer: the first was filled before. */
		if (reads++ == 1)
			first = entries;
		for (nlh = (struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, n);
		     nlh = mnl_nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = 1;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				fprintf(stderr, "dump_pause: error %d\n",
					((struct nlmsgerr *)
					 mnl_nlmsg_get_payload(nlh))->error);
				return 1;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (nlh->nlmsg_type == family)
				entries++;
		}
	}
	if (reads == 1)
		first = entries;
	printf("entries %u first %u intr %u\n", entries, first, intr);
	mnl_socket_close(nl);
	return done ? 0 : 1;
}
