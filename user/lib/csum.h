/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The Internet checksum (RFC 1071) for packets built or checked in
 * userspace: labctl's test frames, the BPF_PROG_TEST_RUN fixtures.
 * Sums run over big-endian 16-bit words.
 */
#ifndef _SPRITZ_CSUM_H
#define _SPRITZ_CSUM_H

#include <stddef.h>
#include <stdint.h>

/* Add @n bytes at @p to the running sum @s. */
static inline uint32_t spritz_csum_add(uint32_t s, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (n & 1)
		s += (uint32_t)b[n - 1] << 8;
	return s;
}

/* Fold a running sum into the 16-bit checksum (one's complement). */
static inline uint16_t spritz_csum_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/*
 * L4 checksum over the pseudo header of IPv4 (@v4) or IPv6 header @l3
 * and the @len bytes at @l4 (whose checksum field takes part as it is:
 * 0 over a valid packet, or 0xffff).
 */
static inline uint16_t spritz_l4_csum(int v4, const uint8_t *l3, uint8_t proto, const uint8_t *l4,
				      size_t len)
{
	uint32_t s = v4 ? spritz_csum_add(0, l3 + 12, 8) : spritz_csum_add(0, l3 + 8, 32);

	s += proto;
	s += (uint32_t)len;
	return spritz_csum_fold(spritz_csum_add(s, l4, len));
}

#endif /* _SPRITZ_CSUM_H */
