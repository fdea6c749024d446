/*
 * The table-driven decoder and encoder. Both walk the same per-op field
 * list from the model, so a field the encoder can write is exactly a field
 * the decoder reads back.
 *
 * Decoding never fails on bits that match an op: operand bits that match no
 * form, register numbers outside every file, enum values without a name and
 * op-specific illegal combinations all decode into a record flagged with
 * `illegal`, so the emulator can raise an illegal-encoding event at the
 * right instruction. Encoding refuses every one of those with a message.
 *
 * A field's `when` condition decides whether it exists in a given word
 * (a3xx (nopN) vs (r)); conditions are evaluated on the raw values of the
 * op's fields (forms for operand fields, see isa_guards_hold()).
 */
#include "isa/isa_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void
isa_load_bits(const uint8_t *p, size_t n, struct isa_bits *b)
{
   b->w[0] = b->w[1] = 0;
   for (size_t i = 0; i < n && i < 16; i++)
      b->w[i >> 3] |= (uint64_t)p[i] << ((i & 7) * 8);
}

void
isa_store_bits(const struct isa_bits *b, size_t n, uint8_t *p)
{
   for (size_t i = 0; i < n && i < 16; i++)
      p[i] = (uint8_t)(b->w[i >> 3] >> ((i & 7) * 8));
}

static int64_t
sext(uint64_t v, unsigned w)
{
   if (w >= 64)
      return (int64_t)v;
   uint64_t sign = 1ull << (w - 1);
   return (int64_t)((v ^ sign) - sign);
}

void
isa_insn_init(const struct isa_model *m, unsigned op, struct isa_insn *in)
{
   memset(in, 0, sizeof(*in));
   if (op >= m->nops)
      return;
   const struct isa_op *o = &m->ops[op];
   in->op = (uint16_t)op;
   in->sem = (uint16_t)(o->sem < 0 ? 0 : o->sem);
   in->cls = (uint8_t)(o->cls < 0 ? 0 : o->cls);
   in->ndst = o->ndst;
   in->nsrc = o->nsrc;
   in->size = (uint8_t)(o->bits / 8);
   memcpy(in->mod, m->mod_def, sizeof(in->mod));
   /* A modifier field the op fixes has that value (gfx9: the compare
    * condition is part of the opcode). */
   for (unsigned i = 0; i < o->nfields; i++) {
      const struct isa_field *f = &o->fields[i];
      if (f->kind == ISA_FK_FIXED && f->format < 0 && f->mod >= 0 && f->mod < ISA_MAX_MODS)
         in->mod[f->mod] = (int16_t)isa_field_get(f, &o->match);
   }
}

static struct isa_opnd *
slot_opnd(struct isa_insn *in, const struct isa_op *op, unsigned s)
{
   return s < op->ndst ? &in->dst[s] : &in->src[s - op->ndst];
}

static const struct isa_opnd *
slot_copnd(const struct isa_insn *in, const struct isa_op *op, unsigned s)
{
   return s < op->ndst ? &in->dst[s] : &in->src[s - op->ndst];
}

/* ------------------------------------------------------------------ */
/* Decoding.                                                           */

static int
cmp_name_ref(const void *pa, const void *pb)
{
   const struct isa_name_ref *a = pa, *b = pb;
   int c = memcmp(a->name, b->name, MIN2(a->len, b->len) + 1);
   return c ? c : (a->op > b->op) - (a->op < b->op);
}

/* The sorted name table the assembler looks mnemonics up in, so that a
 * line costs a few binary searches instead of a scan of every op name
 * per word (sm50 lines start with half a dozen control fields). */
static void
build_names(struct isa_model *m)
{
   unsigned n = 0;
   for (unsigned i = 0; i < m->nops; i++)
      n += 1 + m->ops[i].naliases;
   m->names = xmalloc(sizeof(*m->names) * (n ? n : 1));
   m->nnames = 0;
   for (unsigned i = 0; i < m->nops; i++)
      for (int a = -1; a < (int)m->ops[i].naliases; a++) {
         const char *nm = a < 0 ? m->ops[i].mnemonic : m->ops[i].aliases[a].name;
         m->names[m->nnames++] = (struct isa_name_ref){nm, (unsigned)strlen(nm), i};
      }
   qsort(m->names, m->nnames, sizeof(*m->names), cmp_name_ref);
}

static int
cmp_op_name(const void *pa, const void *pb)
{
   const struct isa_op_name *a = pa, *b = pb;
   int c = strcmp(a->name, b->name);
   if (c)
      return c;
   if (a->is_key != b->is_key)
      return a->is_key ? -1 : 1;
   return (a->op > b->op) - (a->op < b->op);
}

/* The compilers look ops up by key or mnemonic for every instruction they
 * emit: a binary search instead of a scan of every op. */
static void
build_op_names(struct isa_model *m)
{
   m->op_names = xmalloc(sizeof(*m->op_names) * (2 * m->nops + 1));
   m->nop_names = 0;
   for (unsigned i = 0; i < m->nops; i++) {
      if (m->ops[i].key)
         m->op_names[m->nop_names++] = (struct isa_op_name){m->ops[i].key, i, true};
      m->op_names[m->nop_names++] = (struct isa_op_name){m->ops[i].mnemonic, i, false};
   }
   qsort(m->op_names, m->nop_names, sizeof(*m->op_names), cmp_op_name);
}

/* The compilers pick ops by semantics while they select and legalize each
 * instruction: a list per semantics instead of a scan of every op. */
static void
build_sem_ops(struct isa_model *m)
{
   m->sem_ops = xmalloc(sizeof(*m->sem_ops) * (m->nops ? m->nops : 1));
   unsigned n = 0;
   for (unsigned s = 0; s < ISA_SEM_COUNT; s++) {
      m->sem_at[s] = n;
      for (unsigned i = 0; i < m->nops; i++)
         if (m->ops[i].sem == (int)s)
            m->sem_ops[n++] = (uint16_t)i;
   }
   m->sem_at[ISA_SEM_COUNT] = n;
}

/* Facts the encoder and isa_insn_init would otherwise look up for every
 * record: each modifier's default, each slot's flag bits. */
static void
build_defaults(struct isa_model *m)
{
   memset(m->mod_def, 0, sizeof(m->mod_def));
   m->mod_def_fit = true;
   for (unsigned i = 0; i < m->nmods && i < ISA_MAX_MODS; i++) {
      m->mod_def[i] = (int16_t)m->mods[i].def;
      m->mod_def_fit &= m->mod_def[i] == m->mods[i].def;
   }
   for (unsigned o = 0; o < m->nops; o++) {
      struct isa_op *op = &m->ops[o];
      for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
         struct isa_slot *sl = &op->slot[s];
         sl->flag_bits = 0;
         for (unsigned i = 0; i < op->nfields; i++)
            if (op->fields[i].kind == ISA_FK_FLAG && op->fields[i].target == sl->field)
               sl->flag_bits |= op->fields[i].flag;
      }
   }
}

