/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_HELPER_H
#define _ROCECT_HELPER_H

#include <net/netfilter/nf_conntrack.h>

#include "netns.h"
#include "qp.h"
#include "wire.h"

#define ROCECT_HELPER_NAME	"roce"
#define ROCECT_MAX_PORTS	8

/*
 * Bytes copied for parsing: enough for an IPv4 header with options, UDP,
 * BTH, DETH, a whole MAD and the ICRC. Data payloads beyond this are never
 * needed; IPv6 packets whose extension headers push the MAD past it are
 * counted as "capture".
 */
#define ROCECT_CAPTURE_LEN	384

/**
 * rocect_qp_key_of() - the key of the entry a packet's QP would have
 * @key: filled in
 * @zone: the conntrack zone the packet is in
 * @pkt: the packet's parse
 */
static inline void rocect_qp_key_of(struct rocect_qp_key *key, u16 zone,
				    const struct roce_pkt *pkt)
{
	key->dqpn = roce_bth_dest_qp(&pkt->bth);
	key->zone = zone;
	key->family = pkt->family;
	key->pad = 0;
	BUILD_BUG_ON(sizeof(key->saddr) != 16);
	roce_addr_widen(&key->saddr, roce_pkt_saddr(pkt), pkt->family);
	roce_addr_widen(&key->daddr, roce_pkt_daddr(pkt), pkt->family);
}

/**
 * rocect_strict() - does the namespace drop what it cannot vouch for?
 * @rn: the namespace's state
 *
 * Return: true under unknown-qp drop.
 */
static inline bool rocect_strict(const struct rocect_net *rn)
{
	return rocect_cfg(&rn->config, unknown_qp) == ROCECT_UNKNOWN_QP_DROP;
}

int rocect_helper_init(const unsigned short *ports, unsigned int nports);
void rocect_helper_exit(void);
bool rocect_helper_port(__be16 port);
int rocect_data_verdict(struct rocect_net *rn, struct sk_buff *skb,
			struct nf_conn *ct, enum ip_conntrack_info ctinfo,
			const struct rocect_qp_key *key, struct rocect_qp *qp,
			const u8 *ip, u32 caplen, const struct roce_pkt *pkt);
int rocect_class_verdict(struct rocect_net *rn, struct sk_buff *skb,
			 const struct nf_conn *ct,
			 enum ip_conntrack_info ctinfo, u16 zone,
			 const struct roce_pkt *pkt);
int rocect_gso_verdict(struct rocect_net *rn, struct sk_buff *skb,
		       const struct nf_conn *ct);

#endif /* _ROCECT_HELPER_H */
