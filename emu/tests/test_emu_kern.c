/*
 * Every specialised ALU kernel agrees with sem_eval() -- the per-lane
 * generic kernel -- on random and special operands, for every compare
 * condition, combine, flag and mode the arguments can hold. The
 * kernels only exist to be fast; this is what keeps them honest.
 */
#include "emu/emu_priv.h"
#include "util/test.h"

#define N 61 /* not a multiple of the vector width: tails too */

static uint32_t
operand(struct rng *r)
{
   static const uint32_t special[] = {
       0,           1,           0x80000000u, 0x7fffffffu, 0xffffffffu, 31,
       32,          0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
       0x00000001u, 0x80000001u, 0x0000ffffu, 0x00010000u, 0x00000808u, 0x00002000u};
   uint32_t k = rng_below(r, 4);
   return k == 0   ? special[rng_below(r, ARRAY_SIZE(special))]
          : k == 1 ? rng_below(r, 70)
                   : rng_u32(r);
}

static void
check_sem(enum isa_sem sem, struct rng *r, unsigned *tried)
{
   static const enum isa_type types[] = {ISA_TYPE_F32, ISA_TYPE_U32, ISA_TYPE_S32};
   int ar = isa_sem_arity(sem);
   for (unsigned v = 0; v < 40; v++) {
      struct emu_op op = {.sem = (uint16_t)sem, .kind = EMU_K_ALU, .ndst = 2};
      op.nsrc = (uint8_t)(ar > 0 ? ar : 3);
      op.args.cond = (enum sem_cond)rng_below(r, SEM_COND_COUNT);
      op.args.type = types[rng_below(r, 3)];
      op.args.bop = (enum sem_bop)rng_below(r, 3);
      op.args.bop2 = (enum sem_bop)rng_below(r, 3);
      op.args.flags = rng_below(r, 64);
      op.args.mode = (unsigned[]){0, 1, 2, 3, 4}[rng_below(r, 5)];
      op.args.hi_srcs = rng_below(r, 4);
      emu_kern_fn k = emu_kern_for(&op);
      if (!k || k == emu_kern_generic)
         return;
      uint32_t src[3][N], a[2][N], b[2][N];
      for (unsigned s = 0; s < 3; s++)
         for (unsigned i = 0; i < N; i++)
            src[s][i] = operand(r);
      const uint32_t *sp[5] = {src[0], src[1], src[2], src[0], src[0]};
      uint32_t *da[2] = {a[0], a[1]}, *db[2] = {b[0], b[1]};
      memset(a, 0, sizeof(a));
      memset(b, 0, sizeof(b));
      k(da, sp, N, &op);
      emu_kern_generic(db, sp, N, &op);
      /* Kernels of one-result semantics leave d[1] alone. */
      bool two = sem == ISA_SEM_FSETP || sem == ISA_SEM_ISETP || sem == ISA_SEM_PSETP;
      bool same = !memcmp(a[0], b[0], sizeof(a[0])) && (!two || !memcmp(a[1], b[1], sizeof(a[1])));
      CHECKF(same, "%s: kernel and sem_eval differ (cond %d type %s flags %#x mode %u)",
             isa_sem_name(sem), op.args.cond, isa_type_name(op.args.type), op.args.flags,
             op.args.mode);
      (*tried)++;
   }
}

int
main(void)
{
   struct rng r;
   rng_seed(&r, 11);
   unsigned tried = 0;
   for (unsigned s = 0; s < ISA_SEM_COUNT; s++)
      check_sem((enum isa_sem)s, &r, &tried);
   CHECKF(tried > 40 * 40, "only %u kernel checks", tried);
   return test_done();
}