static unsigned
mask_bits(const struct isa_op *op)
{
   unsigned n = 0;
   for (int w = 0; w < 2; w++)
      for (uint64_t x = op->mask.w[w]; x; x &= x - 1)
         n++;
   return n;
}

/* Picks the bit positions every op fixes (the first eight, within the
 * shortest op) and sorts the ops into buckets by their value there, so that
 * decoding compares a word with a handful of ops instead of all of them. */
void
isa_build_dispatch(struct isa_model *m)
{
   unsigned minbits = ISA_MAX_BITS;
   struct isa_bits all = {{~0ull, ~0ull}};
   for (unsigned i = 0; i < m->nops; i++) {
      minbits = MIN2(minbits, m->ops[i].bits);
      all.w[0] &= m->ops[i].mask.w[0];
      all.w[1] &= m->ops[i].mask.w[1];
   }
   m->nkey = 0;
   for (unsigned p = 0; p < minbits && m->nkey < 8; p++)
      if (isa_bits_get(&all, p, 1))
         m->key_bit[m->nkey++] = (uint8_t)p;
   m->bucket_ops = xcalloc((size_t)m->nops * 256 + 1, sizeof(uint16_t));
   unsigned n = 0;
   for (unsigned k = 0; k < 256; k++) {
      m->bucket_at[k] = n;
      if (k >> m->nkey)
         continue;
      for (unsigned i = 0; i < m->nops; i++) {
         bool ok = true;
         for (unsigned j = 0; j < m->nkey; j++)
            ok &= isa_bits_get(&m->ops[i].match, m->key_bit[j], 1) == ((k >> j) & 1);
         if (ok)
            m->bucket_ops[n++] = (uint16_t)i;
      }
      /* More fixed bits first: a special case of an encoding (check.c
       * allows only strictly nested overlaps) is tried before it. */
      for (unsigned x = m->bucket_at[k] + 1; x < n; x++)
         for (unsigned y = x; y > m->bucket_at[k] && mask_bits(&m->ops[m->bucket_ops[y]]) >
                                                         mask_bits(&m->ops[m->bucket_ops[y - 1]]);
              y--) {
            uint16_t t = m->bucket_ops[y];
            m->bucket_ops[y] = m->bucket_ops[y - 1];
            m->bucket_ops[y - 1] = t;
         }
   }
   m->bucket_at[256] = n;
   build_names(m);
   build_op_names(m);
   build_sem_ops(m);
   build_defaults(m);
   isa_build_slot_info(m);
}

static int
match_op(const struct isa_model *m, const struct isa_bits *b, unsigned avail_bits)
{
   unsigned k = 0;
   for (unsigned j = 0; j < m->nkey; j++)
      k |= (unsigned)isa_bits_get(b, m->key_bit[j], 1) << j;
   for (unsigned x = m->bucket_at[k]; x < m->bucket_at[k + 1]; x++) {
      unsigned i = m->bucket_ops[x];
      const struct isa_op *op = &m->ops[i];
      if (op->bits > avail_bits)
         continue;
      if (((b->w[0] ^ op->match.w[0]) & op->mask.w[0]) == 0 &&
          ((b->w[1] ^ op->match.w[1]) & op->mask.w[1]) == 0)
         return (int)i;
   }
   return -1;
}

static uint32_t
imm_value(const struct isa_model *m, const struct isa_case *cs, uint64_t v, bool *ok)
{
   unsigned w = cs->val.width;
   *ok = true;
   if (cs->lut >= 0) {
      const struct isa_lut *t = &m->luts[cs->lut];
      if (v < t->n)
         return t->v[v];
      *ok = false;
      return 0;
   }
   if (cs->float_top)
      return w >= 32 ? (uint32_t)v : (uint32_t)(v << (32 - w));
   if (cs->sign)
      return (uint32_t)sext(v, w);
   return (uint32_t)v;
}

/* Decodes operand bits `raw` of slot s; returns why it is illegal, if it is. */
static enum isa_illegal
decode_operand(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *s,
               uint64_t raw, const int16_t *mods, struct isa_opnd *o, int *form)
{
   const struct isa_format *fm = &m->formats[op->fields[s->field].format];
   memset(o, 0, sizeof(*o));
   *form = -1;
   for (unsigned i = 0; i < fm->nfields; i++)
      if (fm->fields[i].kind == ISA_FK_FLAG && isa_field_get64(&fm->fields[i], raw))
         o->flags |= fm->fields[i].flag;
   unsigned c = 0;
   while (c < fm->ncases && (raw & fm->cases[c].mask) != fm->cases[c].match)
      c++;
   if (c == fm->ncases)
      return ISA_ILLEGAL_OPERAND_FORM;
   const struct isa_case *cs = &fm->cases[c];
   *form = (int)c;
   for (unsigned i = 0; i < cs->nfields; i++)
      if (cs->fields[i].kind == ISA_FK_FLAG && isa_field_get64(&cs->fields[i], raw))
         o->flags |= cs->fields[i].flag;
   enum isa_illegal r = s->allow & (1u << c) ? ISA_ILLEGAL_NONE : ISA_ILLEGAL_OPERAND_KIND;
   uint64_t v = isa_field_get64(&cs->val, raw);
   bool narrow = isa_slot_width(m, op, s, mods) <= 16;
   o->kind = (uint8_t)cs->kind;
   if (cs->rel) {
      int f = cs->file;
      if (narrow && m->files[f].half >= 0)
         f = m->files[f].half;
      o->file = (uint8_t)f;
      o->flags |= ISA_OPND_F_REL;
      o->bank = (uint16_t)cs->addr_index;
      o->value = (uint32_t)sext(v, cs->val.width);
   } else if (cs->kind == ISA_OPND_REG) {
      const struct isa_regset *rs = &m->regsets[cs->regset];
      o->file = 0xff;
      o->index = (uint16_t)v;
      for (unsigned i = 0; i < rs->n; i++) {
         if (v < rs->v[i].from || v > rs->v[i].to || (v - rs->v[i].from) % rs->v[i].stride)
            continue;
         int f = rs->v[i].file;
         if (narrow && m->files[f].half >= 0)
            f = m->files[f].half;
         o->file = (uint8_t)f;
         o->index =
             (uint16_t)(rs->v[i].base + (v - rs->v[i].from) / rs->v[i].stride * rs->v[i].scale);
         break;
      }
      if (o->file == 0xff && !r)
         r = ISA_ILLEGAL_REGISTER;
   } else if (cs->kind == ISA_OPND_CONST) {
      int f = cs->file;
      if (narrow && m->files[f].half >= 0)
         f = m->files[f].half;
      o->file = (uint8_t)f;
      o->index = (uint16_t)v;
      if (cs->bank_field >= 0)
         o->bank = (uint16_t)isa_field_get64(&cs->fields[cs->bank_field], raw);
   } else {
      bool ok;
      o->value = imm_value(m, cs, v, &ok);
      enum isa_imm64 w = isa_slot_imm64(m, op, s, mods);
      if (!ok) {
         o->kind = ISA_OPND_NONE; /* past the table: nothing to re-encode */
         if (!r)
            r = ISA_ILLEGAL_OPERAND_FORM;
      } else if (w != ISA_IMM64_NONE) {
         uint64_t x = isa_case_widen(m, cs, v, o->value, w);
         o->value = (uint32_t)x;
         o->hi = (uint32_t)(x >> 32);
      }
   }
   return r;
}

