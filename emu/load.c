/*
 * Decode once: a program's bytes become an array of struct emu_op, each
 * holding everything the dispatcher needs without looking at the model
 * again -- the kind of work, the kernel, resolved register units and
 * constant slots, source views and modifiers, the timing facts of its
 * class and control word, and branch targets as instruction indices.
 *
 * All timing numbers come from the model: class latency, soft (the
 * documented latency of a variable-latency class), read_early, the slot's
 * read_delay and the hazard parameters addr_write, pred_latency,
 * war_latency and bar_min. Which of them apply depends only on the
 * model's hazard mechanism.
 */
#include "emu/emu_priv.h"

#include <stdio.h>
#include <stdlib.h>

static int
mod_of(const struct isa_model *m, enum isa_role r)
{
   return isa_mod_by_role(m, r);
}

static int
mod_val(const struct isa_model *m, const struct isa_insn *in, enum isa_role r)
{
   int k = isa_mod_by_role(m, r);
   return k >= 0 ? in->mod[k] : 0;
}

int
emu_sync_kind(const struct emu_code *c, enum isa_sync s, int bar)
{
   switch (s) {
   case ISA_SYNC_NONE:
      return 0;
   case ISA_SYNC_SS:
      return 1;
   case ISA_SYNC_SY:
      return 2;
   case ISA_SYNC_VMCNT: /* counters (gfx9): kinds 1..3, see timing.c */
      return 1;
   case ISA_SYNC_LGKMCNT:
      return 2;
   case ISA_SYNC_EXPCNT:
      return 3;
   case ISA_SYNC_SCOREBOARD: {
      int nsb = isa_hazard_param(c->model, "scoreboards", 6);
      return bar >= 0 && bar < nsb && bar < EMU_NSYNC - 2 ? bar + 1 : EMU_SYNC_NEVER;
   }
   case ISA_SYNC_WAIT_SLOT: { /* agx: slot s is kind s + 1, like a scoreboard */
      int ns = isa_hazard_param(c->model, "slots", 2);
      return bar >= 0 && bar < ns && bar < EMU_NSYNC - 2 ? bar + 1 : EMU_SYNC_NEVER;
   }
   default:
      return EMU_SYNC_NEVER;
   }
}

/* The const store slot base of (file, bank), added on first use. */
static uint32_t
cbank_base(struct emu_code *c, unsigned file, unsigned bank)
{
   for (unsigned i = 0; i < c->ncbanks; i++)
      if (c->cbanks[i].file == file && c->cbanks[i].bank == bank)
         return c->cbanks[i].base;
   struct emu_cbank b = {(uint8_t)file, (uint16_t)bank, c->nconst};
   c->nconst += c->files[file].count;
   VEC_PUSH(c->cbanks, c->ncbanks, c->cbanks_cap, b);
   return b.base;
}

static int
addr_file(const struct emu_code *c)
{
   for (unsigned f = 0; f < c->nfiles; f++)
      if (c->files[f].kind == ISA_FILE_ADDRESS)
         return (int)f;
   return -1;
}

static bool
load_err(struct diag_list *d, const struct isa_insn *in, const char *fmt, const char *what)
{
   char buf[160];
   snprintf(buf, sizeof(buf), fmt, what);
   diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL, "instruction at 0x%x: %s", in->addr, buf);
   return false;
}

/* How many consecutive registers the operand in `slot` covers, computed
 * here from the model's `count:` facts (isa/README.md) and not through
 * isa_opnd_count(), the compilers' answer: a group the compilers size
 * wrong then reads or clobbers registers the emulator does not agree on. */
unsigned
emu_opnd_count(const struct isa_model *m, const struct isa_insn *in, int slot)
{
   bool dst = slot < ISA_MAX_DST;
   unsigned i = (unsigned)(dst ? slot : slot - ISA_MAX_DST);
   struct isa_count_info ci;
   if (slot < 0 || !isa_slot_count_info(m, in->op, dst, i, &ci))
      return 1;
   if (ci.mask_mod >= 0) { /* a write mask: up to its highest set bit */
      uint16_t mask = (uint16_t)in->mod[ci.mask_mod];
      unsigned top = 0;
      for (unsigned b = 0; b < 16; b++)
         if (mask & (1u << b))
            top = b + 1;
      return top ? top : 1;
   }
   if (ci.imm_slot >= 0) { /* an immediate operand holds the count */
      const struct isa_opnd *o = NULL;
      if (ci.imm_slot < ISA_MAX_DST && ci.imm_slot < in->ndst)
         o = &in->dst[ci.imm_slot];
      else if (ci.imm_slot >= ISA_MAX_DST && ci.imm_slot - ISA_MAX_DST < in->nsrc)
         o = &in->src[ci.imm_slot - ISA_MAX_DST];
      if (o && o->kind == ISA_OPND_IMM && o->value >= 1 && o->value <= 64)
         return o->value;
      return 1;
   }
   unsigned n = ci.n; /* a base plus what the modifiers add */
   struct isa_count_term t;
   for (unsigned k = 0; k < ci.nterms && isa_slot_count_term(m, in->op, dst, i, k, &t); k++)
      for (unsigned j = 0; j < t.nvals; j++)
         if (t.mod >= 0 && in->mod[t.mod] == t.val[j])
            n += t.add[j];
   return n ? n : 1;
}

static bool alias_unit(const struct emu_code *c, unsigned file, unsigned index, uint32_t *unit,
                       bool *hi);

/* DPP (isa/isa.h "DPP"): the lane control of an op whose source reads
 * another lane, its write masks, and the source the control names
 * (`operand:` of its first modifier). */
static void
set_dpp(const struct emu_code *c, const struct isa_insn *in, struct emu_op *op)
{
   const struct isa_model *m = c->model;
   int q0 = mod_of(m, ISA_ROLE_DPP_QP0), row = mod_of(m, ISA_ROLE_DPP_ROW), ctl;
   unsigned v;
   if (isa_op_has_mod(m, in->op, q0)) {
      static const enum isa_role qr[4] = {ISA_ROLE_DPP_QP0, ISA_ROLE_DPP_QP1, ISA_ROLE_DPP_QP2,
                                          ISA_ROLE_DPP_QP3};
      v = 0;
      for (unsigned k = 0; k < 4; k++)
         v |= (unsigned)(mod_val(m, in, qr[k]) & 3) << (2 * k);
      ctl = q0;
   } else if (isa_op_has_mod(m, in->op, row)) {
      v = 0x100u | (unsigned)(in->mod[row] & 3) << 4 |
          (unsigned)(mod_val(m, in, ISA_ROLE_DPP_SHIFT) & 15);
      ctl = row;
   } else {
      return;
   }
   op->dpp = (uint16_t)(1 + v);
   op->dpp_bound = mod_val(m, in, ISA_ROLE_DPP_BOUND) != 0;
   int rm = mod_of(m, ISA_ROLE_DPP_ROW_MASK), bm = mod_of(m, ISA_ROLE_DPP_BANK_MASK);
   op->dpp_rows = (uint8_t)(isa_op_has_mod(m, in->op, rm) ? in->mod[rm] & 15 : 15);
   op->dpp_banks = (uint8_t)(isa_op_has_mod(m, in->op, bm) ? in->mod[bm] & 15 : 15);
   const char *on = isa_mod_operand(m, (unsigned)ctl);
   for (unsigned i = 0; on && i < in->nsrc; i++) {
      struct isa_slot_info si;
      isa_slot_info(m, in->op, false, i, &si);
      op->src[i].dpp = si.name && !strcmp(si.name, on);
   }
}

/* A 64-bit operand of an FP64 op (emu_exec_wide) in a file of 32-bit
 * registers is a pair: both registers are read or written, so both must
 * lie in the file and both are timed and cleared. The fixed register (RZ)
 * stays one operand: it reads as a pair of zeros and discards writes. */
static unsigned
pair_count(const struct emu_code *c, const struct emu_op *op, const struct isa_opnd *o,
           unsigned width, unsigned count)
{
   if (op->kind != EMU_K_WIDE || width != 64 || count >= 2 || o->kind != ISA_OPND_REG ||
       o->file >= c->nfiles || (o->flags & ISA_OPND_F_REL))
      return count;
   const struct emu_file *f = &c->files[o->file];
   if (f->width != 32 || f->kind == ISA_FILE_CONST ||
       (f->fixed >= 0 && o->index == (unsigned)f->fixed))
      return count;
   return 2;
}

