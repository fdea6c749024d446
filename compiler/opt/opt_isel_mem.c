/*
 * Instruction selection of memory and packing instructions (see
 * opt_isel.h): constant-buffer reads with a computed index, buffer and
 * shared-memory loads, stores and atomics, resource sizes, and half-float
 * packing. Images reach here as buffer accesses (opt_images), atomics a
 * model lacks as compare-and-swap loops (opt_atomics).
 *
 * A buffer address is the byte offset plus the buffer's base
 * (EMU_ADDR_BUFFER): one add per block and offset value, reused by the
 * other accesses there; a constant added to the offset goes into the
 * instruction's own offset field where the op has one (ldg/stg, LDG/STG,
 * LDS/STS, ATOM), so the four words of a vec4 access share one address.
 */
#include "compiler/opt/opt_isel.h"
#include "emu/emu.h"
#include "isa/sem.h"

#include <stdio.h>
#include <stdlib.h>

static struct ir_instr *load_const_ldc(struct isel *s, struct ir_instr *in, uint32_t n,
                                       uint32_t base);

/* An indirect constant read of buffer in->buf, whose slots the relative
 * reads see from opt_relative_base (buffers 0 .. rel_cbufs - 1 in a row),
 * 0 outside the buffer. */
struct ir_instr *
isel_load_const_ind(struct isel *s, struct ir_instr *in)
{
   uint32_t n = in->buf >= 0 && in->buf < IR_MAX_CBUFS ? s->sh->cbuf_slots[in->buf] : 0;
   if (!n || (s->addr < 0 && s->op[ISA_SEM_LDC] < 0) || (s->addr >= 0 && s->cnst < 0))
      return isel_unsupported(s, in, "indirect constants outside a declared buffer"), NULL;
   s->sh->rel_cbufs = MAX2(s->sh->rel_cbufs, (uint32_t)in->buf + 1);
   uint32_t base = opt_relative_base(s->sh, (unsigned)in->buf);
   if (s->addr < 0)
      return load_const_ldc(s, in, n, base);
   struct ir_instr *slot = isel_imm(s, in, (uint32_t)in->slot);
   struct ir_instr *i0 = isel_build2(s, in, ISA_SEM_IADD, in->src[0], slot);
   struct ir_instr *zero = isel_imm(s, in, 0);
   struct ir_instr *i1 = isel_build2(s, in, ISA_SEM_SMAX, i0, zero);
   struct ir_instr *last = isel_imm(s, in, n - 1);
   struct ir_instr *i2 = isel_build2(s, in, ISA_SEM_SMIN, i1, last);
   struct ir_instr *two = isel_imm(s, in, 2);
   struct ir_instr *x4 = isel_build2(s, in, ISA_SEM_SHL, i2, two);
   if (base)
      x4 = isel_build2(s, in, ISA_SEM_IADD, x4, isel_imm(s, in, base * 4));
   struct ir_instr *a = isel_cov(s, in, x4, "s32", "s16");
   if (!a)
      return NULL;
   ir_mach_get(s->m, a)->reg = (struct ir_reg){(int16_t)s->addr, 0, 0};
   struct ir_instr *v = isel_build1(s, in, ISA_SEM_COV, a);
   struct isa_opnd *o = &v->mach->insn.src[0];
   o->kind = ISA_OPND_CONST;
   o->file = (uint8_t)s->cnst;
   o->flags = ISA_OPND_F_REL;
   o->value = (uint32_t)in->comp;
   isel_set_mod(s, v, s->mod_src_type, "u32");
   isel_set_mod(s, v, s->mod_dst_type, "u32");
   struct ir_instr *ok = isel_build2(s, in, ISA_SEM_SCMP, i0, i2);
   isel_set_mod(s, ok, s->mod_cond, "eq");
   return isel_build3(s, in, ISA_SEM_SEL, v, ok, isel_imm(s, in, 0));
}

/* The same through LDC (sm50): bank 0 at byte 16 * (base + clamp(slot +
 * i)), the channel's 4 * comp in the instruction's offset. */
