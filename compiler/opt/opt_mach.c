/*
 * The machine-level IR (the backend section of ir.h): building mach
 * instructions, their text (printed and parsed by ir_print/ir_parse through
 * these functions), their checks (called by ir_validate) and their meaning
 * (called by ir_eval, through the ISA semantics of isa/sem.h -- the same
 * functions the emulator runs), so that every backend pass fixture can be
 * evaluated against its input.
 *
 * Text: "KEY operand, operand, ... modifier modifier". An operand is
 * "%N" or a group "{%N, %M}", prefixed by flags "(neg)" "(abs)" "(not)"
 * "(r)", or a plain integer for a fixed operand. Modifiers that differ from
 * the op's defaults print as "name" (1) or "name=value", enum values by
 * name.
 */
#include "compiler/ir/ir.h"
#include "isa/sem.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

struct ir_mach *
ir_mach_get(const struct isa_model *m, struct ir_instr *in)
{
   if (!in->mach) {
      in->mach = xcalloc(1, sizeof(*in->mach));
      in->mach->reg.file = -1;
      in->mach->model = m;
      memset(in->mach->first, IR_MACH_FIXED, sizeof(in->mach->first));
      in->mach->guard = IR_MACH_FIXED;
      in->mach->tied = IR_MACH_FIXED;
   }
   return in->mach;
}

void
ir_mach_free(struct ir_instr *in)
{
   free(in->mach);
   in->mach = NULL;
}

/* A mach instruction for model op `op`, not yet in a block. Its result
 * type is 32-bit when the op has a destination (callers widen texture
 * results to V4). */
struct ir_instr *
ir_mach_create(struct ir_shader *sh, unsigned op)
{
   struct ir_instr *in = ir_instr_create(sh, IR_OP_MACH, 0);
   struct ir_mach *m = ir_mach_get(sh->model, in);
   isa_insn_init(sh->model, op, &m->insn);
   in->type = m->insn.ndst ? IR_TYPE_32 : IR_TYPE_NONE;
   return in;
}

unsigned
opt_opnd_count(const struct isa_model *m, const struct isa_insn *x, const struct ir_instr *in,
               int slot)
{
   unsigned n = isa_opnd_count(m, x, slot);
   if (in && in->op == IR_OP_MACH && slot >= ISA_MAX_DST && slot - ISA_MAX_DST < ISA_MAX_SRC)
      n = MAX2(n, in->mach->count[slot - ISA_MAX_DST]);
   return n;
}

int
opt_relative_cfile(const struct ir_shader *sh)
{
   for (unsigned i = 0; i < sh->nvalues; i++) {
      const struct ir_instr *in = sh->values[i];
      if (!in || in->removed || in->op != IR_OP_MACH)
         continue;
      const struct isa_insn *x = &in->mach->insn;
      for (unsigned k = 0; k < x->nsrc; k++)
         if ((x->src[k].flags & ISA_OPND_F_REL) && x->src[k].kind == ISA_OPND_CONST)
            return x->src[k].file;
      struct isa_op_info oi;
      isa_op_info(sh->model, x->op, &oi);
      for (unsigned f = 0; oi.sem == ISA_SEM_LDC && f < isa_file_count(sh->model); f++) {
         struct isa_file_info fi;
         isa_file_info(sh->model, f, &fi);
         if (fi.kind == ISA_FILE_CONST)
            return (int)f;
      }
   }
   return -1;
}

uint32_t
opt_relative_base(const struct ir_shader *sh, unsigned b)
{
   uint32_t base = 0;
   for (unsigned j = 0; j < b && j < IR_MAX_CBUFS; j++)
      base += sh->cbuf_slots[j];
   return base;
}

/* A 64-bit result one register of a 32-bit general file cannot hold:
 * gfx9's v[n:n+1] (count 1, the width makes the pair), where the slot
 * names the general file (a lane mask, VOPC e64's SGPR pair, is not one). */
static bool
general_pair_result(const struct isa_model *m, const struct isa_insn *x)
{
   unsigned w = 32;
   enum isa_type t = isa_opnd_type(m, x, ISA_SLOT_DST(0), &w);
   struct isa_slot_info si;
   if (isa_type_bits(t) != 64 || isa_opnd_count(m, x, ISA_SLOT_DST(0)) != 1 ||
       !isa_slot_info(m, x->op, true, 0, &si))
      return false;
   for (unsigned f = 0; f < isa_file_count(m) && f < 32; f++) {
      struct isa_file_info fi;
      isa_file_info(m, f, &fi);
      if (fi.kind == ISA_FILE_FULL)
         return fi.width == 32 && (si.files >> f & 1);
   }
   return false;
}

bool
opt_tuple_result(const struct isa_model *m, const struct isa_insn *x)
{
   struct isa_op_info oi;
   isa_op_info(m, x->op, &oi);
   return oi.ndst && (opt_sem_is_texture(oi.sem) || isa_opnd_count(m, x, ISA_SLOT_DST(0)) > 1 ||
                      general_pair_result(m, x));
}

unsigned
opt_result_regs(const struct isa_model *m, const struct isa_insn *x)
{
   unsigned n = isa_opnd_count(m, x, ISA_SLOT_DST(0));
   return n == 1 && general_pair_result(m, x) ? 2 : n;
}

bool
opt_wide_slot(const struct isa_model *m, const struct isa_insn *x, int slot)
{
   unsigned w = 32;
   enum isa_type t = isa_opnd_type(m, x, slot, &w);
   return isa_type_bits(t) == 64 && isa_opnd_count(m, x, slot) == 2;
}

bool
opt_stack_model(const struct isa_model *m)
{
   return m && opt_op_by_sem(m, ISA_SEM_SSY) >= 0 && opt_op_by_sem(m, ISA_SEM_SYNC) >= 0;
}

struct ir_node *
opt_break_if(const struct ir_shader *sh, const struct ir_block *b, bool *negate)
{
   *negate = false;
   if (!opt_stack_model(sh->model) || !b->last || b->last->op != IR_OP_BREAK || !b->node)
      return NULL;
   struct ir_node *f = b->node->parent;
   if (!f || f->kind != IR_NODE_IF || !f->parent || f->parent->kind != IR_NODE_LOOP ||
       f->list != &f->parent->body)
      return NULL;
   const struct ir_list *arm = b->node->list;
   if (arm->n != 1 || (arm != &f->then_list && arm != &f->else_list))
      return NULL;
   *negate = arm == &f->else_list;
   return f;
}

/* The guard sense isel gave the arm of a predicated break (that of its
 * first guarded instruction), or the arm's own when none is guarded yet. */
static bool
arm_sense(const struct ir_block *b, bool negate)
{
   for (const struct ir_instr *in = b->first; in; in = in->next)
      if (in->op == IR_OP_MACH && in->mach->guard != IR_MACH_FIXED)
         return in->mach->guard_not;
   return negate;
}

