/*
 * The sm50 semantics of isa/sem.h against independent formulations: bit
 * loops written from the NAK fold rules and the PTX definitions (SHF,
 * SHL/SHR, BFE, BFI, FLO), 64-bit arithmetic (XMAD, ISCADD) and truth
 * tables (the 16 float compares, setp/psetp/fset), on edge values (NAK's
 * hw test set) plus random ones. Also: the 32-bit multiply built from three
 * XMADs, sem_eval's wiring of sem_args, and the sm50 model's compare names
 * and flips.
 */
#include "isa/isa.h"
#include "isa/sem.h"
#include "util/test.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>

static const uint32_t edge[] = {0,           1,           2,           0x7fffffffu,
                                0x80000000u, 0xfffffffeu, 0xffffffffu, 0x12345678u,
                                0xdeadbeefu, 0x00010000u, 0xffff0000u, 0x0000ffffu};

static struct rng R;

static uint32_t
val(unsigned i)
{
   return i < ARRAY_SIZE(edge) ? edge[i] : rng_u32(&R);
}

static unsigned
bit(uint64_t x, int i)
{
   return (unsigned)((x >> i) & 1);
}

/* SHF as NAK's fold describes it, one output bit at a time. */
static uint32_t
ref_shf(int right, uint32_t lo, uint32_t sh, uint32_t hi, unsigned type, int wrap, int high)
{
   uint64_t x = ((uint64_t)hi << 32) | lo, r = 0;
   unsigned bits = type ? 64 : 32;
   unsigned s = wrap ? sh % bits : sh < bits ? sh : bits;
   for (int i = 0; i < 64; i++) {
      int from = right ? i + (int)s : i - (int)s;
      unsigned b = from >= 0 && from < 64 ? bit(x, from) : right && type == 3 ? bit(x, 63) : 0;
      r |= (uint64_t)b << i;
   }
   return (!right || high) ? (uint32_t)(r >> 32) : (uint32_t)r;
}

static void
test_shifts(void)
{
   static const unsigned types[] = {0, 2, 3};
   unsigned bad = 0, n = 0;
   for (unsigned i = 0; i < 40; i++)
      for (unsigned j = 0; j < 40; j += 3)
         for (uint32_t sh = 0; sh < 72; sh++)
            for (unsigned t = 0; t < 3; t++)
               for (int mode = 0; mode < 8; mode++) {
                  int right = mode & 1, wrap = (mode >> 1) & 1, high = mode >> 2;
                  uint32_t lo = val(i), hi = val(j);
                  bad += sem_shf(right, lo, sh, hi, types[t], wrap, high) !=
                         ref_shf(right, lo, sh, hi, types[t], wrap, high);
                  n++;
               }
   CHECKF(bad == 0, "%u of %u SHF results differ from the bit-loop reference", bad, n);
   /* The Maxwell quirks, spelled out: SHF.L returns the high word even
    * without .HI; a 32-bit SHF.R.HI shifts logically; only S64 fills
    * with the sign; clamped counts stop at the type width. */
   CHECK_EQ_U(sem_shf(0, 0x80000001u, 4, 0, 0, 0, 0), 0x8u);
   CHECK_EQ_U(sem_shf(1, 0, 4, 0x80000000u, 0, 0, 1), 0x08000000u);
   CHECK_EQ_U(sem_shf(1, 0, 4, 0x80000000u, 3, 0, 1), 0xf8000000u);
   CHECK_EQ_U(sem_shf(1, 0, 100, 0x80000000u, 3, 0, 0), 0xffffffffu);
   CHECK_EQ_U(sem_shf(1, 0x1234u, 40, 0x80000000u, 0, 0, 0), 0x80000000u); /* clamp at 32 */
   CHECK_EQ_U(sem_shf(1, 0x1234u, 40, 0x80000000u, 0, 1, 0), 0x12u);       /* wrap: 8 */
   CHECK_EQ_U(sem_shf(0, 0x1234u, 32, 0xffffu, 0, 0, 0), 0x1234u);         /* lo moves up */

   bad = 0;
   for (unsigned i = 0; i < 2000; i++)
      for (uint32_t sh = 0; sh < 40; sh++) {
         uint32_t a = val(i), b = i & 1 ? sh : sh | 0xffffff00u;
         for (int wrap = 0; wrap < 2; wrap++) {
            uint32_t s = wrap ? b & 31 : b;
            uint32_t l = 0, r = 0, ar = 0, rv = 0;
            for (int k = 0; k < 32; k++) {
               int64_t from_l = (int64_t)k - s, from_r = (int64_t)k + s;
               l |= (uint32_t)(from_l >= 0 ? bit(a, (int)from_l) : 0) << k;
               r |= (uint32_t)(from_r < 32 ? bit(a, (int)from_r) : 0) << k;
               ar |= (uint32_t)(from_r < 32 ? bit(a, (int)from_r) : bit(a, 31)) << k;
               rv |= (uint32_t)bit(a, 31 - k) << k;
            }
            uint32_t rvr = 0;
            for (int k = 0; k < 32; k++)
               rvr |= (uint32_t)((int64_t)k + s < 32 ? bit(rv, (int)(k + s)) : 0) << k;
            bad += sem_shl_clamp(a, b, wrap) != l;
            bad += sem_shr_clamp(a, b, 0, wrap, 0) != r;
            bad += sem_shr_clamp(a, b, 1, wrap, 0) != ar;
            bad += sem_shr_clamp(a, b, 0, wrap, 1) != rvr;
         }
      }
   CHECKF(bad == 0, "%u SHL/SHR results differ", bad);
}