static struct ir_instr *
load_const_ldc(struct isel *s, struct ir_instr *in, uint32_t n, uint32_t base)
{
   struct ir_instr *i0 =
       isel_build2(s, in, ISA_SEM_IADD, in->src[0], isel_imm(s, in, (uint32_t)in->slot));
   struct ir_instr *i1 = isel_minmax(s, in, ISA_SEM_SMAX, false, "s32", i0, isel_imm(s, in, 0));
   struct ir_instr *i2 = isel_minmax(s, in, ISA_SEM_SMIN, true, "s32", i1, isel_imm(s, in, n - 1));
   struct ir_instr *byte = isel_shift(s, in, ISA_SEM_SHL, true, NULL, i2, isel_imm(s, in, 4));
   if (byte && base)
      byte = isel_build2(s, in, ISA_SEM_IADD, byte, isel_imm(s, in, base * 16));
   if (!byte)
      return NULL;
   struct ir_instr *v = ir_mach_create(s->sh, (unsigned)s->op[ISA_SEM_LDC]);
   ir_mach_set_src(v, 0, &byte, 1);
   ir_mach_set_fixed(v, 1, 4u * (uint32_t)in->comp);
   ir_mach_set_fixed(v, 2, 0);
   isel_set_mod(s, v, s->mod_type, "u32");
   v->flags = in->flags;
   v->line = in->line;
   ir_insert_before(in, v);
   struct ir_instr *ok = isel_setp(s, in, ISA_SEM_ISETP, i0, i2, "eq", "s32");
   return isel_build3(s, in, ISA_SEM_SEL, v, ok, isel_imm(s, in, 0));
}

/* Does in carry its op's default modifiers? */
static bool
plain_mods(const struct isel *s, const struct ir_instr *in)
{
   struct isa_insn def;
   isa_insn_init(s->m, in->mach->insn.op, &def);
   return !memcmp(def.mod, in->mach->insn.mod, sizeof(def.mod)) && in->mach->guard == IR_MACH_FIXED;
}

/* Is v a selected `add x, k` with k an immediate (x + k), and is v's
 * first source x? */
static bool
add_of_imm(const struct isel *s, const struct ir_instr *v, struct ir_instr **x, uint32_t *k)
{
   if (v->op != IR_OP_MACH || v->mach->insn.sem != ISA_SEM_IADD || !plain_mods(s, v))
      return false;
   const struct ir_mach *m = v->mach;
   if (m->count[0] != 1 || m->count[1] != 1 || m->insn.src[0].flags || m->insn.src[1].flags)
      return false;
   const struct ir_instr *b = v->src[m->first[1]];
   if (b->op != IR_OP_IMM || b->type != IR_TYPE_32)
      return false;
   *x = v->src[m->first[0]];
   *k = (uint32_t)b->imm;
   return true;
}

/* Global memory address of byte `addr` in buffer res (emu.h EMU_ADDR_*):
 * an earlier `add addr, base` of the block when there is one (the words
 * of one vec4 access, a texel's loads and stores), else a new one. */
static struct ir_instr *
buffer_address(struct isel *s, struct ir_instr *pos, struct ir_instr *addr, int32_t res)
{
   uint32_t base = EMU_ADDR_BUFFER((uint32_t)res), k;
   struct ir_instr *x;
   for (struct ir_instr *p = pos->prev; p; p = p->prev)
      if (add_of_imm(s, p, &x, &k) && x == addr && k == base &&
          opt_transform(s->ctx, "reuse %%%u as the base address of %%%u", p->id, pos->id))
         return p;
   return isel_build2(s, pos, ISA_SEM_IADD, addr, isel_imm(s, pos, base));
}

/* The address of memory instruction r (selected for in): operand 0, set
 * to in's address already, and, when the op has one, operand `off` (an
 * immediate byte offset). An address computed as x + k becomes x and
 * offset k where the op takes k; global addresses get the buffer's base. */
static void
set_address(struct isel *s, struct ir_instr *in, struct ir_instr *r, bool global, int off)
{
   struct ir_instr *a = in->src[0], *x;
   uint32_t k = 0, k1;
   while (off >= 0 && add_of_imm(s, a, &x, &k1)) { /* (x + k1) + k: one offset */
      ir_mach_set_fixed(r, (unsigned)off, k + k1);
      if (!opt_legal_possible(s->sh, r) ||
          !opt_transform(s->ctx, "fold +%u into the offset of %%%u", k1, in->id))
         break;
      a = x;
      k += k1;
   }
   if (off >= 0)
      ir_mach_set_fixed(r, (unsigned)off, k);
   if (global)
      a = buffer_address(s, r, a, in->res);
   ir_set_src(r, r->mach->first[0], a);
}

