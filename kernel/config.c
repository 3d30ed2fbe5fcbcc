// SPDX-License-Identifier: GPL-2.0
/*
 * The settings of settings.h: module parameters seed each new namespace's
 * configuration, which netlink then reads and changes at runtime.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <uapi/linux/rocect.h>

#include "config.h"
#include "netns.h"

/* Each setting's default for new namespaces, a module parameter below. */
static unsigned int defaults[ROCECT_CFG_COUNT] = {
#define ROCECT_SETTING(name, attr, type, lo, hi, def)	\
	[ROCECT_CFG_##name] = def,
#include "settings.h"
#undef ROCECT_SETTING
};

module_param_named(max_qps, defaults[ROCECT_CFG_max_qps], uint, 0444);
MODULE_PARM_DESC(max_qps, "Default most QP entries per namespace (1-16777216, default 65536)");
module_param_named(idle_timeout, defaults[ROCECT_CFG_idle_timeout], uint, 0444);
MODULE_PARM_DESC(idle_timeout, "Default idle timeout of learned QP entries, s (1-604800, default 300)");
module_param_named(timewait_timeout, defaults[ROCECT_CFG_timewait_timeout], uint, 0444);
MODULE_PARM_DESC(timewait_timeout, "Default TIMEWAIT duration, s (1-3600, default 10)");
module_param_named(unknown_qp, defaults[ROCECT_CFG_unknown_qp], uint, 0444);
MODULE_PARM_DESC(unknown_qp, "Default policy for data to unknown QPs: 0 accept, 1 drop");
module_param_named(max_conns, defaults[ROCECT_CFG_max_conns], uint, 0444);
MODULE_PARM_DESC(max_conns, "Default most tracked CM connections per namespace (1-8388608, default 32768)");
module_param_named(cnp, defaults[ROCECT_CFG_cnp], uint, 0444);
MODULE_PARM_DESC(cnp, "Default: send CNPs for CE-marked RoCE data (0 off, 1 on)");
module_param_named(cnp_interval, defaults[ROCECT_CFG_cnp_interval], uint, 0444);
MODULE_PARM_DESC(cnp_interval, "Default least us between CNPs to one QP (1-1000000, default 50)");
module_param_named(cnp_max_rate, defaults[ROCECT_CFG_cnp_max_rate], uint, 0444);
MODULE_PARM_DESC(cnp_max_rate, "Default most CNPs per second in all (1-10000000, default 100000)");
module_param_named(cnp_dscp, defaults[ROCECT_CFG_cnp_dscp], uint, 0444);
MODULE_PARM_DESC(cnp_dscp, "Default DSCP of CNPs (0-63, default 48)");
module_param_named(cnp_ecn, defaults[ROCECT_CFG_cnp_ecn], uint, 0444);
MODULE_PARM_DESC(cnp_ecn, "Default ECN bits of CNPs (0-3, default 2: ECT(0))");
module_param_named(cnp_priority, defaults[ROCECT_CFG_cnp_priority], uint, 0444);
MODULE_PARM_DESC(cnp_priority, "Default skb priority of CNPs (default 6)");
module_param_named(cnp_ttl, defaults[ROCECT_CFG_cnp_ttl], uint, 0444);
MODULE_PARM_DESC(cnp_ttl, "Default TTL or hop limit of CNPs (1-255, default 64)");
module_param_named(cnp_sport, defaults[ROCECT_CFG_cnp_sport], uint, 0444);
MODULE_PARM_DESC(cnp_sport, "Default UDP source port of CNPs (0-65535; 65536: the data packet's, default)");
module_param_named(cnp_clear_ce, defaults[ROCECT_CFG_cnp_clear_ce], uint, 0444);
MODULE_PARM_DESC(cnp_clear_ce, "Default: forward CE packets that caused a CNP as ECT(0) (0 off, 1 on)");
module_param_named(half_open_timeout, defaults[ROCECT_CFG_half_open_timeout], uint, 0444);
MODULE_PARM_DESC(half_open_timeout, "Default lifetime of connections in REQ or REP without CM traffic, s (1-3600, default 75)");
module_param_named(rp_check, defaults[ROCECT_CFG_rp_check], uint, 0444);
MODULE_PARM_DESC(rp_check, "Default: ignore CM MADs whose source does not route back through their input interface (0 off, 1 on, default)");
module_param_named(learn, defaults[ROCECT_CFG_learn], uint, 0444);
MODULE_PARM_DESC(learn, "Default: infer QP entries from traffic that never used RDMA CM (0 off, 1 on)");
module_param_named(source_share, defaults[ROCECT_CFG_source_share], uint, 0444);
MODULE_PARM_DESC(source_share, "Default share of max_conns one active-side address may hold in half-open and established connections, and of the inferred entries' half of max_qps one sender may hold, percent (1-100, default 25)");
module_param_named(check_iface, defaults[ROCECT_CFG_check_iface], uint, 0444);
MODULE_PARM_DESC(check_iface, "Default: a QP's packets must come in where its CM MADs (or its first packet) did (0 off, 1 on, default)");
module_param_named(check_sport, defaults[ROCECT_CFG_check_sport], uint, 0444);
MODULE_PARM_DESC(check_sport, "Default: a QP's data must keep the UDP source port of its first packet (0 off, 1 on, default)");
module_param_named(check_cnp, defaults[ROCECT_CFG_check_cnp], uint, 0444);
MODULE_PARM_DESC(check_cnp, "Default: a CNP must come in where the packets of the peer it names do (0 off, 1 on, default)");
module_param_named(check_psn, defaults[ROCECT_CFG_check_psn], uint, 0444);
MODULE_PARM_DESC(check_psn, "Default: a QP's RC and UC data must carry PSNs within psn_window of its sender's (0 off, 1 on, default)");
module_param_named(psn_window, defaults[ROCECT_CFG_psn_window], uint, 0444);
MODULE_PARM_DESC(psn_window, "Default PSNs either way of where a sender's PSNs stand that its packets may carry (1-8388608, default 4096; 8388608: any)");
module_param_named(check_qkey, defaults[ROCECT_CFG_check_qkey], uint, 0444);
MODULE_PARM_DESC(check_qkey, "Default: a QP's UD data must carry the Q_Key of its SIDR_REP or first packet (0 off, 1 on, default)");
module_param_named(offload, defaults[ROCECT_CFG_offload], uint, 0444);
MODULE_PARM_DESC(offload, "Default: admit the data flow of an RC or UC pair that alone explains it without the helper, for a flowtable (0 off, default; 1 on; 2 guarded: as on, and a netdev ingress hook checks those flows' packets)");
module_param_named(policy_default, defaults[ROCECT_CFG_policy_default], uint, 0444);
MODULE_PARM_DESC(policy_default, "Default: what the service policy does with a REQ no rule matches (0 accept, default; 1 drop; 2 reject)");
module_param_named(reject_max_rate, defaults[ROCECT_CFG_reject_max_rate], uint, 0444);
MODULE_PARM_DESC(reject_max_rate, "Default: REJs per second the service policy's reject sends at most (1 to 1000000, default 1000)");
module_param_named(drop_events_max_rate, defaults[ROCECT_CFG_drop_events_max_rate], uint, 0444);
MODULE_PARM_DESC(drop_events_max_rate, "Default: drop events per second sent to the drops group at most; the rest are counted as suppressed (1 to 100000, default 100)");

struct netlink_range_validation rocect_config_ranges[ROCECT_CFG_COUNT] = {
#define ROCECT_SETTING(name, attr, type, lo, hi, def)	\
	[ROCECT_CFG_##name] = { .min = lo, .max = hi },
#include "settings.h"
#undef ROCECT_SETTING
};

/* The module parameters' names, for their range check. */
static const char *const names[ROCECT_CFG_COUNT] = {
#define ROCECT_SETTING(name, attr, type, lo, hi, def)	\
	[ROCECT_CFG_##name] = #name,
#include "settings.h"
#undef ROCECT_SETTING
};

/**
 * rocect_config_check_defaults() - validate the module parameters
 *
 * Return: 0, or -EINVAL after logging which parameter is out of range.
 */
int rocect_config_check_defaults(void)
{
	int i;

	for (i = 0; i < ROCECT_CFG_COUNT; i++) {
		const struct netlink_range_validation *r = &rocect_config_ranges[i];

		if (defaults[i] >= r->min && defaults[i] <= r->max)
			continue;
		pr_err("%s=%u is out of range %llu-%llu\n", names[i], defaults[i],
		       r->min, r->max);
		return -EINVAL;
	}
	return 0;
}

/**
 * rocect_config_limit() - a table's limit in force in a namespace
 * @rn: the namespace's state
 * @i: %ROCECT_CFG_max_qps or %ROCECT_CFG_max_conns
 *
 * Root in a user namespace owns its network namespace's settings, but the
 * memory its tables may pin is the host's: a namespace other than the
 * initial one gets at most the initial one's limit, as conntrack's
 * nf_conntrack_max is the host's alone.
 *
 * Return: the namespace's setting, capped by the initial namespace's.
 */
u32 rocect_config_limit(struct rocect_net *rn, enum rocect_setting i)
{
	u32 v = READ_ONCE(rn->config.val[i]);

	if (!net_eq(rn->net, &init_net))
		v = min(v, READ_ONCE(rocect_net(&init_net)->config.val[i]));
	return v;
}

/**
 * rocect_config_net_init() - a new namespace starts from the defaults
 * @rn: the namespace's state
 */
void rocect_config_net_init(struct rocect_net *rn)
{
	BUILD_BUG_ON(sizeof(rn->config.val) != sizeof(defaults));
	memcpy(rn->config.val, defaults, sizeof(defaults));
}
