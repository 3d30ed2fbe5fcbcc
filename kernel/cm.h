/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CM_H
#define _ROCECT_CM_H

#include <net/netfilter/nf_conntrack.h>

#include "conn.h"
#include "wire.h"

struct rocect_net;

u8 rocect_cm_packet(struct rocect_net *rn, struct nf_conn *ct,
		    const struct roce_pkt *pkt, int iif);
void rocect_cm_data_slow(struct rocect_net *rn, struct nf_conn *ct,
			 struct rocect_qp *qp, const struct roce_pkt *pkt);

/**
 * rocect_cm_mark() - give a new data flow its connection's mark
 * @ct: the flow's conntrack, or NULL
 * @conn: the connection, whose service policy rule may have set a mark
 *
 * Only while @ct is unconfirmed, on its first packet: a mark nft or the
 * operator set later stays theirs.
 */
static inline void rocect_cm_mark(struct nf_conn *ct,
				  const struct rocect_conn *conn)
{
#if IS_ENABLED(CONFIG_NF_CONNTRACK_MARK)
	u32 mark;

	if (likely(!ct || nf_ct_is_confirmed(ct)))
		return;
	mark = READ_ONCE(conn->mark);
	if (mark && !READ_ONCE(ct->mark))
		WRITE_ONCE(ct->mark, mark);
#endif
}

/**
 * rocect_cm_data() - what a data packet tells about its connection
 * @rn: the namespace's state
 * @ct: the packet's conntrack, or NULL for the guard's (guard.c)
 * @qp: the packet's learned entry
 * @pkt: the packet
 *
 * Data to the passive side's QP while the RTU is missing establishes the
 * connection (as COMM_EST does in the receiving host). A UD client's first
 * packet with the service's Q_Key names its QP in the DETH: the server's
 * replies get their entry.
 * Data of an established connection keeps its CM conntrack and its
 * expectations alive, however long the CM is quiet: once a second is
 * enough (@conn->kept), and spares the other packets the walk to the
 * master, since a renewal period is at least that long and between
 * renewals only the master's own packets cut its hold, which they put
 * back (rocect_expect_hold()).
 *
 * Context: the helper callback. Inline: for all but one packet a second
 * of an established connection, two loads and two compares.
 */
static inline void rocect_cm_data(struct rocect_net *rn, struct nf_conn *ct,
				  struct rocect_qp *qp,
				  const struct roce_pkt *pkt)
{
	const struct rocect_conn *conn = rocect_qp_conn(qp);
	u32 kept;

	rocect_cm_mark(ct, conn);
	if (qp->dir != 0)
		return;
	kept = READ_ONCE(conn->kept);
	if (likely(kept && (u32)jiffies - kept < HZ &&
		   READ_ONCE(conn->state) == ROCE_CS_ESTABLISHED &&
		   /* A stale bit only sends the packet the slow way. */
		   data_race(!conn->sidr || conn->qp[1].linked)))
		return;
	rocect_cm_data_slow(rn, ct, qp, pkt);
}

#endif /* _ROCECT_CM_H */