struct ir_instr *
isel_memory(struct isel *s, struct ir_instr *in)
{
   bool global = in->op == IR_OP_LOAD_BUFFER || in->op == IR_OP_STORE_BUFFER;
   bool load = in->op == IR_OP_LOAD_BUFFER || in->op == IR_OP_LOAD_SHARED;
   enum isa_sem sem = global ? (load ? ISA_SEM_LDG : ISA_SEM_STG)
                      : load ? ISA_SEM_LDL
                             : ISA_SEM_STL;
   if (s->op[sem] < 0)
      return isel_unsupported(s, in, isa_sem_name(sem)), NULL;
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)s->op[sem]);
   r->flags = in->flags;
   r->line = in->line;
   ir_insert_before(in, r);
   /* operands: address, offset, [data,] count */
   ir_mach_set_src(r, 0, &in->src[0], 1);
   if (load) {
      ir_mach_set_fixed(r, 2, 1);
   } else {
      ir_mach_set_src(r, 2, &in->src[1], 1);
      ir_mach_set_fixed(r, 3, 1);
   }
   isel_set_mod(s, r, s->mod_type, "u32");
   set_address(s, in, r, global, 1);
   return r;
}

/* ------------------------------------------------------------------ */
/* Atomics                                                              */

/* atomic: ATOM/ATOMS (sm50) or atomic.g/.l (a3xx) at the buffer's
 * address (+ a folded offset where the op takes one) or the shared
 * memory offset; the old word is the result. Compare-and-swap is the
 * model's *_CAS op with (compare, new) in a register pair, or the
 * cmpxchg operation with (new, compare). Images are buffers by now
 * (opt_images); operations the model lacks were compare-and-swap loops
 * (opt_atomics). */
struct ir_instr *
isel_atomic(struct isel *s, struct ir_instr *in)
{
   bool shared = in->space == IR_SPACE_shared, cas = in->aop == IR_AOP_cas;
   enum isa_sem sem = shared ? ISA_SEM_ATOMS : ISA_SEM_ATOM;
   enum isa_sem csem = shared ? ISA_SEM_ATOMS_CAS : ISA_SEM_ATOM_CAS;
   if (in->space == IR_SPACE_image)
      return isel_unsupported(s, in, "an image outside the emulator's images"), NULL;
   if (!opt_atomic_native(s->m, (enum ir_space)in->space, (enum ir_aop)in->aop))
      return isel_unsupported(s, in, "no such atomic operation"), NULL;
   bool cas_op = cas && s->op[csem] >= 0;
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)s->op[cas_op ? csem : sem]);
   r->flags = in->flags;
   r->line = in->line;
   ir_insert_before(in, r);
   unsigned data = r->mach->insn.nsrc == 3 ? 2 : 1; /* [address, offset,] data */
   ir_mach_set_src(r, 0, &in->src[0], 1);
   if (data == 2)
      ir_mach_set_fixed(r, 1, 0);
   if (cas) { /* the IR's sources: address, compare, new */
      struct ir_instr *pair[2] = {in->src[1], in->src[2]};
      if (!cas_op) {
         pair[0] = in->src[2];
         pair[1] = in->src[1];
      }
      ir_mach_set_src(r, data, pair, 2);
   } else {
      ir_mach_set_src(r, data, &in->src[1], 1);
   }
   if (!cas_op) {
      const char *name, *type;
      opt_atomic_form(s->m, (enum ir_aop)in->aop, &name, &type);
      isel_set_mod(s, r, isa_mod_by_role(s->m, ISA_ROLE_ATOM_OP), name);
      isel_set_mod(s, r, opt_atomic_type_mod(s->m, r->mach->insn.op, type), type);
   }
   set_address(s, in, r, !shared, data == 2 ? 1 : -1);
   return r;
}

/* RESQ: each component read becomes a constant the driver provides
 * (EMU_BIND_SIZE), or a fixed value, as the reference compiler reads them:
 * a buffer's or shared memory's bytes in .x; an image's width, height (a
 * 1-D array's layers), depth or layers, and 1 sample for multisampled
 * targets in .w. */
bool
isel_res_size(struct isel *s, struct ir_instr *in)
{
   int32_t file = in->space == IR_SPACE_buffer   ? TGSI_FILE_BUFFER
                  : in->space == IR_SPACE_shared ? TGSI_FILE_MEMORY
                                                 : TGSI_FILE_IMAGE;
   int32_t t = in->target,
           coords = file == TGSI_FILE_IMAGE ? (int32_t)tgsi_texture_coord_count(t) : 1;
   for (unsigned i = 0; i < s->sh->nvalues; i++) {
      struct ir_instr *e = s->sh->values[i];
      if (!e || e->removed || e->op != IR_OP_EXTRACT || e->src[0] != in)
         continue;
      int32_t c = e->comp & 3, chan = -1;
      uint32_t fixed = 0;
      if (c == 0)
         chan = 0;
      else if (c == 1 && coords >= 2)
         chan = t == TGSI_TEX_T_1D_ARRAY ? 2 : 1;
      else if (c == 2 && coords >= 3)
         chan = 2;
      else if (c == 3)
         fixed = t == TGSI_TEX_T_2D_MSAA || t == TGSI_TEX_T_2D_ARRAY_MSAA;
      struct ir_instr *v;
      if (chan >= 0 && (file == TGSI_FILE_IMAGE || c == 0)) {
         v = opt_build_before(s->sh, in, IR_OP_LOAD_CONST, 0, NULL);
         v->buf = IR_SIZE_BUF + file;
         v->slot = in->res;
         v->comp = chan;
         isel_bind_const(s, v);
      } else {
         v = isel_imm(s, in, fixed);
      }
      opt_replace(s->sh, e, v);
   }
   ir_instr_remove(in);
   return true;
}

