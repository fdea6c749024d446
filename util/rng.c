/*
 * xoshiro256** (Blackman and Vigna), seeded with splitmix64, plus a 64-bit
 * FNV-1a style hash for deriving per-case seeds. Everything is defined on
 * fixed-width integers, so a seed gives the same stream on every host.
 */
#include "util/util.h"

static uint64_t
splitmix64(uint64_t *x)
{
   uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

void
rng_seed(struct rng *r, uint64_t seed)
{
   for (int i = 0; i < 4; i++)
      r->s[i] = splitmix64(&seed);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
   return (x << k) | (x >> (64 - k));
}

uint64_t
rng_next(struct rng *r)
{
   uint64_t *s = r->s;
   uint64_t result = rotl(s[1] * 5, 7) * 9;
   uint64_t t = s[1] << 17;
   s[2] ^= s[0];
   s[3] ^= s[1];
   s[1] ^= s[2];
   s[0] ^= s[3];
   s[2] ^= t;
   s[3] = rotl(s[3], 45);
   return result;
}

uint32_t
rng_u32(struct rng *r)
{
   return (uint32_t)(rng_next(r) >> 32);
}

/* Uniform in [0, n) without modulo bias (Lemire's multiply-shift). */
uint32_t
rng_below(struct rng *r, uint32_t n)
{
   if (n == 0)
      return 0;
   uint64_t m = (uint64_t)rng_u32(r) * n;
   uint32_t lo = (uint32_t)m;
   if (lo < n) {
      uint32_t t = -n % n;
      while (lo < t) {
         m = (uint64_t)rng_u32(r) * n;
         lo = (uint32_t)m;
      }
   }
   return (uint32_t)(m >> 32);
}

uint64_t
hash64(const void *data, size_t len, uint64_t h)
{
   const unsigned char *p = data;
   if (!h)
      h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < len; i++) {
      h ^= p[i];
      h *= 0x100000001b3ull;
   }
   return h;
}
