/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_SHARED_LIMIT_H
#define _ROCECT_SHARED_LIMIT_H

#include <linux/types.h>

#include "config.h"

struct rocect_net;

bool rocect_shared_take(struct rocect_net *rn, enum rocect_setting limit);
void rocect_shared_give(struct rocect_net *rn, enum rocect_setting limit,
			unsigned int n);

#endif /* _ROCECT_SHARED_LIMIT_H */