static bool
set_src(struct emu_code *c, struct emu_op *op, const struct isa_insn *in, unsigned i, bool raw,
        struct diag_list *d)
{
   const struct isa_model *m = c->model;
   const struct isa_opnd *o = &in->src[i];
   struct emu_src *s = &op->src[i];
   int slot = ISA_SLOT_SRC(i);
   s->src_slot = (uint8_t)(i + 1);
   unsigned width;
   enum isa_type t = sem_slot_type(m, in, slot, &width);
   struct isa_slot_info si;
   isa_slot_info(m, in->op, false, i, &si);
   struct isa_class_info ci;
   isa_class_info(m, in->cls, &ci);
   s->isfloat = isa_type_is_float(t);
   s->mods = o->flags & (ISA_OPND_F_NEG | ISA_OPND_F_ABS | ISA_OPND_F_NOT);
   s->rinc = (o->flags & ISA_OPND_F_R) != 0;
   s->count = (uint8_t)pair_count(c, op, o, width, emu_opnd_count(m, in, slot));
   if (c->delay_slots)
      s->read_adj = (int8_t)(si.read_delay - ci.read_early);
   if (!raw && width == 16)
      s->conv = t == ISA_TYPE_F16 ? EMU_CV_F16 : t == ISA_TYPE_S16 ? EMU_CV_S16 : EMU_CV_U16;
   s->mod16 = raw && width == 16;
   s->file = o->file;
   s->index = o->index;
   s->sext = (o->flags & ISA_OPND_F_SEXT) != 0;
   for (int r = ISA_ROLE_SRC0_SEL; r <= ISA_ROLE_SRC1_SEL; r++) {
      int md = isa_mod_by_role(m, (enum isa_role)r);
      const char *on = md >= 0 ? isa_mod_operand(m, (unsigned)md) : NULL;
      if (on && si.name && !strcmp(on, si.name) && in->mod[md] < SEM_SEL_DWORD)
         s->sel = (uint8_t)(1 + in->mod[md]);
   }
   switch (o->kind) {
   case ISA_OPND_NONE:
      s->kind = EMU_S_NONE;
      return true;
   case ISA_OPND_IMM:
      s->kind = EMU_S_IMM;
      s->value = o->value;
      s->value_hi = o->hi;
      s->conv = EMU_CV_NONE; /* immediates are already 32-bit values */
      return true;
   default:
      break;
   }
   if (o->file >= c->nfiles)
      return load_err(d, in, "%s", "operand in no register file");
   const struct emu_file *f = &c->files[o->file];
   bool rel = (o->flags & ISA_OPND_F_REL) != 0;
   if (rel) {
      int af = addr_file(c);
      if (af < 0 || o->bank >= c->files[af].count)
         return load_err(d, in, "%s", "relative operand without an address register");
      s->addr_unit = c->files[af].base + o->bank;
      s->value = o->value;
      s->limit = f->count;
      if (f->kind == ISA_FILE_CONST) {
         s->kind = EMU_S_REL_CONST;
         s->base = cbank_base(c, o->file, 0); /* o->bank names the address register */
      } else {
         s->kind = EMU_S_REL_REG;
         s->base = f->base;
      }
      return true;
   }
   if (o->index >= f->count)
      return load_err(d, in, "%s", "register index beyond its file");
   /* A negated predicate is the other truth value, not ~bits. */
   bool pnot = f->kind == ISA_FILE_PREDICATE && (s->mods & ISA_OPND_F_NOT);
   if (pnot)
      s->mods &= (uint8_t)~ISA_OPND_F_NOT;
   if (f->fixed >= 0 && o->index == f->fixed && s->count == 1 && !s->rinc) {
      s->kind = EMU_S_IMM; /* RZ, PT: a constant, never a hazard */
      s->value = f->fixed_value ^ (pnot ? 1u : 0u);
      s->value_hi = s->value; /* a pair of it */
      s->conv = EMU_CV_NONE;
      return true;
   }
   if (pnot)
      s->conv = EMU_CV_PNOT;
   /* a group, or a repeat stepping the index ((rptN) with (r)), stays in
    * the file: a constant too (c511.w stepped 3 times read past the store) */
   if (o->index + s->count + (unsigned)(s->rinc ? mod_val(m, in, ISA_ROLE_RPT) : 0) > f->count)
      return load_err(d, in, "%s", "register group runs past its file");
   if (f->kind == ISA_FILE_CONST) {
      s->kind = EMU_S_CONST;
      s->unit = cbank_base(c, o->file, o->bank) + o->index;
      return true;
   }
   s->kind = EMU_S_REG;
   s->unit = f->base + o->index;
   s->limit = f->count - o->index;
   bool hi;
   if (alias_unit(c, o->file, o->index, &s->unit, &hi)) {
      if (s->count != 1 || s->rinc)
         return load_err(d, in, "%s", "a group of half registers is not modelled");
      s->hi = hi;
      s->limit = 1;
      if (s->conv == EMU_CV_NONE) /* raw moves still read 16 bits */
         s->conv = EMU_CV_U16;
   }
   /* a sign-extended 16-bit integer source (agx iadd sext) */
   if ((o->flags & ISA_OPND_F_SEXT) && s->conv == EMU_CV_U16)
      s->conv = EMU_CV_S16;
   return true;
}

/* Cycles from issue until a fixed-latency result written to `file` is
 * visible. Delay-slot models count the slots between the two instructions,
 * so a result is visible latency + 1 cycles after issue; stall-count models
 * count cycles from issue to issue. */
static int32_t
dst_latency(const struct emu_code *c, const struct isa_class_info *ci, unsigned file, bool *plain)
{
   const struct isa_model *m = c->model;
   int lat = ci->latency < 0 ? 0 : ci->latency;
   enum isa_file_kind k = c->files[file].kind;
   *plain = false;
   if (c->hazard == ISA_HAZARD_DELAY_SLOTS && k == ISA_FILE_ADDRESS) {
      lat = isa_hazard_param(m, "addr_write", lat);
      *plain = true;
   }
   if (c->hazard == ISA_HAZARD_STALL_COUNTS && k == ISA_FILE_PREDICATE)
      lat = isa_hazard_param(m, "pred_latency", lat);
   if (c->hazard == ISA_HAZARD_INTERLOCKED)
      lat = 0;
   /* Wait states: VALU -> VALU is interlocked, but some consumers need
    * s_nop wait states; a read within nop_max + 1 of the write looks up
    * the model's wait-state table (timing.c), later ones are plain reads. */
   if (c->hazard == ISA_HAZARD_WAIT_STATES && ci->sync == ISA_SYNC_NONE)
      lat = isa_hazard_param(m, "nop_max", 15) + 2;
   return c->delay_slots ? lat + 1 : lat;
}

static bool
set_dst(struct emu_code *c, const struct isa_insn *in, unsigned i, struct emu_op *op, bool raw,
        struct diag_list *d)
{
   const struct isa_model *m = c->model;
   const struct isa_opnd *o = &in->dst[i];
   struct emu_dst *dd = &op->dst[i];
   if (o->kind == ISA_OPND_NONE)
      return true;
   if (o->kind != ISA_OPND_REG || (o->flags & ISA_OPND_F_REL))
      return load_err(d, in, "%s", "destination is not a plain register");
   if (o->file >= c->nfiles || c->files[o->file].kind == ISA_FILE_CONST)
      return load_err(d, in, "%s", "destination in no writable register file");
   const struct emu_file *f = &c->files[o->file];
   unsigned width;
   enum isa_type t = sem_slot_type(m, in, ISA_SLOT_DST(i), &width);
   dd->count = (uint8_t)pair_count(c, op, o, width, emu_opnd_count(m, in, ISA_SLOT_DST(i)));
   if (o->index + dd->count + (unsigned)op->rpt > f->count)
      return load_err(d, in, "%s", "destination runs past its register file");
   dd->kind = EMU_S_REG;
   dd->file = o->file;
   dd->index = o->index;
   dd->unit = f->base + o->index;
   dd->fixed_unit = UINT32_MAX;
   if (f->fixed >= 0 && (unsigned)f->fixed >= o->index &&
       (unsigned)f->fixed < o->index + dd->count + (unsigned)op->rpt)
      dd->fixed_unit = f->base + (unsigned)f->fixed;
   if (dd->fixed_unit == dd->unit && dd->count == 1 && !op->rpt)
      dd->kind = EMU_S_IMM; /* writes to RZ / PT are discarded */
   bool hi;
   if (alias_unit(c, o->file, o->index, &dd->unit, &hi)) {
      if (dd->count != 1 || op->rpt || (op->kind != EMU_K_ALU && op->kind != EMU_K_NOP))
         return load_err(d, in, "%s", "only ALU results may go to a half register");
      dd->half = hi ? 2 : 1;
   }
   /* Texture results are f32 or 32-bit integers: a half destination
    * converts; ALU results convert by what they are; loads keep bits. */
   bool fl = op->res == EMU_R_FLOAT || (op->kind == EMU_K_TEX && t == ISA_TYPE_F16);
   if (!raw && width == 16)
      dd->conv = fl ? EMU_CV_F16 : EMU_CV_U16;
   struct isa_class_info ci;
   isa_class_info(m, in->cls, &ci);
   bool plain;
   dd->lat = dst_latency(c, &ci, o->file, &plain);
   dd->plain = plain;
   int ds = mod_of(m, ISA_ROLE_DST_SEL), du = mod_of(m, ISA_ROLE_DST_UNUSED);
   if (ds >= 0 && in->mod[ds] < SEM_SEL_DWORD) {
      dd->sel = (uint8_t)(1 + in->mod[ds]);
      dd->unused = (uint8_t)(du >= 0 ? in->mod[du] : 0);
   }
   return true;
}

static enum emu_res
sem_res(enum isa_sem s)
{
   switch (s) {
   case ISA_SEM_FADD:
   case ISA_SEM_FMUL:
   case ISA_SEM_FMIN:
   case ISA_SEM_FMAX:
   case ISA_SEM_FMAD:
   case ISA_SEM_FFMA:
   case ISA_SEM_FSIGN:
   case ISA_SEM_FFLOOR:
   case ISA_SEM_FCEIL:
   case ISA_SEM_FTRUNC:
   case ISA_SEM_FRNDNE:
   case ISA_SEM_FRNDAZ:
   case ISA_SEM_FABSNEG:
   case ISA_SEM_RCP:
   case ISA_SEM_RSQ:
   case ISA_SEM_LOG2:
   case ISA_SEM_EXP2:
   case ISA_SEM_SIN:
   case ISA_SEM_COS:
   case ISA_SEM_SQRT:
   case ISA_SEM_FSUB:
   case ISA_SEM_FMUL_LEGACY:
   case ISA_SEM_FRACT:
   case ISA_SEM_SIN_REV:
   case ISA_SEM_COS_REV:
   case ISA_SEM_SIN_PT_1:
   case ISA_SEM_SIN_PT_2:
   case ISA_SEM_CVT_UBYTE0:
   case ISA_SEM_CVT_UBYTE1:
   case ISA_SEM_CVT_UBYTE2:
   case ISA_SEM_CVT_UBYTE3:
   case ISA_SEM_FMAX3:
   case ISA_SEM_FMIN3:
   case ISA_SEM_FMED3:
   case ISA_SEM_LDEXP:
   case ISA_SEM_DIV_SCALE:
   case ISA_SEM_DIV_FMAS:
   case ISA_SEM_DIV_FIXUP:
   case ISA_SEM_CUBEID:
   case ISA_SEM_CUBESC:
   case ISA_SEM_CUBETC:
   case ISA_SEM_CUBEMA:
      return EMU_R_FLOAT;
   case ISA_SEM_FCMP:
   case ISA_SEM_UCMP:
   case ISA_SEM_SCMP:
   case ISA_SEM_BITCMP0:
   case ISA_SEM_BITCMP1:
   case ISA_SEM_UCMP64:
   case ISA_SEM_SCMP64:
      return EMU_R_BOOL;
   default:
      return EMU_R_INT;
   }
}

