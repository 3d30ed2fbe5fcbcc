/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CONFIG_H
#define _ROCECT_CONFIG_H

#include <linux/limits.h>
#include <net/netlink.h>
#include <linux/types.h>
#include <uapi/linux/rocect.h>

#include "config_limits.h"

struct rocect_net;

/* The settings by index, in settings.h order: ROCECT_CFG_<name>. */
enum rocect_setting {
#define ROCECT_SETTING(name, attr, type, lo, hi, def)	ROCECT_CFG_##name,
#include "settings.h"
#undef ROCECT_SETTING
	ROCECT_CFG_COUNT
};

/**
 * struct rocect_config - the settings of one namespace
 * @val: each setting's value, by &enum rocect_setting (settings.h says
 *	what each means)
 *
 * Read locklessly with rocect_cfg() on the packet path; written under the
 * genl mutex.
 */
struct rocect_config {
	u32 val[ROCECT_CFG_COUNT];
};

/* A setting's value, by its name in settings.h. */
#define rocect_cfg(c, name)	READ_ONCE((c)->val[ROCECT_CFG_##name])

/* Each setting's range, by &enum rocect_setting. */
extern struct netlink_range_validation rocect_config_ranges[ROCECT_CFG_COUNT];

u32 rocect_config_limit(struct rocect_net *rn, enum rocect_setting i);

/* A table's limit in force (max_qps, max_conns), by its name. */
#define rocect_limit(rn, name)	rocect_config_limit(rn, ROCECT_CFG_##name)

int rocect_config_check_defaults(void);
void rocect_config_net_init(struct rocect_net *rn);

#endif /* _ROCECT_CONFIG_H */
