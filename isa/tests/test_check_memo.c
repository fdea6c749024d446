/*
 * isa_check_insn_memo against isa_check_insn: random records of every op
 * of the built-in models (operand kinds, registers, constants and
 * immediates drawn from small sets, so that records repeat and the memo
 * answers from memory) get the same verdict from both, asked again and
 * again; a memo asked about a second model checks it directly. Both
 * verdicts occur, so a memo that answered one way always would fail.
 */
#include "isa/isa.h"
#include "util/test.h"
#include "util/util.h"

static const uint32_t values[] = {0, 1, 2, 64, 1000, 0x3f800000u, 0xbf800000u, 0x12345678u};

static void
random_record(const struct isa_model *m, struct rng *r, struct isa_insn *t)
{
   isa_insn_init(m, rng_below(r, isa_op_count(m)), t);
   for (unsigned k = 0; k < t->nsrc; k++) {
      struct isa_opnd *o = &t->src[k];
      switch (rng_below(r, 4)) {
      case 0:
         break; /* as isa_insn_init left it */
      case 1:
         o->kind = ISA_OPND_IMM;
         o->value = values[rng_below(r, ARRAY_SIZE(values))];
         break;
      case 2:
         o->index = (uint16_t)rng_below(r, 8);
         break;
      default:
         o->index = (uint16_t)(rng_below(r, 2) ? 300 : 3);
         o->kind = (uint8_t)(rng_below(r, 2) ? ISA_OPND_CONST : ISA_OPND_REG);
         break;
      }
   }
}

int
main(void)
{
   static const char *const names[] = {"a3xx", "sm50", "gfx9", "agx"};
   struct isa_model *models[ARRAY_SIZE(names)] = {0};
   for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
      struct diag_list d = {0};
      CHECKF(isa_open(names[i], &models[i], &d) == ISA_ERR_OK, "%s", names[i]);
      diag_clear(&d);
   }
   for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
      const struct isa_model *m = models[i], *other = models[(i + 1) % ARRAY_SIZE(names)];
      if (!m || !other)
         continue;
      struct isa_check_memo *c = isa_check_memo_new();
      struct rng r;
      rng_seed(&r, 19 + i);
      unsigned ok = 0, bad = 0, mismatches = 0;
      for (unsigned n = test_reps(40000); n--;) {
         struct isa_insn t;
         const struct isa_model *mm = rng_below(&r, 8) ? m : other;
         random_record(mm, &r, &t);
         enum isa_err want = isa_check_insn(mm, &t, NULL);
         for (unsigned again = 0; again < 2; again++)
            if (isa_check_insn_memo(c, mm, &t) != want && mismatches++ < 5)
               fprintf(stderr, "%s op %u: memo %d, check %d\n", names[i], t.op,
                       (int)isa_check_insn_memo(c, mm, &t), (int)want);
         if (want == ISA_ERR_OK)
            ok++;
         else
            bad++;
      }
      CHECKF(mismatches == 0, "%s: %u verdicts differ", names[i], mismatches);
      CHECKF(ok && bad, "%s: %u legal and %u refused records: both must occur", names[i], ok, bad);
      isa_check_memo_free(c);
   }
   for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
      if (models[i])
         isa_close(models[i]);
   return test_done();
}