/* Semantics that move bits without interpreting them (no source views). */
static bool
sem_raw(enum isa_sem s)
{
   return s == ISA_SEM_MOV || s == ISA_SEM_COV || s == ISA_SEM_SEL || s == ISA_SEM_FSEL;
}

static enum emu_kind
sem_kind(enum isa_sem s)
{
   switch (s) {
   case ISA_SEM_NOP:
   case ISA_SEM_WAIT:
   case ISA_SEM_WAITCNT:
   case ISA_SEM_EXPORT_NULL: /* gfx9 exp null: a wave with no live pixel exports nothing */
      return EMU_K_NOP;
   case ISA_SEM_JUMP:
      return EMU_K_JUMP;
   case ISA_SEM_BRANCH:
      return EMU_K_BRANCH;
   case ISA_SEM_END:
      return EMU_K_END;
   case ISA_SEM_KILL:
   case ISA_SEM_SAMPLE_MASK:
      return EMU_K_KILL;
   case ISA_SEM_BARRIER:
      return EMU_K_BARRIER;
   case ISA_SEM_SSY:
      return EMU_K_SSY;
   case ISA_SEM_EXEC_IF:
   case ISA_SEM_EXEC_ELSE:
   case ISA_SEM_EXEC_WHILE:
   case ISA_SEM_EXEC_POP:
      return EMU_K_EXEC;
   case ISA_SEM_JMP_ANY:
   case ISA_SEM_JMP_NONE:
      return EMU_K_JMPX;
   case ISA_SEM_SYNC:
      return EMU_K_SYNC;
   case ISA_SEM_LDC:
      return EMU_K_LDC;
   case ISA_SEM_ATOM:
   case ISA_SEM_ATOMS:
   case ISA_SEM_ATOM_CAS:
   case ISA_SEM_ATOMS_CAS:
      return EMU_K_ATOMIC;
   case ISA_SEM_DSX:
   case ISA_SEM_DSY:
   case ISA_SEM_FSWZADD:
   case ISA_SEM_SHFL:
   case ISA_SEM_VOTE:
   case ISA_SEM_READLANE:
   case ISA_SEM_WRITELANE:
   case ISA_SEM_READFIRSTLANE:
   case ISA_SEM_BPERMUTE:
   case ISA_SEM_QUAD_SWIZZLE:
   case ISA_SEM_BALLOT_CMP:
   case ISA_SEM_SIMD_SHUFFLE:
   case ISA_SEM_SIMD_SHUFFLE_XOR:
   case ISA_SEM_SIMD_SHUFFLE_UP:
   case ISA_SEM_SIMD_SHUFFLE_DOWN:
   case ISA_SEM_LANE_INDEX:
      return EMU_K_XLANE;
   case ISA_SEM_DADD:
   case ISA_SEM_DMUL:
   case ISA_SEM_DFMA:
   case ISA_SEM_DSETP:
   case ISA_SEM_DMNMX:
   case ISA_SEM_F2D:
   case ISA_SEM_D2F:
   case ISA_SEM_DFLOOR:
   case ISA_SEM_DCEIL:
   case ISA_SEM_DTRUNC:
   case ISA_SEM_DRNDNE:
   case ISA_SEM_I2D:
   case ISA_SEM_U2D:
   case ISA_SEM_D2I:
   case ISA_SEM_D2U:
   case ISA_SEM_DMIN:
   case ISA_SEM_DMAX:
   case ISA_SEM_DCMP:
   case ISA_SEM_UCMP64:
   case ISA_SEM_SCMP64:
   case ISA_SEM_MAD_U64:
   case ISA_SEM_DLDEXP:
   case ISA_SEM_SHL64:
   case ISA_SEM_SHR64:
   case ISA_SEM_ASHR64:
   case ISA_SEM_DDIV_SCALE:
   case ISA_SEM_DDIV_FMAS:
   case ISA_SEM_DDIV_FIXUP:
   case ISA_SEM_DRCP:
   case ISA_SEM_DSQRT:
      return EMU_K_WIDE;
   case ISA_SEM_SAM:
   case ISA_SEM_SAMB:
   case ISA_SEM_SAMGQ:
   case ISA_SEM_SAML:
   case ISA_SEM_ISAM:
   case ISA_SEM_ISAML:
   case ISA_SEM_GETSIZE:
   case ISA_SEM_TEX:
   case ISA_SEM_TLD4:
   case ISA_SEM_TLD:
   case ISA_SEM_TXQ:
   case ISA_SEM_GETLOD:
   case ISA_SEM_TMML:
   case ISA_SEM_TXD:
   case ISA_SEM_IMAGE_SAMPLE:
   case ISA_SEM_IMAGE_LOAD:
   case ISA_SEM_IMAGE_LOD:
   case ISA_SEM_IMAGE_RESINFO:
   case ISA_SEM_IMAGE_GATHER4:
   case ISA_SEM_AGX_SAMPLE:
   case ISA_SEM_AGX_TXF:
   case ISA_SEM_AGX_LOD:
   case ISA_SEM_AGX_GATHER:
      return EMU_K_TEX;
   case ISA_SEM_LDG:
   case ISA_SEM_LDL:
      return EMU_K_LOAD;
   case ISA_SEM_STG:
   case ISA_SEM_STL:
      return EMU_K_STORE;
   case ISA_SEM_AST:
      return EMU_K_AST;
   case ISA_SEM_EMIT:
   case ISA_SEM_GS_MSG:
      return EMU_K_EMIT;
   default:
      return EMU_K_ALU;
   }
}

