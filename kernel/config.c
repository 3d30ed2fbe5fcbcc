// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration defaults: module parameters seed each new namespace's
 * configuration, which netlink then changes at runtime.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <uapi/linux/rocect.h>

#include "netns.h"

static unsigned int max_qps = 65536;
module_param(max_qps, uint, 0444);
MODULE_PARM_DESC(max_qps, "Default most QP entries per namespace (1-16777216, default 65536)");

static unsigned int max_conns = 32768;
module_param(max_conns, uint, 0444);
MODULE_PARM_DESC(max_conns, "Default most tracked CM connections per namespace (1-8388608, default 32768)");

static unsigned int idle_timeout = 300;
module_param(idle_timeout, uint, 0444);
MODULE_PARM_DESC(idle_timeout, "Default idle timeout of learned QP entries, s (1-604800, default 300)");

static unsigned int timewait_timeout = 10;
module_param(timewait_timeout, uint, 0444);
MODULE_PARM_DESC(timewait_timeout, "Default TIMEWAIT duration, s (1-3600, default 10)");

static unsigned int unknown_qp;
module_param(unknown_qp, uint, 0444);
MODULE_PARM_DESC(unknown_qp, "Default policy for data to unknown QPs: 0 accept, 1 drop");

static int check(const char *name, unsigned int val, unsigned int min,
		 unsigned int max)
{
	if (val >= min && val <= max)
		return 0;
	pr_err("%s=%u is out of range %u-%u\n", name, val, min, max);
	return -EINVAL;
}

/**
 * rocect_config_check_defaults() - validate the module parameters
 *
 * Return: 0, or -EINVAL after logging which parameter is out of range.
 */
int rocect_config_check_defaults(void)
{
	return check("max_qps", max_qps, 1, ROCECT_MAX_QPS_MAX) ?:
	       check("max_conns", max_conns, 1, ROCECT_MAX_CONNS_MAX) ?:
	       check("idle_timeout", idle_timeout, 1, ROCECT_IDLE_TIMEOUT_MAX) ?:
	       check("timewait_timeout", timewait_timeout, 1,
		     ROCECT_TIMEWAIT_TIMEOUT_MAX) ?:
	       check("unknown_qp", unknown_qp, 0, ROCECT_UNKNOWN_QP_MAX);
}

/**
 * rocect_config_net_init() - a new namespace starts from the defaults
 * @rn: the namespace's state
 */
void rocect_config_net_init(struct rocect_net *rn)
{
	rn->config.max_qps = max_qps;
	rn->config.max_conns = max_conns;
	rn->config.idle_timeout = idle_timeout;
	rn->config.timewait_timeout = timewait_timeout;
	rn->config.unknown_qp = unknown_qp;
}