/* A conversion op typed by its operands (sm50 F2F.F16.F32), not by
 * modifiers. */
static bool
has_typed_conversion(const struct isel *s, enum isa_type from, enum isa_type to)
{
   unsigned ncov;
   const uint16_t *covs = isa_ops_by_sem(s->m, ISA_SEM_COV, &ncov);
   for (unsigned i = 0; i < ncov; i++) {
      struct isa_slot_info si, di;
      if (isa_slot_info(s->m, covs[i], false, 0, &si) &&
          isa_slot_info(s->m, covs[i], true, 0, &di) && si.type == from && di.type == to)
         return true;
   }
   return false;
}

/* The model's half register file (a3xx hr: its own registers, no aliasing
 * with the full file), or -1. */
static int
half_file(const struct isel *s)
{
   for (unsigned f = 0; f < isa_file_count(s->m); f++) {
      struct isa_file_info fi;
      isa_file_info(s->m, f, &fi);
      if (fi.kind == ISA_FILE_HALF && fi.half_of < 0)
         return (int)f;
   }
   return -1;
}

/* A cov typed by modifiers (a3xx) through a half register, as ir3 does:
 * f32 -> f16 into hrN then its bits zero-extended (cov.u16u32), or the
 * low 16 bits into hrN (cov.u32u16) then f16 -> f32. RA places the half
 * value in its file. */
static struct ir_instr *
half_cov(struct isel *s, struct ir_instr *pos, struct ir_instr *a, bool to_half, int hf)
{
   struct ir_instr *h = isel_cov(s, pos, a, to_half ? "f32" : "u32", to_half ? "f16" : "u16");
   if (!h)
      return NULL;
   ir_mach_get(s->m, h)->reg = (struct ir_reg){(int16_t)hf, 0, 0};
   return isel_cov(s, pos, h, to_half ? "u16" : "f16", to_half ? "u32" : "f32");
}

/* f2h or h2f of a, by whichever form the model has. */
static struct ir_instr *
half_convert(struct isel *s, struct ir_instr *pos, struct ir_instr *a, bool to_half, int hf)
{
   if (hf >= 0)
      return half_cov(s, pos, a, to_half, hf);
   return to_half ? isel_convert(s, pos, a, ISA_TYPE_F32, ISA_TYPE_F16)
                  : isel_convert(s, pos, a, ISA_TYPE_F16, ISA_TYPE_F32);
}

/* x, or the one quiet NaN 0x7fc00000 where x is a NaN (x != x). */
static struct ir_instr *
quiet_nan(struct isel *s, struct ir_instr *pos, struct ir_instr *x)
{
   struct ir_instr *nan;
   if (s->setp) {
      nan = isel_setp(s, pos, ISA_SEM_FSETP, x, x, "ne", NULL);
   } else {
      nan = isel_build2(s, pos, ISA_SEM_FCMP, x, x);
      isel_set_cond(s, nan, "ne");
      if (s->lanemask)
         isel_in_mask_file(s, nan);
   }
   struct ir_instr *q = isel_imm(s, pos, 0x7fc00000u);
   return nan ? isel_build3(s, pos, ISA_SEM_SEL, q, nan, x) : NULL;
}

/* pack_half(a, b) = f2h(a) | f2h(b) << 16, every NaN packed as the one
 * quiet NaN (a select of 0x7fc00000 first, as the reference compiler);
 * unpack_half_lo/hi = h2f of the low or high half. The conversion is an
 * op typed f32 -> f16 into a full register (sm50 F2F), or a cov typed by
 * modifiers through a half register (a3xx). */
