/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_HELPER_H
#define _ROCECT_HELPER_H

#include <net/netfilter/nf_conntrack.h>

#include "netns.h"
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

int rocect_helper_init(const unsigned short *ports, unsigned int nports);
void rocect_helper_exit(void);
bool rocect_helper_port(__be16 port);
void rocect_qp_key_of(struct rocect_qp_key *key, u16 zone,
		      const struct roce_pkt *pkt);
int rocect_data_verdict(struct rocect_net *rn, struct sk_buff *skb,
			struct nf_conn *ct, enum ip_conntrack_info ctinfo,
			const struct rocect_qp_key *key, struct rocect_qp *qp,
			const u8 *ip, u32 caplen, const struct roce_pkt *pkt);
int rocect_packet_verdict(struct rocect_net *rn, struct sk_buff *skb,
			  struct nf_conn *ct, enum ip_conntrack_info ctinfo,
			  u16 zone, const u8 *ip, u32 caplen,
			  const struct roce_pkt *pkt);
int rocect_gso_verdict(struct rocect_net *rn, struct sk_buff *skb,
		       const struct nf_conn *ct);

#endif /* _ROCECT_HELPER_H */