bool
opt_guard_breaks(struct ir_shader *sh, bool decide, const struct ir_instr **bad)
{
   ir_compute_cfg(sh);
   for (unsigned b = 0; b < sh->nblocks; b++) {
      bool negate;
      struct ir_node *f = opt_break_if(sh, sh->blocks[b], &negate);
      bool sense = f && !decide ? arm_sense(sh->blocks[b], negate) : negate;
      for (struct ir_instr *in = f ? sh->blocks[b]->first : NULL; in; in = in->next) {
         if (in->op != IR_OP_MACH)
            continue;
         const struct ir_mach *m = in->mach;
         /* isel decides each instruction's guard (its conservative variant
          * from the arm alone); RA's and legalization's copies follow it */
         bool neg = sense;
         if (decide && negate &&
             !opt_conservative_sh(sh, OPT_STAGE_ISEL, in->line, "guard of %%%u", in->id))
            neg = !opt_fault_fires_sh(sh, OPT_FAULT_ELSE_BREAK_GUARD,
                                      "%%%u of an else break under @P", in->id);
         if (m->guard == IR_MACH_FIXED) {
            ir_mach_set_guard(in, f->cond, neg);
         } else if (in->src[m->guard] != f->cond || m->guard_not != neg) {
            *bad = in;
            return false;
         }
      }
   }
   return true;
}

/* Operand k reads the n values v (appended to the sources). */
void
ir_mach_set_src(struct ir_instr *in, unsigned k, struct ir_instr *const *v, unsigned n)
{
   struct ir_mach *m = in->mach;
   unsigned base = in->nsrc;
   ir_instr_set_nsrc(in, base + n);
   for (unsigned i = 0; i < n; i++)
      ir_set_src(in, base + i, v[i]);
   m->first[k] = (uint8_t)base;
   m->count[k] = (uint8_t)n;
}

void
ir_mach_set_fixed(struct ir_instr *in, unsigned k, uint32_t imm)
{
   struct ir_mach *m = in->mach;
   m->first[k] = IR_MACH_FIXED;
   m->count[k] = 0;
   m->insn.src[k].kind = ISA_OPND_IMM;
   m->insn.src[k].value = imm;
}

/* Registers of a file that values may take: relative operands address
 * through the first address register only (a3xx a0.x; a1.x serves other
 * ops), so an address file offers one. */
/* The allocatable part of a uniform file: the registers up to the first
 * one no move of the file can write (gfx9: s0..s101; vcc, m0 and exec
 * come later and are not general registers). */
static unsigned
uniform_capacity(const struct isa_model *m, unsigned file, unsigned count)
{
   int op = -1;
   for (unsigned o = 0; o < isa_op_count(m) && op < 0; o++) {
      struct isa_op_info oi;
      isa_op_info(m, o, &oi);
      struct isa_insn t;
      isa_insn_init(m, o, &t);
      if (oi.sem != ISA_SEM_MOV || t.ndst != 1 || t.nsrc != 1)
         continue;
      t.dst[0] = (struct isa_opnd){.kind = ISA_OPND_REG, .file = (uint8_t)file};
      t.src[0] = (struct isa_opnd){.kind = ISA_OPND_IMM};
      if (isa_check_insn(m, &t, NULL) == ISA_ERR_OK)
         op = (int)o;
   }
   for (unsigned i = 0; op >= 0 && i < count; i++) {
      struct isa_insn t;
      isa_insn_init(m, (unsigned)op, &t);
      t.dst[0] =
          (struct isa_opnd){.kind = ISA_OPND_REG, .file = (uint8_t)file, .index = (uint16_t)i};
      t.src[0] = (struct isa_opnd){.kind = ISA_OPND_IMM};
      if (isa_check_insn(m, &t, NULL) != ISA_ERR_OK)
         return i;
   }
   return count;
}

unsigned
opt_file_capacity(const struct isa_model *m, unsigned file)
{
   struct isa_file_info fi;
   isa_file_info(m, file, &fi);
   if (fi.kind == ISA_FILE_ADDRESS)
      return MIN2(fi.count, 1u);
   if (fi.kind == ISA_FILE_UNIFORM)
      return uniform_capacity(m, file, fi.count);
   /* a register that reads a constant (RZ, PT) is the file's last one */
   return fi.fixed >= 0 && (unsigned)fi.fixed + 1 == fi.count ? fi.count - 1 : fi.count;
}

/* The guard modifier's value for predicate register `reg` (negated: runs
 * where it is false). The guard enum names its values p<N> and np<N>, pt
 * and npt (sm50.yaml). */
bool
opt_guard_value(const struct isa_model *m, unsigned reg, bool negate, int *mod, int *value)
{
   *mod = isa_mod_by_role(m, ISA_ROLE_GUARD);
   if (*mod < 0)
      return false;
   char name[16];
   snprintf(name, sizeof(name), "%sp%u", negate ? "n" : "", reg);
   *value = isa_mod_value(m, (unsigned)*mod, name);
   return *value >= 0;
}

bool
opt_op_explicit(const struct isa_model *m, unsigned op)
{
   struct isa_insn t;
   struct isa_class_info ci;
   isa_insn_init(m, op, &t);
   isa_class_info(m, t.cls, &ci);
   return ci.explicit_only;
}

/* The first op of the model with semantics `sem`, or -1. */
int
opt_op_by_sem(const struct isa_model *m, enum isa_sem sem)
{
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(m, sem, &n);
   /* a 32-bit form before a 16-bit one (gfx9 v_add_u16 is listed before
    * v_add_u32): the IR's values are 32 bits wide */
   for (unsigned i = 0; i < n; i++) {
      struct isa_insn t;
      if (opt_op_explicit(m, ops[i]))
         continue;
      isa_insn_init(m, ops[i], &t);
      unsigned w = 32;
      if (t.ndst)
         sem_slot_type(m, &t, ISA_SLOT_DST(0), &w);
      if (w != 16)
         return ops[i];
   }
   return n ? ops[0] : -1;
}

/* The model's plain move, chosen once per compile (opt_copy_op weighs
 * every move's forms). */
static unsigned
copy_op(const struct ir_shader *sh)
{
   struct opt_ctx *ctx = sh->fault_ctx;
   if (!ctx)
      return opt_copy_op(sh->model);
   if (ctx->copy_model != sh->model) {
      ctx->copy_op = opt_copy_op(sh->model);
      ctx->copy_model = sh->model;
   }
   return ctx->copy_op;
}

/* A register copy of v (the model's plain move), placed before pos. */
struct ir_instr *
opt_copy_before(struct ir_shader *sh, struct ir_instr *pos, struct ir_instr *v)
{
   struct ir_instr *c = ir_mach_create(sh, copy_op(sh));
   ir_mach_set_src(c, 0, &v, 1);
   c->line = pos->line;
   c->flags = v->flags;
   ir_insert_before(pos, c);
   return c;
}