struct ir_instr *
isel_half(struct isel *s, struct ir_instr *in)
{
   int hf = -1;
   if (!has_typed_conversion(s, ISA_TYPE_F32, ISA_TYPE_F16) ||
       !has_typed_conversion(s, ISA_TYPE_F16, ISA_TYPE_F32)) {
      hf = half_file(s);
      if (hf < 0 || s->mod_src_type < 0 || s->mod_dst_type < 0)
         return isel_unsupported(s, in, "no f16 conversion"), NULL;
   }
   if (in->op != IR_OP_PACK_HALF) {
      struct ir_instr *v = in->src[0];
      if (in->op == IR_OP_UNPACK_HALF_HI)
         v = isel_shift(s, in, ISA_SEM_SHR, false, "u32", v, isel_imm(s, in, 16));
      return v ? half_convert(s, in, v, false, hf) : NULL;
   }
   struct ir_instr *h[2];
   for (unsigned k = 0; k < 2; k++) {
      struct ir_instr *v = quiet_nan(s, in, in->src[k]);
      h[k] = v ? half_convert(s, in, v, true, hf) : NULL;
      if (!h[k])
         return NULL;
   }
   struct ir_instr *hi = isel_shift(s, in, ISA_SEM_SHL, true, NULL, h[1], isel_imm(s, in, 16));
   return hi ? isel_build2(s, in, ISA_SEM_OR, h[0], hi) : NULL;
}

/* ------------------------------------------------------------------ */
/* gfx9: scalar values for memory and images                           */

int
isel_scalar_op(const struct isel *s, enum isa_sem sem, unsigned width)
{
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(s->m, sem, &n);
   int best = -1;
   unsigned best_size = ~0u;
   for (unsigned i = 0; i < n; i++) {
      struct isa_insn t;
      isa_insn_init(s->m, ops[i], &t);
      struct isa_class_info ci;
      isa_class_info(s->m, t.cls, &ci);
      unsigned w = 0;
      if (!ci.scalar || ci.flow || ci.sync != ISA_SYNC_NONE || !t.ndst ||
          sem_slot_type(s->m, &t, ISA_SLOT_DST(0), &w) == ISA_TYPE_NONE || w != width ||
          t.size >= best_size)
         continue;
      best = ops[i];
      best_size = t.size;
   }
   return best;
}

/* Is p a scalar move of `value` into the uniform file, of op `op`? */
static bool
scalar_mov_of(const struct isel *s, const struct ir_instr *p, int op, uint32_t value)
{
   if (p->op != IR_OP_MACH || (int)p->mach->insn.op != op || p->mach->count[0] != 1 ||
       ir_reg_file(p) != s->unif)
      return false;
   const struct ir_instr *v = p->src[p->mach->first[0]];
   return v->op == IR_OP_IMM && (uint32_t)v->imm == value;
}

/* A scalar move of value (width 32 or 64) before pos, or an earlier one
 * of the block. */
static struct ir_instr *
scalar_value(struct isel *s, struct ir_instr *pos, uint32_t value, unsigned width)
{
   int op = isel_scalar_op(s, ISA_SEM_MOV, width);
   if (op < 0 || s->unif < 0)
      return isel_unsupported(s, pos, "no scalar move"), NULL;
   for (struct ir_instr *p = pos->prev; p; p = p->prev)
      if (scalar_mov_of(s, p, op, value) &&
          opt_transform(s->ctx, "reuse scalar %%%u for %%%u", p->id, pos->id))
         return p;
   struct ir_instr *imm = isel_imm(s, pos, value);
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)op);
   ir_mach_set_src(r, 0, &imm, 1);
   ir_mach_get(s->m, r)->reg = (struct ir_reg){(int16_t)s->unif, 0, 0};
   r->flags = pos->flags;
   r->line = pos->line;
   ir_insert_before(pos, r);
   return r;
}

struct ir_instr *
isel_descriptor(struct isel *s, struct ir_instr *pos, uint32_t value)
{
   return scalar_value(s, pos, value, 32);
}

struct ir_instr *
isel_scalar_pair(struct isel *s, struct ir_instr *pos, uint32_t value)
{
   return scalar_value(s, pos, value, 64);
}

/* ------------------------------------------------------------------ */
/* gfx9: GLOBAL with a scalar base, DS                                  */

/* Whether op has two offsets in elements (gfx9 ds_read2/ds_write2: two
 * places). */
static bool
two_offsets(const struct isel *s, unsigned op, unsigned nsrc)
{
   unsigned n = 0;
   for (unsigned i = 0; i < nsrc; i++) {
      struct isa_slot_info si;
      n += isa_slot_info(s->m, op, false, i, &si) && si.elements;
   }
   return n >= 2;
}

