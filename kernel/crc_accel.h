/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CRC_ACCEL_H
#define _ROCECT_CRC_ACCEL_H

#include <linux/types.h>

/* The module's CRC-32 for long runs (crc_accel.c). */

u32 rocect_crc32_bulk(u32 crc, const void *p, size_t len);
void rocect_crc_accel_init(void);
void rocect_crc_accel_exit(void);

#endif /* _ROCECT_CRC_ACCEL_H */