/* Operand k reads a register that holds a constant (RZ, PT): no value. */
void
ir_mach_set_fixed_reg(struct ir_instr *in, unsigned k, unsigned file, unsigned index,
                      unsigned flags)
{
   struct ir_mach *m = in->mach;
   m->first[k] = IR_MACH_FIXED;
   m->count[k] = 0;
   m->insn.src[k] = (struct isa_opnd){.kind = ISA_OPND_REG,
                                      .file = (uint8_t)file,
                                      .index = (uint16_t)index,
                                      .flags = (uint8_t)flags};
}

/* Operand k (one value) reads fixed register `index` of `file` instead:
 * its source goes, the later ones move up. */
void
ir_mach_fix_operand(struct ir_instr *in, unsigned k, unsigned file, unsigned index)
{
   struct ir_mach *m = in->mach;
   unsigned at = m->first[k];
   uint8_t flags = m->insn.src[k].flags;
   for (unsigned i = at; i + 1 < in->nsrc; i++)
      ir_set_src(in, i, in->src[i + 1]);
   in->nsrc--;
   for (unsigned j = 0; j < m->insn.nsrc; j++)
      if (m->count[j] && m->first[j] > at)
         m->first[j]--;
   if (m->guard != IR_MACH_FIXED && m->guard > at)
      m->guard--;
   ir_mach_set_fixed_reg(in, k, file, index, flags);
}

/* The instruction runs only where pred (a predicate value) is true, or
 * false when negate; pred becomes the last source. */
void
ir_mach_set_guard(struct ir_instr *in, struct ir_instr *pred, bool negate)
{
   struct ir_mach *m = in->mach;
   unsigned n = in->nsrc;
   ir_instr_set_nsrc(in, n + 1);
   ir_set_src(in, n, pred);
   m->guard = (uint8_t)n;
   m->guard_not = negate;
}

unsigned
ir_mach_nopnds(const struct ir_instr *in)
{
   return in->mach ? in->mach->insn.nsrc : 0;
}

/* Placed in a register (count 0: only its file is chosen). */
bool
ir_has_reg(const struct ir_instr *in)
{
   return in->mach && in->mach->reg.file >= 0 && in->mach->reg.count > 0;
}

/* Has a register file been chosen for the value (placed or not)? */
int
ir_reg_file(const struct ir_instr *in)
{
   return in->mach ? in->mach->reg.file : -1;
}

/* ------------------------------------------------------------------ */
/* Text                                                                 */

static const struct {
   unsigned flag;
   const char *text;
} opnd_flags[] = {
    {ISA_OPND_F_NEG, "(neg)"}, {ISA_OPND_F_ABS, "(abs)"},   {ISA_OPND_F_NOT, "(not)"},
    {ISA_OPND_F_R, "(r)"},     {ISA_OPND_F_SEXT, "(sext)"}, {ISA_OPND_F_HI, "(hi)"},
};

static void
print_operand(struct strbuf *b, const struct ir_instr *in, unsigned k)
{
   const struct ir_mach *m = in->mach;
   const struct isa_opnd *o = &m->insn.src[k];
   if (!m->count[k] && o->kind == ISA_OPND_REG && !(o->flags & ISA_OPND_F_REL)) {
      char name[32];
      isa_reg_text(m->model, o->file, o->index, name, sizeof(name));
      strbuf_printf(b, "%s%s", o->flags & ISA_OPND_F_NOT ? "(not)" : "", name);
      return;
   }
   if (!m->count[k]) {
      strbuf_printf(b, "%" PRId32, (int32_t)o->value);
      return;
   }
   for (unsigned f = 0; f < ARRAY_SIZE(opnd_flags); f++)
      if (o->flags & opnd_flags[f].flag)
         strbuf_printf(b, "%s", opnd_flags[f].text);
   if (o->flags & ISA_OPND_F_REL) { /* FILE<%address+offset> */
      struct isa_file_info fi;
      isa_file_info(m->model, o->file, &fi);
      const struct ir_instr *v = m->first[k] < in->nsrc ? in->src[m->first[k]] : NULL;
      strbuf_printf(b, "%s<%%%u%+" PRId32 ">", fi.name, v ? v->id : 0, (int32_t)o->value);
      return;
   }
   if (m->count[k] > 1)
      strbuf_printf(b, "{");
   for (unsigned i = 0; i < m->count[k]; i++) {
      unsigned s = m->first[k] + i;
      const struct ir_instr *v = s < in->nsrc ? in->src[s] : NULL;
      if (v)
         strbuf_printf(b, "%s%%%u", i ? ", " : "", v->id);
      else
         strbuf_printf(b, "%s%%?", i ? ", " : "");
   }
   if (m->count[k] > 1)
      strbuf_printf(b, "}");
}

/* Modifiers that count (repeats, nops, stalls, barriers) print their
 * value even when it is 1; flags print bare. */
static bool
counting_mod(const struct isa_model *m, unsigned mod)
{
   static const enum isa_role roles[] = {ISA_ROLE_RPT,     ISA_ROLE_NOPS,      ISA_ROLE_STALL,
                                         ISA_ROLE_WR_BAR,  ISA_ROLE_RD_BAR,    ISA_ROLE_WAIT_MASK,
                                         ISA_ROLE_REUSE,   ISA_ROLE_WAIT_SLOT, ISA_ROLE_VMCNT,
                                         ISA_ROLE_LGKMCNT, ISA_ROLE_EXPCNT};
   for (unsigned i = 0; i < ARRAY_SIZE(roles); i++)
      if (isa_mod_by_role(m, roles[i]) == (int)mod)
         return true;
   return false;
}

