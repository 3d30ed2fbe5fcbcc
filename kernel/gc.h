/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_GC_H
#define _ROCECT_GC_H

int rocect_gc_init(void);
void rocect_gc_exit(void);

#endif /* _ROCECT_GC_H */
