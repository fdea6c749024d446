/*
 * Canonical TGSI text from a parsed shader, and structural equality.
 *
 * The layout follows tgsi_dump: header, PROPERTY, DCL, IMM[n], then the
 * instructions numbered "%3u: " and indented two spaces per nesting level.
 * Everything the parser keeps is printed, so parse(print(x)) equals x.
 *
 * FLT32 immediates must come back bit-exact in every parser dialect, so
 * they never use "0x" (which means bits with hex_bits but a value without):
 *   - finite values as "%.9g": nine significant digits identify every
 *     binary32 value, subnormals and -0 included, through strtof;
 *   - infinities as "inf" / "-inf";
 *   - the default quiet NaNs 0x7fc00000 / 0xffc00000 as "nan" / "-nan";
 *   - any other NaN as "nan(0xHHHHHHHH)", the whole bit pattern (sign
 *     included), a form of our own that the parser reads back.
 */
#include "compiler/tgsi/tgsi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_INDENT 64

static const char *const fs_origin_names[] = {"UPPER_LEFT", "LOWER_LEFT"};
static const char *const fs_center_names[] = {"HALF_INTEGER", "INTEGER"};

const char *const *
tgsi_prop_value_names(enum tgsi_prop_kind kind, unsigned *count)
{
   switch (kind) {
   case TGSI_PROPK_PRIM:
      *count = TGSI_PRIM_COUNT;
      return tgsi_primitive_names;
   case TGSI_PROPK_ORIGIN:
      *count = ARRAY_SIZE(fs_origin_names);
      return fs_origin_names;
   case TGSI_PROPK_CENTER:
      *count = ARRAY_SIZE(fs_center_names);
      return fs_center_names;
   case TGSI_PROPK_STAGE:
      *count = TGSI_STAGE_COUNT;
      return tgsi_stage_names;
   default:
      *count = 0;
      return NULL;
   }
}

/* ------------------------------------------------------------------ */
/* Text out (util's strbuf)                                             */

/* A decimal without printf: register indices are the bulk of the output. */
static void
sb_putd(struct strbuf *b, int64_t v)
{
   char tmp[24], *q = tmp + sizeof(tmp);
   uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
   *--q = 0;
   do
      *--q = (char)('0' + u % 10);
   while (u /= 10);
   if (v < 0)
      *--q = '-';
   strbuf_add(b, q);
}

static char *
sb_finish(struct strbuf *b)
{
   if (!b->s)
      return xstrdup("");
   return b->s;
}

static const char *
name_or(const char *const *table, unsigned count, unsigned i, const char *fallback)
{
   return i < count ? table[i] : fallback;
}

#define FILE_NAME(f) name_or(tgsi_file_names, TGSI_FILE_COUNT, (unsigned)(f), "?")
#define TEX_NAME(t)  name_or(tgsi_texture_names, TGSI_TEX_COUNT, (unsigned)(t), "?")

/* ------------------------------------------------------------------ */
/* Operands and instructions                                            */

static void
print_bracket(struct strbuf *b, bool indirect, const struct tgsi_ind *ind, int32_t index)
{
   if (!indirect) {
      strbuf_add(b, "[");
      sb_putd(b, index);
      strbuf_add(b, "]");
      return;
   }
   strbuf_printf(b, "[%s[%u].%c", FILE_NAME(ind->file), ind->index, "xyzw"[ind->comp & 3]);
   if (index)
      strbuf_printf(b, "%+d", index);
   strbuf_add(b, "]");
}

static void
print_reg(struct strbuf *b, const struct tgsi_reg *r)
{
   strbuf_add(b, FILE_NAME(r->file));
   if (r->has_dim)
      print_bracket(b, r->dim_indirect, &r->dim_ind, r->dim);
   print_bracket(b, r->indirect, &r->ind, r->index);
   if (r->array_id)
      strbuf_printf(b, "(%u)", r->array_id);
}