static void
test_bitfields(void)
{
   unsigned bad = 0;
   for (unsigned i = 0; i < 3000; i++) {
      uint32_t a = val(i), base = val(i + 7);
      uint32_t range =
          i < 1500 ? (rng_below(&R, 40) | rng_below(&R, 40) << 8) : rng_u32(&R) & 0xffffu;
      unsigned pos = range & 0xff, len = (range >> 8) & 0xff;
      for (int sg = 0; sg < 2; sg++)
         for (int brev = 0; brev < 2; brev++) {
            uint32_t x = a;
            if (brev) {
               x = 0;
               for (int k = 0; k < 32; k++)
                  x |= (uint32_t)bit(a, k) << (31 - k);
            }
            /* PTX bfe: d[i] = i < len && pos + i <= 31 ? a[pos + i] : sbit. */
            unsigned top = pos + len - 1 < 31 ? pos + len - 1 : 31;
            unsigned sbit = sg && len ? bit(x, (int)top) : 0;
            uint32_t want = 0;
            for (unsigned k = 0; k < 32; k++)
               want |= (uint32_t)(k < len && pos + k <= 31 ? bit(x, (int)(pos + k)) : sbit) << k;
            bad += sem_bfe(a, range, sg, brev) != want;
         }
      /* PTX bfi: f = base; f[pos + i] = a[i] for i < len, pos + i <= 31. */
      uint32_t want = base;
      for (unsigned k = 0; k < len && pos + k <= 31; k++)
         want = (want & ~(1u << (pos + k))) | ((uint32_t)bit(a, (int)k) << (pos + k));
      bad += sem_bfi(a, range, base) != want;
      /* FLO: scan from the top. */
      for (int sg = 0; sg < 2; sg++) {
         uint32_t f = 0xffffffffu;
         for (int k = 31; k >= 0 && f == 0xffffffffu; k--)
            if (bit(a, k) != (sg ? bit(a, 31) : 0))
               f = (uint32_t)k;
         bad += sem_flo(a, sg) != f;
      }
   }
   CHECKF(bad == 0, "%u BFE/BFI/FLO results differ", bad);
   CHECK_EQ_U(sem_bfe(0x00000001u, 0x2000, 0, 1), 0x80000000u); /* BFE.BREV x, 0x2000 */
   CHECK_EQ_U(sem_bfe(0x000000f0u, 0x0404, 1, 0), 0xffffffffu); /* signed: 0b1111 -> -1 */
   CHECK_EQ_U(sem_bfe(0x000000f0u, 0x0404, 0, 0), 0xfu);
   CHECK_EQ_U(sem_bfi(0xffu, 0x0804, 0), 0xff0u);
   CHECK_EQ_U(sem_flo(0, 0), 0xffffffffu);
   CHECK_EQ_U(sem_flo(0xffffffffu, 1), 0xffffffffu);
   CHECK_EQ_U(sem_flo(0xfffffffeu, 1), 0u);
}