/* The instruction index at byte address a, or -1. */
static int32_t
index_at(const struct emu_code *c, uint64_t a)
{
   unsigned lo = 0, hi = c->n;
   while (lo < hi) {
      unsigned mid = (lo + hi) / 2;
      if (c->insns[mid].addr < a)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < c->n && c->insns[lo].addr == a ? (int32_t)lo : -1;
}

/* Branch targets: the source whose immediate form is pc-relative. */
static void
set_target(const struct emu_code *c, unsigned idx, struct emu_op *op)
{
   const struct isa_insn *in = &c->insns[idx];
   op->target = -1;
   for (unsigned i = 0; i < in->nsrc; i++) {
      struct isa_slot_info si;
      if (in->src[i].kind != ISA_OPND_IMM || !isa_slot_info(c->model, in->op, false, i, &si) ||
          !si.pcrel)
         continue;
      int64_t v = (int32_t)in->src[i].value, t;
      switch (si.pcrel) {
      case ISA_PCREL_INSN:
         t = (int64_t)idx + v;
         op->target = t >= 0 && t < c->n ? (int32_t)t : -1;
         break;
      case ISA_PCREL_INSN_NEXT:
         t = (int64_t)idx + 1 + v;
         op->target = t >= 0 && t < c->n ? (int32_t)t : -1;
         break;
      case ISA_PCREL_BYTE:
         t = (int64_t)in->addr + v;
         op->target = t >= 0 ? index_at(c, (uint64_t)t) : -1;
         break;
      case ISA_PCREL_DWORD_NEXT:
         t = (int64_t)in->addr + in->size + 4 * v;
         op->target = t >= 0 ? index_at(c, (uint64_t)t) : -1;
         break;
      default:
         t = (int64_t)in->addr + in->size + v;
         op->target = t >= 0 ? index_at(c, (uint64_t)t) : -1;
         break;
      }
      op->src[i].kind = EMU_S_NONE; /* not a value */
      return;
   }
}

/* The address, offset and data of a memory operand list, by position in
 * the instruction: the first register source is the address (or the
 * coordinates), a second register source the data, the first immediate
 * the offset and the last one (textures) the unit. Positions go by the
 * operand as written, so a fixed register (sm50 RZ: [RZ+imm] addresses the
 * immediate, RZ as data stores 0) counts as the register it is, though it
 * is loaded as a constant. */
static void
mem_operands(const struct isa_insn *in, int *reg, int *data, int *imm, int *last_imm)
{
   *reg = *data = *imm = *last_imm = -1;
   for (unsigned i = 0; i < in->nsrc; i++) {
      if (in->src[i].kind == ISA_OPND_REG) {
         if (*reg < 0)
            *reg = (int)i;
         else if (*data < 0)
            *data = (int)i;
      } else if (in->src[i].kind == ISA_OPND_IMM) {
         if (*imm < 0)
            *imm = (int)i;
         *last_imm = (int)i;
      }
   }
}

/* A base register added to the address: a register source after the
 * last one the access uses (gfx9 GLOBAL saddr, an SGPR pair), or -1. */
static int
base_reg(const struct isa_model *m, const struct isa_insn *in, int last)
{
   for (unsigned i = (unsigned)(last < 0 ? 0 : last + 1); last >= 0 && i < in->nsrc; i++)
      if (in->src[i].kind == ISA_OPND_REG) {
         struct isa_file_info fi;
         isa_file_info(m, in->src[i].file, &fi);
         return fi.kind == ISA_FILE_UNIFORM ? (int)i : -1;
      }
   return -1;
}

/* Whether source 0 (the address) is a 64-bit operand in two 32-bit
 * registers (agx's base pair): its high word is read too. */
static uint8_t
addr_pair(const struct emu_code *c, const struct isa_insn *in, const struct emu_op *op)
{
   unsigned width = 0;
   sem_slot_type(c->model, in, ISA_SLOT_SRC(0), &width);
   const struct emu_src *s = &op->src[0];
   return s->kind == EMU_S_REG && width == 64 && c->files[s->file].width == 32 && s->limit >= 2;
}

/* An access in two halves, each at the address plus its own offset in
 * units of the half: two offsets counted in elements (`scale: element`;
 * gfx9 ds_read2/ds_write2: a load's destination
 * registers split in two, a store's two data operands): src[0] address,
 * src[1] and src[3] the offsets, src[2] and src[4] the data. */
static bool
set_mem_pair(const struct isa_insn *in, struct emu_op *op, int reg, int data, int off0, int off1,
             struct diag_list *d)
{
   bool store = op->kind == EMU_K_STORE;
   int data1 = -1;
   for (int i = data + 1; store && data >= 0 && i < (int)in->nsrc && data1 < 0; i++)
      if (in->src[i].kind == ISA_OPND_REG)
         data1 = i;
   if (reg < 0 || (store && data1 < 0) || (!store && !op->ndst))
      return load_err(d, in, "%s", "paired memory instruction without address or data");
   unsigned half = store ? op->src[data].count : op->dst[0].count / 2u;
   if (!half || (store && op->src[data1].count != half) || (!store && op->dst[0].count != 2 * half))
      return load_err(d, in, "%s", "paired memory instruction with unequal halves");
   op->space =
       in->sem == ISA_SEM_LDL || in->sem == ISA_SEM_STL ? EMU_SPACE_SHARED : EMU_SPACE_GLOBAL;
   op->elem_bytes = 4;
   op->pair = 1;
   op->ncomp = (uint8_t)(2 * half);
   struct emu_src a = op->src[reg], o0 = op->src[off0], o1 = op->src[off1], d0 = {0}, d1 = {0};
   if (store) {
      d0 = op->src[data];
      d1 = op->src[data1];
   }
   op->src[0] = a;
   op->src[1] = o0;
   op->src[2] = d0;
   op->src[3] = o1;
   op->src[4] = d1;
   op->nsrc = store ? 5 : 4;
   return true;
}

/* Memory and texture operands: address register, offset and data
 * (mem_operands); a texture instruction's groups and unit. */
static bool
set_mem(struct emu_code *c, const struct isa_insn *in, struct emu_op *op, struct diag_list *d)
{
   int reg, data, imm, last_imm;
   mem_operands(in, &reg, &data, &imm, &last_imm);
   if (op->kind == EMU_K_TEX && emu_tex_by_rsrc(in->sem)) {
      /* gfx9 MIMG: the address registers, then the resource descriptor,
       * whose first word names the texture (read as the op runs). */
      if (reg < 0 || data < 0 || !op->ndst)
         return load_err(d, in, "%s", "image instruction without address or resource");
      int wm = mod_of(c->model, ISA_ROLE_WRMASK), dm = mod_of(c->model, ISA_ROLE_TEX_DMASK);
      op->wrmask = (uint8_t)(wm >= 0 ? in->mod[wm] & 15 : (1u << op->dst[0].count) - 1);
      if (dm >= 0 && in->sem != ISA_SEM_IMAGE_GATHER4) { /* the dmask components, packed */
         op->dmask = (uint8_t)(in->mod[dm] & 15);
         op->wrmask = (uint8_t)((1u << MIN2(sem_cbits(op->dmask), (unsigned)op->dst[0].count)) - 1);
      }
      struct emu_src a = op->src[reg], r = op->src[data];
      op->src[0] = a;
      op->src[1] = (struct emu_src){.kind = EMU_S_IMM};
      op->src[2] = r;
      op->nsrc = 3;
      op->tex_rsrc = 1;
      if (!emu_tex_setup(c, in, -1, op))
         return load_err(d, in, "%s", "texture instruction of an unknown shape");
      return true;
   }
   if (op->kind == EMU_K_TEX && (in->sem == ISA_SEM_AGX_SAMPLE || in->sem == ISA_SEM_AGX_TXF ||
                                 in->sem == ISA_SEM_AGX_LOD || in->sem == ISA_SEM_AGX_GATHER)) {
      /* agx: coordinates, [level, bias or gradients], reference and
       * offsets, texture, sampler: groups A = C, B = O, C = D. */
      bool has_d = in->nsrc == 5;
      unsigned o = has_d ? 2 : 1;
      if (in->nsrc < 4 || in->src[0].kind != ISA_OPND_REG || in->src[o + 1].kind != ISA_OPND_IMM ||
          !op->ndst)
         return load_err(d, in, "%s", "texture instruction without coordinates or texture");
      op->tex_unit = (uint16_t)op->src[o + 1].value;
      op->wrmask = (uint8_t)((1u << MIN2(op->dst[0].count, 4u)) - 1);
      struct emu_src cs = op->src[0], os = op->src[o], ds = {.kind = EMU_S_IMM};
      if (has_d)
         ds = op->src[1];
      op->src[0] = cs;
      op->src[1] = os;
      op->src[2] = ds;
      op->nsrc = 3;
      if (!emu_tex_setup(c, in, 1, op))
         return load_err(d, in, "%s", "texture instruction of an unknown shape");
      return true;
   }
   if (op->kind == EMU_K_TEX) {
      /* Group A: the first register source, a fixed one (RZ) too. */
      if (reg < 0 || last_imm < 0 || !op->ndst)
         return load_err(d, in, "%s", "texture instruction without coordinates or unit");
      op->tex_unit = (uint16_t)op->src[last_imm].value;
      int wm = mod_of(c->model, ISA_ROLE_WRMASK);
      op->wrmask = (uint8_t)(wm >= 0 ? in->mod[wm] & 15 : (1u << op->dst[0].count) - 1);
      /* Group B: the second register source, or a fixed one (RZ). */
      int grp_b = -1;
      for (unsigned i = (unsigned)reg + 1; i < in->nsrc && grp_b < 0; i++)
         if (in->src[i].kind == ISA_OPND_REG)
            grp_b = (int)i;
      struct emu_src a = op->src[reg], b = {.kind = EMU_S_IMM};
      if (grp_b >= 0)
         b = op->src[grp_b];
      op->src[0] = a;
      op->src[1] = b;
      op->nsrc = 2;
      if (!emu_tex_setup(c, in, grp_b, op))
         return load_err(d, in, "%s", "texture instruction of an unknown shape");
      return true;
   }
   bool store = op->kind == EMU_K_STORE;
   int pair[2], npair = 0;
   for (unsigned i = 0; i < in->nsrc && npair < 2; i++) {
      struct isa_slot_info si;
      if (in->src[i].kind == ISA_OPND_IMM && isa_slot_info(c->model, in->op, false, i, &si) &&
          si.elements)
         pair[npair++] = (int)i;
   }
   if (npair == 2)
      return set_mem_pair(in, op, reg, data, pair[0], pair[1], d);
   struct isa_slot_info osi;
   if (in->nsrc >= 2 && isa_slot_info(c->model, in->op, false, 1, &osi) && osi.elements) {
      /* agx: base, offset (immediate or register, in elements), data */
      reg = 0;
      imm = 1;
      data = store && in->nsrc >= 3 ? 2 : -1;
      op->off_elems = 1;
      op->addr_hi = addr_pair(c, in, op);
   }
   if (reg < 0 || (store && data < 0) || (!store && !op->ndst))
      return load_err(d, in, "%s", "memory instruction without address or data");
   op->space =
       in->sem == ISA_SEM_LDL || in->sem == ISA_SEM_STL ? EMU_SPACE_SHARED : EMU_SPACE_GLOBAL;
   unsigned width;
   enum isa_type t = store ? sem_slot_type(c->model, in, ISA_SLOT_SRC(data), &width)
                           : sem_slot_type(c->model, in, ISA_SLOT_DST(0), &width);
   unsigned bits = isa_type_bits(t) && isa_type_bits(t) < width ? isa_type_bits(t) : width;
   unsigned regs = store ? op->src[data].count : op->dst[0].count;
   op->elem_bytes = (uint8_t)(bits >= 32 ? 4 : bits / 8 ? bits / 8 : 4);
   op->elem_signed = t == ISA_TYPE_S8 || t == ISA_TYPE_S16;
   op->ncomp = (uint8_t)(bits > 32 ? regs * (bits / 32) : regs);
   struct emu_src a = op->src[reg], off = {.kind = EMU_S_IMM}, dat = {0};
   int base = base_reg(c->model, in, store ? data : reg);
   struct emu_src bs = base >= 0 ? op->src[base] : (struct emu_src){0};
   if (imm >= 0)
      off = op->src[imm];
   if (store)
      dat = op->src[data];
   op->src[0] = a;
   op->src[1] = off;
   op->src[2] = dat;
   op->nsrc = store ? 3 : 2;
   if (base >= 0 && !op->off_elems) {
      op->src[3] = bs;
      op->nsrc = 4;
      op->has_base = 1;
   }
   if (!store && op->ncomp > op->dst[0].count)
      op->dst[0].count = op->ncomp;
   if (op->ncomp > 16)
      return load_err(d, in, "%s", "more than 16 components");
   return true;
}

/* Atomics: the address (first register source), an immediate offset, the
 * data (second register source, two registers for a compare-and-swap),
 * the old word to the destination if there is one;
 * the operation from the atom_op role's entry and the data's type. */
static bool
set_atomic(struct emu_code *c, const struct isa_insn *in, struct emu_op *op, struct diag_list *d)
{
   static const struct {
      const char *name;
      enum env_atomic_op u, s, f;
   } ops[] = {
       {"add", ENV_ATOM_ADD, ENV_ATOM_ADD, ENV_ATOM_FADD},
       {"sub", ENV_ATOM_ADD, ENV_ATOM_ADD, ENV_ATOM_ADD},
       {"min", ENV_ATOM_UMIN, ENV_ATOM_IMIN, ENV_ATOM_UMIN},
       {"max", ENV_ATOM_UMAX, ENV_ATOM_IMAX, ENV_ATOM_UMAX},
       {"inc", ENV_ATOM_INC_WRAP, ENV_ATOM_INC_WRAP, ENV_ATOM_INC_WRAP},
       {"dec", ENV_ATOM_DEC_WRAP, ENV_ATOM_DEC_WRAP, ENV_ATOM_DEC_WRAP},
       {"and", ENV_ATOM_AND, ENV_ATOM_AND, ENV_ATOM_AND},
       {"or", ENV_ATOM_OR, ENV_ATOM_OR, ENV_ATOM_OR},
       {"xor", ENV_ATOM_XOR, ENV_ATOM_XOR, ENV_ATOM_XOR},
       {"exch", ENV_ATOM_XCHG, ENV_ATOM_XCHG, ENV_ATOM_XCHG},
       {"xchg", ENV_ATOM_XCHG, ENV_ATOM_XCHG, ENV_ATOM_XCHG},
       {"cmpxchg", ENV_ATOM_CAS, ENV_ATOM_CAS, ENV_ATOM_CAS},
       {"umin", ENV_ATOM_UMIN, ENV_ATOM_UMIN, ENV_ATOM_UMIN}, /* gfx9: in the opcode */
       {"umax", ENV_ATOM_UMAX, ENV_ATOM_UMAX, ENV_ATOM_UMAX},
       {"smin", ENV_ATOM_IMIN, ENV_ATOM_IMIN, ENV_ATOM_IMIN},
       {"smax", ENV_ATOM_IMAX, ENV_ATOM_IMAX, ENV_ATOM_IMAX},
   };
   int reg, data, imm, last_imm;
   mem_operands(in, &reg, &data, &imm, &last_imm);
   struct isa_slot_info osi;
   if (in->nsrc >= 3 && isa_slot_info(c->model, in->op, false, 1, &osi) && osi.elements) {
      /* agx: base, index (immediate or register, in words), data */
      reg = 0;
      imm = 1;
      data = 2;
      op->off_elems = 1;
      op->addr_hi = addr_pair(c, in, op);
   }
   /* no destination: an atomic that returns nothing (gfx9 without glc) */
   if (reg < 0 || data < 0)
      return load_err(d, in, "%s", "atomic without an address or data");
   bool cas_sem = in->sem == ISA_SEM_ATOM_CAS || in->sem == ISA_SEM_ATOMS_CAS;
   enum isa_type t = sem_slot_type(c->model, in, ISA_SLOT_SRC(data), NULL);
   int k = -1, om = isa_insn_mod_by_role(c->model, in, ISA_ROLE_ATOM_OP);
   for (unsigned i = 0; i < ARRAY_SIZE(ops) && !cas_sem && om >= 0 && k < 0; i++)
      if (isa_mod_value(c->model, (unsigned)om, ops[i].name) == in->mod[om])
         k = (int)i;
   if (!cas_sem && k < 0)
      return load_err(d, in, "%s", "atomic operation the emulator does not know");
   op->atom_op = (uint8_t)(cas_sem             ? ENV_ATOM_CAS
                           : t == ISA_TYPE_F32 ? ops[k].f
                           : t == ISA_TYPE_S32 ? ops[k].s
                                               : ops[k].u);
   op->atom_sub = !cas_sem && !strcmp(ops[k].name, "sub");
   op->atom_swap = cas_sem;
   op->space = in->sem == ISA_SEM_ATOMS || in->sem == ISA_SEM_ATOMS_CAS ? EMU_SPACE_SHARED
                                                                        : EMU_SPACE_GLOBAL;
   op->elem_bytes = 4;
   struct emu_src a = op->src[reg], off = {.kind = EMU_S_IMM}, dat = op->src[data];
   int base = base_reg(c->model, in, data);
   struct emu_src bs = base >= 0 ? op->src[base] : (struct emu_src){0};
   if (imm >= 0)
      off = op->src[imm];
   op->src[0] = a;
   op->src[1] = off;
   op->src[2] = dat;
   op->nsrc = 3;
   if (base >= 0) {
      op->src[3] = bs;
      op->nsrc = 4;
      op->has_base = 1;
   }
   if (op->atom_op == ENV_ATOM_CAS && dat.kind == EMU_S_REG && dat.count < 2)
      return load_err(d, in, "%s", "compare-and-swap data is not a register pair");
   return true;
}

/* The guard role's value names a register of the model's predicate file,
 * plus 8 when negated (sm50 @P0 .. @!PT). A fixed register (PT) makes the
 * guard always or never true. */
static bool
set_guard(const struct emu_code *c, const struct isa_insn *in, struct emu_op *op,
          struct diag_list *d)
{
   int g = isa_mod_by_role(c->model, ISA_ROLE_GUARD);
   if (g < 0)
      return true;
   unsigned v = (unsigned)in->mod[g], reg = v & 7;
   bool neg = (v >> 3) & 1;
   int pf = -1;
   for (unsigned f = 0; f < c->nfiles && pf < 0; f++)
      if (c->files[f].kind == ISA_FILE_PREDICATE)
         pf = (int)f;
   if (pf < 0 || reg >= c->files[pf].count)
      return load_err(d, in, "%s", "guard predicate outside the predicate file");
   const struct emu_file *f = &c->files[pf];
   if (f->fixed == (int)reg) {
      bool on = ((f->fixed_value & 1) != 0) != neg;
      op->has_guard = op->guard_never = !on;
      return true;
   }
   op->has_guard = 1;
   op->guard_not = neg;
   op->guard_unit = f->base + reg;
   return true;
}

/* gfx9: 64-bit scalar operands, lane masks, implicit registers (salu.c). */
static bool
set_scalar_opnds(struct emu_code *c, const struct isa_insn *in, struct emu_op *op,
                 struct diag_list *d)
{
   const struct isa_model *m = c->model;
   struct isa_class_info ci;
   isa_class_info(m, in->cls, &ci);
   for (unsigned i = 0; i < in->nsrc; i++) {
      struct emu_src *s = &op->src[i];
      unsigned width;
      sem_slot_type(m, in, ISA_SLOT_SRC(i), &width);
      if (s->kind == EMU_S_IMM && width == 64 && op->scalar)
         s->wide = 1;
      if (s->kind != EMU_S_REG || c->files[s->file].kind != ISA_FILE_UNIFORM || width != 64)
         continue;
      if (s->index + 1u >= c->files[s->file].count)
         return load_err(d, in, "%s", "a 64-bit scalar operand runs past its file");
      if (op->scalar)
         s->wide = 1;
      else
         s->lanemask = 1;
   }
   for (unsigned i = 0; i < in->ndst; i++) {
      struct emu_dst *dd = &op->dst[i];
      unsigned width;
      sem_slot_type(m, in, ISA_SLOT_DST(i), &width);
      if (dd->kind != EMU_S_REG || c->files[dd->file].kind != ISA_FILE_UNIFORM)
         continue;
      if ((op->scalar && width != 64) || (!op->scalar && !c->exec_mask))
         continue;
      if (dd->index + 1u >= c->files[dd->file].count)
         return load_err(d, in, "%s", "a 64-bit scalar operand runs past its file");
      if (op->scalar)
         dd->wide = 1;
      else
         dd->lanemask = 1; /* a per-lane result in a scalar register: a lane mask */
   }
   unsigned nd, ns;
   const struct isa_implicit *id = isa_op_implicit(m, in->op, true, &nd);
   const struct isa_implicit *is = isa_op_implicit(m, in->op, false, &ns);
   bool plain;
   for (unsigned k = 0; k < nd; k++) {
      const struct emu_file *f = &c->files[id[k].file];
      struct emu_dst dd = {.kind = EMU_S_REG, .count = 1, .file = id[k].file};
      dd.index = id[k].index;
      dd.unit = f->base + id[k].index;
      dd.fixed_unit = UINT32_MAX;
      dd.lat = dst_latency(c, &ci, id[k].file, &plain);
      if (id[k].count == 2) {
         if (op->scalar)
            dd.wide = 1;
         else
            dd.lanemask = 1;
      }
      if (f->kind == ISA_FILE_SPECIAL && op->scalar) {
         op->scc_dst = dd; /* the scalar condition code (gfx9 SCC) */
         op->has_scc = 1;
      } else if (op->ndst < ISA_MAX_DST) {
         op->dst[op->ndst++] = dd;
      } else {
         return load_err(d, in, "%s", "too many implicit destinations");
      }
   }
   for (unsigned k = 0; k < ns; k++) {
      const struct emu_file *f = &c->files[is[k].file];
      struct emu_src s = {.kind = EMU_S_REG, .count = is[k].count, .file = is[k].file};
      s.index = is[k].index;
      s.unit = f->base + is[k].index;
      s.limit = f->count - is[k].index;
      s.mods = is[k].flags & ISA_OPND_F_NOT;
      if (op->kind == EMU_K_BRANCH) {
         op->cond = s;
         op->has_cond = 1;
         continue;
      }
      s.mods = 0;
      if (is[k].count == 2) {
         if (op->scalar)
            s.wide = 1;
         else
            s.lanemask = 1;
      }
      if (op->nsrc >= ISA_MAX_SRC)
         return load_err(d, in, "%s", "too many implicit sources");
      op->src[op->nsrc++] = s;
   }
   for (unsigned i = 0; i < op->ndst && c->exec_mask; i++)
      if (op->dst[i].kind == EMU_S_REG && op->dst[i].unit <= c->exec_lo + 1 &&
          op->dst[i].unit + (op->dst[i].wide || op->dst[i].lanemask ? 2u : op->dst[i].count) >
              c->exec_lo)
         op->writes_exec = 1;
   if (op->kind == EMU_K_BRANCH && c->exec_mask && !op->has_cond && in->sem == ISA_SEM_BRANCH)
      return load_err(d, in, "%s", "a conditional branch without a condition register");
   for (unsigned k = 0; k < op->nsrc; k++) { /* explicit and implicit (s_sendmsg's M0) */
      const struct emu_src *s = &op->src[k];
      const struct emu_file *f = s->kind == EMU_S_REG ? &c->files[s->file] : NULL;
      if (f && f->undef && s->index < f->count && f->undef[s->index])
         op->unset_srcs |= (uint8_t)(1u << k);
   }
   return true;
}

/* Whether waves in lockstep stay in lockstep through this instruction:
 * not across a flow decision that can differ per lane (branches, kills,
 * guarded ends, the reconvergence stack), nor a relative read (its
 * hazards depend on each lane's register). */
static void
set_batch(struct emu_op *op)
{
   switch (op->kind) {
   case EMU_K_BRANCH:
   case EMU_K_KILL:
   case EMU_K_SSY:
   case EMU_K_SYNC:
   case EMU_K_EXEC:
   case EMU_K_JMPX:
      op->batch = 0;
      return;
   case EMU_K_END:
      op->batch = !op->has_guard;
      return;
   default:
      break;
   }
   op->batch = !op->writes_exec;
   for (unsigned i = 0; i < op->nsrc; i++)
      if (op->src[i].kind == EMU_S_REL_REG || op->src[i].kind == EMU_S_REL_CONST)
         op->batch = 0;
}

/* LDC's sources are, in order, the address register, the byte offset and
 * the bank (immediates); it reads the model's constant file. */
static bool
set_ldc(struct emu_code *c, const struct isa_insn *in, struct emu_op *op, struct diag_list *d)
{
   int cf = -1;
   for (unsigned f = 0; f < c->nfiles && cf < 0; f++)
      if (c->files[f].kind == ISA_FILE_CONST)
         cf = (int)f;
   if (cf < 0 || in->nsrc < 3 || op->src[1].kind != EMU_S_IMM || op->src[2].kind != EMU_S_IMM ||
       !op->ndst)
      return load_err(d, in, "%s", "LDC needs an address, an immediate offset and bank");
   unsigned width;
   sem_slot_type(c->model, in, ISA_SLOT_DST(0), &width);
   op->ncomp = (uint8_t)(width > 32 ? width / 32 : 1);
   op->dst[0].count = MAX2(op->dst[0].count, op->ncomp);
   op->cbase = cbank_base(c, (unsigned)cf, op->src[2].value);
   op->climit = c->files[cf].count;
   op->nsrc = 2;
   return true;
}

static bool
build_op(struct emu_code *c, unsigned idx, struct diag_list *d)
{
   const struct isa_model *m = c->model;
   const struct isa_insn *in = &c->insns[idx];
   struct emu_op *op = &c->ops[idx];
   struct isa_class_info ci;
   isa_class_info(m, in->cls, &ci);
   op->sem = in->sem;
   op->addr = in->addr;
   op->size = in->size;
   op->ndst = in->ndst;
   op->nsrc = in->nsrc;
   op->illegal = in->illegal;
   op->kind = (uint8_t)(in->illegal ? EMU_K_ILLEGAL : sem_kind(in->sem));
   op->scalar = ci.scalar && c->exec_mask;
   /* the scalar 64-bit shifts are SALU ops: they set SCC */
   bool shift64 = in->sem == ISA_SEM_SHL64 || in->sem == ISA_SEM_SHR64 || in->sem == ISA_SEM_ASHR64;
   if (op->scalar && (op->kind == EMU_K_ALU || (op->kind == EMU_K_WIDE && shift64)))
      op->kind = EMU_K_SALU;
   op->res = (uint8_t)sem_res(in->sem);
   op->rpt = (uint8_t)mod_val(m, in, ISA_ROLE_RPT);
   op->ss = mod_val(m, in, ISA_ROLE_SS) != 0;
   op->sy = mod_val(m, in, ISA_ROLE_SY) != 0;
   op->jp = mod_val(m, in, ISA_ROLE_JP) != 0;
   op->sat = mod_val(m, in, ISA_ROLE_SAT) != 0;
   op->nopn = op->rpt ? 0 : (uint8_t)mod_val(m, in, ISA_ROLE_NOPS);
   op->flow = ci.flow;
   op->soft = ci.latency >= 0 ? ci.latency : ci.soft_latency;
   int wr = mod_of(m, ISA_ROLE_WR_BAR) >= 0 ? mod_val(m, in, ISA_ROLE_WR_BAR) : -1;
   int rd = mod_of(m, ISA_ROLE_RD_BAR) >= 0 ? mod_val(m, in, ISA_ROLE_RD_BAR) : -1;
   if (c->hazard == ISA_HAZARD_INTERLOCKED) /* the op's wait slot (agx g) */
      wr = rd = mod_of(m, ISA_ROLE_WAIT_SLOT) >= 0 ? mod_val(m, in, ISA_ROLE_WAIT_SLOT) : -1;
   op->sync = (uint8_t)emu_sync_kind(c, ci.sync, wr);
   op->war = (uint8_t)emu_sync_kind(c, ci.war_sync, rd);
   int wl = isa_hazard_param(m, "war_latency", -1);
   op->war_until = wl;
   if (c->hazard == ISA_HAZARD_DELAY_SLOTS)
      op->wait = (uint8_t)((op->ss ? 1 : 0) | (op->sy ? 2 : 0));
   else if (c->hazard == ISA_HAZARD_STALL_COUNTS)
      op->wait = (uint8_t)(mod_val(m, in, ISA_ROLE_WAIT_MASK) & 0x3f);
   else if (c->hazard == ISA_HAZARD_INTERLOCKED && in->sem == ISA_SEM_WAIT && wr >= 0 &&
            wr < EMU_NSYNC - 2)
      op->wait = (uint8_t)(1u << wr); /* wait i: slot i's kind */
   op->stall = (uint8_t)mod_val(m, in, ISA_ROLE_STALL);
   unsigned subs = op->rpt + 1u;
   if (c->hazard == ISA_HAZARD_STALL_COUNTS) {
      int s = op->stall > c->min_stall ? op->stall : c->min_stall;
      op->advance = (int32_t)(subs * (unsigned)s);
      op->idle = (int32_t)(subs * (unsigned)(s - 1));
   } else {
      op->advance = (int32_t)(subs + op->nopn);
   }
   op->unordered = ci.unordered;
   if (in->sem == ISA_SEM_WAITCNT && c->hazard == ISA_HAZARD_WAIT_STATES) {
      static const enum isa_role roles[3] = {ISA_ROLE_VMCNT, ISA_ROLE_LGKMCNT, ISA_ROLE_EXPCNT};
      static const char *const maxp[3] = {"vmcnt_max", "lgkmcnt_max", "expcnt_max"};
      op->waitcnt = 1;
      for (unsigned k = 0; k < 3; k++) {
         int md = mod_of(m, roles[k]), v = md >= 0 ? in->mod[md] : -1;
         op->cnt[k] = (int8_t)(v < 0 || v >= isa_hazard_param(m, maxp[k], 63) ? -1 : v);
      }
   }
   op->fast = op->kind == EMU_K_ALU && !op->wait;
   if (op->kind == EMU_K_ILLEGAL)
      return true;
   sem_args_of(m, in, &op->args);
   if (in->sem == ISA_SEM_COV && op->args.dst_type == ISA_TYPE_F32)
      op->res = EMU_R_FLOAT; /* an int -> float conversion's clamp (gfx9) */
   op->ftz = mod_val(m, in, ISA_ROLE_FTZ) != 0;
   if (!set_guard(c, in, op, d))
      return false;
   bool raw = sem_raw(in->sem);
   for (unsigned i = 0; i < in->nsrc; i++) {
      if (!set_src(c, op, in, i, raw, d))
         return false;
      op->src[i].ftz = op->ftz && op->src[i].isfloat;
   }
   for (unsigned i = 0; i < in->ndst; i++)
      if (!set_dst(c, in, i, op, raw, d))
         return false;
   if (!set_scalar_opnds(c, in, op, d))
      return false;
   set_dpp(c, in, op);
   set_batch(op);
   op->fast &= !op->writes_exec; /* the active lanes change after it (step) */
   op->fast &= !op->unset_srcs;  /* a read of a register with no value is checked (step) */
   switch (op->kind) {
   case EMU_K_BRANCH:
   case EMU_K_JUMP:
   case EMU_K_SSY:
   case EMU_K_JMPX:
      set_target(c, idx, op);
      return true;
   case EMU_K_EXEC:
      if (!c->exec_stack || op->src[op->nsrc - 1].kind != EMU_S_IMM)
         return load_err(d, in, "%s", "execution-mask op without a count register or push count");
      return true;
   case EMU_K_TEX:
   case EMU_K_LOAD:
   case EMU_K_STORE:
      return set_mem(c, in, op, d);
   case EMU_K_LDC:
      return set_ldc(c, in, op, d);
   case EMU_K_ATOMIC:
      return set_atomic(c, in, op, d);
   case EMU_K_AST:
   case EMU_K_EMIT:
      return emu_gs_setup(c, in, op, d);
   case EMU_K_XLANE: { /* the swizzle or shuffle mode, by role */
      int sw = mod_of(m, ISA_ROLE_SWZ), sh = mod_of(m, ISA_ROLE_SHFL_MODE);
      int vm = mod_of(m, ISA_ROLE_VOTE_MODE);
      op->args.mode = (unsigned)(sw >= 0 ? in->mod[sw] : 0);
      static const enum sem_vname modes[] = {SEM_VN_IDX, SEM_VN_UP, SEM_VN_DOWN, SEM_VN_BFLY};
      static const enum sem_vname votes[] = {SEM_VN_ALL, SEM_VN_ANY, SEM_VN_EQ};
      for (unsigned k = 0; k < 4 && sh >= 0; k++)
         if (in->sem == ISA_SEM_SHFL && sem_mod_value(m, (unsigned)sh, modes[k]) == in->mod[sh])
            op->args.mode = k;
      for (unsigned k = 0; k < 3 && vm >= 0; k++)
         if (in->sem == ISA_SEM_VOTE && sem_mod_value(m, (unsigned)vm, votes[k]) == in->mod[vm])
            op->args.mode = k;
      if (op->ndst < 1 || (op->nsrc < 1 && in->sem != ISA_SEM_LANE_INDEX))
         return load_err(d, in, "%s", "lane instruction without a destination or source");
      if (in->sem == ISA_SEM_READLANE || in->sem == ISA_SEM_READFIRSTLANE)
         op->dst[0].lanemask = 0; /* one lane's value in an SGPR, not a mask */
      return true;
   }
   case EMU_K_ALU:
      op->kern = emu_kern_for(op);
      if (!op->kern)
         return load_err(d, in, "semantics '%s' is not emulated", isa_sem_name(in->sem));
      if (op->ndst < 1)
         return load_err(d, in, "%s", "ALU instruction without a destination");
      return true;
   default:
      return true;
   }
}

static void
init_files(struct emu_code *c)
{
   c->nfiles = isa_file_count(c->model);
   c->files = xcalloc(c->nfiles ? c->nfiles : 1, sizeof(*c->files));
   for (unsigned f = 0; f < c->nfiles; f++) {
      struct isa_file_info fi;
      isa_file_info(c->model, f, &fi);
      c->files[f].kind = fi.kind;
      c->files[f].count = fi.count;
      c->files[f].width = fi.width;
      c->files[f].fixed = fi.fixed;
      c->files[f].fixed_value = fi.fixed_value;
      c->files[f].half_of = fi.half_of;
      c->files[f].undef = fi.undef;
      if (fi.kind != ISA_FILE_CONST && fi.half_of < 0) {
         c->files[f].base = c->nunits;
         c->nunits += fi.count;
      }
   }
   for (unsigned f = 0; f < c->nfiles; f++) /* halves live in their full registers */
      if (c->files[f].half_of >= 0)
         c->files[f].base = c->files[c->files[f].half_of].base;
}

/* A half register aliasing a full one: its full register's unit and which
 * half (agx r3h = r1's high half). Returns false for other registers. */
static bool
alias_unit(const struct emu_code *c, unsigned file, unsigned index, uint32_t *unit, bool *hi)
{
   const struct emu_file *f = &c->files[file];
   if (f->half_of < 0)
      return false;
   *unit = f->base + index / 2;
   *hi = index & 1;
   return true;
}

static bool
check_binding(struct emu_code *c, const struct emu_binding *b, unsigned i, struct diag_list *d)
{
   bool to_const =
       b->kind == EMU_BIND_CONST || b->kind == EMU_BIND_VALUE || b->kind == EMU_BIND_SIZE;
   const char *why = NULL;
   if (b->kind > EMU_BIND_SIZE)
      why = "unknown binding kind";
   else if (b->file >= c->nfiles)
      why = "no such register file";
   else if (b->index >= c->files[b->file].count || b->chan > 3)
      why = "register index or channel out of range";
   else if (to_const ? c->files[b->file].kind != ISA_FILE_CONST &&
                           c->files[b->file].kind != ISA_FILE_UNIFORM &&
                           c->files[b->file].kind != ISA_FILE_FULL
                     : c->files[b->file].kind == ISA_FILE_CONST)
      why = to_const ? "constants bind to a constant file or a register"
                     : "values bind to a register file";
   else if (b->kind == EMU_BIND_OUTPUT && c->files[b->file].kind == ISA_FILE_UNIFORM)
      why = "outputs bind to a per-lane register file, not a uniform one";
   else if (b->kind == EMU_BIND_SYSVAL && b->tgsi_index >= TGSI_SEM_COUNT)
      why = "unknown system value";
   else if (b->kind == EMU_BIND_SIZE && b->buffer != TGSI_FILE_BUFFER &&
            b->buffer != TGSI_FILE_IMAGE && b->buffer != TGSI_FILE_MEMORY &&
            b->buffer != TGSI_FILE_SVIEW && b->buffer != TGSI_FILE_SAMP)
      why = "sizes are of buffers, images, shared memory or textures";
   if (why) {
      diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL, "binding %u: %s", i, why);
      return false;
   }
   if (to_const && c->files[b->file].kind == ISA_FILE_CONST)
      cbank_base(c, b->file, b->bank);
   return true;
}

