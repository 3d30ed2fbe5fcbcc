/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small set of primitives the pure protocol code (wire.c, icrc.c, cnp_layout.c)
 * may use. In the kernel they are the kernel's own helpers; in userspace
 * (unit tests, fuzzers, benchmarks, the CLI) they are thin equivalents, with
 * zlib providing the CRC-32.
 */
#ifndef _ROCECT_WIRE_COMPAT_H
#define _ROCECT_WIRE_COMPAT_H

#ifdef __KERNEL__

#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/string.h>
#include <linux/crc32.h>
#include <linux/in6.h>
#ifdef ROCECT_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif
#include <net/ip.h>
#include <net/ip6_checksum.h>

#else /* userspace */

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <zlib.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u64 get_unaligned_be64(const void *p)
{
	return (u64)get_unaligned_be32(p) << 32 |
	       get_unaligned_be32((const u8 *)p + 4);
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 8;
	b[1] = v;
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	put_unaligned_be32(v >> 32, p);
	put_unaligned_be32((u32)v, (u8 *)p + 4);
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v;
	b[1] = v >> 8;
	b[2] = v >> 16;
	b[3] = v >> 24;
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[3] << 24 | (u32)b[2] << 16 | (u32)b[1] << 8 | b[0];
}

#ifdef ROCECT_SLICE8_CRC32
/* The kernel's own slice-by-8 code (tools/bench/crc32_slice8.c). */
u32 crc32_le(u32 crc, const void *p, size_t len);
#else
/* The kernel's crc32_le() has no pre/post inversion; zlib's crc32() does. */
static inline u32 crc32_le(u32 crc, const void *p, size_t len)
{
	return ~(u32)crc32(~crc & 0xffffffffUL, p, len);
}
#endif

static inline u32 roce_csum_add(u32 sum, const u8 *b, u32 len)
{
	u32 i;

	for (i = 0; i + 1 < len; i += 2)
		sum += get_unaligned_be16(b + i);
	if (len & 1)
		sum += (u32)b[len - 1] << 8;
	return sum;
}

static inline u16 roce_csum_fold(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

/* Folded one's-complement checksum of an IPv4 header (kernel: ip_fast_csum). */
static inline u16 roce_ip_fast_csum(const void *iph, unsigned int ihl)
{
	return roce_csum_fold(roce_csum_add(0, iph, ihl * 4));
}

/* UDP checksum over the IPv6 pseudo-header (kernel: csum_ipv6_magic). */
static inline u16 roce_udp6_csum(const u8 *saddr, const u8 *daddr,
				 const u8 *udp, u32 len)
{
	u32 sum = roce_csum_add(0, saddr, 16);

	sum = roce_csum_add(sum, daddr, 16);
	sum += len + 17;
	sum = roce_csum_add(sum, udp, len);
	return roce_csum_fold(sum) ?: 0xffff;
}

#endif /* __KERNEL__ */

#ifdef __KERNEL__
/* Both return the checksum in host order, as the userspace twins do. */
static inline u16 roce_ip_fast_csum(const void *iph, unsigned int ihl)
{
	return be16_to_cpu((__force __be16)ip_fast_csum(iph, ihl));
}

static inline u16 roce_udp6_csum(const u8 *saddr, const u8 *daddr,
				 const u8 *udp, u32 len)
{
	__sum16 sum = csum_ipv6_magic((const struct in6_addr *)saddr,
				      (const struct in6_addr *)daddr, len,
				      IPPROTO_UDP, csum_partial(udp, len, 0));

	return be16_to_cpu((__force __be16)sum) ?: 0xffff;
}
#endif

#endif /* _ROCECT_WIRE_COMPAT_H */
