/*
 * The double expansions of opt_fp64 (ddiv, drcp, dsqrt, drsq, dldexp,
 * dsign, dfract) against the host's double arithmetic, bit
 * for bit (any NaN matches any NaN), in the IR evaluator: random bit
 * patterns, random exponents across the whole range (subnormals
 * included), quotients and roots that round at a halfway point or land in
 * the subnormal range, and the special values. The pass fixtures run each
 * expansion on 16 inputs only.
 */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <math.h>
#include <stdlib.h>

enum kind { K_DIV, K_RCP, K_SQRT, K_RSQ, K_LDEXP, K_SIGN, K_FRACT, K_COUNT };

static const char *const names[K_COUNT] = {"ddiv",   "drcp",  "dsqrt", "drsq",
                                           "dldexp", "dsign", "dfract"};

static double
D(uint64_t u)
{
   double d;
   memcpy(&d, &u, sizeof(d));
   return d;
}

static uint64_t
U(double d)
{
   uint64_t u;
   memcpy(&u, &d, sizeof(u));
   return u;
}

static bool
is_dnan(uint64_t u)
{
   return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static uint64_t
host(enum kind k, uint64_t a, uint64_t b, uint32_t n)
{
   double x = D(a), y = D(b);
   switch (k) {
   case K_DIV:
      return U(x / y);
   case K_RCP:
      return U(1.0 / x);
   case K_SQRT:
      return U(sqrt(x));
   case K_RSQ:
      return U(1.0 / sqrt(x));
   case K_LDEXP:
      return U(ldexp(x, (int32_t)n));
   case K_SIGN:
      return U(x < 0 ? -1.0 : x > 0 ? 1.0 : 0.0);
   default:
      return U(x - floor(x));
   }
}

/* out = op(in0.xy, in0.zw or in1.x) through the fp64 pass. */
static struct ir_shader *
build(enum kind k)
{
   bool two = k == K_DIV, ld = k == K_LDEXP;
   char *text = xasprintf("shader VERT\nmodel sm50\n"
                          "  %%0 = load_input slot=0 comp=x\n"
                          "  %%1 = load_input slot=0 comp=y\n"
                          "  %%2 = load_input slot=0 comp=z\n"
                          "  %%3 = load_input slot=0 comp=w\n"
                          "  %%4 = pack64 %%0, %%1\n"
                          "  %%5 = pack64 %%2, %%3\n"
                          "  %%6 = %s %%4%s\n"
                          "  %%7 = unpack64_lo %%6\n"
                          "  %%8 = unpack64_hi %%6\n"
                          "  store_output slot=0 comp=x %%7\n"
                          "  store_output slot=0 comp=y %%8\n",
                          names[k],
                          two  ? ", %5"
                          : ld ? ", %2"
                               : "");
   struct diag_list d = {0};
   struct ir_shader *sh = ir_parse(text, strlen(text), "fp64", 1, &d);
   CHECKF(sh, "%s: %s", names[k], diag_first_error(&d));
   free(text);
   if (sh) {
      struct opt_options o = {.passes = "fp64,constfold,cse,dce", .validate = true};
      struct opt_ctx ctx;
      opt_ctx_init(&ctx, &o, &d);
      CHECKF(opt_run(sh, &ctx), "%s: %s", names[k], diag_first_error(&d));
      opt_ctx_fini(&ctx);
      bool left = false;
      for (unsigned i = 0; i < sh->nvalues; i++) {
         const struct ir_instr *in = sh->values[i];
         left |= in && !in->removed && in->op != IR_OP_DADD && in->op != IR_OP_DMUL &&
                 in->op != IR_OP_DFMA && in->op != IR_OP_DFLOOR && in->op != IR_OP_DLT &&
                 in->op != IR_OP_DNEG && in->op != IR_OP_DABS && in->op != IR_OP_DEQ &&
                 in->op != IR_OP_F2D && in->op != IR_OP_D2F && in->type == IR_TYPE_64 &&
                 in->op != IR_OP_PACK64 && in->op != IR_OP_IMM && in->op != IR_OP_BCSEL;
      }
      CHECKF(!left, "%s: an op without an sm50 instruction is left", names[k]);
   }
   diag_clear(&d);
   return sh;
}

/* A double of a random kind. */
static uint64_t
random_double(struct rng *r)
{
   static const uint64_t special[] = {
       0,
       1ull << 63,
       0x7ff0000000000000ull,
       0xfff0000000000000ull,
       0x7ff8000000000000ull,
       0x7ff0000000000001ull,
       1,
       0x000fffffffffffffull,
       0x0010000000000000ull,
       0x7fefffffffffffffull,
       0x3ff0000000000000ull,
       0xbff0000000000000ull,
       0x3fffffffffffffffull,
       0x3ff0000000000001ull,
       0x4000000000000000ull,
       0x3fe0000000000000ull,
   };
   uint64_t sign = (uint64_t)rng_below(r, 2) << 63;
   uint64_t mant = rng_next(r) & 0x000fffffffffffffull;
   switch (rng_below(r, 6)) {
   case 0:
      return special[rng_below(r, ARRAY_SIZE(special))] ^ (rng_below(r, 4) ? 0 : sign);
   case 1:
      return rng_next(r);
   case 2: /* subnormal or near it */
      return sign | ((uint64_t)rng_below(r, 3) << 52) | (mant >> rng_below(r, 52));
   case 3: /* near 1 */
      return sign | ((uint64_t)(1023 - 8 + rng_below(r, 16)) << 52) | mant;
   case 4: /* few significand bits: exact quotients, ties */
      return sign | ((uint64_t)rng_below(r, 2047) << 52) | (mant & ~((1ull << 44) - 1));
   default:
      return sign | ((uint64_t)rng_below(r, 2047) << 52) | mant;
   }
}

static unsigned failures;

static void
check_one(struct ir_shader *sh, enum kind k, uint64_t a, uint64_t b, uint32_t n)
{
   struct ir_eval_env env;
   memset(&env, 0, sizeof(env));
   env.inputs[0][0] = (uint32_t)a;
   env.inputs[0][1] = (uint32_t)(a >> 32);
   env.inputs[0][2] = k == K_LDEXP ? n : (uint32_t)b;
   env.inputs[0][3] = (uint32_t)(b >> 32);
   struct diag_list d = {0};
   bool ok = ir_eval(sh, &env, &d);
   uint64_t got = (uint64_t)env.outputs[0][1] << 32 | env.outputs[0][0];
   uint64_t want = host(k, a, k == K_LDEXP ? 0 : b, n);
   bool same = got == want || (is_dnan(got) && is_dnan(want));
   if ((!ok || !same) && failures++ < 12)
      CHECKF(false, "%s(0x%016llx, 0x%016llx, %d): got 0x%016llx, want 0x%016llx %s", names[k],
             (unsigned long long)a, (unsigned long long)b, (int32_t)n, (unsigned long long)got,
             (unsigned long long)want, ok ? "" : diag_first_error(&d));
   diag_clear(&d);
}

int
main(void)
{
   struct rng r;
   rng_seed(&r, 64);
   for (int k = 0; k < K_COUNT; k++) {
      struct ir_shader *sh = build((enum kind)k);
      if (!sh)
         continue;
      unsigned before = failures, runs = k <= K_LDEXP ? 20000 : 2000;
      for (unsigned i = 0; i < runs; i++) {
         uint64_t a = random_double(&r), b = random_double(&r);
         uint32_t n = rng_below(&r, 4) ? rng_below(&r, 2200) - 1100 : rng_u32(&r);
         if (k == K_DIV && rng_below(&r, 4) == 0) {
            /* a = q * b exactly or one ulp of q off: exact and halfway
             * quotients, and subnormal ones */
            uint64_t q = random_double(&r) & ~((1ull << 26) - 1);
            b = (b & ~((1ull << 26) - 1)) | 0x0010000000000000ull;
            a = U(D(q) * D(b));
         }
         check_one(sh, (enum kind)k, a, b, n);
      }
      CHECKF(failures == before, "%s: %u of %u inputs wrong", names[k], failures - before, runs);
      ir_shader_free(sh);
   }
   return test_done();
}