static void
mark(uint8_t *t, uint32_t nunits, uint32_t from, uint32_t n)
{
   for (uint32_t u = from; u < from + n && u < nunits; u++)
      t[u] = 1;
}

/* The units a run must start from zero: everything an operand, a
 * binding or a fixed register can name. */
/* Wait-state models look up the op that wrote a register by its address
 * on every read inside a wait window: a table by 4-byte word, built when
 * every op starts on one (else timing.c searches). */
static void
index_words(struct emu_code *c)
{
   if (c->hazard != ISA_HAZARD_WAIT_STATES || !c->n)
      return;
   for (unsigned i = 0; i < c->n; i++)
      if (c->ops[i].addr % 4)
         return;
   uint32_t nw = c->ops[c->n - 1].addr / 4 + 1;
   c->op_of_word = xmalloc((size_t)nw * sizeof(*c->op_of_word));
   for (uint32_t k = 0; k < nw; k++)
      c->op_of_word[k] = -1;
   for (unsigned i = 0; i < c->n; i++)
      c->op_of_word[c->ops[i].addr / 4] = (int32_t)i;
   c->nwords = nw;
}

/* The units the program can read or write, and what the run needs to
 * know of the whole program: shared memory, whether its waves may run
 * interleaved (lockstep), the earliest read relative to issue. */
