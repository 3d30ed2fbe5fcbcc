/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_LEARN_H
#define _ROCECT_LEARN_H

struct rocect_net;
struct rocect_qp_key;
struct roce_pkt;

int rocect_learn_enable(struct rocect_net *rn);
void rocect_learn_forget(struct rocect_net *rn);
void rocect_learn_packet(struct rocect_net *rn, const struct rocect_qp_key *key,
			 const struct roce_pkt *pkt, bool adopted);
void rocect_learn_net_exit(struct rocect_net *rn);

#endif /* _ROCECT_LEARN_H */