static void
print_swizzle(struct strbuf *b, const uint8_t *swz, unsigned n)
{
   bool identity = true;
   for (unsigned i = 0; i < n; i++)
      identity &= swz[i] == i;
   if (identity)
      return;
   char text[6] = ".";
   for (unsigned i = 0; i < n; i++)
      text[1 + i] = "xyzw"[swz[i] & 3];
   strbuf_add(b, text);
}

static void
print_mask(struct strbuf *b, uint8_t mask)
{
   if (mask == TGSI_MASK_XYZW)
      return;
   /* An empty mask prints as a bare '.', which the parser rejects. */
   char text[6] = ".";
   for (unsigned i = 0, k = 1; i < 4; i++)
      if (mask & (1u << i))
         text[k++] = "xyzw"[i];
   strbuf_add(b, text);
}

static void
print_insn_body(struct strbuf *b, const struct tgsi_insn *in)
{
   if ((unsigned)in->op >= TGSI_OP_COUNT) {
      strbuf_printf(b, "<invalid opcode %d>", (int)in->op);
      return;
   }
   const struct tgsi_op_info *info = &tgsi_op_info[in->op];
   strbuf_add(b, info->name);
   strbuf_add(b, in->sat ? "_SAT" : "");
   strbuf_add(b, in->precise ? "_PRECISE" : "");
   unsigned k = 0;
   for (unsigned i = 0; i < in->ndst && i < 1; i++, k++) {
      strbuf_add(b, k ? ", " : " ");
      print_reg(b, &in->dst[i].reg);
      print_mask(b, in->dst[i].mask);
   }
   for (unsigned i = 0; i < in->nsrc && i < TGSI_MAX_SRC; i++, k++) {
      const struct tgsi_src *s = &in->src[i];
      strbuf_add(b, k ? ", " : " ");
      strbuf_add(b, s->neg ? "-" : "");
      strbuf_add(b, s->abs ? "|" : "");
      print_reg(b, &s->reg);
      print_swizzle(b, s->swz, 4);
      if (s->abs)
         strbuf_add(b, "|");
   }
   if (info->flags & TGSI_OPF_TEX) {
      strbuf_add(b, ", ");
      strbuf_add(b, TEX_NAME(in->tex_target));
   }
   for (unsigned i = 0; i < in->noffsets && i < TGSI_MAX_OFFSETS; i++) {
      strbuf_add(b, ", ");
      print_reg(b, &in->offsets[i].reg);
      print_swizzle(b, in->offsets[i].swz, 3);
   }
   for (unsigned i = 0; i < TGSI_MEMQ_COUNT; i++)
      if (in->mem_qual & (1u << i))
         strbuf_printf(b, ", %s", tgsi_mem_qualifier_names[i]);
   if (in->has_mem_target)
      strbuf_printf(b, ", %s", TEX_NAME(in->mem_target));
   if (in->mem_format[0])
      strbuf_printf(b, ", %.*s", TGSI_FORMAT_LEN, in->mem_format);
   if (in->has_label)
      strbuf_printf(b, " :%u", in->label);
}

char *
tgsi_print_insn(const struct tgsi_shader *s, const struct tgsi_insn *in)
{
   (void)s;
   struct strbuf b = {0};
   print_insn_body(&b, in);
   return sb_finish(&b);
}

/* ------------------------------------------------------------------ */
/* Declarations, immediates, properties                                 */

static void
print_decl_reg(struct strbuf *b, const struct tgsi_shader *s, const struct tgsi_decl *d)
{
   strbuf_printf(b, "DCL %s", FILE_NAME(d->file));
   if (d->has_dim) {
      unsigned n = tgsi_implied_vertices(s);
      if (tgsi_file_has_vertex_dim(s->stage, d->file) && n && d->dim == n)
         strbuf_add(b, "[]");
      else
         strbuf_printf(b, "[%u]", d->dim);
   }
   if (d->first == d->last)
      strbuf_printf(b, "[%u]", d->first);
   else
      strbuf_printf(b, "[%u..%u]", d->first, d->last);
   print_mask(b, d->usage_mask);
}