static void
test_xmad(void)
{
   unsigned bad = 0, mulbad = 0;
   static const unsigned modes[] = {0, 1, 2, 4};
   for (unsigned i = 0; i < 4000; i++) {
      uint32_t a = val(i), b = val(i + 3), c = val(i + 5);
      for (unsigned k = 0; k < 64; k++) {
         int ah = k & 1, bh = (k >> 1) & 1, psl = (k >> 2) & 1, mrg = (k >> 3) & 1;
         unsigned mode = modes[k >> 4];
         uint64_t p = (uint64_t)(ah ? a >> 16 : a & 0xffff) * (bh ? b >> 16 : b & 0xffff);
         p *= psl ? 65536 : 1;
         uint64_t cc = mode == 1   ? c % 65536
                       : mode == 2 ? c / 65536
                       : mode == 4 ? (uint64_t)c + (uint64_t)b * 65536
                                   : c;
         uint64_t d = (p + cc) % 4294967296u;
         if (mrg)
            d = d % 65536 + (uint64_t)(b % 65536) * 65536;
         bad += sem_xmad(a, b, c, ah, bh, psl, mrg, mode) != (uint32_t)d;
      }
      /* The 32-bit multiply Maxwell compilers emit:
       *   XMAD t0, a, b, RZ; XMAD.MRG t1, a, b.H1, RZ;
       *   XMAD.PSL.CBCC d, a.H1, t1.H1, t0. */
      uint32_t t0 = sem_xmad(a, b, 0, 0, 0, 0, 0, 0);
      uint32_t t1 = sem_xmad(a, b, 0, 0, 1, 0, 1, 0);
      uint32_t d = sem_xmad(a, t1, t0, 1, 1, 1, 0, 4);
      mulbad += d != (uint32_t)((uint64_t)a * b);
   }
   CHECKF(bad == 0, "%u XMAD results differ from the 64-bit formulation", bad);
   CHECKF(mulbad == 0, "%u three-XMAD multiplies differ from a * b", mulbad);
}