char *
ir_mach_print(const struct ir_instr *in)
{
   const struct ir_mach *m = in->mach;
   if (!m || !m->model || m->insn.op >= isa_op_count(m->model))
      return xstrdup("<bad machine instruction>");
   struct strbuf b = {0};
   strbuf_printf(&b, "%s", isa_op_key(m->model, m->insn.op));
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      strbuf_printf(&b, k ? ", " : " ");
      print_operand(&b, in, k);
   }
   if (m->guard != IR_MACH_FIXED && m->guard < in->nsrc && in->src[m->guard])
      strbuf_printf(&b, " if=%s%%%u", m->guard_not ? "!" : "", in->src[m->guard]->id);
   if (m->tied != IR_MACH_FIXED && m->tied < in->nsrc && in->src[m->tied])
      strbuf_printf(&b, " %s=%%%u", m->tied_unread ? "tied_unread" : "tied", in->src[m->tied]->id);
   for (unsigned d = 1; d < m->insn.ndst; d++) { /* further results: fixed registers */
      const struct isa_opnd *o = &m->insn.dst[d];
      char name[32];
      if (o->kind == ISA_OPND_REG) {
         isa_reg_text(m->model, o->file, o->index, name, sizeof(name));
         strbuf_printf(&b, " dst%u=%s", d, name);
      }
   }
   struct isa_insn def;
   isa_insn_init(m->model, m->insn.op, &def);
   struct isa_op_info oi;
   isa_op_info(m->model, m->insn.op, &oi);
   unsigned nmods = isa_mod_count(m->model);
   for (unsigned i = 0; i < nmods && i < ISA_MAX_MODS; i++) {
      int v = m->insn.mod[i];
      if (v == def.mod[i] && (int)i != oi.flip_mod) /* a compare always shows its condition */
         continue;
      const char *name = isa_mod_name(m->model, i), *vn = isa_mod_value_name(m->model, i, v);
      if (vn)
         strbuf_printf(&b, " %s=%s", name, vn);
      else if (v == 1 && !counting_mod(m->model, i))
         strbuf_printf(&b, " %s", name);
      else
         strbuf_printf(&b, " %s=%d", name, v);
   }
   return b.s;
}

char *
ir_reg_print(const struct ir_instr *in)
{
   const struct ir_mach *m = in->mach;
   if (m && m->reg.file >= 0 && !m->reg.count) {
      struct isa_file_info fi;
      isa_file_info(m->model, (unsigned)m->reg.file, &fi);
      return xasprintf(" @%s:*", fi.name); /* the file is chosen, not the register */
   }
   if (!ir_has_reg(in))
      return xstrdup("");
   char name[32];
   isa_reg_text(m->model, (unsigned)m->reg.file, m->reg.index, name, sizeof(name));
   if (m->reg.count > 1)
      return xasprintf(" @%s:%u", name, m->reg.count);
   return xasprintf(" @%s", name);
}

size_t
ir_reg_parse(struct ir_shader *sh, struct ir_instr *in, const char *text, char **err)
{
   if (*text != '@')
      return 0;
   unsigned file, idx, bank;
   for (unsigned f = 0; f < isa_file_count(sh->model); f++) {
      struct isa_file_info fi;
      isa_file_info(sh->model, f, &fi);
      size_t l = strlen(fi.name);
      if (!strncmp(text + 1, fi.name, l) && !strncmp(text + 1 + l, ":*", 2)) {
         ir_mach_get(sh->model, in)->reg = (struct ir_reg){(int16_t)f, 0, 0};
         return l + 3;
      }
   }
   size_t n = isa_parse_reg_name(sh->model, text + 1, &file, &idx, &bank);
   if (!n) {
      *err = xstrdup("expected a register after '@'");
      return 0;
   }
   n++;
   unsigned count = 1;
   if (text[n] == ':') {
      char *end;
      unsigned long c = strtoul(text + n + 1, &end, 10);
      if (end == text + n + 1 || c < 1 || c > 16) {
         *err = xstrdup("bad register count after ':'");
         return 0;
      }
      count = (unsigned)c;
      n = (size_t)(end - text);
   }
   struct ir_mach *m = ir_mach_get(sh->model, in);
   m->reg.file = (int16_t)file;
   m->reg.index = (uint16_t)idx;
   m->reg.count = (uint8_t)count;
   return n;
}

struct mparse {
   const char *t;
   size_t p;
   char *err;
   size_t err_at;
};

static void DC_PRINTF(2, 3) mp_error(struct mparse *mp, const char *fmt, ...)
{
   if (mp->err)
      return;
   va_list ap;
   va_start(ap, fmt);
   mp->err = xvasprintf(fmt, ap);
   va_end(ap);
   mp->err_at = mp->p;
}

static void
mp_ws(struct mparse *mp)
{
   while (mp->t[mp->p] == ' ' || mp->t[mp->p] == '\t' || mp->t[mp->p] == '\r')
      mp->p++;
}

