/*
 * The model checker: rejects a model that loads but cannot be trusted,
 * before any decoder or emulator uses it. In the spirit of isaspec's bitset
 * conflict check, but on the loaded tables:
 *
 *  - two ops whose fixed bits can match the same word (and two forms of
 *    one operand format that can match the same operand bits);
 *  - fields of one op (or one form) that share bits, unless their `when`
 *    conditions exclude each other;
 *  - bits of an op that are neither fixed, ignored nor in a field;
 *  - ops without semantics or latency class, or whose semantics reads a
 *    different number of sources;
 *  - enum values and register numbers that do not fit their fields;
 *  - sync mechanisms the declared hazard model does not have.
 *
 * Names were already resolved by the loader (an unknown name never gets
 * here). Every error points at the model line that declared the culprit.
 */
#include "isa/isa_priv.h"

#include <stdio.h>
#include <stdlib.h>

static struct isa_bits
field_bits(const struct isa_field *f)
{
   struct isa_bits b = {{0, 0}};
   isa_field_set(f, &b, ~0ull);
   return b;
}

static bool
bits_and(struct isa_bits a, struct isa_bits b)
{
   return (a.w[0] & b.w[0]) || (a.w[1] & b.w[1]);
}

static int
first_bit(struct isa_bits a)
{
   for (int i = 0; i < 128; i++)
      if ((a.w[i >> 6] >> (i & 63)) & 1)
         return i;
   return -1;
}

static struct isa_bits
bits_op(struct isa_bits a, struct isa_bits b, int op)
{
   struct isa_bits r;
   for (int w = 0; w < 2; w++)
      r.w[w] = op == 0 ? a.w[w] & b.w[w] : op == 1 ? a.w[w] | b.w[w] : a.w[w] & ~b.w[w];
   return r;
}

/* Two fields may share bits only when their conditions cannot both hold:
 * one says X == v (or X != v) and the other the opposite. */
static bool
exclusive(const struct isa_field *a, const struct isa_field *b)
{
   for (unsigned i = 0; i < a->nguard; i++)
      for (unsigned j = 0; j < b->nguard; j++) {
         const struct isa_guard *x = &a->guard[i], *y = &b->guard[j];
         if (x->a == y->a && x->b < 0 && y->b < 0 && x->val == y->val && x->op != y->op)
            return true;
      }
   return false;
}

static bool
active(const struct isa_field *f)
{
   return f->kind != ISA_FK_FIXED;
}

/* Overlap and coverage of a list of fields inside `bits` bits. */
static bool
check_fields(struct isa_model *m, const char *owner, const struct isa_field *f, unsigned n,
             unsigned bits, struct isa_bits fixed, struct isa_bits ignore, struct isa_pos pos,
             unsigned ninherited, const char *from)
{
   bool ok = true;
   struct isa_bits used = fixed;
   for (unsigned i = 0; i < n; i++) {
      if (!active(&f[i]))
         continue;
      struct isa_bits bi = field_bits(&f[i]);
      if (bits_and(bi, fixed)) {
         isa_error_at(m, f[i].pos, "%s: field '%s' overlaps fixed bits (bit %d)", owner, f[i].name,
                      first_bit(bits_op(bi, fixed, 0)));
         ok = false;
      }
      for (unsigned j = i + 1; j < n; j++) {
         if (!active(&f[j]))
            continue;
         struct isa_bits bj = field_bits(&f[j]);
         if (bits_and(bi, bj) && !exclusive(&f[i], &f[j])) {
            isa_error_at(m, f[j].pos, "%s: fields '%s' and '%s' overlap at bit %d",
                         j < ninherited ? from : owner, f[i].name, f[j].name,
                         first_bit(bits_op(bi, bj, 0)));
            ok = false;
         }
      }
      used = bits_op(used, bi, 1);
   }
   used = bits_op(used, ignore, 1);
   struct isa_bits all = {{bits >= 64 ? ~0ull : (1ull << bits) - 1,
                           bits > 64 ? (bits >= 128 ? ~0ull : (1ull << (bits - 64)) - 1) : 0}};
   struct isa_bits hole = bits_op(all, used, 2);
   if (hole.w[0] || hole.w[1]) {
      isa_error_at(m, pos, "%s: bit %d is neither fixed, ignored nor part of a field", owner,
                   first_bit(hole));
      ok = false;
   }
   return ok;
}