/* How slot s reads a 32-bit immediate field: not at all as 64 bits, as an
 * integer, or as a double. */
enum isa_imm64
isa_slot_imm64(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *s,
               const int16_t *mods)
{
   if (isa_slot_width(m, op, s, mods) != 64)
      return ISA_IMM64_NONE;
   return isa_type_is_float(isa_slot_type(m, op, s, mods)) ? ISA_IMM64_FLOAT : ISA_IMM64_INT;
}

/* A word field that holds a whole 32-bit word: the literal. */
static bool
case_is_word(const struct isa_case *cs)
{
   return cs->lut < 0 && (cs->val.width >= 32 || cs->float_top);
}

/* The 64 bits case cs's field (value: its 32-bit reading) gives a 64-bit
 * slot: a table entry its 64-bit column (a number's double), a literal in
 * a float slot the high word, anything else sign-extended (GFX9: llvm-mc
 * reads s_mov_b64 s[0:1], 0xffffffff80000000 as the literal 0x80000000). */
uint64_t
isa_case_widen(const struct isa_model *m, const struct isa_case *cs, uint64_t field, uint32_t value,
               enum isa_imm64 w)
{
   if (cs->lut >= 0 && field < m->luts[cs->lut].n)
      return m->luts[cs->lut].v64[field];
   if (w == ISA_IMM64_FLOAT && case_is_word(cs))
      return (uint64_t)value << 32;
   return (uint64_t)(int64_t)(int32_t)value;
}

/* Whether a register operand breaks its slot's alignment (a register
 * pair starting at an odd register); the fixed register (RZ) reads as a
 * whole group of zeros and is exempt. */
static bool
misaligned(const struct isa_model *m, const struct isa_slot *sl, const struct isa_opnd *o)
{
   if (sl->align <= 1 || o->kind != ISA_OPND_REG || (o->flags & ISA_OPND_F_REL) ||
       o->file >= m->nfiles)
      return false;
   return o->index % sl->align && m->files[o->file].fixed != (int)o->index;
}

/* Whether the group of registers an operand covers (a 64-bit pair, a
 * load's components) runs past the end of its file: gfx9 v[255:256]. */
static bool
past_end(const struct isa_model *m, const struct isa_insn *in, int slot, const struct isa_opnd *o)
{
   if (o->kind != ISA_OPND_REG || (o->flags & ISA_OPND_F_REL) || o->file >= m->nfiles ||
       m->files[o->file].fixed == (int)o->index) /* RZ reads as a whole group of zeros */
      return false;
   /* groups, and 64-bit values in 32-bit registers (not narrower files:
    * an a3xx predicate holds a compare's result whatever its type) */
   unsigned w = 0, n = isa_opnd_count(m, in, slot);
   isa_opnd_type(m, in, slot, &w);
   if (w == 64 && m->files[o->file].width == 32)
      n *= 2;
   return o->index + n > m->files[o->file].count;
}

static void
flag_illegal(struct isa_insn *out, enum isa_illegal r, unsigned arg)
{
   if (r && !out->illegal) {
      out->illegal = (uint8_t)r;
      out->illegal_arg = (uint8_t)arg;
   }
}

static void
decode_fields(const struct isa_model *m, const struct isa_op *op, const struct isa_bits *b,
              struct isa_insn *out)
{
   int64_t vals[ISA_MAX_FIELDS];
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      /* A fixed operand has no form: "src2 is const" must not hold. */
      vals[i] = f->kind == ISA_FK_FIXED && f->format >= 0 ? -1 : (int64_t)isa_field_get(f, b);
   }
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      if (f->kind != ISA_FK_MOD || !isa_guards_hold(f->guard, f->nguard, vals))
         continue;
      const struct isa_mod *md = &m->mods[f->mod];
      out->mod[f->mod] = (int16_t)vals[i];
      bool bad = vals[i] > md->max;
      if (md->kind == ISA_MOD_ENUM)
         bad = !isa_enum_entry(&m->enums[md->enm], (int32_t)vals[i]);
      if (bad)
         flag_illegal(out, ISA_ILLEGAL_MOD_VALUE, (unsigned)f->mod);
   }
   int64_t raws[ISA_MAX_FIELDS]; /* a field may be two slots: each decodes the bits */
   memcpy(raws, vals, sizeof(raws));
   for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
      const struct isa_slot *sl = &op->slot[s];
      int form;
      uint64_t raw = (uint64_t)raws[sl->field];
      enum isa_illegal r = decode_operand(m, op, sl, raw, out->mod, slot_opnd(out, op, s), &form);
      vals[sl->field] = isa_operand_val(form, raw, op->fields[sl->field].format);
      if (!r && misaligned(m, sl, slot_opnd(out, op, s)))
         r = ISA_ILLEGAL_ALIGN;
      flag_illegal(out, r, s < op->ndst ? s : ISA_MAX_DST + s - op->ndst);
   }
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      if (f->kind != ISA_FK_FLAG || f->target < 0 || !vals[i] ||
          !isa_guards_hold(f->guard, f->nguard, vals))
         continue;
      for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++)
         if (op->slot[s].field == f->target)
            slot_opnd(out, op, s)->flags |= f->flag;
   }
   for (unsigned r = 0; r < op->nrules; r++)
      if (isa_guards_hold(op->rules[r].guard, op->rules[r].nguard, vals))
         flag_illegal(out, ISA_ILLEGAL_RULE, r);
}

static void
decode_control(const struct isa_model *m, uint64_t ctrl, unsigned slot, struct isa_insn *out)
{
   const struct isa_bundle *bd = &m->bundle;
   uint64_t v = (ctrl >> (slot * bd->slot_bits)) & isa_mask64(bd->slot_bits);
   for (unsigned i = 0; i < bd->nfields; i++) {
      const struct isa_field *f = &bd->fields[i];
      uint64_t x = isa_field_get64(f, v);
      const struct isa_mod *md = &m->mods[f->mod];
      out->mod[f->mod] = (int16_t)x;
      if (x > (uint64_t)md->max ||
          (md->kind == ISA_MOD_ENUM && !isa_enum_entry(&m->enums[md->enm], (int32_t)x)))
         flag_illegal(out, ISA_ILLEGAL_MOD_VALUE, (unsigned)f->mod);
   }
}