static bool
mp_word_char(char c)
{
   return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static size_t
mp_word(struct mparse *mp, char *buf, size_t size)
{
   mp_ws(mp);
   size_t n = 0;
   while (mp_word_char(mp->t[mp->p + n]))
      n++;
   if (n >= size)
      n = size - 1;
   memcpy(buf, mp->t + mp->p, n);
   buf[n] = 0;
   mp->p += n;
   return n;
}

static bool
mp_value(struct mparse *mp, struct ir_mach_ref **refs, unsigned *nrefs, unsigned *cap)
{
   mp_ws(mp);
   if (mp->t[mp->p] != '%' || !isdigit((unsigned char)mp->t[mp->p + 1])) {
      mp_error(mp, "expected a value (%%N)");
      return false;
   }
   struct ir_mach_ref r = {strtoul(mp->t + mp->p + 1, NULL, 10), mp->p};
   if (r.id > 1000000) {
      mp_error(mp, "value number too large");
      return false;
   }
   mp->p++;
   while (isdigit((unsigned char)mp->t[mp->p]))
      mp->p++;
   VEC_PUSH(*refs, *nrefs, *cap, r);
   return true;
}

/* A relative operand: file[address value + offset]. */
static bool
mp_relative(struct mparse *mp, struct ir_instr *in, unsigned k, struct ir_mach_ref **refs,
            unsigned *nrefs, unsigned *cap)
{
   struct ir_mach *m = in->mach;
   char name[32];
   size_t at = mp->p;
   mp_word(mp, name, sizeof(name));
   int f = isa_file_find(m->model, name);
   if (f < 0 || mp->t[mp->p] != '<') {
      unsigned rf, ri, bank;
      mp->p = at;
      size_t n = isa_parse_reg_name(m->model, mp->t + mp->p, &rf, &ri, &bank);
      if (!n) {
         mp_error(mp, "expected a value, a register or FILE<%%N+OFFSET>");
         return false;
      }
      mp->p += n;
      ir_mach_set_fixed_reg(in, k, rf, ri, m->insn.src[k].flags); /* (not) parsed before */
      return true;
   }
   mp->p++;
   if (!mp_value(mp, refs, nrefs, cap))
      return false;
   char *end;
   long off = strtol(mp->t + mp->p, &end, 10);
   mp->p = (size_t)(end - mp->t);
   if (mp->t[mp->p] != '>') {
      mp_error(mp, "expected '>'");
      return false;
   }
   mp->p++;
   struct isa_file_info fi;
   isa_file_info(m->model, (unsigned)f, &fi);
   struct isa_opnd *o = &m->insn.src[k];
   o->kind = fi.kind == ISA_FILE_CONST ? ISA_OPND_CONST : ISA_OPND_REG;
   o->file = (uint8_t)f;
   o->flags |= ISA_OPND_F_REL;
   o->value = (uint32_t)(int32_t)off;
   m->count[k] = 1;
   return true;
}

/* One operand into slot k. */
static bool
mp_operand(struct mparse *mp, struct ir_instr *in, unsigned k, struct ir_mach_ref **refs,
           unsigned *nrefs, unsigned *cap)
{
   struct ir_mach *m = in->mach;
   mp_ws(mp);
   const char *s = mp->t + mp->p;
   if (*s == '-' || isdigit((unsigned char)*s)) {
      char *end;
      errno = 0;
      long long v = strtoll(s, &end, 0);
      if (errno || v < INT32_MIN || v > UINT32_MAX) {
         mp_error(mp, "fixed operand out of range");
         return false;
      }
      mp->p += (size_t)(end - s);
      ir_mach_set_fixed(in, k, (uint32_t)v);
      return true;
   }
   unsigned flags = 0;
   while (mp->t[mp->p] == '(') {
      unsigned f = 0;
      for (; f < ARRAY_SIZE(opnd_flags); f++) {
         size_t l = strlen(opnd_flags[f].text);
         if (!strncmp(mp->t + mp->p, opnd_flags[f].text, l)) {
            flags |= opnd_flags[f].flag;
            mp->p += l;
            break;
         }
      }
      if (f == ARRAY_SIZE(opnd_flags)) {
         mp_error(mp, "unknown operand flag");
         return false;
      }
   }
   m->insn.src[k].flags = (uint8_t)flags;
   m->first[k] = (uint8_t)*nrefs;
   if (isalpha((unsigned char)mp->t[mp->p])) /* FILE<%address+offset> */
      return mp_relative(mp, in, k, refs, nrefs, cap);
   bool group = mp->t[mp->p] == '{';
   if (group)
      mp->p++;
   do {
      if (!mp_value(mp, refs, nrefs, cap))
         return false;
      mp_ws(mp);
   } while (group && mp->t[mp->p] == ',' && ++mp->p);
   if (group) {
      if (mp->t[mp->p] != '}') {
         mp_error(mp, "expected '}'");
         return false;
      }
      mp->p++;
   }
   m->count[k] = (uint8_t)(*nrefs - m->first[k]);
   return true;
}

/* dstN=REG: a further result into a fixed register (ISETP's second
 * predicate into PT). */
static bool
mp_fixed_dst(struct mparse *mp, const struct isa_model *model, struct isa_insn *insn)
{
   const char *t = mp->t + mp->p;
   unsigned d = (unsigned)(t[3] - '0'), file, index, bank;
   size_t n = isa_parse_reg_name(model, t + 5, &file, &index, &bank);
   if (d < 1 || d >= insn->ndst || !n) {
      mp_error(mp, "bad fixed result '%.*s' (dstN=REGISTER, 1 <= N < %u)", 6, t, insn->ndst);
      return false;
   }
   insn->dst[d] =
       (struct isa_opnd){.kind = ISA_OPND_REG, .file = (uint8_t)file, .index = (uint16_t)index};
   mp->p += 5 + n;
   return true;
}

/* name[=value] */
static bool
mp_modifier(struct mparse *mp, const struct isa_model *model, struct isa_insn *insn)
{
   size_t at = mp->p;
   char name[64], val[64];
   const char *t = mp->t + mp->p;
   if (!strncmp(t, "dst", 3) && isdigit((unsigned char)t[3]) && t[4] == '=')
      return mp_fixed_dst(mp, model, insn);
   mp_word(mp, name, sizeof(name));
   int mod = isa_mod_find(model, name);
   if (mod < 0 || mod >= ISA_MAX_MODS) {
      mp->p = at;
      mp_error(mp, "unknown modifier '%s'", name);
      return false;
   }
   int v = 1;
   if (mp->t[mp->p] == '=') {
      mp->p++;
      size_t vat = mp->p;
      if (mp->t[mp->p] == '-' || isdigit((unsigned char)mp->t[mp->p])) {
         char *end;
         long x = strtol(mp->t + mp->p, &end, 0);
         mp->p = (size_t)(end - mp->t);
         v = (int)x;
      } else {
         mp_word(mp, val, sizeof(val));
         v = isa_mod_value(model, (unsigned)mod, val);
         if (v < 0) {
            mp->p = vat;
            mp_error(mp, "'%s' is not a value of %s", val, name);
            return false;
         }
      }
   }
   insn->mod[mod] = (int16_t)v;
   return true;
}

static bool
mp_at_end(struct mparse *mp)
{
   mp_ws(mp);
   char c = mp->t[mp->p];
   return !c || c == '\n' || c == '#' || c == '@';
}

static bool
mp_at_flag_word(struct mparse *mp)
{
   const char *s = mp->t + mp->p;
   return (!strncmp(s, "precise", 7) && !mp_word_char(s[7])) ||
          (!strncmp(s, "invariant", 9) && !mp_word_char(s[9]));
}

bool
ir_mach_parse(struct ir_shader *sh, struct ir_instr *in, const char *text, size_t *len,
              struct ir_mach_ref **refs, unsigned *nrefs, char **err, size_t *err_at)
{
   struct mparse mp = {text, 0, NULL, 0};
   char key[64];
   unsigned cap = 0;
   *refs = NULL;
   *nrefs = 0;
   mp_word(&mp, key, sizeof(key));
   int op = isa_op_find(sh->model, key);
   if (op < 0) {
      mp.p = 0;
      mp_error(&mp, "unknown %s op '%s'", isa_model_name(sh->model), key);
   } else {
      struct ir_mach *m = ir_mach_get(sh->model, in);
      isa_insn_init(sh->model, (unsigned)op, &m->insn);
      unsigned k = 0;
      if (!mp_at_end(&mp) && m->insn.nsrc)
         for (;;) {
            if (k >= m->insn.nsrc) {
               mp_error(&mp, "too many operands (%s has %u)", key, m->insn.nsrc);
               break;
            }
            if (!mp_operand(&mp, in, k++, refs, nrefs, &cap))
               break;
            mp_ws(&mp);
            if (mp.t[mp.p] != ',')
               break;
            mp.p++;
         }
      if (!mp.err && k != m->insn.nsrc)
         mp_error(&mp, "%s takes %u operands", key, m->insn.nsrc);
      mp_ws(&mp);
      if (!mp.err && !strncmp(mp.t + mp.p, "if=", 3)) {
         mp.p += 3;
         m->guard_not = mp.t[mp.p] == '!';
         mp.p += m->guard_not;
         m->guard = (uint8_t)*nrefs;
         mp_value(&mp, refs, nrefs, &cap);
         mp_ws(&mp);
      }
      bool unread = !mp.err && !strncmp(mp.t + mp.p, "tied_unread=", 12);
      if (!mp.err && (unread || !strncmp(mp.t + mp.p, "tied=", 5))) {
         mp.p += unread ? 12 : 5;
         m->tied = (uint8_t)*nrefs;
         m->tied_unread = unread;
         mp_value(&mp, refs, nrefs, &cap);
      }
      while (!mp.err && !mp_at_end(&mp) && !mp_at_flag_word(&mp))
         mp_modifier(&mp, sh->model, &m->insn);
      if (!mp.err) {
         struct isa_op_info oi;
         isa_op_info(sh->model, (unsigned)op, &oi);
         if (in->type != IR_TYPE_NONE && opt_tuple_result(sh->model, &m->insn))
            in->type = IR_TYPE_V4;
         ir_instr_set_nsrc(in, *nrefs);
      }
   }
   *len = mp.p;
   *err = mp.err;
   *err_at = mp.err_at;
   return !mp.err;
}

/* ------------------------------------------------------------------ */
/* Checks                                                               */

bool
opt_sem_has_effect(enum isa_sem s)
{
   switch (s) {
   case ISA_SEM_STG:
   case ISA_SEM_STL:
   case ISA_SEM_AST:
   case ISA_SEM_EMIT:
   case ISA_SEM_GS_MSG:
   case ISA_SEM_ATOM:
   case ISA_SEM_ATOMS:
   case ISA_SEM_ATOM_CAS:
   case ISA_SEM_ATOMS_CAS:
   case ISA_SEM_KILL:
   case ISA_SEM_BARRIER:
      return true;
   default:
      return false;
   }
}

bool
opt_sem_is_texture(enum isa_sem s)
{
   switch (s) {
   case ISA_SEM_SAM:
   case ISA_SEM_SAMB:
   case ISA_SEM_SAML:
   case ISA_SEM_SAMGQ:
   case ISA_SEM_ISAM:
   case ISA_SEM_ISAML:
   case ISA_SEM_GETSIZE:
   case ISA_SEM_TEX:
   case ISA_SEM_TLD:
   case ISA_SEM_TLD4:
   case ISA_SEM_TXD:
   case ISA_SEM_TXQ:
   case ISA_SEM_GETLOD:
   case ISA_SEM_TMML:
      return true;
   default:
      return false;
   }
}

static const char *
check_operands(const struct ir_instr *in, const struct isa_op_info *oi)
{
   const struct ir_mach *m = in->mach;
   unsigned next = 0;
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      if (!m->count[k]) {
         if (m->first[k] != IR_MACH_FIXED)
            return "a fixed operand reads no source";
         continue;
      }
      if (m->first[k] != next)
         return "operands read the sources in order";
      for (unsigned i = 0; i < m->count[k]; i++) {
         const struct ir_instr *v = in->src[next + i];
         if (v->type != IR_TYPE_32)
            return "a machine operand reads a 32-bit value";
      }
      next += m->count[k];
   }
   if (m->guard != IR_MACH_FIXED) {
      if (m->guard != next || in->src[next]->type != IR_TYPE_32)
         return "the guard predicate is the last source";
      next++;
   }
   if (m->tied != IR_MACH_FIXED) {
      if (m->tied != next || in->src[next]->type != IR_TYPE_32)
         return "the tied source (the register the result keeps part of) is the last source";
      next++;
   }
   if (next != in->nsrc)
      return "every source is read by an operand";
   bool fixed_dst = oi->ndst > 0 && in->type == IR_TYPE_NONE &&
                    m->insn.dst[0].kind == ISA_OPND_REG && opt_exec_model(m->model);
   if ((oi->ndst > 0) != (in->type != IR_TYPE_NONE) && !fixed_dst) /* fixed: gfx9 kill's exec */
      return "a machine instruction has a result exactly when its op has a destination";
   if ((in->type == IR_TYPE_V4) != opt_tuple_result(m->model, &m->insn) && oi->ndst)
      return "texture and FP64 results are tuples, and only they";
   if (in->type == IR_TYPE_64)
      return "no 64-bit machine values";
   return NULL;
}