static void
touched_units(struct emu_code *c)
{
   uint8_t *t = xcalloc(c->nunits + 1, 1);
   c->lockstep = true;
   c->min_read_adj = 0;
   for (unsigned i = 0; i < c->n; i++) {
      const struct emu_op *op = &c->ops[i];
      /* waves that write memory or stage outputs see each other's
       * writes in the order they run: they run one after the other */
      if (op->kind == EMU_K_STORE || op->kind == EMU_K_ATOMIC || op->kind == EMU_K_AST ||
          op->kind == EMU_K_EMIT)
         c->lockstep = false;
      for (unsigned k = 0; k < op->nsrc; k++)
         c->min_read_adj = MIN2(c->min_read_adj, (int)op->src[k].read_adj);
      c->min_read_adj = MIN2(c->min_read_adj, (int)op->cond.read_adj);
      c->uses_shared |=
          (op->space == EMU_SPACE_SHARED && (op->kind == EMU_K_LOAD || op->kind == EMU_K_STORE)) ||
          op->kind == EMU_K_ATOMIC;
      for (unsigned k = 0; k < op->nsrc; k++) {
         const struct emu_src *s = &op->src[k];
         if (s->kind == EMU_S_REG)
            mark(t, c->nunits, s->unit, MAX2(s->count + (s->rinc ? op->rpt : 0u), 4u));
         else if (s->kind == EMU_S_REL_REG)
            mark(t, c->nunits, s->base, s->limit);
         if (s->kind == EMU_S_REL_REG || s->kind == EMU_S_REL_CONST)
            mark(t, c->nunits, s->addr_unit, 1);
      }
      for (unsigned k = 0; k < op->ndst; k++)
         if (op->dst[k].kind == EMU_S_REG)
            mark(t, c->nunits, op->dst[k].unit, op->dst[k].count + op->rpt);
      if (op->has_guard && !op->guard_never)
         mark(t, c->nunits, op->guard_unit, 1);
      for (unsigned k = 0; k < op->ndst; k++)
         if (op->dst[k].wide || op->dst[k].lanemask)
            mark(t, c->nunits, op->dst[k].unit, 2);
      if (op->has_scc)
         mark(t, c->nunits, op->scc_dst.unit, 1);
      if (op->has_cond)
         mark(t, c->nunits, op->cond.unit, op->cond.count);
   }
   for (unsigned b = 0; b < c->nbinds; b++)
      if (c->binds[b].kind == EMU_BIND_INPUT || c->binds[b].kind == EMU_BIND_SYSVAL ||
          c->binds[b].kind == EMU_BIND_OUTPUT || c->files[c->binds[b].file].kind != ISA_FILE_CONST)
         mark(t, c->nunits, c->files[c->binds[b].file].base + c->binds[b].index, 1);
   for (unsigned f = 0; f < c->nfiles; f++)
      if (c->files[f].fixed >= 0 && c->files[f].kind != ISA_FILE_CONST)
         mark(t, c->nunits, c->files[f].base + (unsigned)c->files[f].fixed, 1);
   if (c->exec_mask)
      mark(t, c->nunits, c->exec_lo, 2);
   if (c->exec_stack) /* the nesting counts (flow.c exec_stack) */
      mark(t, c->nunits, c->exec_unit, 1);
   c->touched = xmalloc((c->nunits + 1) * sizeof(*c->touched));
   for (uint32_t u = 0; u < c->nunits; u++)
      if (t[u])
         c->touched[c->ntouched++] = u;
   c->is_touched = t;
}

