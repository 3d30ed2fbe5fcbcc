/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_QP_CONG_H
#define _ROCECT_QP_CONG_H

#include <linux/atomic.h>
#include <linux/math64.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable-types.h>
#include <linux/timekeeping.h>

struct rocect_net;
struct rocect_qp;

/**
 * struct rocect_qp_cong - what congestion an entry has seen: made on its
 *	first CE-marked packet (or CNP sent on request), gone with the entry
 * @node: in &rocect_qp_table.cong
 * @qp: the entry, the record's key
 * @last_cnp: microseconds (low 32 bits) of the last CNP sent for it
 * @ce: CE-marked packets seen
 * @cnps: CNPs sent to the sender of those
 * @rcu: deferred free
 *
 * Out of &struct rocect_qp: most entries never see CE, and a million of
 * them need not carry 24 bytes each for it.
 */
struct rocect_qp_cong {
	struct rhash_head node;
	const struct rocect_qp *qp;
	u32 last_cnp;
	atomic64_t ce;
	atomic64_t cnps;
	struct rcu_head rcu;
};

/**
 * struct rocect_qp_cong_counts - a record's counters, as read at one time
 * @ce: CE-marked packets seen
 * @cnps: CNPs sent to the sender of those
 */
struct rocect_qp_cong_counts {
	u64 ce;
	u64 cnps;
};

/**
 * rocect_qp_now_us() - the clock of the CNP stamps (@last_cnp)
 *
 * Return: monotonic microseconds, low 32 bits.
 */
static inline u32 rocect_qp_now_us(void)
{
	return div_u64(ktime_get_mono_fast_ns(), NSEC_PER_USEC);
}

struct rocect_qp_cong *rocect_qp_cong_get(struct rocect_net *rn,
					  const struct rocect_qp *qp);
struct rocect_qp_cong_counts
rocect_qp_cong_read(struct rocect_net *rn, const struct rocect_qp *qp);
void rocect_qp_cong_forget(struct rocect_net *rn, const struct rocect_qp *qp);
int rocect_qp_cong_net_init(struct rocect_net *rn);
void rocect_qp_cong_net_exit(struct rocect_net *rn);

#endif /* _ROCECT_QP_CONG_H */
