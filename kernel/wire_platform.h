/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small set of primitives the pure protocol code (wire.c, icrc.c, cnp_layout.c)
 * may use. In the kernel they are the kernel's own helpers; in userspace
 * (unit tests, fuzzers, benchmarks, the CLI) they are thin equivalents, with
 * zlib providing the CRC-32.
 */
#ifndef _ROCECT_WIRE_PLATFORM_H
#define _ROCECT_WIRE_PLATFORM_H

#ifdef __KERNEL__

#include <linux/kernel.h>
#include <linux/types.h>
#include <asm/byteorder.h>
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

#include "crc_accel.h"
/* The ICRC's bulk: the crypto API's CRC-32 where the CPU has a fast one. */
#define roce_crc32_bulk(crc, p, len)	rocect_crc32_bulk(crc, p, len)

#else /* userspace */

#include <linux/types.h>
#include <asm/byteorder.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <zlib.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#ifndef __force
#define __force
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
/* __always_inline comes with glibc's <sys/cdefs.h>. */

static inline void barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

/*
 * One load and a byte swap, as the kernel's helpers compile to. The
 * builtins, not <asm/swab.h>'s inline assembly, which the compiler cannot
 * see through.
 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define roce_swab16(x)	__builtin_bswap16(x)
#define roce_swab32(x)	__builtin_bswap32(x)
#define roce_swab64(x)	__builtin_bswap64(x)
#define roce_le32(x)	(x)
#else
#define roce_swab16(x)	(x)
#define roce_swab32(x)	(x)
#define roce_swab64(x)	(x)
#define roce_le32(x)	__builtin_bswap32(x)
#endif

static inline u16 be16_to_cpu(__be16 v)
{
	return roce_swab16((__force u16)v);
}

static inline u32 be32_to_cpu(__be32 v)
{
	return roce_swab32((__force u32)v);
}

static inline u16 get_unaligned_be16(const void *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return roce_swab16(v);
}

static inline u32 get_unaligned_be32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return roce_swab32(v);
}

static inline u64 get_unaligned_be64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return roce_swab64(v);
}

/* A native-order 32-bit load from any address. */
static inline u32 roce_load32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	v = roce_swab16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	v = roce_swab32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	v = roce_swab64(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	v = roce_le32(v);
	memcpy(p, &v, sizeof(v));
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

/* In userspace the ICRC's bulk is crc32_le() as well. */
#define roce_crc32_bulk(crc, p, len)	crc32_le(crc, p, len)

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

/*
 * Folded one's-complement checksum of an IPv4 header (kernel: ip_fast_csum),
 * summed as native 32-bit words as the kernel's does: the sum does not
 * depend on byte order, so only the result is swapped.
 */
static inline u16 roce_ip_fast_csum(const void *iph, unsigned int ihl)
{
	const u8 *w = iph;
	u64 sum = 0;
	unsigned int i;

	/* No options: five words, unrolled as the kernel's assembly is. */
	if (ihl == 5)
		sum = (u64)roce_load32(w) + roce_load32(w + 4) +
		      roce_load32(w + 8) + roce_load32(w + 12) +
		      roce_load32(w + 16);
	else
		for (i = 0; i < ihl; i++)
			sum += roce_load32(w + 4 * i);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	return roce_swab16(roce_csum_fold(sum));
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

#endif /* _ROCECT_WIRE_PLATFORM_H */