/* A source the ALU reads straight from its register buffer (exec.c). */
static void
set_direct(struct emu_op *op)
{
   for (unsigned k = 0; k < op->nsrc; k++) {
      struct emu_src *s = &op->src[k];
      s->direct = s->kind == EMU_S_REG && !s->lanemask && !s->dpp && !s->hi && !s->conv &&
                  !s->mods && !s->ftz && !s->sel;
   }
}

/* The class named `name`, or -1. */
static int
class_named(const struct isa_model *m, const char *name)
{
   for (unsigned k = 0; k < isa_class_count(m); k++) {
      struct isa_class_info ci;
      isa_class_info(m, k, &ci);
      if (ci.name && name && !strcmp(ci.name, name))
         return (int)k;
   }
   return -1;
}

/* Wait-state models: the model's table, read here and not through
 * isa_delay() (the compilers' answer), so that a wrong answer there shows
 * as a hazard at run time. Rows naming a class the model lacks decide
 * nothing (the model checker reports them). */
static void
load_wait_rules(struct emu_code *c)
{
   if (c->hazard != ISA_HAZARD_WAIT_STATES)
      return;
   struct isa_wait_rule_info ri;
   unsigned cap = 0;
   for (unsigned i = 0; isa_wait_rule_info(c->model, i, &ri); i++) {
      int a = class_named(c->model, ri.first), b = class_named(c->model, ri.second);
      if (a < 0 || b < 0 || ri.states <= 0)
         continue;
      struct emu_wait_rule r = {(unsigned)a, (unsigned)b, ri.file, ri.states,
                                i,           ri.nops > 0, ri.slot, -1};
      if (ri.imp_file >= 0 && (unsigned)ri.imp_file < c->nfiles)
         r.imp_unit = (int64_t)c->files[ri.imp_file].base + ri.imp_index;
      VEC_PUSH(c->wait_rules, c->nwait_rules, cap, r);
   }
}

