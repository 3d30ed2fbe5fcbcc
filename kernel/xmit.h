/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_XMIT_H
#define _ROCECT_XMIT_H

#include <linux/netfilter.h>
#include <net/net_namespace.h>

int rocect_xmit_cnp(struct net *net, u8 family, const union nf_inet_addr *to,
		    const union nf_inet_addr *from, u32 dest_qp, u16 sport,
		    u16 pkey);

#endif /* _ROCECT_XMIT_H */
