/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helper's private area of a conntrack (nfct_help_data(), the data of
 * its struct nf_conn_help), as the SIP helper keeps struct
 * nf_ct_sip_master: used by the expectations (expect.c) and the adoption
 * of flows (adopt.c, which checks that it fits).
 */
#ifndef _ROCECT_CT_PRIV_H
#define _ROCECT_CT_PRIV_H

#include <linux/types.h>
#include <net/netfilter/nf_conntrack_helper.h>

/**
 * struct rocect_ct_priv - the helper's private area of a conntrack
 * @renewed: a master's last keepalive (expect.c), jiffies; 0: never
 * @flow: how this box came by the conntrack (&enum rocect_flow bits) and,
 *	for an adopted one, the destination QP it was bound to (low 24 bits)
 */
struct rocect_ct_priv {
	u32 renewed;
	u32 flow;
};

/**
 * enum rocect_flow - bits of &rocect_ct_priv.flow
 * @ROCECT_FLOW_SEEN: seen by this box's helper, not adopted
 * @ROCECT_FLOW_ADOPTED: injected through ctnetlink (by conntrackd) and
 *	related through an expectation of this helper
 * @ROCECT_FLOW_BOUND: an adopted flow bound to the QP in the low 24 bits
 */
enum rocect_flow {
	ROCECT_FLOW_SEEN	= BIT(24),
	ROCECT_FLOW_ADOPTED	= BIT(25),
	ROCECT_FLOW_BOUND	= BIT(26),
};

static inline struct rocect_ct_priv *rocect_ct_priv(const struct nf_conn *ct)
{
	return nfct_help_data(ct);
}

#endif /* _ROCECT_CT_PRIV_H */
