/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CM_H
#define _ROCECT_CM_H

#include <net/netfilter/nf_conntrack.h>

#include "wire.h"

struct rocect_net;
struct rocect_qp;

void rocect_cm_packet(struct rocect_net *rn, struct nf_conn *ct,
		      const struct roce_pkt *pkt, int iif);
void rocect_cm_data(struct rocect_net *rn, struct nf_conn *ct,
		    struct rocect_qp *qp, const struct roce_pkt *pkt);

#endif /* _ROCECT_CM_H */
