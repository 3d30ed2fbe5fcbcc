/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_STATS_H
#define _ROCECT_STATS_H

#include <linux/percpu.h>

#include "wire.h"

struct rocect_net;

/* Event counters besides the per-class ones (counters.h). */
#define ROCECT_COUNTER(name)	ROCECT_CTR_##name,
enum rocect_counter {
#include "counters.h"
	ROCECT_CTR_MAX
};

#undef ROCECT_COUNTER

extern const u8 rocect_stats_attrs[ROCECT_CTR_MAX];

/**
 * struct rocect_stats - per-CPU counters of one network namespace
 * @packets: packets the helper inspected
 * @class: packets per &enum roce_class
 * @malformed: malformed packets per &enum roce_malformed
 * @cm: CM MADs per &enum roce_cm_kind
 * @ctr: events per &enum rocect_counter
 */
struct rocect_stats {
	u64 packets;
	u64 class[ROCE_CLASS_MAX];
	u64 malformed[ROCE_MAL_MAX];
	u64 cm[ROCE_CM_KIND_MAX];
	u64 ctr[ROCECT_CTR_MAX];
};

/**
 * rocect_stats_packet() - account one inspected packet
 * @s: the namespace's counters (&rocect_net.stats)
 * @pkt: the parse result
 *
 * Inline: the helper calls it for every packet.
 */
static inline void rocect_stats_packet(struct rocect_stats __percpu *s,
				       const struct roce_pkt *pkt)
{
	/* Read once: each this_cpu_inc() makes the compiler read memory anew. */
	enum roce_class class = pkt->class;

	this_cpu_inc(s->packets);
	this_cpu_inc(s->class[class]);
	if (class == ROCE_CLASS_MALFORMED)
		this_cpu_inc(s->malformed[pkt->malformed]);
	else if (class == ROCE_CLASS_CM)
		this_cpu_inc(s->cm[pkt->cm.kind]);
}

void rocect_stats_inc(struct rocect_net *rn, enum rocect_counter ctr);
void rocect_stats_sum(struct rocect_net *rn, struct rocect_stats *sum);
void rocect_stats_reset(struct rocect_net *rn);
int rocect_stats_net_init(struct rocect_net *rn);
void rocect_stats_net_exit(struct rocect_net *rn);

#endif /* _ROCECT_STATS_H */
