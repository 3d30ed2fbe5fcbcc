// SPDX-License-Identifier: GPL-2.0
/*
 * Per-namespace packet counters, kept per CPU so that counting never takes
 * a lock on the packet path, and shown in /proc/net/stat/nf_conntrack_roce.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/netns/generic.h>

#include "stats.h"

struct stats_net {
	struct rocect_stats __percpu *stats;
};

static unsigned int stats_net_id __read_mostly;

/**
 * rocect_stats_count() - account one inspected packet
 * @net: the namespace it was seen in
 * @pkt: the parse result
 * @icrc_bad: the packet is a CM MAD with a wrong ICRC
 */
void rocect_stats_count(struct net *net, const struct roce_pkt *pkt,
			bool icrc_bad)
{
	struct stats_net *sn = net_generic(net, stats_net_id);
	struct rocect_stats __percpu *s = sn->stats;

	this_cpu_inc(s->packets);
	this_cpu_inc(s->class[pkt->class]);
	if (pkt->class == ROCE_CLASS_MALFORMED)
		this_cpu_inc(s->malformed[pkt->malformed]);
	else if (pkt->class == ROCE_CLASS_CM)
		this_cpu_inc(s->cm[pkt->cm.kind]);
	if (icrc_bad)
		this_cpu_inc(s->icrc_bad);
}

static void stats_sum(struct net *net, struct rocect_stats *sum)
{
	struct stats_net *sn = net_generic(net, stats_net_id);
	const u64 *src;
	u64 *dst = (u64 *)sum;
	unsigned int i, cpu;

	/* The struct is nothing but u64 counters: add them up as an array. */
	BUILD_BUG_ON(sizeof(*sum) % sizeof(u64));
	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		src = (const u64 *)per_cpu_ptr(sn->stats, cpu);
		for (i = 0; i < sizeof(*sum) / sizeof(u64); i++)
			dst[i] += READ_ONCE(src[i]);
	}
}

static int stats_show(struct seq_file *seq, void *v)
{
	struct rocect_stats sum;
	unsigned int i;

	stats_sum(seq_file_single_net(seq), &sum);
	seq_printf(seq, "packets %llu\n", sum.packets);
	for (i = 0; i < ROCE_CLASS_MAX; i++)
		seq_printf(seq, "class.%s %llu\n", roce_class_name(i),
			   sum.class[i]);
	for (i = 1; i < ROCE_MAL_MAX; i++)
		seq_printf(seq, "malformed.%s %llu\n", roce_malformed_name(i),
			   sum.malformed[i]);
	for (i = 0; i < ROCE_CM_KIND_MAX; i++)
		seq_printf(seq, "cm.%s %llu\n", roce_cm_kind_name(i), sum.cm[i]);
	seq_printf(seq, "icrc-bad %llu\n", sum.icrc_bad);
	return 0;
}

static int __net_init stats_net_init(struct net *net)
{
	struct stats_net *sn = net_generic(net, stats_net_id);

	sn->stats = alloc_percpu(struct rocect_stats);
	if (!sn->stats)
		return -ENOMEM;
	if (!proc_create_net_single("nf_conntrack_roce", 0444,
				    net->proc_net_stat, stats_show, NULL)) {
		free_percpu(sn->stats);
		return -ENOMEM;
	}
	return 0;
}

static void __net_exit stats_net_exit(struct net *net)
{
	struct stats_net *sn = net_generic(net, stats_net_id);

	remove_proc_entry("nf_conntrack_roce", net->proc_net_stat);
	free_percpu(sn->stats);
}

static struct pernet_operations stats_net_ops = {
	.init = stats_net_init,
	.exit = stats_net_exit,
	.id = &stats_net_id,
	.size = sizeof(struct stats_net),
};

/**
 * rocect_stats_init() - set up counters in every namespace
 *
 * Return: 0 or a negative errno.
 */
int rocect_stats_init(void)
{
	return register_pernet_subsys(&stats_net_ops);
}

/**
 * rocect_stats_exit() - free the counters of every namespace
 */
void rocect_stats_exit(void)
{
	unregister_pernet_subsys(&stats_net_ops);
}
