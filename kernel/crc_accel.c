// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32 over the bulk of a packet through the crypto API, as rdma_rxe
 * computes its ICRC: where the CPU has carry-less multiplication the API
 * picks crc32-pclmul, which folds 64 bytes at a time instead of the 8 of
 * the library's crc32_le() (stock 6.1 and 6.12 kernels have no faster
 * crc32_le()). A CM MAD's ICRC check, the helper's costliest step per CM
 * packet, is such a bulk.
 */
#include <crypto/hash.h>
#include <linux/crc32.h>
#include <linux/err.h>

#include "crc_accel.h"

/* Shorter runs stay with crc32_le(): the PCLMUL code folds 64 bytes. */
#define ACCEL_MIN_LEN	64

static struct crypto_shash *crc32_tfm __read_mostly;

/**
 * rocect_crc32_bulk() - crc32_le() of a run of bytes, by the fastest CRC-32
 *	the crypto API has
 * @crc: the running CRC state
 * @p: the bytes
 * @len: their number
 *
 * Context: any, as crc32_le(); the crypto code falls back to tables where
 * the FPU cannot be used.
 * Return: the new state, as crc32_le() gives it.
 */
u32 rocect_crc32_bulk(u32 crc, const void *p, size_t len)
{
	struct crypto_shash *tfm = crc32_tfm;

	if (len < ACCEL_MIN_LEN || !tfm)
		return crc32_le(crc, p, len);
	{
		SHASH_DESC_ON_STACK(desc, tfm);
		u32 *state = shash_desc_ctx(desc);

		/*
		 * The "crc32" hashes keep crc32_le()'s state, uninverted, as
		 * the first word of their context (rxe_icrc.c relies on it
		 * too): set it instead of a per-tfm key.
		 */
		desc->tfm = tfm;
		*state = crc;
		if (unlikely(crypto_shash_update(desc, p, len)))
			return crc32_le(crc, p, len);
		crc = *state;
		barrier_data(state);
		return crc;
	}
}

/**
 * rocect_crc_accel_init() - take the crypto API's CRC-32, if it has one
 *
 * Without it (no crypto "crc32" in the kernel) crc32_le() does the work.
 */
void rocect_crc_accel_init(void)
{
	struct crypto_shash *tfm = crypto_alloc_shash("crc32", 0, 0);

	if (IS_ERR(tfm))
		return;
	/* Anything but the u32 state described above: not ours to poke. */
	if (crypto_shash_descsize(tfm) != sizeof(u32)) {
		crypto_free_shash(tfm);
		return;
	}
	crc32_tfm = tfm;
}

/**
 * rocect_crc_accel_exit() - give it back, once no packet can use it
 */
void rocect_crc_accel_exit(void)
{
	if (crc32_tfm)
		crypto_free_shash(crc32_tfm);
	crc32_tfm = NULL;
}