static void
print_decl(struct strbuf *b, const struct tgsi_shader *s, const struct tgsi_decl *d)
{
   print_decl_reg(b, s, d);
   if (d->array_id)
      strbuf_printf(b, ", ARRAY(%u)", d->array_id);
   switch (d->file) {
   case TGSI_FILE_IMAGE:
      strbuf_printf(b, ", %s", TEX_NAME(d->target));
      if (d->format[0])
         strbuf_printf(b, ", %.*s", TGSI_FORMAT_LEN, d->format);
      strbuf_printf(b, "%s%s", d->raw ? ", RAW" : "", d->writable ? ", WR" : "");
      break;
   case TGSI_FILE_SVIEW: {
      strbuf_printf(b, ", %s", TEX_NAME(d->target));
      bool same = d->ret[1] == d->ret[0] && d->ret[2] == d->ret[0] && d->ret[3] == d->ret[0];
      for (unsigned i = 0; i < (same ? 1u : 4u); i++)
         strbuf_printf(b, ", %s", name_or(tgsi_return_type_names, TGSI_RET_COUNT, d->ret[i], "?"));
      break;
   }
   case TGSI_FILE_BUFFER:
      if (d->atomic)
         strbuf_add(b, ", ATOMIC");
      break;
   case TGSI_FILE_MEMORY:
      if (d->has_mem_type)
         strbuf_printf(b, ", %s",
                       name_or(tgsi_memory_type_names, TGSI_MEMTYPE_COUNT, d->mem_type, "?"));
      break;
   default:
      if (d->local)
         strbuf_add(b, ", LOCAL");
      if (d->has_semantic) {
         strbuf_printf(b, ", %s", name_or(tgsi_semantic_names, TGSI_SEM_COUNT, d->semantic, "?"));
         if (d->semantic_index || d->semantic == TGSI_SEM_GENERIC ||
             d->semantic == TGSI_SEM_TEXCOORD)
            strbuf_printf(b, "[%u]", d->semantic_index);
      }
      break;
   }
   if (d->has_stream)
      strbuf_printf(b, ", STREAM(%u, %u, %u, %u)", d->stream[0], d->stream[1], d->stream[2],
                    d->stream[3]);
   if (d->has_interp)
      strbuf_printf(b, ", %s", name_or(tgsi_interp_names, TGSI_INTERP_COUNT, d->interp, "?"));
   if (d->has_location)
      strbuf_printf(b, ", %s", name_or(tgsi_location_names, TGSI_LOC_COUNT, d->location, "?"));
   if (d->invariant)
      strbuf_add(b, ", INVARIANT");
   strbuf_add(b, "\n");
}

static void
print_flt32(struct strbuf *b, uint32_t bits)
{
   if (bits == 0x7fc00000u)
      strbuf_add(b, "nan");
   else if (bits == 0xffc00000u)
      strbuf_add(b, "-nan");
   else if (is_nan_bits(bits))
      strbuf_printf(b, "nan(0x%08" PRIx32 ")", bits);
   else if ((bits & 0x7fffffffu) == 0x7f800000u)
      strbuf_printf(b, "%sinf", bits >> 31 ? "-" : "");
   else
      strbuf_printf(b, "%.9g", (double)uif(bits));
}

static void
print_imm(struct strbuf *b, unsigned n, const struct tgsi_imm *imm)
{
   strbuf_printf(b, "IMM[%u] %s {", n,
                 name_or(tgsi_imm_type_names, TGSI_IMM_COUNT, imm->type, "?"));
   bool wide = imm->type >= TGSI_IMM_FLT64;
   for (unsigned i = 0; i < (wide ? 2u : 4u); i++) {
      uint64_t w = wide ? (uint64_t)imm->u[2 * i] | (uint64_t)imm->u[2 * i + 1] << 32 : 0;
      strbuf_add(b, i ? ", " : "");
      switch (imm->type) {
      case TGSI_IMM_FLT32:
         print_flt32(b, imm->u[i]);
         break;
      case TGSI_IMM_UINT32:
         strbuf_printf(b, "%" PRIu32, imm->u[i]);
         break;
      case TGSI_IMM_INT32:
         strbuf_printf(b, "%" PRId32, (int32_t)imm->u[i]);
         break;
      case TGSI_IMM_FLT64:
         strbuf_printf(b, "%.17g", uid(w));
         break;
      case TGSI_IMM_UINT64:
         strbuf_printf(b, "%" PRIu64, w);
         break;
      default:
         strbuf_printf(b, "%" PRId64, (int64_t)w);
         break;
      }
   }
   strbuf_add(b, "}\n");
}