static bool
check_mod_fields(struct isa_model *m, const char *owner, const struct isa_field *f, unsigned n)
{
   bool ok = true;
   for (unsigned i = 0; i < n; i++) {
      if (f[i].kind != ISA_FK_MOD || f[i].mod < 0)
         continue;
      const struct isa_mod *md = &m->mods[f[i].mod];
      uint64_t lim = isa_mask64(f[i].width);
      if (md->kind == ISA_MOD_FLAG && f[i].width != 1) {
         isa_error_at(m, f[i].pos, "%s: flag '%s' needs a 1-bit field", owner, md->name);
         ok = false;
      }
      if (md->kind == ISA_MOD_ENUM) {
         const struct isa_enum *e = &m->enums[md->enm];
         for (unsigned j = 0; j < e->n; j++)
            if (e->v[j].value < 0 || (uint64_t)e->v[j].value > lim) {
               isa_error_at(m, f[i].pos, "%s: value %s=%d of enum '%s' does not fit field '%s'",
                            owner, e->v[j].name, e->v[j].value, e->name, f[i].name);
               ok = false;
            }
      }
   }
   return ok;
}

static bool
check_format(struct isa_model *m, struct isa_format *fm)
{
   bool ok = true;
   char owner[160];
   for (unsigned c = 0; c < fm->ncases; c++) {
      struct isa_case *cs = &fm->cases[c];
      snprintf(owner, sizeof(owner), "format '%s' form '%s'", fm->name, cs->name);
      /* The value, the form's own fields and the format's flags together. */
      unsigned n = cs->nfields + fm->nfields + 1;
      struct isa_field *all = xcalloc(n, sizeof(*all));
      all[0] = cs->val;
      all[0].pos = cs->pos;
      for (unsigned i = 0; i < cs->nfields; i++)
         all[1 + i] = cs->fields[i];
      for (unsigned i = 0; i < fm->nfields; i++)
         all[1 + cs->nfields + i] = fm->fields[i];
      struct isa_bits fixed = {{cs->mask, 0}}, ign = {{cs->ignore, 0}};
      ok &= check_fields(m, owner, all, n, fm->bits, fixed, ign, cs->pos, 0, owner);
      free(all);
      if (cs->kind == ISA_OPND_REG && !cs->rel && cs->regset >= 0) {
         const struct isa_regset *rs = &m->regsets[cs->regset];
         for (unsigned i = 0; i < rs->n; i++)
            if (cs->val.width < 32 && rs->v[i].to >> cs->val.width) {
               isa_error_at(m, cs->pos, "%s: regset '%s' values up to %u do not fit %u bits", owner,
                            rs->name, rs->v[i].to, cs->val.width);
               ok = false;
            }
      }
      if (cs->kind == ISA_OPND_IMM && cs->float_top && cs->val.width > 32) {
         isa_error_at(m, cs->pos, "%s: a float-top immediate has at most 32 bits", owner);
         ok = false;
      }
      for (unsigned d = 0; d < c; d++) {
         const struct isa_case *o = &fm->cases[d];
         if (!((cs->match ^ o->match) & cs->mask & o->mask)) {
            isa_error_at(m, cs->pos,
                         "format '%s': forms '%s' and '%s' can match the same bits (0x%llx)",
                         fm->name, o->name, cs->name, (unsigned long long)(cs->match | o->match));
            ok = false;
         }
      }
   }
   return ok;
}

static bool
sync_allowed(enum isa_hazard_kind h, enum isa_sync s)
{
   switch (s) {
   case ISA_SYNC_NONE:
      return true;
   case ISA_SYNC_SS:
   case ISA_SYNC_SY:
      return h == ISA_HAZARD_DELAY_SLOTS;
   case ISA_SYNC_SCOREBOARD:
      return h == ISA_HAZARD_STALL_COUNTS;
   case ISA_SYNC_VMCNT:
   case ISA_SYNC_LGKMCNT:
   case ISA_SYNC_EXPCNT:
      return h == ISA_HAZARD_WAIT_STATES;
   case ISA_SYNC_WAIT_SLOT:
      return h == ISA_HAZARD_INTERLOCKED;
   default:
      return false;
   }
}