enum isa_err
isa_decode(const struct isa_model *m, const uint8_t *code, size_t size, size_t *pos,
           struct isa_insn *out)
{
   size_t off = *pos;
   uint64_t ctrl = 0;
   unsigned slot = 0;
   memset(out, 0, sizeof(*out));
   if (m->bundle.insns) {
      size_t cb = m->bundle.ctrl_bits / 8, ib = m->bits / 8;
      size_t gb = cb + m->bundle.insns * ib;
      size_t g = off / gb, r = off % gb;
      if (r < cb)
         r = cb;
      off = g * gb + r;
      slot = (unsigned)((r - cb) / ib);
      off = g * gb + cb + slot * ib;
      if (g * gb + cb > size)
         return ISA_ERR_TRUNCATED;
      struct isa_bits cw;
      isa_load_bits(code + g * gb, cb, &cw);
      ctrl = cw.w[0];
   }
   if (off >= size)
      return ISA_ERR_TRUNCATED;
   size_t avail = size - off;
   struct isa_bits b;
   isa_load_bits(code + off, avail, &b);
   unsigned avail_bits = avail >= 16 ? 128 : (unsigned)avail * 8;
   int opi = match_op(m, &b, avail_bits);
   if (opi < 0) {
      for (unsigned i = 0; i < m->nops; i++)
         if (m->ops[i].bits > avail_bits)
            return ISA_ERR_TRUNCATED;
      return ISA_ERR_DECODE;
   }
   const struct isa_op *op = &m->ops[opi];
   isa_insn_init(m, (unsigned)opi, out);
   out->addr = (uint32_t)off;
   /* Clear the bits past the instruction so fields cannot see them. */
   if (op->bits < 64) {
      b.w[0] &= isa_mask64(op->bits);
      b.w[1] = 0;
   } else {
      b.w[1] &= isa_mask64(op->bits - 64);
   }
   decode_fields(m, op, &b, out);
   for (unsigned k = 0; k < (unsigned)op->ndst + op->nsrc; k++) {
      int slot = k < op->ndst ? ISA_SLOT_DST((int)k) : ISA_SLOT_SRC((int)(k - op->ndst));
      if (past_end(m, out, slot, slot_opnd(out, op, k)))
         flag_illegal(out, ISA_ILLEGAL_REGISTER, (unsigned)slot);
   }
   if (m->bundle.insns)
      decode_control(m, ctrl, slot, out);
   *pos = off + op->bits / 8;
   return ISA_ERR_OK;
}

enum isa_err
isa_decode_program(const struct isa_model *m, const uint8_t *code, size_t size,
                   struct isa_insn **out, size_t *n, struct diag_list *d)
{
   size_t cap = 0, pos = 0;
   *out = NULL;
   *n = 0;
   while (pos < size) {
      struct isa_insn in;
      size_t at = pos;
      enum isa_err e = isa_decode(m, code, size, &pos, &in);
      if (e != ISA_ERR_OK) {
         if (d)
            diag_add(d, DIAG_ERROR, "<code>", 0, 0, NULL, "offset 0x%zx: %s", at, isa_strerror(e));
         free(*out);
         *out = NULL;
         *n = 0;
         return e;
      }
      VEC_PUSH(*out, *n, cap, in);
   }
   return ISA_ERR_OK;
}

/* ------------------------------------------------------------------ */
/* Encoding.                                                           */

DC_PRINTF(3, 4) static enum isa_err fail(char **msg, enum isa_err e, const char *fmt, ...)
{
   if (msg && !*msg) {
      va_list ap;
      va_start(ap, fmt);
      *msg = xvasprintf(fmt, ap);
      va_end(ap);
   }
   return e;
}

/* Raw field values of a record, for conditions: fixed fields from the op's
 * pattern, modifiers from mod[], flags from their operand, operand fields
 * -1 (their form is known only once encoded). */
void
isa_record_vals(const struct isa_model *m, const struct isa_op *op, const struct isa_insn *in,
                int64_t *vals)
{
   (void)m;
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      vals[i] = 0;
      if (f->kind == ISA_FK_FIXED)
         vals[i] = f->format >= 0 ? -1 : (int64_t)isa_field_get(f, &op->match);
      else if (f->kind == ISA_FK_MOD)
         vals[i] = in->mod[f->mod];
      else if (f->kind == ISA_FK_OPERAND)
         vals[i] = -1;
      else if (f->kind == ISA_FK_FLAG && f->target >= 0)
         for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++)
            if (op->slot[s].field == f->target)
               vals[i] = (slot_copnd(in, op, s)->flags & f->flag) != 0;
   }
}

static void
guard_text(const struct isa_op *op, const struct isa_field *f, char *buf, size_t size)
{
   size_t n = 0;
   buf[0] = 0;
   for (unsigned g = 0; g < f->nguard && n < size; g++) {
      const struct isa_guard *x = &f->guard[g];
      if (x->b >= 0)
         n += (size_t)snprintf(buf + n, size - n, "%s%s %s %s", g ? " && " : "",
                               op->fields[x->a].name,
                               x->op == ISA_GUARD_EQ ? "==" : "!=", op->fields[x->b].name);
      else
         n += (size_t)snprintf(buf + n, size - n, "%s%s %s %d", g ? " && " : "",
                               op->fields[x->a].name, x->op == ISA_GUARD_EQ ? "==" : "!=", x->val);
   }
}

static enum isa_err
encode_mods(const struct isa_model *m, const struct isa_op *op, const struct isa_insn *in,
            const int64_t *vals, struct isa_bits *b, char **msg)
{
   bool has[ISA_MAX_MODS] = {false};
   int16_t want[ISA_MAX_MODS]; /* in->mod as it must be: the defaults where !has */
   memcpy(want, m->mod_def, sizeof(want));
   for (unsigned i = 0; i < m->bundle.nfields; i++) {
      unsigned k = (unsigned)m->bundle.fields[i].mod;
      has[k] = true;
      want[k] = in->mod[k];
   }
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      if (f->kind == ISA_FK_FIXED && f->format < 0 && f->mod >= 0 && f->mod < ISA_MAX_MODS) {
         /* A modifier the op fixes (isa_insn_init gives it that value). */
         int16_t fixed = (int16_t)isa_field_get(f, &op->match);
         if (in->mod[f->mod] != fixed)
            return fail(msg, ISA_ERR_MODIFIER, "%s fixes %s=%d", op->mnemonic, m->mods[f->mod].name,
                        fixed);
         has[f->mod] = true;
         want[f->mod] = fixed;
         continue;
      }
      if (f->kind != ISA_FK_MOD)
         continue;
      const struct isa_mod *md = &m->mods[f->mod];
      int64_t v = in->mod[f->mod];
      if (!isa_guards_hold(f->guard, f->nguard, vals)) {
         char g[128];
         guard_text(op, f, g, sizeof(g));
         if (v && v != md->def)
            return fail(msg, ISA_ERR_MODIFIER, "%s: '%s' is only available when %s", op->mnemonic,
                        md->name, g);
         continue;
      }
      has[f->mod] = true;
      want[f->mod] = in->mod[f->mod];
      if (v < 0 || (uint64_t)v > isa_mask64(f->width) || v > md->max)
         return fail(msg, ISA_ERR_RANGE, "%s: %s=%lld does not fit (at most %lld)", op->mnemonic,
                     md->name, (long long)v,
                     (long long)MIN2((int64_t)isa_mask64(f->width), (int64_t)md->max));
      if (md->kind == ISA_MOD_ENUM && !isa_enum_entry(&m->enums[md->enm], (int32_t)v))
         return fail(msg, ISA_ERR_MODIFIER, "%s: %lld is not a value of %s", op->mnemonic,
                     (long long)v, md->name);
      isa_field_set(f, b, (uint64_t)v);
   }
   if (m->mod_def_fit && !memcmp(want, in->mod, m->nmods * sizeof(want[0])))
      return ISA_ERR_OK; /* one comparison: this runs for every record encoded */
   for (unsigned i = 0; i < m->nmods; i++)
      if (!has[i] && in->mod[i] != m->mods[i].def)
         return fail(msg, ISA_ERR_MODIFIER, "%s cannot carry modifier '%s'", op->mnemonic,
                     m->mods[i].name);
   return ISA_ERR_OK;
}