/* For each source slot of each op, the wait-state rules that can apply
 * to it as the consumer: those of its class about its op, slot or
 * implicit register. Which one applies then depends on the producer only
 * (timing.c wait_states_short). */
static void
index_wait_rules(struct emu_code *c)
{
   if (!c->nwait_rules)
      return;
   size_t nslots = (size_t)c->n * ISA_MAX_SRC, cap = 0, used = 0;
   c->wait_at = xmalloc((nslots + 1) * sizeof(*c->wait_at));
   for (size_t j = 0; j < nslots; j++) {
      const struct isa_insn *ci = &c->insns[j / ISA_MAX_SRC];
      const struct emu_op *op = &c->ops[j / ISA_MAX_SRC];
      unsigned si = (unsigned)(j % ISA_MAX_SRC);
      c->wait_at[j] = (uint32_t)used;
      for (unsigned i = 0; i < c->nwait_rules; i++) {
         const struct emu_wait_rule *wr = &c->wait_rules[i];
         if (wr->second != ci->cls || (wr->ops && !isa_wait_rule_op(c->model, wr->row, ci->op)) ||
             (wr->slot >= 0 && si != (unsigned)wr->slot) ||
             (wr->imp_unit >= 0 && (si < ci->nsrc || op->src[si].unit != wr->imp_unit)))
            continue;
         uint16_t k = (uint16_t)i;
         VEC_PUSH(c->wait_sel, used, cap, k);
      }
   }
   c->wait_at[nslots] = (uint32_t)used;
}

/* Wait-state models: a read of a fixed-latency result at cycle t lacks
 * wait states only while t - issue - 1 < the most states a rule of its
 * slot asks (timing.c wait_states_short), issue = ready - lat for its
 * writer's destination. With lmin the least lat of any destination a
 * fixed-latency write goes through, a read at t + slack >= ready, slack =
 * lmin - 1 - that most, lacks none: read_adj holds the slack (never below
 * 0, the plain ready test), so that emu_reg_read answers such a read
 * inline instead of looking up the writer. A slot without rules reads
 * inline from the cycle after its writer's issue. */
static void
wait_slack(struct emu_code *c)
{
   if (c->hazard != ISA_HAZARD_WAIT_STATES)
      return;
   int32_t lmin = INT32_MAX;
   for (unsigned i = 0; i < c->n; i++) {
      const struct emu_op *op = &c->ops[i];
      if (op->sync)
         continue; /* its results wait on a counter, never on the window */
      for (unsigned j = 0; j < op->ndst; j++)
         if (op->dst[j].kind == EMU_S_REG)
            lmin = MIN2(lmin, op->dst[j].lat);
      if (op->has_scc)
         lmin = MIN2(lmin, op->scc_dst.lat);
   }
   if (c->exec_stack || lmin == INT32_MAX)
      lmin = 0; /* flow.c's nesting count is written with lat 0 */
   for (unsigned i = 0; i < c->n; i++)
      for (unsigned k = 0; k < ISA_MAX_SRC; k++) {
         size_t at = (size_t)i * ISA_MAX_SRC + k;
         int most = 0;
         for (uint32_t q = c->wait_at ? c->wait_at[at] : 0; c->wait_at && q < c->wait_at[at + 1];
              q++)
            most = MAX2(most, c->wait_rules[c->wait_sel[q]].states);
         c->ops[i].src[k].read_adj = (int8_t)MIN2(MAX2(lmin - 1 - most, 0), INT8_MAX);
      }
}

enum emu_status
emu_load(const struct emu_program *p, struct emu_code **out, struct diag_list *d)
{
   *out = NULL;
   if (!p || !p->model) {
      diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL, "program without a model");
      return EMU_ERR_DECODE;
   }
   struct emu_code *c = xcalloc(1, sizeof(*c));
   c->model = p->model;
   c->hazard = isa_hazard_kind(p->model);
   c->delay_slots = c->hazard == ISA_HAZARD_DELAY_SLOTS;
   c->bar_min = isa_hazard_param(p->model, "bar_min", 0);
   c->min_stall = isa_hazard_param(p->model, "min_stall", 1);
   c->flow_stall = isa_hazard_param(p->model, "flow_stall", 0);
   c->max_pending = isa_hazard_param(p->model, "max_pending", 0);
   c->gs_max_vertices = p->gs_max_vertices;
   unsigned nssy, nsync;
   isa_ops_by_sem(p->model, ISA_SEM_SSY, &nssy);
   isa_ops_by_sem(p->model, ISA_SEM_SYNC, &nsync);
   c->stack_flow = nssy || nsync;
   unsigned npop;
   isa_ops_by_sem(p->model, ISA_SEM_EXEC_POP, &npop);
   for (unsigned k = 0; k < isa_class_count(p->model); k++) {
      struct isa_class_info ci;
      isa_class_info(p->model, k, &ci);
      bool slots = c->hazard == ISA_HAZARD_INTERLOCKED;
      bool counters = c->hazard == ISA_HAZARD_WAIT_STATES && ci.sync != ISA_SYNC_WAIT_SLOT &&
                      ci.war_sync <= ISA_SYNC_SCOREBOARD;
      if (!counters &&
          ((ci.sync > ISA_SYNC_SCOREBOARD && !(slots && ci.sync == ISA_SYNC_WAIT_SLOT)) ||
           (ci.war_sync > ISA_SYNC_SCOREBOARD && !(slots && ci.war_sync == ISA_SYNC_WAIT_SLOT)))) {
         diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL,
                  "model %s: class '%s' syncs through '%s', which the emulator does not model",
                  isa_model_name(p->model), ci.name,
                  isa_sync_name(ci.sync > ISA_SYNC_SCOREBOARD ? ci.sync : ci.war_sync));
         emu_code_free(c);
         return EMU_ERR_UNSUPPORTED;
      }
   }
   init_files(c);
   load_wait_rules(c);
   /* EXEC-mask models: a scalar register pair named "exec" (gfx9). */
   unsigned ef, ei, eb;
   if (c->hazard == ISA_HAZARD_WAIT_STATES && isa_parse_reg_name(p->model, "exec", &ef, &ei, &eb) &&
       c->files[ef].kind == ISA_FILE_UNIFORM && ei + 1 < c->files[ef].count) {
      c->exec_mask = true;
      c->exec_lo = c->files[ef].base + ei;
   }
   /* The nesting count of the execution-mask stack: the low half of the
    * first register of the full file the half registers alias (agx r0l). */
   for (unsigned f = 0; f < c->nfiles && npop; f++)
      if (c->files[f].half_of >= 0) {
         c->exec_stack = true;
         c->exec_unit = c->files[c->files[f].half_of].base;
         break;
      }
   size_t n = 0;
   if (isa_decode_program(p->model, p->code, p->size, &c->insns, &n, d) != ISA_ERR_OK) {
      emu_code_free(c);
      return EMU_ERR_DECODE;
   }
   c->n = (unsigned)n;
   c->ops = xcalloc(n ? n : 1, sizeof(*c->ops));
   enum emu_status st = EMU_OK;
   for (unsigned i = 0; i < c->n && st == EMU_OK; i++)
      if (!build_op(c, i, d))
         st = EMU_ERR_UNSUPPORTED;
   for (unsigned i = 0; i < p->nbinds && st == EMU_OK; i++)
      if (!check_binding(c, &p->binds[i], i, d))
         st = EMU_ERR_BINDING;
   if (st != EMU_OK) {
      emu_code_free(c);
      return st;
   }
   c->nbinds = p->nbinds;
   c->binds = xmalloc((p->nbinds ? p->nbinds : 1) * sizeof(*c->binds));
   if (p->nbinds)
      memcpy(c->binds, p->binds, p->nbinds * sizeof(*c->binds));
   touched_units(c);
   index_words(c);
   for (unsigned i = 0; i < c->n; i++)
      set_direct(&c->ops[i]);
   index_wait_rules(c);
   wait_slack(c);
   *out = c;
   return EMU_OK;
}

void
emu_code_free(struct emu_code *c)
{
   if (!c)
      return;
   free(c->op_of_word);
   free(c->insns);
   free(c->ops);
   free(c->files);
   free(c->cbanks);
   free(c->binds);
   free(c->touched);
   free(c->is_touched);
   free(c->wait_rules);
   free(c->wait_at);
   free(c->wait_sel);
   free(c);
}

unsigned
emu_code_count(const struct emu_code *c)
{
   return c->n;
}

const struct isa_insn *
emu_code_insn(const struct emu_code *c, unsigned index)
{
   return index < c->n ? &c->insns[index] : NULL;
}