/* Every printed field appears once in the op's syntax, so what the
 * printer writes the assembler can read back. */
static bool
check_syntax(struct isa_model *m, const struct isa_op *op)
{
   bool ok = true;
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      bool want = (f->kind == ISA_FK_MOD && f->mod >= 0 && !m->mods[f->mod].hidden);
      for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++)
         want |= op->slot[s].field == (int)i;
      unsigned seen = 0;
      for (unsigned t = 0; t < op->ntoks; t++)
         seen += op->toks[t].kind == ISA_TOK_FIELD && op->toks[t].field == (int)i;
      if (want && seen != 1) {
         isa_error_at(m, op->pos, "op '%s': field '%s' appears %u times in its syntax (needs 1)",
                      op->key, f->name, seen);
         ok = false;
      }
   }
   return ok;
}

static bool
check_op(struct isa_model *m, const struct isa_op *op)
{
   bool ok = true;
   char owner[160];
   snprintf(owner, sizeof(owner), "op '%s'", op->key);
   if (op->sem < 0) {
      isa_error_at(m, op->pos, "op '%s' has no semantics (sem:)", op->key);
      ok = false;
   } else if (isa_sem_arity((enum isa_sem)op->sem) >= 0 &&
              isa_sem_arity((enum isa_sem)op->sem) != op->nsrc + op->nimp[1]) {
      /* implicit sources count (gfx9 v_cndmask_b32_e32 reads vcc) */
      isa_error_at(m, op->pos, "op '%s': semantics '%s' reads %d sources, the op has %u", op->key,
                   isa_sem_name((enum isa_sem)op->sem), isa_sem_arity((enum isa_sem)op->sem),
                   op->nsrc + op->nimp[1]);
      ok = false;
   }
   if (op->cls < 0) {
      isa_error_at(m, op->pos, "op '%s' has no latency class (class:)", op->key);
      ok = false;
   }
   if (m->bundle.insns && op->bits != m->bits) {
      isa_error_at(m, op->pos, "op '%s': bundle models need %u-bit instructions", op->key, m->bits);
      ok = false;
   }
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      if (f->kind == ISA_FK_PLAIN) {
         isa_error_at(m, f->pos, "op '%s': plain field '%s' must be fixed by the op's match",
                      op->key, f->name);
         ok = false;
      }
      if (f->kind == ISA_FK_OPERAND) {
         bool used = false;
         for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++)
            used |= op->slot[s].field == (int)i;
         if (!used) {
            isa_error_at(m, f->pos,
                         "op '%s': operand field '%s' is neither an operand nor fixed by match",
                         op->key, f->name);
            ok = false;
         }
      }
   }
   char from[160];
   const struct isa_layout *ly = op->layout >= 0 ? &m->layouts[op->layout] : NULL;
   snprintf(from, sizeof(from), "layout '%s'", ly ? ly->name : "");
   ok &= check_fields(m, owner, op->fields, op->nfields, op->bits, op->mask, op->ignore, op->pos,
                      ly ? ly->nfields : 0, from);
   ok &= check_mod_fields(m, ly ? from : owner, op->fields, ly ? ly->nfields : 0);
   if (ly)
      ok &= check_mod_fields(m, owner, op->fields + ly->nfields, op->nfields - ly->nfields);
   ok &= check_syntax(m, op);
   for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++)
      if (op->slot[s].field >= 0 && !op->slot[s].allow) {
         isa_error_at(m, op->pos, "op '%s': operand %u allows no form", op->key, s);
         ok = false;
      }
   return ok;
}

/* True if some operand field of op is wholly fixed by mask to a value in w
 * that no case of its format decodes: no word matching w is op. */
static bool
no_form_in(const struct isa_model *m, const struct isa_op *op, const struct isa_bits *w,
           const struct isa_bits *mask)
{
   for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
      const struct isa_field *f = &op->fields[op->slot[s].field];
      uint64_t all = f->width >= 64 ? ~0ull : (1ull << f->width) - 1;
      if (f->format < 0 || isa_field_get(f, mask) != all)
         continue;
      uint64_t raw = isa_field_get(f, w);
      const struct isa_format *fm = &m->formats[f->format];
      bool any = false;
      for (unsigned c = 0; c < fm->ncases && !any; c++) {
         const struct isa_case *cs = &fm->cases[c];
         any = (raw & cs->mask) == cs->match &&
               (cs->lut < 0 || isa_field_get64(&cs->val, raw) < m->luts[cs->lut].n);
      }
      if (!any)
         return true;
   }
   return false;
}

