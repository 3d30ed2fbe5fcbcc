/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_NETLINK_H
#define _ROCECT_NETLINK_H

#include <net/net_namespace.h>

int rocect_nl_init(void);
void rocect_nl_exit(void);

#endif /* _ROCECT_NETLINK_H */
