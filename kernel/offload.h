/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Offload of established RC and UC data flows (the offload setting): a
 * data flow that exactly one tracked QP pair explains is admitted without
 * the helper, so that nft's flowtable and tc's act_ct may take it over.
 */
#ifndef _ROCECT_OFFLOAD_H
#define _ROCECT_OFFLOAD_H

#include <net/netfilter/nf_conntrack_expect.h>

#include "netns.h"
#include "wire.h"

struct rocect_conn;

int rocect_offload_net_init(struct rocect_net *rn);
void rocect_offload_net_exit(struct rocect_net *rn);
void rocect_offload_index(struct rocect_net *rn, struct rocect_conn *conn);
void rocect_offload_unindex(struct rocect_net *rn, struct rocect_conn *conn);
void rocect_offload_child(struct nf_conn *ct, struct nf_conntrack_expect *exp);
void rocect_offload_settle(struct rocect_net *rn, const struct rocect_qp *qp,
			   enum rocect_event what);
void rocect_offload_age(struct rocect_net *rn, struct rocect_conn *conn);
void rocect_offload_revoke_all(struct rocect_net *rn);
bool rocect_offload_bare(struct rocect_net *rn, u8 family, const u8 *saddr,
			 const u8 *daddr, u16 sport, __be16 dport);
void rocect_offload_init(void);
void rocect_offload_exit(void);

#endif /* _ROCECT_OFFLOAD_H */