static bool
check_encodings(struct isa_model *m)
{
   bool ok = true;
   for (unsigned i = 0; i < m->nops; i++) {
      const struct isa_op *a = &m->ops[i];
      for (unsigned j = 0; j < i; j++) {
         const struct isa_op *b = &m->ops[j];
         unsigned bits = MIN2(a->bits, b->bits);
         struct isa_bits common = {
             {bits >= 64 ? ~0ull : (1ull << bits) - 1,
              bits > 64 ? (bits >= 128 ? ~0ull : (1ull << (bits - 64)) - 1) : 0}};
         struct isa_bits both = bits_op(bits_op(a->mask, b->mask, 0), common, 0);
         struct isa_bits diff = {{a->match.w[0] ^ b->match.w[0], a->match.w[1] ^ b->match.w[1]}};
         /* One fixing strictly more bits is a special case the decoder
          * tries first (gfx9: src0 = 255 takes a literal, 249 an SDWA dword). */
         struct isa_bits am = a->mask, bm = b->mask, ones = {{~0ull, ~0ull}};
         bool same = am.w[0] == bm.w[0] && am.w[1] == bm.w[1];
         bool nested =
             !same && (!bits_and(bits_op(am, bm, 2), ones) || !bits_and(bits_op(bm, am, 2), ones));
         /* Nor where neither can decode an operand of the words both match:
          * no legal word is lost whichever the decoder tries (gfx9: ssrc0 =
          * 255 in s_add_u32_lit1, ssrc1 = 255 in s_add_u32_lit0). */
         struct isa_bits w = bits_op(a->match, b->match, 1), wm = bits_op(a->mask, b->mask, 1);
         if (!bits_and(diff, both) && !nested &&
             !(no_form_in(m, a, &w, &wm) && no_form_in(m, b, &w, &wm))) {
            char hex[40];
            if (bits > 64)
               snprintf(hex, sizeof(hex), "%0*llx%016llx", (int)(bits - 64 + 3) / 4,
                        (unsigned long long)w.w[1], (unsigned long long)w.w[0]);
            else
               snprintf(hex, sizeof(hex), "%0*llx", (int)(bits + 3) / 4,
                        (unsigned long long)w.w[0]);
            isa_error_at(m, a->pos, "encodings of '%s' and '%s' overlap: both match 0x%s", b->key,
                         a->key, hex);
            ok = false;
         }
      }
   }
   return ok;
}

static bool
check_regsets(struct isa_model *m)
{
   bool ok = true;
   for (unsigned i = 0; i < m->nregsets; i++) {
      const struct isa_regset *rs = &m->regsets[i];
      for (unsigned a = 0; a < rs->n; a++)
         for (unsigned b = 0; b < a; b++)
            if (rs->v[a].from <= rs->v[b].to && rs->v[b].from <= rs->v[a].to) {
               isa_error_at(m, rs->pos, "regset '%s': values %u..%u and %u..%u overlap", rs->name,
                            rs->v[b].from, rs->v[b].to, rs->v[a].from, rs->v[a].to);
               ok = false;
            }
   }
   return ok;
}

/* The operand a wait-state row names, in op o: a source field (slot k),
 * or a register of the op's implicit sources. */
static bool
row_operand(const struct isa_model *m, struct isa_wait_rule *r, unsigned o)
{
   for (unsigned k = 0; k < m->ops[o].nsrc; k++) {
      struct isa_slot_info si;
      if (isa_slot_info(m, o, false, k, &si) && si.name && !strcmp(si.name, r->operand) &&
          (r->slot < 0 || r->slot == (int)k) && r->imp_file < 0) {
         r->slot = (int)k;
         return true;
      }
   }
   unsigned file, index, bank, n;
   size_t len = isa_parse_reg_name(m, r->operand, &file, &index, &bank);
   const struct isa_implicit *im = isa_op_implicit(m, o, false, &n);
   for (unsigned k = 0; len == strlen(r->operand) && k < n && r->slot < 0; k++)
      if (im[k].file == file && im[k].index == index &&
          (r->imp_file < 0 || (r->imp_file == (int)file && r->imp_index == (int)index))) {
         r->imp_file = (int)file;
         r->imp_index = (int)index;
         return true;
      }
   return false;
}