static const char *const kind_names[] = {"no operand", "a register", "a constant", "an immediate"};

/* Says why a value does not fit its form: into *why (NULL: the caller
 * wants no text, only the verdict), replacing an earlier reason. */
DC_PRINTF(2, 3) static void why_not(char **why, const char *fmt, ...)
{
   if (!why)
      return;
   va_list ap;
   va_start(ap, fmt);
   free(*why);
   *why = xvasprintf(fmt, ap);
   va_end(ap);
}

/* Places value v in one operand form: FORM_FITS, FORM_OTHER (another form
 * may hold it), or FORM_RANGE (it does not fit; why_not says why). */
enum form_fit { FORM_OTHER, FORM_FITS, FORM_RANGE };

static enum form_fit form_value(const struct isa_model *m, const struct isa_case *cs,
                                const struct isa_opnd *o, bool narrow, uint64_t *v, char **why);

/* form_value for an immediate of a 64-bit slot: hi:value is what the op
 * reads, and a form holds it when its field widens to it (isa_case_widen). */
static enum form_fit
form_value64(const struct isa_model *m, const struct isa_case *cs, const struct isa_opnd *o,
             enum isa_imm64 wide, uint64_t *v, char **why)
{
   uint64_t want = (uint64_t)o->hi << 32 | o->value;
   if (cs->lut >= 0) {
      const struct isa_lut *t = &m->luts[cs->lut];
      for (unsigned i = 0; i < t->n && (uint64_t)i <= isa_mask64(cs->val.width); i++)
         if (t->v64[i] == want) {
            *v = i;
            return FORM_FITS;
         }
      return FORM_OTHER;
   }
   struct isa_opnd o32 = *o;
   if (wide == ISA_IMM64_FLOAT && case_is_word(cs)) {
      if (o->value) {
         why_not(why,
                 "0x%016llx: a literal in a 64-bit float slot is the high word (the low "
                 "one 0)",
                 (unsigned long long)want);
         return FORM_RANGE;
      }
      o32.value = o->hi;
   } else if (want != (uint64_t)(int64_t)(int32_t)o->value) {
      why_not(why, "0x%016llx is no sign-extended 32-bit value", (unsigned long long)want);
      return FORM_RANGE;
   }
   o32.hi = 0;
   return form_value(m, cs, &o32, false, v, why);
}

static enum form_fit
form_value(const struct isa_model *m, const struct isa_case *cs, const struct isa_opnd *o,
           bool narrow, uint64_t *v, char **why)
{
   unsigned w = cs->val.width;
   if (o->flags & ISA_OPND_F_REL) {
      int f = cs->file;
      if (narrow && m->files[f].half >= 0)
         f = m->files[f].half;
      int64_t off = (int32_t)o->value;
      if (o->file != f || o->bank != cs->addr_index)
         return FORM_OTHER;
      if (off < -(1ll << (w - 1)) || off >= (1ll << (w - 1))) {
         why_not(why, "offset %lld does not fit %u signed bits", (long long)off, w);
         return FORM_RANGE;
      }
      *v = (uint64_t)off & isa_mask64(w);
      return FORM_FITS;
   }
   if (cs->kind == ISA_OPND_REG) {
      const struct isa_regset *rs = &m->regsets[cs->regset];
      for (unsigned i = 0; i < rs->n; i++) {
         int f = rs->v[i].file;
         if (narrow && m->files[f].half >= 0)
            f = m->files[f].half;
         unsigned st = rs->v[i].stride, sc = rs->v[i].scale;
         if (f == o->file && o->index >= rs->v[i].base && (o->index - rs->v[i].base) % sc == 0 &&
             (o->index - rs->v[i].base) / sc * st <= rs->v[i].to - rs->v[i].from) {
            *v = rs->v[i].from + (o->index - rs->v[i].base) / sc * st;
            return FORM_FITS;
         }
      }
      return FORM_OTHER;
   }
   if (cs->kind == ISA_OPND_CONST) {
      int f = cs->file;
      if (narrow && m->files[f].half >= 0)
         f = m->files[f].half;
      if (o->file != f)
         return FORM_OTHER;
      if (w < 32 && o->index >> w) {
         why_not(why, "constant %u does not fit %u bits", o->index, w);
         return FORM_RANGE;
      }
      const struct isa_field *bf = cs->bank_field >= 0 ? &cs->fields[cs->bank_field] : NULL;
      if (bf ? (uint64_t)o->bank > isa_mask64(bf->width) : o->bank != 0) {
         why_not(why, "constant bank %u does not fit", o->bank);
         return FORM_RANGE;
      }
      *v = o->index;
      return FORM_FITS;
   }
   uint32_t x = o->value;
   if (cs->lut >= 0) {
      const struct isa_lut *t = &m->luts[cs->lut];
      /* only the entries the field can index (agx: a 6-bit short form of
       * a 256-entry table) */
      for (unsigned i = 0; i < t->n && (uint64_t)i <= isa_mask64(w); i++)
         if (t->v[i] == x) {
            *v = i;
            return FORM_FITS;
         }
      return FORM_OTHER; /* not in the table: another form may hold it */
   }
   if (cs->float_top) {
      if (w < 32 && (x & ((1u << (32 - w)) - 1))) {
         why_not(why, "float 0x%08x has bits below the top %u", x, w);
         return FORM_RANGE;
      }
      *v = w < 32 ? x >> (32 - w) : x;
      return FORM_FITS;
   }
   if (cs->sign) {
      int64_t s = (int32_t)x;
      if (w < 32 && (s < -(1ll << (w - 1)) || s >= (1ll << (w - 1)))) {
         why_not(why, "%lld does not fit %u signed bits", (long long)s, w);
         return FORM_RANGE;
      }
      *v = (uint64_t)s & isa_mask64(w);
      return FORM_FITS;
   }
   if (w < 32 && x >> w) {
      why_not(why, "%u does not fit %u unsigned bits", x, w);
      return FORM_RANGE;
   }
   *v = x;
   return FORM_FITS;
}