static const char *
check_reg(const struct ir_instr *in)
{
   const struct ir_mach *m = in->mach;
   if (m->reg.file < 0)
      return NULL;
   struct isa_file_info fi;
   if ((unsigned)m->reg.file >= isa_file_count(m->model))
      return "a register's file is in the model";
   isa_file_info(m->model, (unsigned)m->reg.file, &fi);
   if (m->reg.index + m->reg.count > fi.count)
      return "a register is inside its file";
   if (in->type == IR_TYPE_NONE)
      return "only values have registers";
   if (fi.kind == ISA_FILE_CONST && in->op != IR_OP_IMM && in->op != IR_OP_LOAD_CONST)
      return "only immediates and constants sit in a constant file";
   if (in->op == IR_OP_EXTRACT && !ir_has_reg(in)) /* before RA: the file only (gfx9 SMEM) */
      return in->src[0]->mach && in->src[0]->mach->reg.file == m->reg.file
                 ? NULL
                 : "an extract's file is its tuple's";
   if (in->op == IR_OP_EXTRACT) {
      const struct ir_instr *t = in->src[0];
      if (!ir_has_reg(t) || t->mach->reg.file != m->reg.file ||
          t->mach->reg.index + (unsigned)in->comp != m->reg.index)
         return "an extract sits in its component of the texture result's registers";
   }
   return NULL;
}

const char *
ir_mach_check(const struct ir_shader *sh, const struct ir_instr *in)
{
   if (!sh->model)
      return "machine IR needs a model";
   if (!in->mach)
      return "a mach instruction has its record";
   if (in->mach->model != sh->model)
      return "a machine record belongs to the shader's model";
   if (in->op == IR_OP_MACH) {
      if (in->mach->insn.op >= isa_op_count(sh->model))
         return "a mach op is an op of the model";
      struct isa_op_info oi;
      isa_op_info(sh->model, in->mach->insn.op, &oi);
      if (in->mach->insn.nsrc != oi.nsrc || in->mach->insn.ndst != oi.ndst)
         return "a mach record has its op's operand counts";
      const char *why = check_operands(in, &oi);
      if (why)
         return why;
      for (unsigned d = 1; d < in->mach->insn.ndst; d++)
         if (in->mach->insn.dst[d].kind != ISA_OPND_REG)
            return "a machine instruction's further results go to fixed registers (dstN=)";
   }
   if (in->op == IR_OP_EXTRACT && in->src[0]->op == IR_OP_MACH) {
      const struct ir_instr *p = in->prev;
      while (p && p->op == IR_OP_EXTRACT && p->src[0] == in->src[0])
         p = p->prev;
      if (p != in->src[0])
         return "extracts of a machine texture result follow it directly";
   }
   return check_reg(in);
}

/* ------------------------------------------------------------------ */
/* Register assignment check                                            */