/* The vector op of semantics sem moving one u32 word (its result, or its
 * data operand) to one place, the form with the most sources (GLOBAL: the
 * one with a scalar base, saddr) whose atom_op modifier, when aop is given,
 * is named aop; -1 if none. */
static int
word_op(const struct isel *s, enum isa_sem sem, const char *aop)
{
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(s->m, sem, &n);
   int best = -1, best_nsrc = -1;
   for (unsigned i = 0; i < n; i++) {
      struct isa_insn t;
      isa_insn_init(s->m, ops[i], &t);
      struct isa_class_info ci;
      isa_class_info(s->m, t.cls, &ci);
      struct isa_slot_info si;
      bool dst = sem == ISA_SEM_LDG || sem == ISA_SEM_LDL;
      int slot = dst ? ISA_SLOT_DST(0) : ISA_SLOT_SRC(1);
      if (ci.scalar || !isa_slot_info(s->m, ops[i], dst, dst ? 0 : 1, &si) ||
          two_offsets(s, ops[i], t.nsrc) ||
          (!aop && (si.type != ISA_TYPE_U32 || isa_opnd_count(s->m, &t, slot) != 1)))
         continue;
      if (aop) {
         int mod = isa_insn_mod_by_role(s->m, &t, ISA_ROLE_ATOM_OP);
         const char *name = mod >= 0 ? isa_mod_value_name(s->m, (unsigned)mod, t.mod[mod]) : NULL;
         if (!name || strcmp(name, aop))
            continue;
      }
      if ((int)t.nsrc > best_nsrc) {
         best = ops[i];
         best_nsrc = t.nsrc;
      }
   }
   return best;
}

/* The memory op `op` for in, before in: address operand 0, then the
 * data values, then for GLOBAL the scalar base pair (the buffer's
 * EMU_ADDR_BUFFER, one s_mov_b64 per block), then the offset. */
static struct ir_instr *
based_access(struct isel *s, struct ir_instr *in, int op, bool global, struct ir_instr **data,
             unsigned ndata)
{
   if (op < 0)
      return isel_unsupported(s, in, "no such memory op in the model"), NULL;
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)op);
   unsigned k = 0, want = 1 + (ndata ? 1 : 0) + (global ? 1 : 0) + 1;
   if (r->mach->insn.nsrc != want) {
      ir_instr_remove(r);
      return isel_unsupported(s, in, "a memory op of another shape"), NULL;
   }
   r->flags = in->flags;
   r->line = in->line;
   ir_insert_before(in, r);
   ir_mach_set_src(r, k++, &in->src[0], 1);
   if (ndata)
      ir_mach_set_src(r, k++, data, ndata);
   if (global) {
      struct ir_instr *base = scalar_value(s, r, EMU_ADDR_BUFFER((uint32_t)in->res), 64);
      if (!base)
         return NULL;
      ir_mach_set_src(r, k++, &base, 1);
   }
   ir_mach_set_fixed(r, k, 0);
   set_address(s, in, r, false, (int)k);
   return r;
}

struct ir_instr *
isel_memory_based(struct isel *s, struct ir_instr *in)
{
   bool global = in->op == IR_OP_LOAD_BUFFER || in->op == IR_OP_STORE_BUFFER;
   bool load = in->op == IR_OP_LOAD_BUFFER || in->op == IR_OP_LOAD_SHARED;
   enum isa_sem sem = global ? (load ? ISA_SEM_LDG : ISA_SEM_STG)
                      : load ? ISA_SEM_LDL
                             : ISA_SEM_STL;
   return based_access(s, in, word_op(s, sem, NULL), global, load ? NULL : &in->src[1],
                       load ? 0 : 1);
}

/* A word of a stage window (gfx9 geometry and tessellation control: emu.h
 * EMU_ADDR_STAGE_IN/OUT) at base + voff + off, before pos: GLOBAL's
 * scalar-base form, the window's base in an s_mov_b64 pair, voff the
 * lane's byte offset (its vertex), off the op's immediate offset. A store
 * when data is given (no result), else a load. */
struct ir_instr *
isel_window_word(struct isel *s, struct ir_instr *pos, uint32_t base, struct ir_instr *voff,
                 uint32_t off, struct ir_instr *data)
{
   int op = word_op(s, data ? ISA_SEM_STG : ISA_SEM_LDG, NULL);
   if (op < 0)
      return isel_unsupported(s, pos, "no such memory op in the model"), NULL;
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)op);
   unsigned k = 0;
   if (r->mach->insn.nsrc != (data ? 4u : 3u)) {
      ir_instr_remove(r);
      return isel_unsupported(s, pos, "a memory op of another shape"), NULL;
   }
   r->flags = pos->flags;
   r->line = pos->line;
   ir_insert_before(pos, r);
   ir_mach_set_src(r, k++, &voff, 1);
   if (data)
      ir_mach_set_src(r, k++, &data, 1);
   struct ir_instr *b = scalar_value(s, r, base, 64);
   if (!b)
      return NULL;
   ir_mach_set_src(r, k++, &b, 1);
   ir_mach_set_fixed(r, k, off);
   return r;
}