bool
isa_case_holds(const struct isa_model *m, const struct isa_case *cs, uint32_t value)
{
   struct isa_opnd o = {.kind = ISA_OPND_IMM, .value = value};
   uint64_t v;
   return cs->kind == ISA_OPND_IMM && form_value(m, cs, &o, false, &v, NULL) == FORM_FITS;
}

bool
isa_case_holds64(const struct isa_model *m, const struct isa_case *cs, enum isa_imm64 w,
                 uint64_t value)
{
   struct isa_opnd o = {.kind = ISA_OPND_IMM, .value = (uint32_t)value, .hi = value >> 32};
   uint64_t v;
   if (w == ISA_IMM64_NONE)
      return isa_case_holds(m, cs, (uint32_t)value);
   return cs->kind == ISA_OPND_IMM && form_value64(m, cs, &o, w, &v, NULL) == FORM_FITS;
}

/* Encodes the operand of slot s into the format's bits. extra: flags the
 * layout encodes elsewhere for this slot. */
static enum isa_err
encode_operand(const struct isa_model *m, const struct isa_op *op, unsigned s,
               const struct isa_opnd *o, const int16_t *mods, uint8_t extra, uint64_t *raw,
               int *form, char **msg)
{
   const struct isa_slot *sl = &op->slot[s];
   const struct isa_format *fm = &m->formats[op->fields[sl->field].format];
   const char *sname = op->fields[sl->field].name;
   bool narrow = isa_slot_width(m, op, sl, mods) <= 16, kind_seen = false, flag_bad = false;
   char *why = NULL;
   bool range = false; /* a form of the kind could not hold the value */
   if (o->kind == ISA_OPND_NONE || o->kind > ISA_OPND_IMM)
      return fail(msg, ISA_ERR_OPERAND, "%s: %s is missing", op->mnemonic, sname);
   uint8_t fmt_flags = 0;
   for (unsigned i = 0; i < fm->nfields; i++)
      fmt_flags |= fm->fields[i].flag;
   for (unsigned c = 0; c < fm->ncases; c++) {
      const struct isa_case *cs = &fm->cases[c];
      bool rel = (o->flags & ISA_OPND_F_REL) != 0;
      if (cs->kind != o->kind || cs->rel != rel || !(sl->allow & (1u << c)))
         continue;
      kind_seen = true;
      uint8_t avail = fmt_flags | extra | ISA_OPND_F_REL;
      for (unsigned i = 0; i < cs->nfields; i++)
         avail |= cs->fields[i].flag;
      if (o->flags & ~avail) {
         flag_bad = true;
         continue;
      }
      uint64_t v;
      enum isa_imm64 wide = o->kind == ISA_OPND_IMM ? isa_slot_imm64(m, op, sl, mods) : 0;
      enum form_fit fit = wide ? form_value64(m, cs, o, wide, &v, msg ? &why : NULL)
                               : form_value(m, cs, o, narrow, &v, msg ? &why : NULL);
      range |= fit == FORM_RANGE;
      if (fit != FORM_FITS)
         continue;
      free(why);
      uint64_t r = isa_field_set64(&cs->val, cs->match, v);
      if (cs->kind == ISA_OPND_CONST && cs->bank_field >= 0)
         r = isa_field_set64(&cs->fields[cs->bank_field], r, o->bank);
      for (unsigned i = 0; i < fm->nfields; i++)
         if (fm->fields[i].kind == ISA_FK_FLAG)
            r = isa_field_set64(&fm->fields[i], r, (o->flags & fm->fields[i].flag) != 0);
      for (unsigned i = 0; i < cs->nfields; i++)
         if (cs->fields[i].kind == ISA_FK_FLAG)
            r = isa_field_set64(&cs->fields[i], r, (o->flags & cs->fields[i].flag) != 0);
      *raw = r;
      *form = (int)c;
      return ISA_ERR_OK;
   }
   if (range) {
      enum isa_err e = fail(msg, ISA_ERR_RANGE, "%s: %s: %s", op->mnemonic, sname, why ? why : "");
      free(why);
      return e;
   }
   if (!kind_seen)
      return fail(msg, ISA_ERR_OPERAND, "%s: %s%s cannot be %s", op->mnemonic, sname,
                  o->flags & ISA_OPND_F_REL ? " (relative)" : "", kind_names[o->kind]);
   if (flag_bad)
      return fail(msg, ISA_ERR_OPERAND, "%s: %s cannot take that modifier (flags 0x%x)",
                  op->mnemonic, sname, o->flags);
   if (!msg) /* the verdict only (isa_check_insn without a diag list) */
      return o->kind == ISA_OPND_IMM ? ISA_ERR_RANGE : ISA_ERR_OPERAND;
   char reg[32] = "";
   if (o->kind == ISA_OPND_REG && !(o->flags & ISA_OPND_F_REL))
      isa_reg_name(m, o->file, o->index, reg, sizeof(reg));
   if (o->kind == ISA_OPND_IMM)
      snprintf(reg, sizeof(reg), "0x%x", o->value);
   return fail(msg, o->kind == ISA_OPND_IMM ? ISA_ERR_RANGE : ISA_ERR_OPERAND,
               "%s: %s cannot be %s%s%s", op->mnemonic, sname, reg[0] ? reg : kind_names[o->kind],
               narrow ? " (16-bit operand)" : "",
               o->kind == ISA_OPND_IMM ? " (not encodable)" : "");
}

static enum isa_err
encode_flags(const struct isa_op *op, const struct isa_insn *in, const int64_t *vals,
             struct isa_bits *b, char **msg)
{
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      if (f->kind != ISA_FK_FLAG || f->target < 0)
         continue;
      if (!isa_guards_hold(f->guard, f->nguard, vals)) {
         if (vals[i]) {
            char g[128];
            guard_text(op, f, g, sizeof(g));
            return fail(msg, ISA_ERR_MODIFIER, "%s: '%s' is only available when %s", op->mnemonic,
                        f->name, g);
         }
         continue;
      }
      isa_field_set(f, b, (uint64_t)vals[i]);
   }
   (void)in;
   return ISA_ERR_OK;
}