static void
test_compares(void)
{
   static const uint32_t fv[] = {0,           0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
                                 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x00000001u, 0x40490fdbu};
   unsigned bad = 0;
   for (unsigned i = 0; i < ARRAY_SIZE(fv); i++)
      for (unsigned j = 0; j < ARRAY_SIZE(fv); j++) {
         double x = uif(fv[i]), y = uif(fv[j]);
         int un = isnan(x) || isnan(y);
         int want[SEM_COND_COUNT];
         want[SEM_LT] = !un && x < y;
         want[SEM_LE] = !un && x <= y;
         want[SEM_GT] = !un && x > y;
         want[SEM_GE] = !un && x >= y;
         want[SEM_EQ] = !un && x == y;
         want[SEM_NE] = un || x != y;
         want[SEM_F] = 0;
         want[SEM_T] = 1;
         want[SEM_NUM] = !un;
         want[SEM_NAN] = un;
         want[SEM_LTU] = un || x < y;
         want[SEM_LEU] = un || x <= y;
         want[SEM_GTU] = un || x > y;
         want[SEM_GEU] = un || x >= y;
         want[SEM_EQU] = un || x == y;
         want[SEM_ONE] = !un && x != y;
         want[SEM_LTN] = isnan(y) || (!isnan(x) && x < y); /* agx: NaN loses */
         want[SEM_GTN] = isnan(y) || (!isnan(x) && x > y);
         for (int c = 0; c < SEM_COND_COUNT; c++)
            bad += sem_fcmp((enum sem_cond)c, fv[i], fv[j]) != (uint32_t)want[c];
         /* Swapping the sources with the flipped condition (sm50 fcmp
          * flips: lt<->gt, le<->ge and the unordered pairs). */
         static const enum sem_cond flip[SEM_COND_COUNT] = {
             SEM_GT,  SEM_GE,  SEM_LT,  SEM_LE,  SEM_EQ,  SEM_NE,  SEM_F,   SEM_T,
             SEM_NUM, SEM_NAN, SEM_GTU, SEM_GEU, SEM_LTU, SEM_LEU, SEM_EQU, SEM_ONE};
         /* ltn/gtn have no partner: the NaN rule depends on the order */
         for (int c = 0; c <= SEM_ONE; c++)
            bad += sem_fcmp((enum sem_cond)c, fv[i], fv[j]) != sem_fcmp(flip[c], fv[j], fv[i]);
      }
   CHECKF(bad == 0, "%u float compare mismatches", bad);
   bad = 0;
   for (unsigned i = 0; i < 200; i++) {
      uint32_t a = val(i), b = val(i * 7 + 1);
      int64_t sa = (int32_t)a, sb = (int32_t)b;
      bad += sem_scmp(SEM_LTU, a, b) != (sa < sb) || sem_ucmp(SEM_GEU, a, b) != (a >= b);
      bad += sem_scmp(SEM_T, a, b) != 1 || sem_ucmp(SEM_F, a, b) != 0;
      bad += sem_ucmp(SEM_ONE, a, b) != (a != b) || sem_scmp(SEM_NUM, a, b) != 1;
      bad += sem_imnmx(a, b, 1, 1) != (uint32_t)(sa < sb ? sa : sb);
      bad += sem_imnmx(a, b, 0, 0) != (a > b ? a : b);
      bad += sem_iscadd(a, b, i) != (uint32_t)((uint64_t)a * (1ull << (i & 31)) + b);
      bad += sem_iadd3(a, b, ~a) != b - 1;
      double x = uif(a), y = uif(b);
      if (!isnan(x) && !isnan(y) && x != y)
         bad += sem_fmnmx(a, b, 1) != (x < y ? a : b) || sem_fmnmx(a, b, 0) != (x > y ? a : b);
   }
   CHECKF(bad == 0, "%u integer compare / min-max / add mismatches", bad);
   /* Predicate combines: truth tables. */
   bad = 0;
   for (unsigned v = 0; v < 8; v++) {
      uint32_t c = v & 1, acc = (v >> 1) & 1, p, q;
      for (int op = 0; op < 3; op++) {
         uint32_t want = op == 0 ? (c && acc) : op == 1 ? (c || acc) : (c != acc);
         uint32_t wantq = op == 0 ? (!c && acc) : op == 1 ? (!c || acc) : ((c ^ 1) != acc);
         sem_setp(c, acc | (v & 4 ? 0xfffffffeu : 0), (enum sem_bop)op, &p, &q);
         bad += p != want || q != wantq;
         bad += sem_fset(c, acc, (enum sem_bop)op, 1) != (want ? 0x3f800000u : 0);
         bad += sem_fset(c, acc, (enum sem_bop)op, 0) != (want ? 0xffffffffu : 0);
      }
   }
   /* A NOT source modifier (~v) negates a predicate held in bit 0. */
   bad += sem_bop(SEM_BOP_AND, ~1u, 1) != 0 || sem_bop(SEM_BOP_AND, ~0u, 1) != 1;
   CHECKF(bad == 0, "%u predicate combine mismatches", bad);
}

