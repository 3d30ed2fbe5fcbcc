// SPDX-License-Identifier: GPL-2.0
/*
 * Per-namespace counters, kept per CPU so that counting never takes a lock
 * on the packet path; summed when read through netlink.
 */
#include <uapi/linux/rocect.h>

#include "stats.h"
#include "netns.h"

/*
 * The attribute each event counter is reported as, in counters.h order:
 * sized by the enum, so a counter without its attribute cannot build.
 */
#define ROCECT_COUNTER(name)	ROCECT_A_STATS_##name,
const u8 rocect_stats_attrs[ROCECT_CTR_MAX] = {
#include "counters.h"
};

#undef ROCECT_COUNTER

/**
 * rocect_stats_inc() - count one event
 * @rn: the namespace's state
 * @ctr: which
 */
void rocect_stats_inc(struct rocect_net *rn, enum rocect_counter ctr)
{
	this_cpu_inc(rn->stats->ctr[ctr]);
}

/**
 * rocect_stats_sum() - add up the counters of all CPUs
 * @rn: the namespace's state
 * @sum: the result
 */
void rocect_stats_sum(struct rocect_net *rn, struct rocect_stats *sum)
{
	u64 *dst = (u64 *)sum;
	const u64 *src;
	unsigned int i, cpu;

	/* The struct is nothing but u64 counters: add them up as an array. */
	BUILD_BUG_ON(sizeof(*sum) % sizeof(u64));
	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		src = (const u64 *)per_cpu_ptr(rn->stats, cpu);
		for (i = 0; i < sizeof(*sum) / sizeof(u64); i++)
			dst[i] += READ_ONCE(src[i]);
	}
}

/**
 * rocect_stats_reset() - zero every counter
 * @rn: the namespace's state
 *
 * Increments racing with the reset on other CPUs may survive it.
 */
void rocect_stats_reset(struct rocect_net *rn)
{
	u64 *p;
	unsigned int i, cpu;

	for_each_possible_cpu(cpu) {
		p = (u64 *)per_cpu_ptr(rn->stats, cpu);
		for (i = 0; i < sizeof(struct rocect_stats) / sizeof(u64); i++)
			WRITE_ONCE(p[i], 0);
	}
}

/**
 * rocect_stats_net_init() - allocate a namespace's counters
 * @rn: the namespace's state
 *
 * Return: 0 or -ENOMEM.
 */
int rocect_stats_net_init(struct rocect_net *rn)
{
	rn->stats = alloc_percpu(struct rocect_stats);
	return rn->stats ? 0 : -ENOMEM;
}

/**
 * rocect_stats_net_exit() - free a namespace's counters
 * @rn: the namespace's state
 */
void rocect_stats_net_exit(struct rocect_net *rn)
{
	free_percpu(rn->stats);
}