static enum isa_err
control_slot(const struct isa_model *m, const struct isa_insn *in, unsigned slot, uint64_t *ctrl,
             char **msg)
{
   const struct isa_bundle *bd = &m->bundle;
   uint64_t v = 0;
   for (unsigned i = 0; i < bd->nfields; i++) {
      const struct isa_field *f = &bd->fields[i];
      int64_t x = in->mod[f->mod];
      const struct isa_mod *md = &m->mods[f->mod];
      if (x < 0 || (uint64_t)x > isa_mask64(f->width) || x > md->max)
         return fail(msg, ISA_ERR_RANGE, "%s=%lld does not fit its control field", md->name,
                     (long long)x);
      if (md->kind == ISA_MOD_ENUM && !isa_enum_entry(&m->enums[md->enm], (int32_t)x))
         return fail(msg, ISA_ERR_MODIFIER, "%lld is not a value of %s", (long long)x, md->name);
      v = isa_field_set64(f, v, (uint64_t)x);
   }
   *ctrl |= v << (slot * bd->slot_bits);
   return ISA_ERR_OK;
}

/* isa_encode_bits, also giving a bundle model's control bits of the
 * record (as control_slot() places them in slot 0). */
static enum isa_err
encode_bits(const struct isa_model *m, const struct isa_insn *in, struct isa_bits *out, char **msg,
            int *bad_slot, uint64_t *ctrl_out)
{
   if (bad_slot)
      *bad_slot = -1;
   if (in->op >= m->nops)
      return fail(msg, ISA_ERR_ARG, "op index %u out of range", in->op);
   const struct isa_op *op = &m->ops[in->op];
   if (in->ndst != op->ndst || in->nsrc != op->nsrc)
      return fail(msg, ISA_ERR_ARG, "%s takes %u destination(s) and %u source(s)", op->mnemonic,
                  op->ndst, op->nsrc);
   struct isa_bits b = op->match;
   int64_t vals[ISA_MAX_FIELDS];
   isa_record_vals(m, op, in, vals);
   enum isa_err e = encode_mods(m, op, in, vals, &b, msg);
   if (e)
      return e;
   for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
      const struct isa_slot *sl = &op->slot[s];
      uint64_t raw = 0;
      int form = -1;
      e = encode_operand(m, op, s, slot_copnd(in, op, s), in->mod, sl->flag_bits, &raw, &form, msg);
      if (e) {
         if (bad_slot)
            *bad_slot = (int)s;
         return e;
      }
      if (misaligned(m, sl, slot_copnd(in, op, s))) {
         if (bad_slot)
            *bad_slot = (int)s;
         return fail(msg, ISA_ERR_ILLEGAL,
                     "%s: operand %u is a group of registers that must start at a multiple of "
                     "%u, not at register %u",
                     op->mnemonic, s, sl->align, slot_copnd(in, op, s)->index);
      }
      int pslot = s < op->ndst ? ISA_SLOT_DST((int)s) : ISA_SLOT_SRC((int)(s - op->ndst));
      if (past_end(m, in, pslot, slot_copnd(in, op, s))) {
         if (bad_slot)
            *bad_slot = (int)s;
         return fail(msg, ISA_ERR_RANGE, "%s: operand %u runs past the end of its register file",
                     op->mnemonic, s);
      }
      isa_field_set(&op->fields[sl->field], &b, raw);
      vals[sl->field] = isa_operand_val(form, raw, op->fields[sl->field].format);
   }
   e = encode_flags(op, in, vals, &b, msg);
   if (e)
      return e;
   for (unsigned r = 0; r < op->nrules; r++)
      if (isa_guards_hold(op->rules[r].guard, op->rules[r].nguard, vals))
         return fail(msg, ISA_ERR_ILLEGAL, "%s: %s", op->mnemonic, op->rules[r].reason);
   uint64_t ctrl = 0;
   if (m->bundle.insns && (e = control_slot(m, in, 0, &ctrl, msg)))
      return e;
   *out = b;
   *ctrl_out = ctrl;
   return ISA_ERR_OK;
}

enum isa_err
isa_encode_bits(const struct isa_model *m, const struct isa_insn *in, struct isa_bits *out,
                char **msg, int *bad_slot)
{
   uint64_t ctrl;
   return encode_bits(m, in, out, msg, bad_slot, &ctrl);
}

static enum isa_err
report(struct diag_list *d, enum isa_err e, char *msg)
{
   if (d && e)
      diag_add(d, DIAG_ERROR, "<insn>", 0, 0, NULL, "%s", msg ? msg : isa_strerror(e));
   free(msg);
   return e;
}

enum isa_err
isa_check_insn(const struct isa_model *m, const struct isa_insn *in, struct diag_list *d)
{
   struct isa_bits b;
   char *msg = NULL;
   /* Not report(d, isa_encode_bits(.., &msg ..), msg): the order in which
    * arguments are evaluated is unspecified, msg could be read first.
    * Without d nobody reads the message: none is written (the legalizer's
    * trials ask this for every form it considers). */
   enum isa_err e = isa_encode_bits(m, in, &b, d ? &msg : NULL, NULL);
   return report(d, e, msg);
}

/* ------------------------------------------------------------------ */
/* Remembered verdicts (isa_check_insn_memo).                          */

/* A record is its bytes: no padding, so equal records have equal bytes. */
_Static_assert(sizeof(struct isa_insn) ==
                   16 + sizeof(struct isa_opnd) * (ISA_MAX_DST + ISA_MAX_SRC) +
                       sizeof(int16_t) * ISA_MAX_MODS,
               "struct isa_insn has padding");
_Static_assert(sizeof(struct isa_opnd) == 16, "struct isa_opnd has padding");

#define CHECK_MEMO_MAX 16384 /* entries; about 4 MB */

struct check_memo_entry {
   struct isa_insn in;
   uint64_t h;
   bool used;
   uint8_t err; /* enum isa_err */
};

struct isa_check_memo {
   const struct isa_model *m;
   struct check_memo_entry *v; /* open addressing, cap a power of two */
   unsigned n, cap;
};

static uint64_t
hash_words(uint64_t h, const void *p, size_t n)
{
   const unsigned char *b = p;
   size_t i = 0;
   for (; i + 8 <= n; i += 8) {
      uint64_t w;
      memcpy(&w, b + i, sizeof(w));
      h = (h ^ w) * 0xff51afd7ed558ccdull;
      h ^= h >> 29;
   }
   for (; i < n; i++)
      h = (h ^ b[i]) * 0x100000001b3ull;
   return h;
}

/* A hash of the bytes a record's verdict can depend on: the header, its
 * operands and the model's modifiers (the rest of a record is compared,
 * not hashed: equal records still hash alike). */
static uint64_t
insn_hash(const struct isa_insn *in, unsigned nmods)
{
   uint64_t h = hash_words(0x9e3779b97f4a7c15ull, in, offsetof(struct isa_insn, dst));
   h = hash_words(h, in->dst, MIN2(in->ndst, ISA_MAX_DST) * sizeof(in->dst[0]));
   h = hash_words(h, in->src, MIN2(in->nsrc, ISA_MAX_SRC) * sizeof(in->src[0]));
   h = hash_words(h, in->mod, MIN2(nmods, ISA_MAX_MODS) * sizeof(in->mod[0]));
   return h ^ (h >> 32);
}