static void
print_prop(struct strbuf *b, const struct tgsi_prop *p)
{
   if ((unsigned)p->prop >= TGSI_PROP_COUNT)
      return;
   unsigned count;
   const char *const *names = tgsi_prop_value_names(tgsi_property_kinds[p->prop], &count);
   strbuf_printf(b, "PROPERTY %s ", tgsi_property_names[p->prop]);
   if (names && p->value < count)
      strbuf_printf(b, "%s\n", names[p->value]);
   else
      strbuf_printf(b, "%u\n", p->value);
}

static bool
opens_block(enum tgsi_opcode op)
{
   return op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_ELSE || op == TGSI_OP_BGNLOOP ||
          op == TGSI_OP_BGNSUB || op == TGSI_OP_SWITCH;
}

static bool
closes_block(enum tgsi_opcode op)
{
   return op == TGSI_OP_ELSE || op == TGSI_OP_ENDIF || op == TGSI_OP_ENDLOOP ||
          op == TGSI_OP_ENDSUB || op == TGSI_OP_ENDSWITCH;
}

char *
tgsi_print(const struct tgsi_shader *s)
{
   struct strbuf b = {0};
   strbuf_printf(&b, "%s\n", name_or(tgsi_stage_names, TGSI_STAGE_COUNT, s->stage, "?"));
   for (unsigned i = 0; i < s->nprops; i++)
      print_prop(&b, &s->props[i]);
   for (unsigned i = 0; i < s->ndecls; i++)
      print_decl(&b, s, &s->decls[i]);
   for (unsigned i = 0; i < s->nimms; i++)
      print_imm(&b, i, &s->imms[i]);
   int level = 0;
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (closes_block(in->op) && level > 0)
         level--;
      int indent = 2 * MIN2(level, MAX_INDENT);
      strbuf_printf(&b, "%3u: %*s", i, indent, "");
      print_insn_body(&b, in);
      strbuf_add(&b, "\n");
      if (opens_block(in->op))
         level++;
   }
   return sb_finish(&b);
}

/* ------------------------------------------------------------------ */
/* Structural equality (positions and the name ignored)                 */

static bool
ind_equal(const struct tgsi_ind *a, const struct tgsi_ind *b)
{
   return a->file == b->file && a->index == b->index && a->comp == b->comp;
}

static bool
reg_equal(const struct tgsi_reg *a, const struct tgsi_reg *b)
{
   if (a->file != b->file || a->index != b->index || a->indirect != b->indirect ||
       a->has_dim != b->has_dim || a->array_id != b->array_id)
      return false;
   if (a->indirect && !ind_equal(&a->ind, &b->ind))
      return false;
   if (a->has_dim && (a->dim != b->dim || a->dim_indirect != b->dim_indirect ||
                      (a->dim_indirect && !ind_equal(&a->dim_ind, &b->dim_ind))))
      return false;
   return true;
}