/* Atomics: the op whose opcode holds the operation (GLOBAL glc and DS
 * _rtn forms return the old word); compare-and-swap takes (new,
 * compare) as a pair. */
struct ir_instr *
isel_atomic_based(struct isel *s, struct ir_instr *in)
{
   static const char *const names[IR_AOP_COUNT] = {
       [IR_AOP_add] = "add",   [IR_AOP_xchg] = "xchg",    [IR_AOP_cas] = "cmpxchg",
       [IR_AOP_and] = "and",   [IR_AOP_or] = "or",        [IR_AOP_xor] = "xor",
       [IR_AOP_umin] = "umin", [IR_AOP_umax] = "umax",    [IR_AOP_imin] = "smin",
       [IR_AOP_imax] = "smax", [IR_AOP_inc_wrap] = "inc", [IR_AOP_dec_wrap] = "dec",
   };
   bool shared = in->space == IR_SPACE_shared;
   if (in->space == IR_SPACE_image)
      return isel_unsupported(s, in, "an image outside the emulator's images"), NULL;
   const char *name = in->aop < IR_AOP_COUNT ? names[in->aop] : NULL;
   int op = name ? word_op(s, shared ? ISA_SEM_ATOMS : ISA_SEM_ATOM, name) : -1;
   if (op < 0)
      return isel_unsupported(s, in, "an atomic the gfx9 model has no op for"), NULL;
   struct ir_instr *pair[2] = {in->src[1], NULL};
   if (in->aop == IR_AOP_cas) {
      pair[0] = in->src[2];
      pair[1] = in->src[1];
   }
   return based_access(s, in, op, !shared, pair, in->aop == IR_AOP_cas ? 2 : 1);
}

/* ------------------------------------------------------------------ */
/* Constants read with a computed index, constants in registers        */

/* gfx9 binds every constant to a scalar register (const_in_regs), so an
 * indirect read is a select over buffer b's slots, in generic IR before
 * the inputs are hoisted: v = c[j] where slot + index == j, 0 outside
 * the buffer (as the reference compiler's select_indirect and the other
 * targets' clamped reads give); when those slots outnumber the scalar
 * registers, or when a compile with the selects ran out of them (the
 * other constants, lane masks and descriptors share the file:
 * opt_ctx.ind_loads), a load from memory (const_ind_load). */
/* The compares of one index (slot + index == j), shared by the reads of
 * its components in one block. */
struct ind_hits {
   const struct ir_block *block;
   const struct ir_instr *index;
   int32_t buf, slot;
   struct ir_instr **hit;
};

static void
const_ind_select(struct isel *s, struct ir_instr *in, struct ind_hits *h)
{
   uint32_t n = in->buf >= 0 && in->buf < IR_MAX_CBUFS ? s->sh->cbuf_slots[in->buf] : 0;
   if (!n) {
      isel_unsupported(s, in, "indirect constants outside a declared buffer");
      return;
   }
   if (h->block != in->block || h->index != in->src[0] || h->buf != in->buf ||
       h->slot != in->slot) {
      *h = (struct ind_hits){in->block, in->src[0], in->buf, in->slot,
                             xrealloc(h->hit, n * sizeof(*h->hit))};
      struct ir_instr *idx =
          opt_build2_before(s->sh, in, IR_OP_IADD, in->src[0], isel_imm(s, in, (uint32_t)in->slot));
      for (uint32_t j = 0; j < n; j++)
         h->hit[j] = opt_build2_before(s->sh, in, IR_OP_IEQ, idx, isel_imm(s, in, j));
   }
   struct ir_instr *v = isel_imm(s, in, 0);
   for (uint32_t j = 0; j < n; j++) {
      struct ir_instr *c = opt_build_before(s->sh, in, IR_OP_LOAD_CONST, 0, NULL);
      c->buf = in->buf;
      c->slot = (int32_t)j;
      c->comp = in->comp;
      struct ir_instr *src[3] = {h->hit[j], c, v};
      v = opt_build_before(s->sh, in, IR_OP_BCSEL, 3, src);
   }
   opt_replace(s->sh, in, v);
}

