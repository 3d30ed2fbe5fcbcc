// SPDX-License-Identifier: GPL-2.0
/*
 * nf_conntrack_roce: RoCEv2 connection tracking. This file only orders
 * initialisation and its unwinding.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/netfilter/nf_conntrack_helper.h>

#include "config.h"
#include "crc_accel.h"
#include "cnp_xmit.h"
#include "gc.h"
#include "guard.h"
#include "helper.h"
#include "netlink.h"
#include "netns.h"
#include "offload.h"
#include "pernet.h"
#include "conn.h"
#include "qp.h"

static unsigned short ports[ROCECT_MAX_PORTS] = { ROCE_UDP_PORT };
static unsigned int ports_c;
module_param_array(ports, ushort, &ports_c, 0400);
MODULE_PARM_DESC(ports, "UDP ports of RoCEv2 (default 4791, at most 8)");

/*
 * ORDER: the entry caches before any namespace's tables; namespaces before the
 * guard's device notifier, which hooks their devices, and it before the
 * netlink family that can turn the guard on (a hook always has a notifier
 * to take it off a device that goes); namespaces before the netlink family
 * that reads them; the family before the collectors and the
 * helpers, which announce QP events on it. Offload's expectations go after
 * the helpers and the collectors that make them.
 */
static int __init rocect_init(void)
{
	int err;

	err = rocect_config_check_defaults();
	if (err)
		return err;
	rocect_crc_accel_init();
	rocect_cnp_xmit_init();
	err = rocect_qp_init();
	if (err)
		goto err_crc;
	err = rocect_conn_init();
	if (err)
		goto err_qp;
	err = rocect_netns_init();
	if (err)
		goto err_conn;
	err = rocect_guard_init();
	if (err)
		goto err_netns;
	err = rocect_nl_init();
	if (err)
		goto err_guard;
	err = rocect_gc_init();
	if (err)
		goto err_nl;
	rocect_offload_init();
	err = rocect_helper_init(ports, ports_c ?: 1);
	if (err)
		goto err_offload;
	return 0;

err_offload:
	rocect_offload_exit();
	rocect_gc_exit();
err_nl:
	rocect_nl_exit();
err_guard:
	rocect_guard_exit();
err_netns:
	rocect_netns_exit();
err_conn:
	rocect_conn_exit();
err_qp:
	rocect_qp_exit();
err_crc:
	rocect_crc_accel_exit();
	return err;
}

static void __exit rocect_exit(void)
{
	rocect_helper_exit();
	rocect_gc_exit();
	rocect_offload_exit();
	rocect_nl_exit();
	rocect_guard_exit();
	rocect_netns_exit();
	rocect_conn_exit();
	rocect_qp_exit();
	rocect_crc_accel_exit();
}

module_init(rocect_init);
module_exit(rocect_exit);

MODULE_DESCRIPTION("RoCEv2 connection tracking helper");
MODULE_LICENSE("GPL");
MODULE_VERSION(ROCECT_VERSION);
MODULE_ALIAS("ip_conntrack_roce");
MODULE_ALIAS_NFCT_HELPER(ROCECT_HELPER_NAME);