static struct check_memo_entry *
memo_slot(const struct isa_check_memo *c, const struct isa_insn *in, uint64_t h)
{
   for (unsigned i = (unsigned)h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
      struct check_memo_entry *e = &c->v[i];
      if (!e->used || (e->h == h && !memcmp(&e->in, in, sizeof(*in))))
         return e;
   }
}

struct isa_check_memo *
isa_check_memo_new(void)
{
   struct isa_check_memo *c = xcalloc(1, sizeof(*c));
   c->cap = 256;
   c->v = xcalloc(c->cap, sizeof(*c->v));
   return c;
}

static void
memo_grow(struct isa_check_memo *c)
{
   struct isa_check_memo g = {.m = c->m, .n = c->n, .cap = 2 * c->cap};
   g.v = xcalloc(g.cap, sizeof(*g.v));
   for (unsigned i = 0; i < c->cap; i++)
      if (c->v[i].used)
         *memo_slot(&g, &c->v[i].in, c->v[i].h) = c->v[i];
   free(c->v);
   *c = g;
}

enum isa_err
isa_check_insn_memo(struct isa_check_memo *c, const struct isa_model *m, const struct isa_insn *in)
{
   if (!c->m)
      c->m = m;
   if (c->m != m)
      return isa_check_insn(m, in, NULL);
   uint64_t h = insn_hash(in, m->nmods);
   struct check_memo_entry *e = memo_slot(c, in, h);
   if (e->used)
      return (enum isa_err)e->err;
   enum isa_err err = isa_check_insn(c->m, in, NULL);
   if (c->n >= CHECK_MEMO_MAX)
      return err;
   if (2 * (c->n + 1) > c->cap) {
      memo_grow(c);
      e = memo_slot(c, in, h);
   }
   e->in = *in;
   e->h = h;
   e->used = true;
   e->err = (uint8_t)err;
   c->n++;
   return err;
}

void
isa_check_memo_free(struct isa_check_memo *c)
{
   if (c)
      free(c->v);
   free(c);
}

enum isa_err
isa_encode(const struct isa_model *m, const struct isa_insn *in, uint8_t *buf, size_t *len,
           struct diag_list *d)
{
   struct isa_bits b;
   char *msg = NULL;
   enum isa_err e = isa_encode_bits(m, in, &b, &msg, NULL);
   if (e)
      return report(d, e, msg);
   *len = m->ops[in->op].bits / 8;
   isa_store_bits(&b, *len, buf);
   return ISA_ERR_OK;
}

enum isa_err
isa_encode_program(const struct isa_model *m, const struct isa_insn *in, size_t n, uint8_t **out,
                   size_t *len, struct diag_list *d)
{
   return isa_encode_program_at(m, in, n, out, len, NULL, d);
}

enum isa_err
isa_encode_program_at(const struct isa_model *m, const struct isa_insn *in, size_t n, uint8_t **out,
                      size_t *len, uint32_t *addr, struct diag_list *d)
{
   size_t cap = 0;
   uint8_t *buf = NULL;
   *len = 0;
   const struct isa_bundle *bd = &m->bundle;
   unsigned group = bd->insns ? bd->insns : 1;
   for (size_t g = 0; g < n; g += group) {
      uint64_t ctrl = 0;
      uint8_t words[8][16];
      size_t wl[8];
      for (unsigned k = 0; k < group; k++) {
         struct isa_insn pad;
         const struct isa_insn *x = &in[g + k];
         if (g + k >= n) {
            isa_insn_init(m, (unsigned)bd->pad_op, &pad);
            x = &pad;
         }
         struct isa_bits b;
         char *msg = NULL;
         uint64_t cv = 0; /* checked by encode_bits as control_slot() checks it */
         enum isa_err e = encode_bits(m, x, &b, &msg, NULL, &cv);
         if (!e && bd->insns)
            ctrl |= cv << (k * bd->slot_bits);
         if (e) {
            if (d)
               diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL, "instruction %zu: %s", g + k,
                        msg ? msg : isa_strerror(e));
            free(msg);
            free(buf);
            *out = NULL;
            *len = 0;
            return e;
         }
         wl[k] = m->ops[x->op].bits / 8;
         isa_store_bits(&b, wl[k], words[k]);
      }
      size_t need = *len + 16 * (group + 1);
      VEC_RESERVE(buf, cap, need);
      if (bd->insns) {
         struct isa_bits cb = {{ctrl, 0}};
         isa_store_bits(&cb, bd->ctrl_bits / 8, buf + *len);
         *len += bd->ctrl_bits / 8;
      }
      for (unsigned k = 0; k < group; k++) {
         if (addr && g + k < n)
            addr[g + k] = (uint32_t)*len;
         memcpy(buf + *len, words[k], wl[k]);
         *len += wl[k];
      }
   }
   *out = buf;
   return ISA_ERR_OK;
}

enum isa_err
isa_encode_program_update(const struct isa_model *m, const struct isa_insn *in, const bool *changed,
                          size_t n, uint8_t *code, size_t len, const uint32_t *addr)
{
   const struct isa_bundle *bd = &m->bundle;
   unsigned group = bd->insns ? bd->insns : 1;
   for (size_t g = 0; g < n; g += group) {
      bool any = false;
      for (unsigned k = 0; k < group && g + k < n; k++)
         any |= changed[g + k];
      if (!any)
         continue;
      uint64_t ctrl = 0;
      for (unsigned k = 0; k < group; k++) {
         struct isa_insn pad;
         const struct isa_insn *x = &in[g + k];
         if (g + k >= n) {
            isa_insn_init(m, (unsigned)bd->pad_op, &pad);
            x = &pad;
         } else if (x->op >= m->nops) {
            return ISA_ERR_ARG;
         }
         struct isa_bits b;
         enum isa_err e = ISA_ERR_OK;
         bool again = g + k < n && changed[g + k];
         uint64_t cv = 0;
         if (again)
            e = encode_bits(m, x, &b, NULL, NULL, &cv);
         if (!e && bd->insns && again)
            ctrl |= cv << (k * bd->slot_bits);
         else if (!e && bd->insns)
            e = control_slot(m, x, k, &ctrl, NULL);
         if (e)
            return e;
         size_t wl = m->ops[x->op].bits / 8;
         if (again && addr[g + k] + wl <= len)
            isa_store_bits(&b, wl, code + addr[g + k]);
         else if (again)
            return ISA_ERR_ARG;
      }
      if (bd->insns) {
         struct isa_bits cb = {{ctrl, 0}};
         size_t cl = bd->ctrl_bits / 8;
         if (addr[g] < cl)
            return ISA_ERR_ARG;
         isa_store_bits(&cb, cl, code + addr[g] - cl);
      }
   }
   return ISA_ERR_OK;
}
