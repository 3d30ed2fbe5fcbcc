/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bounds of the settings (settings.h), shared by the module's netlink
 * policy and parameters and by the CLI, which checks a value against
 * them before asking. Pure: no kernel header.
 */
#ifndef _ROCECT_CONFIG_LIMITS_H
#define _ROCECT_CONFIG_LIMITS_H

enum rocect_config_limits {
	ROCECT_MAX_QPS_MAX		= 1 << 24,
	ROCECT_PSN_WINDOW_MAX		= 1 << 23,
	ROCECT_MAX_CONNS_MAX		= 1 << 23,
	ROCECT_IDLE_TIMEOUT_MAX		= 7 * 24 * 3600,
	ROCECT_TIMEWAIT_TIMEOUT_MAX	= 3600,
	ROCECT_HALF_OPEN_TIMEOUT_MAX	= 3600,
	ROCECT_CNP_INTERVAL_MAX		= 1000000,
	ROCECT_CNP_MAX_RATE_MAX		= 10000000,
	ROCECT_REJECT_MAX_RATE_MAX	= 1000000,
	ROCECT_DROP_EVENTS_MAX_RATE_MAX	= 100000,
};

#endif /* _ROCECT_CONFIG_LIMITS_H */
