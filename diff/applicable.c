/*
 * Whether a shader applies to a target at all: the hardware capabilities
 * (isa.h ISA_FEATURES) a shader needs, found from its stage, opcodes and
 * texture targets, against the model's `features:` list. A shader that
 * needs what the hardware lacks is not applicable to it -- no driver would
 * hand it to that GPU -- which the check reports as n/a rather than as a
 * compiler refusal. Integer 64-bit operations, and their conversions to
 * and from doubles, need nothing: compilers lower them to 32-bit ones.
 */
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"

static bool
is_msaa(enum tgsi_texture t)
{
   return t == TGSI_TEX_T_2D_MSAA || t == TGSI_TEX_T_2D_ARRAY_MSAA;
}

/* The feature one instruction needs, or ISA_FEATURE_COUNT for none. */
static enum isa_feature
insn_feature(const struct tgsi_insn *in)
{
   switch (in->op) {
   case TGSI_OP_FMA:
      return ISA_FEATURE_FMA;
   case TGSI_OP_F2D:
   case TGSI_OP_I2D:
   case TGSI_OP_U2D:
      return ISA_FEATURE_FP64;
   case TGSI_OP_I642D: /* integer <-> double conversions are bit work: */
   case TGSI_OP_U642D: /* both compilers do them in 32-bit integer code */
   case TGSI_OP_D2I64: /* (ref_int64.c, opt_lower_int64.c) */
   case TGSI_OP_D2U64:
      return ISA_FEATURE_COUNT;
   case TGSI_OP_VOTE_ANY:
   case TGSI_OP_VOTE_ALL:
   case TGSI_OP_VOTE_EQ:
   case TGSI_OP_BALLOT:
   case TGSI_OP_READ_FIRST:
   case TGSI_OP_READ_INVOC:
      return ISA_FEATURE_SUBGROUP;
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      return ISA_FEATURE_FINE_DERIV;
   case TGSI_OP_TG4:
   case TGSI_OP_GATHER4:
      return ISA_FEATURE_GATHER;
   case TGSI_OP_TXQS:
   case TGSI_OP_SAMPLE_I_MS:
      return ISA_FEATURE_MULTISAMPLE;
   case TGSI_OP_FBFETCH:
      return ISA_FEATURE_FBFETCH;
   default:
      break;
   }
   if (tgsi_op_info[in->op].type == TGSI_TYPE_D)
      return ISA_FEATURE_FP64;
   if ((tgsi_op_info[in->op].flags & TGSI_OPF_TEX) && is_msaa(in->tex_target))
      return ISA_FEATURE_MULTISAMPLE;
   return ISA_FEATURE_COUNT;
}

static char *
lacks(const struct isa_model *m, enum isa_feature f, const char *what, const struct tgsi_loc *loc)
{
   if (loc)
      return xasprintf("%s at line %d needs %s (%s), which %s lacks", what, loc->line,
                       isa_feature_name(f), isa_feature_desc(f), isa_model_name(m));
   return xasprintf("%s needs %s (%s), which %s lacks", what, isa_feature_name(f),
                    isa_feature_desc(f), isa_model_name(m));
}

char *
diff_target_lacks(const struct tgsi_shader *s, const struct isa_model *m)
{
   enum isa_feature stage = s->stage == TGSI_STAGE_GEOM ? ISA_FEATURE_GEOMETRY
                            : s->stage == TGSI_STAGE_TESS_CTRL || s->stage == TGSI_STAGE_TESS_EVAL
                                ? ISA_FEATURE_TESSELLATION
                                : ISA_FEATURE_COUNT;
   if (stage != ISA_FEATURE_COUNT && !isa_has_feature(m, stage))
      return lacks(m, stage, "the stage", NULL);
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if ((d->file == TGSI_FILE_SVIEW || d->file == TGSI_FILE_IMAGE) && is_msaa(d->target) &&
          !isa_has_feature(m, ISA_FEATURE_MULTISAMPLE))
         return lacks(m, ISA_FEATURE_MULTISAMPLE, "a multisample declaration", &d->loc);
   }
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      enum isa_feature f = insn_feature(in);
      if (f != ISA_FEATURE_COUNT && !isa_has_feature(m, f))
         return lacks(m, f, tgsi_op_info[in->op].name, &in->loc);
   }
   return NULL;
}

bool
diff_uses_subgroups(const struct tgsi_shader *s)
{
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_SV && s->decls[i].semantic >= TGSI_SEM_SUBGROUP_SIZE &&
          s->decls[i].semantic <= TGSI_SEM_SUBGROUP_LT_MASK)
         return true;
   for (unsigned i = 0; i < s->ninsns; i++)
      if (insn_feature(&s->insns[i]) == ISA_FEATURE_SUBGROUP)
         return true;
   return false;
}

uint32_t
diff_subgroup_size(const struct isa_model *m)
{
   return isa_has_feature(m, ISA_FEATURE_SUBGROUP) ? emu_wave_size(m) : ENV_SUBGROUP_SIZE;
}