struct rcheck {
   struct ir_shader *sh;
   const struct ir_instr **owner; /* by file * stride + index */
   unsigned stride;
   unsigned *touched; /* the entries of owner set since the last clear */
   size_t ntouched, cap;
};

static bool
occupies(const struct ir_instr *v)
{
   if (!ir_value_in_regs(v) || !ir_has_reg(v))
      return false;
   struct isa_file_info fi;
   isa_file_info(v->mach->model, (unsigned)v->mach->reg.file, &fi);
   return fi.kind != ISA_FILE_CONST;
}

/* Puts v in its registers; false if one holds another value. */
static bool
take(struct rcheck *rc, const struct ir_instr *v)
{
   const struct ir_reg *r = &v->mach->reg;
   for (unsigned i = 0; i < r->count; i++) {
      unsigned at = (unsigned)r->file * rc->stride + r->index + i;
      const struct ir_instr **o = &rc->owner[at];
      if (*o && *o != v)
         return false;
      if (!*o)
         VEC_PUSH(rc->touched, rc->ntouched, rc->cap, at);
      *o = v;
   }
   return true;
}

static void
drop(struct rcheck *rc, const struct ir_instr *v)
{
   const struct ir_reg *r = &v->mach->reg;
   for (unsigned i = 0; i < r->count; i++) {
      const struct ir_instr **o = &rc->owner[(unsigned)r->file * rc->stride + r->index + i];
      if (*o == v)
         *o = NULL;
   }
}

/* A def (walking backwards) frees its value's registers; those registers
 * must not hold any other live value: that value would be overwritten. */
static const char *
check_block_regs(struct rcheck *rc, struct ir_block *b, const struct ir_liveness *lv,
                 const struct ir_instr **bad)
{
   struct ir_shader *sh = rc->sh;
   const uint64_t *out = ir_live_out_set(lv, b->index);
   /* every register free again: only the entries set since the last block
    * (the table spans every file, the constant files too: megabytes) */
   for (size_t i = 0; i < rc->ntouched; i++)
      rc->owner[rc->touched[i]] = NULL;
   rc->ntouched = 0;
   for (unsigned k = ir_live_next(out, lv->nwords, 0); k < lv->nids;
        k = ir_live_next(out, lv->nwords, k + 1)) {
      unsigned id = lv->ids[k];
      if (id >= sh->nvalues)
         break;
      const struct ir_instr *v = sh->values[id];
      if (v && occupies(v) && !take(rc, v)) {
         *bad = v;
         return "values live at the end of a block sit in distinct registers";
      }
   }
   for (const struct ir_instr *in = b->last; in; in = in->prev) {
      if (in->type != IR_TYPE_NONE && occupies(in)) {
         drop(rc, in);
         const struct ir_reg *r = &in->mach->reg;
         for (unsigned i = 0; i < r->count; i++)
            if (rc->owner[(unsigned)r->file * rc->stride + r->index + i]) {
               *bad = in;
               return "a result does not overwrite a live value";
            }
      }
      if (in->op == IR_OP_PHI)
         continue;
      for (unsigned s = 0; s < in->nsrc; s++) {
         const struct ir_instr *v = in->src[s];
         if (!ir_use_extends_life(in, v))
            continue;
         if (!ir_has_reg(v)) {
            *bad = in;
            return "every register value read has a register";
         }
         if (occupies(v) && !take(rc, v)) {
            *bad = in;
            return "values live at the same point sit in distinct registers";
         }
      }
   }
   return NULL;
}

static const char *
check_phis(struct ir_shader *sh, const struct ir_instr **bad)
{
   for (unsigned i = 0; i < sh->nvalues; i++) {
      const struct ir_instr *p = sh->values[i];
      if (!p || p->removed || p->op != IR_OP_PHI)
         continue;
      if (!ir_has_reg(p)) {
         *bad = p;
         return "a phi has a register";
      }
      for (unsigned k = 0; k < p->nsrc; k++) {
         const struct ir_instr *s = p->src[k];
         if (!ir_has_reg(s) || s->mach->reg.file != p->mach->reg.file ||
             s->mach->reg.index != p->mach->reg.index) {
            *bad = p;
            return "a phi's sources sit in the phi's register";
         }
      }
   }
   return NULL;
}

/* Outputs are read when the program ends: nothing may be defined after
 * the first store_output of a block. */
static const char *
check_outputs(struct ir_shader *sh, const struct ir_instr **bad)
{
   for (unsigned bi = 0; bi < sh->nblocks; bi++) {
      bool stored = false;
      for (const struct ir_instr *in = sh->blocks[bi]->first; in; in = in->next) {
         if (in->op == IR_OP_STORE_OUTPUT) {
            stored = true;
            if (!ir_has_reg(in->src[0]) || !occupies(in->src[0])) {
               *bad = in;
               return "an output value sits in a register";
            }
         } else if (stored && in->type != IR_TYPE_NONE) {
            *bad = in;
            return "no value is defined after the outputs are stored";
         }
      }
   }
   return NULL;
}

