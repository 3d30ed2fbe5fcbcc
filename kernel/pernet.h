/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_PERNET_H
#define _ROCECT_PERNET_H

#include <linux/types.h>

struct rocect_net;

int rocect_config_apply(struct rocect_net *rn, const u32 *val, u32 given);
int rocect_netns_init(void);
void rocect_netns_exit(void);

#endif /* _ROCECT_PERNET_H */