bool
tgsi_insn_equal(const struct tgsi_insn *a, const struct tgsi_insn *b)
{
   if (a->op != b->op || a->sat != b->sat || a->precise != b->precise || a->ndst != b->ndst ||
       a->nsrc != b->nsrc || a->noffsets != b->noffsets || a->mem_qual != b->mem_qual ||
       a->has_mem_target != b->has_mem_target || a->has_label != b->has_label ||
       a->target != b->target)
      return false;
   if (a->ndst > 1 || a->nsrc > TGSI_MAX_SRC || a->noffsets > TGSI_MAX_OFFSETS)
      return false;
   for (unsigned i = 0; i < a->ndst; i++)
      if (!reg_equal(&a->dst[i].reg, &b->dst[i].reg) || a->dst[i].mask != b->dst[i].mask)
         return false;
   for (unsigned i = 0; i < a->nsrc; i++) {
      const struct tgsi_src *x = &a->src[i], *y = &b->src[i];
      if (!reg_equal(&x->reg, &y->reg) || memcmp(x->swz, y->swz, 4) || x->neg != y->neg ||
          x->abs != y->abs)
         return false;
   }
   for (unsigned i = 0; i < a->noffsets; i++)
      if (!reg_equal(&a->offsets[i].reg, &b->offsets[i].reg) ||
          memcmp(a->offsets[i].swz, b->offsets[i].swz, 3))
         return false;
   if ((unsigned)a->op < TGSI_OP_COUNT && (tgsi_op_info[a->op].flags & TGSI_OPF_TEX) &&
       a->tex_target != b->tex_target)
      return false;
   if (a->has_mem_target && a->mem_target != b->mem_target)
      return false;
   if (strncmp(a->mem_format, b->mem_format, TGSI_FORMAT_LEN))
      return false;
   return !a->has_label || a->label == b->label;
}

static bool
decl_file_attrs_equal(const struct tgsi_decl *a, const struct tgsi_decl *b)
{
   switch (a->file) {
   case TGSI_FILE_IMAGE:
      return a->target == b->target && a->raw == b->raw && a->writable == b->writable &&
             !strncmp(a->format, b->format, TGSI_FORMAT_LEN);
   case TGSI_FILE_SVIEW:
      return a->target == b->target && !memcmp(a->ret, b->ret, sizeof(a->ret));
   case TGSI_FILE_BUFFER:
      return a->atomic == b->atomic;
   case TGSI_FILE_MEMORY:
      return a->has_mem_type == b->has_mem_type && (!a->has_mem_type || a->mem_type == b->mem_type);
   default:
      return a->local == b->local && a->has_semantic == b->has_semantic &&
             (!a->has_semantic ||
              (a->semantic == b->semantic && a->semantic_index == b->semantic_index));
   }
}

bool
tgsi_decl_equal(const struct tgsi_decl *a, const struct tgsi_decl *b)
{
   if (a->file != b->file || a->first != b->first || a->last != b->last ||
       a->has_dim != b->has_dim || (a->has_dim && a->dim != b->dim) ||
       a->usage_mask != b->usage_mask || a->array_id != b->array_id)
      return false;
   if (a->has_stream != b->has_stream || (a->has_stream && memcmp(a->stream, b->stream, 4)))
      return false;
   if (a->has_interp != b->has_interp || (a->has_interp && a->interp != b->interp))
      return false;
   if (a->has_location != b->has_location || (a->has_location && a->location != b->location))
      return false;
   return a->invariant == b->invariant && decl_file_attrs_equal(a, b);
}

bool
tgsi_shader_equal(const struct tgsi_shader *a, const struct tgsi_shader *b)
{
   if (a->stage != b->stage || a->nprops != b->nprops || a->ndecls != b->ndecls ||
       a->nimms != b->nimms || a->ninsns != b->ninsns)
      return false;
   for (unsigned i = 0; i < a->nprops; i++)
      if (a->props[i].prop != b->props[i].prop || a->props[i].value != b->props[i].value)
         return false;
   for (unsigned i = 0; i < a->ndecls; i++)
      if (!tgsi_decl_equal(&a->decls[i], &b->decls[i]))
         return false;
   for (unsigned i = 0; i < a->nimms; i++)
      if (a->imms[i].type != b->imms[i].type || memcmp(a->imms[i].u, b->imms[i].u, 16))
         return false;
   for (unsigned i = 0; i < a->ninsns; i++)
      if (!tgsi_insn_equal(&a->insns[i], &b->insns[i]))
         return false;
   return true;
}
