/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_HELPER_H
#define _ROCECT_HELPER_H

#define ROCECT_HELPER_NAME	"roce"
#define ROCECT_MAX_PORTS	8

int rocect_helper_init(const unsigned short *ports, unsigned int nports);
void rocect_helper_exit(void);

#endif /* _ROCECT_HELPER_H */
