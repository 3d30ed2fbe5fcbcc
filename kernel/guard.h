/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guard of offload guarded: a netdev ingress hook that checks the
 * packets of the data flows offload mode lets go without the helper.
 */
#ifndef _ROCECT_GUARD_H
#define _ROCECT_GUARD_H

#include "netns.h"

int rocect_guard_prepare(struct rocect_net *rn, u32 mode);
void rocect_guard_finish(struct rocect_net *rn);
void rocect_guard_net_init(struct rocect_net *rn);
void rocect_guard_net_exit(struct rocect_net *rn);
int rocect_guard_init(void);
void rocect_guard_exit(void);

#endif /* _ROCECT_GUARD_H */
