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

/*
 * RDMA CM sends a REQ (or REP) up to 16 times, 4.6 s apart on RoCE
 * (response timeout 20, packet lifetime 16): 74 s until it gives up.
 */
static unsigned int half_open_timeout = 75;
module_param(half_open_timeout, uint, 0444);
MODULE_PARM_DESC(half_open_timeout, "Default lifetime of connections in REQ or REP without CM traffic, s (1-3600, default 75)");

static unsigned int rp_check = 1;
module_param(rp_check, uint, 0444);
MODULE_PARM_DESC(rp_check, "Default: ignore CM MADs whose source does not route back through their input interface (0 off, 1 on, default)");

static unsigned int unknown_qp;
module_param(unknown_qp, uint, 0444);
MODULE_PARM_DESC(unknown_qp, "Default policy for data to unknown QPs: 0 accept, 1 drop");

static unsigned int cnp;
module_param(cnp, uint, 0444);
MODULE_PARM_DESC(cnp, "Default: send CNPs for CE-marked RoCE data (0 off, 1 on)");

/* DCQCN (SIGCOMM 2015) used 50 us between CNPs to one QP. */
static unsigned int cnp_interval = 50;
module_param(cnp_interval, uint, 0444);
MODULE_PARM_DESC(cnp_interval, "Default least us between CNPs to one QP (1-1000000, default 50)");

static unsigned int cnp_max_rate = 100000;
module_param(cnp_max_rate, uint, 0444);
MODULE_PARM_DESC(cnp_max_rate, "Default most CNPs per second in all (1-10000000, default 100000)");

/* As hardware notification points mark them: DSCP 48, ECT(0), priority 6. */
static unsigned int cnp_dscp = 48;
module_param(cnp_dscp, uint, 0444);
MODULE_PARM_DESC(cnp_dscp, "Default DSCP of CNPs (0-63, default 48)");

static unsigned int cnp_ecn = 2;
module_param(cnp_ecn, uint, 0444);
MODULE_PARM_DESC(cnp_ecn, "Default ECN bits of CNPs (0-3, default 2: ECT(0))");

static unsigned int cnp_priority = 6;
module_param(cnp_priority, uint, 0444);
MODULE_PARM_DESC(cnp_priority, "Default skb priority of CNPs (default 6)");

static unsigned int cnp_ttl = 64;
module_param(cnp_ttl, uint, 0444);
MODULE_PARM_DESC(cnp_ttl, "Default TTL or hop limit of CNPs (1-255, default 64)");

static unsigned int cnp_sport = ROCECT_CNP_SPORT_COPY;
module_param(cnp_sport, uint, 0444);
MODULE_PARM_DESC(cnp_sport, "Default UDP source port of CNPs (0-65535; 65536: the data packet's, default)");

static unsigned int cnp_clear_ce;
module_param(cnp_clear_ce, uint, 0444);
MODULE_PARM_DESC(cnp_clear_ce, "Default: forward CE packets that caused a CNP as ECT(0) (0 off, 1 on)");

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
	       check("half_open_timeout", half_open_timeout, 1,
		     ROCECT_HALF_OPEN_TIMEOUT_MAX) ?:
	       check("rp_check", rp_check, 0, 1) ?:
	       check("unknown_qp", unknown_qp, 0, ROCECT_UNKNOWN_QP_MAX) ?:
	       check("cnp", cnp, 0, 1) ?:
	       check("cnp_interval", cnp_interval, 1, ROCECT_CNP_INTERVAL_MAX) ?:
	       check("cnp_max_rate", cnp_max_rate, 1, ROCECT_CNP_MAX_RATE_MAX) ?:
	       check("cnp_dscp", cnp_dscp, 0, 63) ?:
	       check("cnp_ecn", cnp_ecn, 0, 3) ?:
	       check("cnp_ttl", cnp_ttl, 1, 255) ?:
	       check("cnp_sport", cnp_sport, 0, ROCECT_CNP_SPORT_COPY) ?:
	       check("cnp_clear_ce", cnp_clear_ce, 0, 1);
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
	rn->config.half_open_timeout = half_open_timeout;
	rn->config.rp_check = rp_check;
	rn->config.unknown_qp = unknown_qp;
	rn->config.cnp = cnp;
	rn->config.cnp_interval = cnp_interval;
	rn->config.cnp_max_rate = cnp_max_rate;
	rn->config.cnp_dscp = cnp_dscp;
	rn->config.cnp_ecn = cnp_ecn;
	rn->config.cnp_priority = cnp_priority;
	rn->config.cnp_ttl = cnp_ttl;
	rn->config.cnp_sport = cnp_sport;
	rn->config.cnp_clear_ce = cnp_clear_ce;
}