/* sem_eval must pass sem_args to the right parameters. */
static void
test_eval(void)
{
   struct sem_args a = {0};
   uint32_t src[3], dst[2];
   a.type = ISA_TYPE_S32;
   a.cond = SEM_GE;
   a.bop = SEM_BOP_XOR;
   src[0] = 5;
   src[1] = 0xfffffffbu; /* -5 */
   src[2] = 1;
   CHECK(sem_eval(ISA_SEM_ISETP, &a, src, dst) && dst[0] == 0 && dst[1] == 1);
   a.type = ISA_TYPE_U32;
   CHECK(sem_eval(ISA_SEM_ISETP, &a, src, dst) && dst[0] == 1 && dst[1] == 0);
   a.cond = SEM_LTU;
   a.bop = SEM_BOP_AND;
   src[0] = 0x7fc00000u;
   src[1] = 0;
   CHECK(sem_eval(ISA_SEM_FSETP, &a, src, dst) && dst[0] == 1 && dst[1] == 0);
   a.flags = SEM_FL_BF;
   CHECK(sem_eval(ISA_SEM_FSET, &a, src, dst) && dst[0] == 0x3f800000u);
   a.bop2 = SEM_BOP_OR;
   src[0] = 0;
   src[1] = 1;
   src[2] = 1;
   CHECK(sem_eval(ISA_SEM_PSETP, &a, src, dst) && dst[0] == 1 && dst[1] == 0);
   a.flags = SEM_FL_HI;
   a.mode = 3;
   src[0] = 0;
   src[1] = 4;
   src[2] = 0x80000000u;
   CHECK(sem_eval(ISA_SEM_SHF_R, &a, src, dst) && dst[0] == 0xf8000000u);
   a.flags = SEM_FL_PSL | SEM_FL_MRG;
   a.mode = 4;
   a.hi_srcs = 3;
   src[0] = 0x00030000u;
   src[1] = 0x00050007u;
   src[2] = 0;
   CHECK(sem_eval(ISA_SEM_XMAD, &a, src, dst) &&
         dst[0] == sem_xmad(src[0], src[1], 0, 1, 1, 1, 1, 4));
   a.type = ISA_TYPE_S32;
   a.flags = SEM_FL_BREV;
   src[1] = 0x2000;
   src[0] = 1;
   CHECK(sem_eval(ISA_SEM_BFE, &a, src, dst) && dst[0] == 0x80000000u);
   CHECK(!sem_eval(ISA_SEM_SSY, &a, src, dst) && !sem_eval(ISA_SEM_LDC, &a, src, dst));
}

/* The sm50 compare enums name sem conditions, and their flips agree. */
static void
test_model_conds(void)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   CHECK(isa_open("sm50", &m, &d) == ISA_ERR_OK);
   diag_clear(&d);
   if (!m)
      return;
   int fc = isa_mod_find(m, "fcmp"), ic = isa_mod_find(m, "icmp");
   CHECK(fc >= 0 && ic >= 0 && isa_mod_by_role(m, ISA_ROLE_COND) == fc);
   static const char *const fnames[] = {"f",   "lt",  "eq",  "le",  "gt",  "one", "ge",  "num",
                                        "nan", "ltu", "equ", "leu", "gtu", "ne",  "geu", "t"};
   for (unsigned i = 0; i < ARRAY_SIZE(fnames); i++) {
      int v = isa_mod_value(m, (unsigned)fc, fnames[i]);
      CHECKF(v == (int)i, "fcmp %s = %d, hardware value %u [NAK set_float_cmp_op]", fnames[i], v,
             i);
      CHECKF(sem_cond_find(fnames[i]) >= 0, "fcmp %s has no semantics condition", fnames[i]);
   }
   /* Ordered NE is 5, unordered NEU 13 (true on NaN). */
   CHECK(sem_cond_find("one") == SEM_ONE && sem_cond_find("ne") == SEM_NE);
   CHECK(isa_mod_flip(m, (unsigned)fc, isa_mod_value(m, (unsigned)fc, "lt")) ==
         isa_mod_value(m, (unsigned)fc, "gt"));
   CHECK(isa_mod_flip(m, (unsigned)fc, isa_mod_value(m, (unsigned)fc, "leu")) ==
         isa_mod_value(m, (unsigned)fc, "geu"));
   CHECK(isa_mod_flip(m, (unsigned)fc, isa_mod_value(m, (unsigned)fc, "one")) ==
         isa_mod_value(m, (unsigned)fc, "one"));
   CHECK(isa_mod_flip(m, (unsigned)ic, isa_mod_value(m, (unsigned)ic, "ge")) ==
         isa_mod_value(m, (unsigned)ic, "le"));
   static const char *const inames[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
   for (unsigned i = 0; i < ARRAY_SIZE(inames); i++)
      CHECKF(isa_mod_value(m, (unsigned)ic, inames[i]) == (int)i && sem_cond_find(inames[i]) >= 0,
             "icmp %s", inames[i]);
   isa_close(m);
}

int
main(void)
{
   rng_seed(&R, 50);
   test_shifts();
   test_bitfields();
   test_xmad();
   test_compares();
   test_eval();
   test_model_conds();
   return test_done();
}
