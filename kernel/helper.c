// SPDX-License-Identifier: GPL-2.0
/*
 * The conntrack helper "roce": called for every packet of a UDP conntrack
 * it is attached to (IPv4 and IPv6), it parses the RoCEv2 headers, counts
 * what it saw, tracks CM connections (cm.c) and accounts data packets to
 * their QP entry; with the unknown-qp drop policy, data to a QP without an
 * entry is dropped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/netfilter/nf_conntrack.h>
#include <net/netfilter/nf_conntrack_helper.h>
#include <net/netfilter/nf_conntrack_zones.h>
#include <net/inet_ecn.h>
#include <uapi/linux/rocect.h>

#include "cm.h"
#include "expect.h"
#include "helper.h"
#include "netns.h"
#include "np.h"
#include "wire.h"

/*
 * Bytes copied for parsing: enough for an IPv4 header with options, UDP,
 * BTH, DETH, a whole MAD and the ICRC. Data payloads beyond this are never
 * needed; IPv6 packets whose extension headers push the MAD past it are
 * counted as "capture".
 */
#define CAPTURE_LEN	384

static struct nf_conntrack_helper helpers[ROCECT_MAX_PORTS * 2];
static unsigned int nr_helpers;

static bool is_data(const struct roce_pkt *pkt)
{
	switch (pkt->class) {
	case ROCE_CLASS_RC:
	case ROCE_CLASS_UC:
	case ROCE_CLASS_RD:
	case ROCE_CLASS_UD:
	case ROCE_CLASS_XRC:
		return true;
	default:
		return false;
	}
}

/*
 * Count a data packet on the entry of its (zone, addresses, QP). Without an
 * entry, the namespace's unknown-qp policy decides its fate.
 */
static int account_data(struct net *net, struct rocect_net *rn,
			struct sk_buff *skb, const struct nf_conn *ct,
			const struct roce_pkt *pkt)
{
	struct rocect_qp_key key = {
		.dqpn = pkt->bth.dest_qp,
		.zone = nf_ct_zone(ct)->id,
		.family = pkt->family,
	};
	struct rocect_qp *qp;

	/* wire.h stores IPv4 in the first four bytes, as nf_inet_addr does. */
	BUILD_BUG_ON(sizeof(key.saddr) != sizeof(pkt->saddr));
	memcpy(&key.saddr, pkt->saddr, sizeof(key.saddr));
	memcpy(&key.daddr, pkt->daddr, sizeof(key.daddr));
	qp = rocect_qp_lookup(rn, &key);
	if (INET_ECN_is_ce(pkt->tos))
		rocect_np_ce(net, skb, qp, pkt);
	if (qp) {
		rocect_qp_account(qp, pkt->len);
		if (qp->origin == ROCECT_ORIGIN_LEARNED)
			rocect_cm_data(net, qp, pkt);
		return NF_ACCEPT;
	}
	if (READ_ONCE(rn->config.unknown_qp) != ROCECT_UNKNOWN_QP_DROP)
		return NF_ACCEPT;
	rocect_stats_inc(rn, ROCECT_CTR_UNKNOWN_QP_DROPPED);
	nf_ct_helper_log(skb, ct, "no QP entry for QP 0x%06x", key.dqpn);
	return NF_DROP;
}

static int roce_help(struct sk_buff *skb, unsigned int protoff,
		     struct nf_conn *ct, enum ip_conntrack_info ctinfo)
{
	struct net *net = nf_ct_net(ct);
	struct rocect_net *rn = rocect_net(net);
	unsigned int nhoff = skb_network_offset(skb);
	u32 pktlen = skb->len - nhoff;
	u32 caplen = min_t(u32, pktlen, CAPTURE_LEN);
	/*
	 * Not zeroed on entry (CONFIG_INIT_STACK_ALL_ZERO would clear their
	 * 600 bytes for every packet): buf is read only where
	 * skb_header_pointer() filled it, pkt only where roce_parse() wrote it.
	 */
	struct roce_pkt pkt __uninitialized;
	u8 buf[CAPTURE_LEN] __uninitialized;
	const u8 *ip;

	ip = skb_header_pointer(skb, nhoff, caplen, buf);
	if (!ip)
		return NF_ACCEPT;

	roce_parse(ip, caplen, pktlen, &pkt);
	rocect_stats_packet(rn, &pkt);
	if (pkt.class == ROCE_CLASS_CM) {
		/* A MAD fits the capture whole: its ICRC can be checked. */
		if (roce_icrc_verify(ip, pkt.l4_off, pkt.len))
			rocect_cm_packet(net, ct, &pkt);
		else
			rocect_stats_inc(rn, ROCECT_CTR_ICRC_BAD);
	} else if (is_data(&pkt)) {
		return account_data(net, rn, skb, ct, &pkt);
	}
	return NF_ACCEPT;
}

/**
 * rocect_helper_init() - register helper "roce" for IPv4 and IPv6
 * @ports: UDP ports to register it on; the first is named "roce", others
 *	"roce-<port>"
 * @nports: number of @ports, 1 to %ROCECT_MAX_PORTS
 *
 * Return: 0 or a negative errno.
 */
int rocect_helper_init(const unsigned short *ports, unsigned int nports)
{
	unsigned int i;
	int err;

	if (nports < 1 || nports > ROCECT_MAX_PORTS)
		return -EINVAL;
	for (i = 0; i < nports; i++) {
		if (!ports[i]) {
			pr_err("ports: 0 is not a UDP port\n");
			return -EINVAL;
		}
		/* Names ports other than 4791 "roce-<port>" itself. */
		nf_ct_helper_init(&helpers[2 * i], AF_INET, IPPROTO_UDP,
				  ROCECT_HELPER_NAME, ROCE_UDP_PORT, ports[i],
				  ports[i], rocect_expect_policy, ROCECT_EXP_CLASS_MAX,
				  roce_help, NULL,
				  THIS_MODULE);
		nf_ct_helper_init(&helpers[2 * i + 1], AF_INET6, IPPROTO_UDP,
				  ROCECT_HELPER_NAME, ROCE_UDP_PORT, ports[i],
				  ports[i], rocect_expect_policy, ROCECT_EXP_CLASS_MAX,
				  roce_help, NULL,
				  THIS_MODULE);
	}
	err = nf_conntrack_helpers_register(helpers, 2 * nports);
	if (err) {
		pr_err("failed to register helpers: %d\n", err);
		return err;
	}
	nr_helpers = 2 * nports;
	return 0;
}

/**
 * rocect_helper_exit() - unregister the helpers
 */
void rocect_helper_exit(void)
{
	nf_conntrack_helpers_unregister(helpers, nr_helpers);
}
