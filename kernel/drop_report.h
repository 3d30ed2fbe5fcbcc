/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_DROP_REPORT_H
#define _ROCECT_DROP_REPORT_H

#include <net/netfilter/nf_conntrack.h>

#include "stats.h"

struct rocect_net;
struct roce_pkt;

void rocect_drop_report_ready(bool ready);
void rocect_drop_report(struct rocect_net *rn, const struct sk_buff *skb,
			const struct nf_conn *ct, const struct roce_pkt *pkt,
			enum rocect_counter ctr, const char *why);

#endif /* _ROCECT_DROP_REPORT_H */