/* A row's consumer ops (of its class `second`) and operand, by index. */
static bool
resolve_wait_rule(struct isa_model *m, struct isa_wait_rule *r)
{
   bool ok = true;
   free(r->opv);
   r->opv = r->nops ? xcalloc(r->nops, sizeof(*r->opv)) : NULL;
   r->slot = r->imp_file = r->imp_index = -1;
   int cls = r->second ? FIND(m->classes, m->nclasses, r->second) : -1;
   r->first_cls = r->first ? FIND(m->classes, m->nclasses, r->first) : -1;
   r->second_cls = cls;
   for (unsigned k = 0; k < r->nops; k++) {
      int o = FIND(m->ops, m->nops, r->ops[k]);
      r->opv[k] = o;
      if (o < 0 || (cls >= 0 && m->ops[o].cls != cls)) {
         isa_error_at(m, r->pos, "wait-state rule names '%s', %s", r->ops[k],
                      o < 0 ? "no op of the model" : "an op outside its class 'second'");
         ok = false;
      } else if (r->operand && !row_operand(m, r, (unsigned)o)) {
         isa_error_at(m, r->pos,
                      "wait-state rule names operand '%s', which '%s' does not read (a source "
                      "field or an implicit source, the same in every op of the row)",
                      r->operand, r->ops[k]);
         ok = false;
      }
   }
   return ok;
}

static bool
check_hazard(struct isa_model *m)
{
   bool ok = true;
   static const enum isa_role need[ISA_HAZARD_KIND_COUNT][5] = {
       [ISA_HAZARD_DELAY_SLOTS] = {ISA_ROLE_SS, ISA_ROLE_SY},
       [ISA_HAZARD_STALL_COUNTS] = {ISA_ROLE_STALL, ISA_ROLE_WR_BAR, ISA_ROLE_RD_BAR,
                                    ISA_ROLE_WAIT_MASK},
   };
   for (unsigned i = 0; i < 5 && need[m->hazard][i] != ISA_ROLE_NONE; i++)
      if (m->role_mod[need[m->hazard][i]] < 0) {
         isa_error_at(m, m->hazard_pos, "hazard model '%s' needs a modifier with role '%s'",
                      isa_hazard_name(m->hazard), isa_role_name(need[m->hazard][i]));
         ok = false;
      }
   for (unsigned i = 0; i < m->nwait_rules; i++) {
      struct isa_wait_rule *r = &m->wait_rules[i];
      const char *names[2] = {r->first, r->second};
      for (unsigned k = 0; k < 2; k++)
         if (names[k] && FIND(m->classes, m->nclasses, names[k]) < 0) {
            isa_error_at(m, r->pos, "wait-state rule names unknown class '%s'", names[k]);
            ok = false;
         }
      ok &= resolve_wait_rule(m, r);
   }
   for (unsigned i = 0; i < m->nclasses; i++) {
      const struct isa_class *c = &m->classes[i];
      if (!sync_allowed(m->hazard, c->sync) || !sync_allowed(m->hazard, c->war)) {
         isa_error_at(m, c->pos, "class '%s' uses a sync mechanism the hazard model lacks",
                      c->name);
         ok = false;
      }
   }
   return ok;
}

bool
isa_check_model(struct isa_model *m)
{
   bool ok = true;
   for (unsigned i = 0; i < m->nformats; i++)
      ok &= check_format(m, &m->formats[i]);
   ok &= check_regsets(m);
   for (unsigned i = 0; i < m->nops; i++)
      ok &= check_op(m, &m->ops[i]);
   ok &= check_encodings(m);
   ok &= check_hazard(m);
   if (m->bundle.insns)
      ok &= check_mod_fields(m, "bundle", m->bundle.fields, m->bundle.nfields);
   if (!m->nops) {
      isa_error_at(m, (struct isa_pos){0, 0}, "the model has no ops");
      ok = false;
   }
   return ok;
}