const char *
ir_regs_check(struct ir_shader *sh, const struct ir_liveness *lv, const struct ir_instr **bad)
{
   bool any = false;
   for (unsigned i = 0; i < sh->nvalues && !any; i++)
      any = sh->values[i] && !sh->values[i]->removed && ir_has_reg(sh->values[i]) &&
            ir_value_in_regs(sh->values[i]);
   if (!any)
      return NULL;
   const char *why = check_phis(sh, bad);
   if (!why)
      why = check_outputs(sh, bad);
   if (why)
      return why;
   unsigned stride = 0, nf = isa_file_count(sh->model);
   for (unsigned f = 0; f < nf; f++) {
      struct isa_file_info fi;
      isa_file_info(sh->model, f, &fi);
      stride = MAX2(stride, fi.count + 16);
   }
   struct rcheck rc = {sh, xcalloc((size_t)stride * nf + 1, sizeof(*rc.owner)), stride, NULL, 0, 0};
   for (unsigned bi = 0; bi < sh->nblocks && !why; bi++)
      why = check_block_regs(&rc, sh->blocks[bi], lv, bad);
   free(rc.owner);
   free(rc.touched);
   return why;
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                           */

static int
mod_of(const struct isa_model *m, const struct isa_insn *insn, enum isa_role role, int def)
{
   int i = isa_mod_by_role(m, role);
   return i >= 0 && i < ISA_MAX_MODS ? insn->mod[i] : def;
}

/* The SDWA select of source k (gfx9 src0_sel/src1_sel), or -1. */
static int
src_sel(const struct isa_model *m, const struct isa_insn *x, unsigned k)
{
   struct isa_slot_info si;
   if (!isa_slot_info(m, x->op, false, k, &si) || !si.name)
      return -1;
   for (int r = ISA_ROLE_SRC0_SEL; r <= ISA_ROLE_SRC1_SEL; r++) {
      int md = isa_mod_by_role(m, (enum isa_role)r);
      const char *on = md >= 0 ? isa_mod_operand(m, (unsigned)md) : NULL;
      if (on && !strcmp(on, si.name))
         return x->mod[md];
   }
   return -1;
}

/* The value a fixed register operand reads (RZ: 0, PT: true). */
static uint32_t
fixed_value(const struct isa_model *m, const struct isa_opnd *o)
{
   struct isa_file_info fi;
   isa_file_info(m, o->file, &fi);
   uint32_t v = fi.fixed == (int)o->index ? fi.fixed_value : 0;
   if (fi.kind == ISA_FILE_PREDICATE && (o->flags & ISA_OPND_F_NOT))
      v = !v;
   return v;
}

static bool
in_predicate_file(const struct ir_instr *v)
{
   if (ir_reg_file(v) < 0)
      return false;
   struct isa_file_info fi;
   isa_file_info(v->mach->model, (unsigned)ir_reg_file(v), &fi);
   return fi.kind == ISA_FILE_PREDICATE;
}

/* Everything ir_mach_eval needs that does not depend on the source
 * values: decoded once, so a caller evaluating one instruction on many
 * values (opt_verify.c) pays for the model lookups once. */
void
ir_mach_eval_prepare(const struct ir_instr *in, struct ir_mach_prep *p)
{
   const struct ir_mach *m = in->mach;
   const struct isa_model *model = m->model;
   memset(p, 0, sizeof(*p));
   struct isa_op_info oi;
   isa_op_info(model, m->insn.op, &oi);
   p->sem = oi.sem;
   p->ok = true;
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      const struct isa_opnd *o = &m->insn.src[k];
      if (o->flags & ISA_OPND_F_REL) {
         p->ok = false; /* reads a register file the IR does not model */
         return;
      }
      if (!m->count[k]) {
         p->kind[k] = IR_MACH_PREP_FIXED;
         p->fixed[k] = o->kind == ISA_OPND_REG ? fixed_value(model, o) : o->value;
         continue;
      }
      if (m->count[k] != 1) {
         p->kind[k] = IR_MACH_PREP_NONE;
         continue;
      }
      if (in_predicate_file(in->src[m->first[k]])) { /* a predicate: (not) is logical */
         p->kind[k] = IR_MACH_PREP_PRED;
         continue;
      }
      p->kind[k] = IR_MACH_PREP_VALUE;
      p->sel[k] = (int8_t)src_sel(model, &m->insn, k);
      unsigned width;
      p->is_float[k] = isa_type_is_float(sem_slot_type(model, &m->insn, ISA_SLOT_SRC(k), &width));
      p->half[k] = width == 16;
   }
   sem_args_of(model, &m->insn, &p->a);
   p->sat = mod_of(model, &m->insn, ISA_ROLE_SAT, 0) != 0;
   p->dst_sel = mod_of(model, &m->insn, ISA_ROLE_DST_SEL, SEM_SEL_DWORD);
   p->dst_unused = (unsigned)mod_of(model, &m->insn, ISA_ROLE_DST_UNUSED, 0);
}

bool
ir_mach_eval_prepared(const struct ir_instr *in, const struct ir_mach_prep *p, const uint64_t *src,
                      uint64_t *dst, bool *kill)
{
   const struct ir_mach *m = in->mach;
   if (!p->ok)
      return false;
   uint32_t v[ISA_MAX_SRC] = {0};
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      const struct isa_opnd *o = &m->insn.src[k];
      uint32_t x;
      switch (p->kind[k]) {
      case IR_MACH_PREP_FIXED:
         v[k] = p->fixed[k];
         break;
      case IR_MACH_PREP_NONE:
         break;
      case IR_MACH_PREP_PRED:
         v[k] = (src[m->first[k]] != 0) != !!(o->flags & ISA_OPND_F_NOT);
         break;
      default:
         x = (uint32_t)src[m->first[k]];
         /* an SDWA source select, before the modifiers */
         if (p->sel[k] >= 0 && p->sel[k] < SEM_SEL_DWORD)
            x = sem_sdwa_src(x, (unsigned)p->sel[k], o->flags & ISA_OPND_F_SEXT);
         v[k] = sem_srcmod_slot(x, o->flags, p->is_float[k], p->half[k]);
         break;
      }
   }
   bool runs = true;
   if (m->guard != IR_MACH_FIXED)
      runs = (src[m->guard] != 0) != m->guard_not;
   switch (p->sem) {
   case ISA_SEM_NOP:
   case ISA_SEM_END:
      return true;
   case ISA_SEM_KILL:
      /* a predicate operand, if any: true or false, (not) inverts */
      *kill = runs && (!m->insn.nsrc || v[0] != 0);
      return true;
   default:
      break;
   }
   uint32_t r[ISA_MAX_DST] = {0}; /* setp writes two predicates; the second goes to PT */
   if (!sem_eval(p->sem, &p->a, v, r))
      return false;
   if (p->sat)
      r[0] = sem_fsat(r[0]);
   int ds = p->dst_sel;
   if (ds >= 0 && ds < SEM_SEL_DWORD) { /* an SDWA destination select; PRESERVE keeps the tie */
      uint32_t old = m->tied != IR_MACH_FIXED && m->tied < in->nsrc ? (uint32_t)src[m->tied] : 0;
      r[0] = sem_sdwa_dst(r[0], old, (unsigned)ds, p->dst_unused);
   }
   *dst = r[0];
   return true;
}

/* Kept beside ir_mach_eval_prepared: a field it starts to read belongs
 * here too, or two instructions that differ in it would share a verdict. */
size_t
ir_mach_eval_key(const struct ir_instr *in, const struct ir_mach_prep *p, uint8_t *out)
{
   const struct ir_mach *m = in->mach;
   size_t n = 0;
   memcpy(out, p, sizeof(*p)); /* zero-filled by ir_mach_eval_prepare, padding too */
   n += sizeof(*p);
   out[n++] = m->insn.nsrc;
   for (unsigned k = 0; k < m->insn.nsrc && k < ISA_MAX_SRC; k++) {
      out[n++] = m->insn.src[k].flags;
      out[n++] = m->first[k];
      out[n++] = m->count[k];
   }
   out[n++] = m->guard;
   out[n++] = m->guard_not;
   out[n++] = m->tied;
   memcpy(out + n, &in->nsrc, sizeof(in->nsrc));
   n += sizeof(in->nsrc);
   return n;
}

bool
ir_mach_eval(const struct ir_instr *in, const uint64_t *src, uint64_t *dst, bool *kill)
{
   struct ir_mach_prep p;
   ir_mach_eval_prepare(in, &p);
   return ir_mach_eval_prepared(in, &p, src, dst, kill);
}
