/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CNP_XMIT_H
#define _ROCECT_CNP_XMIT_H

#include <linux/netfilter.h>

struct rocect_net;

/**
 * struct rocect_cnp_port - where a CNP (or a CM reply) goes besides its
 *	addresses
 * @sport: UDP source port
 * @dport: UDP destination port: the RoCE port of the congested flow
 * @ifindex: the interface the congested packet came in on, 0 if none; a
 *	link-local IPv6 destination is reached through it
 * @l3mdev: that interface's VRF, 0 if none: the CNP is routed in its table
 */
struct rocect_cnp_port {
	u16 sport;
	u16 dport;
	int ifindex;
	int l3mdev;
};

struct sk_buff;

void rocect_cnp_xmit_init(void);
int rocect_xmit_packet(struct rocect_net *rn, struct sk_buff *skb, u8 family,
		       const union nf_inet_addr *to,
		       const union nf_inet_addr *from,
		       const struct rocect_cnp_port *port, u32 priority);
int rocect_xmit_cnp(struct rocect_net *rn, u8 family,
		    const union nf_inet_addr *to,
		    const union nf_inet_addr *from, u32 dest_qp,
		    const struct rocect_cnp_port *port, u16 pkey);

#endif /* _ROCECT_CNP_XMIT_H */