_Static_assert(EMU_ADDR_BUFFER(IR_CBUF_RES + 5) == EMU_ADDR_CONST(5),
               "constant buffer b is buffer IR_CBUF_RES + b");

/* When the selects' constants do not fit the scalar registers: a load of
 * the word from the buffer in memory, at the index clamped to it, 0
 * outside (a VMEM load per lane, as real gfx9 code reads a constant at a
 * divergent index). The reads of one index in a block share its clamp;
 * the immediates are made once, at the program's start. */
struct ind_load {
   struct ir_instr *first; /* the program's first instruction */
   struct ir_instr *imm[8];
   unsigned nimm;
   const struct ir_block *block;
   const struct ir_instr *index;
   int32_t buf, slot;
   struct ir_instr *base, *ok;
};

static struct ir_instr *
shared_imm(struct isel *s, struct ind_load *l, uint32_t v)
{
   for (unsigned k = 0; k < l->nimm; k++)
      if ((uint32_t)l->imm[k]->imm == v)
         return l->imm[k];
   struct ir_instr *i = isel_imm(s, l->first, v);
   if (l->nimm < ARRAY_SIZE(l->imm))
      l->imm[l->nimm++] = i;
   return i;
}

static void
const_ind_load(struct isel *s, struct ir_instr *in, struct ind_load *l)
{
   uint32_t n = in->buf >= 0 && in->buf < IR_MAX_CBUFS ? s->sh->cbuf_slots[in->buf] : 0;
   if (!n) {
      isel_unsupported(s, in, "indirect constants outside a declared buffer");
      return;
   }
   struct ir_shader *sh = s->sh;
   if (l->block != in->block || l->index != in->src[0] || l->buf != in->buf ||
       l->slot != in->slot) {
      struct ir_instr *i0 =
          opt_build2_before(sh, in, IR_OP_IADD, in->src[0], shared_imm(s, l, (uint32_t)in->slot));
      struct ir_instr *i1 = opt_build2_before(sh, in, IR_OP_IMAX, i0, shared_imm(s, l, 0));
      struct ir_instr *i2 = opt_build2_before(sh, in, IR_OP_IMIN, i1, shared_imm(s, l, n - 1));
      l->base = opt_build2_before(sh, in, IR_OP_ISHL, i2, shared_imm(s, l, 4));
      l->ok = opt_build2_before(sh, in, IR_OP_IEQ, i0, i2);
      l->block = in->block;
      l->index = in->src[0];
      l->buf = in->buf;
      l->slot = in->slot;
   }
   struct ir_instr *b = l->base;
   if (in->comp & 3)
      b = opt_build2_before(sh, in, IR_OP_IADD, b, shared_imm(s, l, 4u * (uint32_t)(in->comp & 3)));
   struct ir_instr *v = opt_build_before(sh, in, IR_OP_LOAD_BUFFER, 1, &b);
   v->res = IR_CBUF_RES + in->buf;
   struct ir_instr *src[3] = {l->ok, v, shared_imm(s, l, 0)};
   opt_replace(sh, in, opt_build_before(sh, in, IR_OP_BCSEL, 3, src));
}

void
isel_const_ind_selects(struct isel *s)
{
   if (s->cnst >= 0 || s->unif < 0)
      return;
   struct ir_instr **order;
   unsigned n = ir_program_order(s->sh, &order);
   bool seen[IR_MAX_CBUFS][4] = {{false}};
   uint32_t regs = 0; /* the constants the selects read, each in a register */
   for (unsigned i = 0; i < n; i++) {
      const struct ir_instr *in = order[i];
      if (in->op == IR_OP_LOAD_CONST_IND && in->buf >= 0 && in->buf < IR_MAX_CBUFS &&
          !seen[in->buf][in->comp & 3]) {
         seen[in->buf][in->comp & 3] = true;
         regs += s->sh->cbuf_slots[in->buf];
      }
   }
   uint32_t cap = opt_file_capacity(s->m, (unsigned)s->unif);
   struct ind_hits h = {0};
   struct ind_load l = {.first = n ? order[0] : NULL};
   for (unsigned i = 0; i < n && !s->ctx->failed; i++) {
      if (order[i]->op != IR_OP_LOAD_CONST_IND || order[i]->removed)
         continue;
      if (regs > cap || s->ctx->ind_loads) {
         const_ind_load(s, order[i], &l);
      } else {
         s->ctx->ind_selects = true;
         const_ind_select(s, order[i], &h);
      }
   }
   free(h.hit);
   free(order);
}
