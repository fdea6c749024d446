/*
 * Read-only access to a loaded model (the public accessors of isa.h), the
 * name tables, and the bit-field helpers every isa/ file shares.
 */
#include "isa/isa_priv.h"

#include <stdio.h>

#define NAME_(n, s, ...) s,
const char *const isa_file_kind_names[] = {ISA_FILE_KINDS(NAME_)};
const char *const isa_type_names[] = {ISA_TYPES(NAME_)};
const char *const isa_sem_names[] = {ISA_SEMS(NAME_)};
const char *const isa_role_names[] = {ISA_ROLES(NAME_)};
const char *const isa_hazard_names[] = {ISA_HAZARD_KINDS(NAME_)};
const char *const isa_sync_names[] = {ISA_SYNCS(NAME_)};
const char *const isa_illegal_names[] = {ISA_ILLEGALS(NAME_)};
const char *const isa_feature_names[] = {ISA_FEATURES(NAME_)};
const char *const isa_err_names[] = {ISA_ERRORS(NAME_)};
#undef NAME_
#define DESC_(n, s, d) d,
static const char *const feature_descs[] = {ISA_FEATURES(DESC_)};
#undef DESC_
#define BITS_(n, s, b, f) b,
static const uint8_t type_bits[] = {ISA_TYPES(BITS_)};
#undef BITS_
#define FLT_(n, s, b, f) f,
static const uint8_t type_float[] = {ISA_TYPES(FLT_)};
#undef FLT_
#define ARITY_(n, s, a) a,
static const int8_t sem_arity[] = {ISA_SEMS(ARITY_)};
#undef ARITY_

uint64_t
isa_field_get(const struct isa_field *f, const struct isa_bits *b)
{
   uint64_t v = 0;
   unsigned at = 0;
   for (unsigned i = 0; i < f->nr; i++) {
      if (at < 64) /* a 64-bit range fills the value: no shift by 64 */
         v |= isa_bits_get(b, f->r[i].lo, f->r[i].len) << at;
      at += f->r[i].len;
   }
   return v;
}

void
isa_field_set(const struct isa_field *f, struct isa_bits *b, uint64_t v)
{
   if (f->nr == 1) { /* most fields: one range */
      isa_bits_set(b, f->r[0].lo, f->r[0].len, v);
      return;
   }
   for (unsigned i = 0; i < f->nr; i++) {
      isa_bits_set(b, f->r[i].lo, f->r[i].len, v & isa_mask64(f->r[i].len));
      v = f->r[i].len >= 64 ? 0 : v >> f->r[i].len;
   }
}

uint64_t
isa_field_get64(const struct isa_field *f, uint64_t w)
{
   struct isa_bits b = {{w, 0}};
   return isa_field_get(f, &b);
}

uint64_t
isa_field_set64(const struct isa_field *f, uint64_t w, uint64_t v)
{
   if (f->nr == 1 && f->r[0].lo < 64 && f->r[0].lo + f->r[0].len <= 64) { /* one range, in w */
      uint64_t m = isa_mask64(f->r[0].len);
      return (w & ~(m << f->r[0].lo)) | (v & m) << f->r[0].lo;
   }
   struct isa_bits b = {{w, 0}};
   isa_field_set(f, &b, v);
   return b.w[0];
}

int64_t
isa_operand_val(int form, uint64_t raw, int format)
{
   return form < 0
              ? form
              : (int64_t)form | (int64_t)(raw & 0xffffffffu) << 16 | (int64_t)(format + 1) << 48;
}

bool
isa_guards_hold(const struct isa_guard *g, unsigned n, const int64_t *vals)
{
   for (unsigned i = 0; i < n; i++) {
      int64_t a = vals[g[i].a];
      int64_t b = g[i].b >= 0 ? vals[g[i].b] : g[i].val;
      if (g[i].op == ISA_GUARD_IS)
         a &= ISA_FORM_MASK; /* an operand's form (isa_operand_val) */
      if ((g[i].op != ISA_GUARD_NE) != (a == b))
         return false;
   }
   return true;
}

const struct isa_enum_entry *
isa_enum_entry(const struct isa_enum *e, int32_t value)
{
   /* most enums list values 0, 1, 2...; values are unique (the loader) */
   if (value >= 0 && (uint32_t)value < e->n && e->v[value].value == value)
      return &e->v[value];
   for (unsigned i = 0; i < e->n; i++)
      if (e->v[i].value == value)
         return &e->v[i];
   return NULL;
}

int
isa_fmt_print(char *buf, size_t size, const struct isa_fmt *f, int64_t v, const char *s)
{
   char mid[64] = "";
   if (f->conv == 's')
      snprintf(mid, sizeof(mid), "%s", s ? s : "");
   else if (f->conv == 'd')
      snprintf(mid, sizeof(mid), f->spec, (long long)v);
   else if (f->conv)
      snprintf(mid, sizeof(mid), f->spec, (unsigned long long)v);
   return snprintf(buf, size, "%s%s%s", f->pre, mid, f->post);
}

enum isa_type
isa_slot_type(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *s,
              const int16_t *mods)
{
   (void)op;
   if (s->type_mod >= 0) {
      const struct isa_mod *md = &m->mods[s->type_mod];
      const struct isa_enum_entry *e = isa_enum_entry(&m->enums[md->enm], mods[s->type_mod]);
      return e ? (enum isa_type)e->type : ISA_TYPE_NONE;
   }
   return (enum isa_type)s->type;
}

unsigned
isa_slot_width(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *s,
               const int16_t *mods)
{
   if (s->width)
      return s->width;
   if (s->width_mod >= 0) {
      const struct isa_mod *md = &m->mods[s->width_mod];
      const struct isa_enum_entry *e = isa_enum_entry(&m->enums[md->enm], mods[s->width_mod]);
      if (e && e->width)
         return e->width;
      if (e && e->type)
         return isa_type_bits(e->type);
      return 32;
   }
   unsigned w = isa_type_bits(isa_slot_type(m, op, s, mods));
   return w ? w : 32;
}

/* ------------------------------------------------------------------ */
/* Read-only accessors.                                                */

const char *
isa_strerror(enum isa_err e)
{
   return (unsigned)e < ISA_ERR_COUNT ? isa_err_names[e] : "unknown error";
}

const char *
isa_model_name(const struct isa_model *m)
{
   return m->name;
}

uint64_t
isa_model_digest(const struct isa_model *m)
{
   return m->text ? hash64(m->text, strlen(m->text), 0) : 0;
}

bool
isa_model_is_bundled(const struct isa_model *m)
{
   return m->bundle.insns != 0;
}

bool
isa_has_feature(const struct isa_model *m, enum isa_feature f)
{
   return (unsigned)f < ISA_FEATURE_COUNT && (m->features >> f & 1);
}

const char *
isa_feature_name(enum isa_feature f)
{
   return (unsigned)f < ISA_FEATURE_COUNT ? isa_feature_names[f] : "?";
}

const char *
isa_feature_desc(enum isa_feature f)
{
   return (unsigned)f < ISA_FEATURE_COUNT ? feature_descs[f] : "?";
}

unsigned
isa_op_count(const struct isa_model *m)
{
   return m->nops;
}

int
isa_op_find(const struct isa_model *m, const char *mnemonic)
{
   if (!mnemonic)
      return -1;
   unsigned lo = 0, hi = m->nop_names; /* the first name >= mnemonic */
   while (lo < hi) {
      unsigned mid = lo + (hi - lo) / 2;
      if (strcmp(m->op_names[mid].name, mnemonic) < 0)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < m->nop_names && !strcmp(m->op_names[lo].name, mnemonic) ? (int)m->op_names[lo].op
                                                                       : -1;
}

const uint16_t *
isa_ops_by_sem(const struct isa_model *m, enum isa_sem s, unsigned *n)
{
   if ((unsigned)s >= ISA_SEM_COUNT) {
      *n = 0;
      return m->sem_ops;
   }
   *n = m->sem_at[s + 1] - m->sem_at[s];
   return m->sem_ops + m->sem_at[s];
}

void
isa_op_info(const struct isa_model *m, unsigned op, struct isa_op_info *out)
{
   const struct isa_op *o = &m->ops[op];
   out->name = o->mnemonic;
   out->sem = (enum isa_sem)o->sem;
   out->cls = (unsigned)o->cls;
   out->ndst = o->ndst;
   out->nsrc = o->nsrc;
   out->commute[0] = o->commute[0] < 0 ? -1 : o->commute[0] - o->ndst;
   out->commute[1] = o->commute[1] < 0 ? -1 : o->commute[1] - o->ndst;
   out->flip_mod = o->flip_mod;
   out->size = o->bits / 8;
}

const struct isa_implicit *
isa_op_implicit(const struct isa_model *m, unsigned op, bool dst, unsigned *n)
{
   const struct isa_op *o = &m->ops[op];
   *n = o->nimp[dst ? 0 : 1];
   return o->imp[dst ? 0 : 1];
}

/* The facts of one slot, from its fields and formats. */
static bool
slot_info(const struct isa_model *m, unsigned op, bool dst, unsigned slot,
          struct isa_slot_info *out)
{
   const struct isa_op *o = &m->ops[op];
   memset(out, 0, sizeof(*out));
   if (slot >= (dst ? o->ndst : o->nsrc))
      return false;
   const struct isa_slot *s = &o->slot[dst ? slot : o->ndst + slot];
   if (s->field < 0)
      return false;
   const struct isa_field *f = &o->fields[s->field];
   const struct isa_format *fm = &m->formats[f->format];
   out->name = f->name;
   out->type = s->type_mod >= 0 ? ISA_TYPE_NONE : (enum isa_type)s->type;
   out->read_delay = s->read_delay;
   out->elements = s->elements;
   for (unsigned c = 0; c < fm->ncases; c++) {
      if (!(s->allow & (1u << c)))
         continue;
      const struct isa_case *cs = &fm->cases[c];
      out->kinds |= (uint8_t)(1u << cs->kind);
      out->rel |= cs->rel;
      if (cs->kind == ISA_OPND_IMM && cs->val.width > out->imm_bits) {
         out->imm_bits = cs->val.width;
         out->imm_signed = cs->sign;
         out->imm_float_top = cs->float_top;
         out->imm_lut = cs->lut >= 0;
      }
      if (cs->kind == ISA_OPND_IMM && cs->pcrel)
         out->pcrel = cs->pcrel;
      if (cs->kind == ISA_OPND_REG && cs->regset >= 0)
         for (unsigned r = 0; r < m->regsets[cs->regset].n; r++)
            if (m->regsets[cs->regset].v[r].file >= 0 && m->regsets[cs->regset].v[r].file < 32)
               out->files |= 1u << m->regsets[cs->regset].v[r].file;
      for (unsigned i = 0; i < cs->nfields; i++) {
         out->neg |= cs->fields[i].flag == ISA_OPND_F_NEG;
         out->abs |= cs->fields[i].flag == ISA_OPND_F_ABS;
      }
   }
   for (unsigned i = 0; i < fm->nfields; i++) {
      out->neg |= fm->fields[i].flag == ISA_OPND_F_NEG;
      out->abs |= fm->fields[i].flag == ISA_OPND_F_ABS;
   }
   for (unsigned i = 0; i < o->nfields; i++) {
      if (o->fields[i].kind == ISA_FK_FLAG && o->fields[i].target == s->field) {
         out->neg |= o->fields[i].flag == ISA_OPND_F_NEG;
         out->abs |= o->fields[i].flag == ISA_OPND_F_ABS;
      }
   }
   return true;
}

/* slot_info of every op's slots, once per model: the legalizer, the
 * hazard rules and instruction selection ask it for every instruction. */
void
isa_build_slot_info(struct isa_model *m)
{
   m->slot_info = xcalloc((size_t)m->nops * ISA_MAX_SLOTS + 1, sizeof(*m->slot_info));
   m->slot_valid = xcalloc((size_t)m->nops * ISA_MAX_SLOTS + 1, sizeof(*m->slot_valid));
   for (unsigned op = 0; op < m->nops; op++)
      for (unsigned s = 0; s < (unsigned)m->ops[op].ndst + m->ops[op].nsrc; s++) {
         bool dst = s < m->ops[op].ndst;
         size_t at = (size_t)op * ISA_MAX_SLOTS + s;
         m->slot_valid[at] =
             slot_info(m, op, dst, dst ? s : s - m->ops[op].ndst, &m->slot_info[at]);
      }
}

bool
isa_slot_info(const struct isa_model *m, unsigned op, bool dst, unsigned slot,
              struct isa_slot_info *out)
{
   const struct isa_op *o = &m->ops[op];
   if (!m->slot_info)
      return slot_info(m, op, dst, slot, out);
   if (slot >= (dst ? o->ndst : o->nsrc)) {
      memset(out, 0, sizeof(*out));
      return false;
   }
   size_t at = (size_t)op * ISA_MAX_SLOTS + (dst ? slot : o->ndst + slot);
   *out = m->slot_info[at];
   return m->slot_valid[at];
}

unsigned
isa_file_count(const struct isa_model *m)
{
   return m->nfiles;
}

int
isa_file_find(const struct isa_model *m, const char *name)
{
   return FIND(m->files, m->nfiles, name);
}

void
isa_file_info(const struct isa_model *m, unsigned file, struct isa_file_info *out)
{
   const struct isa_regfile *f = &m->files[file];
   out->name = f->name;
   out->kind = f->kind;
   out->count = f->count;
   out->width = f->width;
   out->fixed = f->fixed;
   out->fixed_value = f->fixed_value;
   out->undef = f->undef;
   out->half_of = f->half_of;
}

unsigned
isa_class_count(const struct isa_model *m)
{
   return m->nclasses;
}

void
isa_class_info(const struct isa_model *m, unsigned cls, struct isa_class_info *out)
{
   const struct isa_class *c = &m->classes[cls];
   out->name = c->name;
   out->sync = c->sync;
   out->war_sync = c->war;
   out->latency = c->latency;
   out->soft_latency = c->soft;
   out->read_early = c->read_early;
   out->flow = c->flow;
   out->unordered = c->unordered;
   out->explicit_only = c->explicit_only;
   out->scalar = c->scalar;
}

unsigned
isa_mod_count(const struct isa_model *m)
{
   return m->nmods;
}

int
isa_mod_find(const struct isa_model *m, const char *name)
{
   return FIND(m->mods, m->nmods, name);
}

int
isa_mod_by_role(const struct isa_model *m, enum isa_role role)
{
   return (unsigned)role < ISA_ROLE_COUNT ? m->role_mod[role] : -1;
}

/* The modifier with this role that the instruction sets (a role played
 * by several enums, one per layout: gfx9 DS and GLOBAL atomic opcodes),
 * else the one its op's layout has, else the model's. */
int
isa_insn_mod_by_role(const struct isa_model *m, const struct isa_insn *in, enum isa_role role)
{
   for (unsigned k = 0; k < m->nmods && k < ISA_MAX_MODS; k++)
      if (m->mods[k].role == role && in->mod[k])
         return (int)k;
   /* a value of 0 (ds_add_u32's opcode): the one the op's fields name,
    * fixed by its match or not */
   if (in->op < m->nops)
      for (unsigned i = 0; i < m->ops[in->op].nfields; i++) {
         const struct isa_field *f = &m->ops[in->op].fields[i];
         if ((f->kind == ISA_FK_MOD || f->kind == ISA_FK_FIXED) && f->mod >= 0 &&
             f->mod < (int)m->nmods && f->mod < ISA_MAX_MODS && m->mods[f->mod].role == role)
            return f->mod;
      }
   return isa_mod_by_role(m, role);
}

bool
isa_op_has_mod(const struct isa_model *m, unsigned op, int mod)
{
   if (op >= m->nops || mod < 0)
      return false;
   for (unsigned i = 0; i < m->ops[op].nfields; i++)
      if (m->ops[op].fields[i].kind == ISA_FK_MOD && m->ops[op].fields[i].mod == mod)
         return true;
   return false;
}

const char *
isa_mod_operand(const struct isa_model *m, unsigned mod)
{
   return mod < m->nmods ? m->mods[mod].operand : NULL;
}

const char *
isa_mod_name(const struct isa_model *m, unsigned mod)
{
   return mod < m->nmods ? m->mods[mod].name : NULL;
}

int
isa_mod_value(const struct isa_model *m, unsigned mod, const char *name)
{
   if (mod >= m->nmods || m->mods[mod].kind != ISA_MOD_ENUM)
      return -1;
   const struct isa_enum *e = &m->enums[m->mods[mod].enm];
   int i = FIND(e->v, e->n, name);
   return i < 0 ? -1 : e->v[i].value;
}

int
isa_mod_flip(const struct isa_model *m, unsigned mod, int value)
{
   if (mod >= m->nmods || m->mods[mod].kind != ISA_MOD_ENUM)
      return -1;
   const struct isa_enum *e = &m->enums[m->mods[mod].enm];
   const struct isa_enum_entry *x = isa_enum_entry(e, value);
   return x && x->flip >= 0 ? e->v[x->flip].value : -1;
}

const char *
isa_mod_value_name(const struct isa_model *m, unsigned mod, int value)
{
   if (mod >= m->nmods || m->mods[mod].kind != ISA_MOD_ENUM)
      return NULL;
   const struct isa_enum_entry *x = isa_enum_entry(&m->enums[m->mods[mod].enm], value);
   return x ? x->name : NULL;
}

const char *
isa_op_key(const struct isa_model *m, unsigned op)
{
   return op < m->nops ? m->ops[op].key : NULL;
}

enum isa_hazard_kind
isa_hazard_kind(const struct isa_model *m)
{
   return m->hazard;
}

int
isa_hazard_param(const struct isa_model *m, const char *name, int def)
{
   int i = FIND(m->params, m->nparams, name);
   return i < 0 ? def : m->params[i].value;
}

bool
isa_figure_info(const struct isa_model *m, unsigned i, struct isa_figure_info *out)
{
   if (i >= m->nfigures)
      return false;
   out->name = m->figures[i].name;
   out->source = m->figures[i].source;
   out->value = m->figures[i].value;
   return true;
}

int
isa_wait_states_max(const struct isa_model *m)
{
   int n = 0;
   for (unsigned i = 0; i < m->nwait_rules; i++)
      n = MAX2(n, m->wait_rules[i].states);
   return n;
}

static const struct isa_slot *
slot_of(const struct isa_model *m, unsigned op, bool dst, unsigned slot)
{
   if (op >= m->nops)
      return NULL;
   const struct isa_op *o = &m->ops[op];
   if (slot >= (dst ? o->ndst : o->nsrc))
      return NULL;
   return &o->slot[dst ? slot : o->ndst + slot];
}

bool
isa_slot_count_info(const struct isa_model *m, unsigned op, bool dst, unsigned slot,
                    struct isa_count_info *out)
{
   const struct isa_slot *s = slot_of(m, op, dst, slot);
   memset(out, 0, sizeof(*out));
   out->imm_slot = out->mask_mod = -1;
   if (!s)
      return false;
   unsigned nd = m->ops[op].ndst;
   out->n = s->count_n;
   if (s->count_slot >= 0)
      out->imm_slot = (unsigned)s->count_slot < nd ? ISA_SLOT_DST(s->count_slot)
                                                   : ISA_SLOT_SRC(s->count_slot - (int)nd);
   out->mask_mod = s->count_mod;
   out->nterms = s->count_nterms;
   return true;
}

bool
isa_slot_count_term(const struct isa_model *m, unsigned op, bool dst, unsigned slot, unsigned k,
                    struct isa_count_term *out)
{
   const struct isa_slot *s = slot_of(m, op, dst, slot);
   memset(out, 0, sizeof(*out));
   if (!s || k >= s->count_nterms)
      return false;
   const struct isa_cterm *t = &m->cterms[s->count_term + (int)k];
   out->mod = t->mod;
   out->nvals = MIN2(t->nvals, ISA_COUNT_TERM_VALS);
   for (unsigned j = 0; j < out->nvals; j++) {
      out->val[j] = t->val[j];
      out->add[j] = t->add[j];
   }
   return true;
}

bool
isa_wait_rule_info(const struct isa_model *m, unsigned i, struct isa_wait_rule_info *out)
{
   if (i >= m->nwait_rules)
      return false;
   const struct isa_wait_rule *r = &m->wait_rules[i];
   *out = (struct isa_wait_rule_info){r->first, r->second, r->file,     r->states,
                                      r->nops,  r->slot,   r->imp_file, r->imp_index};
   return true;
}

bool
isa_wait_rule_op(const struct isa_model *m, unsigned i, unsigned op)
{
   if (i >= m->nwait_rules)
      return false;
   const struct isa_wait_rule *r = &m->wait_rules[i];
   if (!r->nops)
      return true;
   for (unsigned k = 0; k < r->nops && r->opv; k++)
      if (r->opv[k] == (int)op)
         return true;
   return false;
}

const char *
isa_sem_name(enum isa_sem s)
{
   return (unsigned)s < ISA_SEM_COUNT ? isa_sem_names[s] : "?";
}

int
isa_sem_find(const char *name)
{
   return isa_lookup_str(isa_sem_names, ISA_SEM_COUNT, name);
}

int
isa_sem_arity(enum isa_sem s)
{
   return (unsigned)s < ISA_SEM_COUNT ? sem_arity[s] : -1;
}

const char *
isa_type_name(enum isa_type t)
{
   return (unsigned)t < ISA_TYPE_COUNT ? isa_type_names[t] : "?";
}

unsigned
isa_type_bits(enum isa_type t)
{
   return (unsigned)t < ISA_TYPE_COUNT ? type_bits[t] : 0;
}

bool
isa_type_is_float(enum isa_type t)
{
   return (unsigned)t < ISA_TYPE_COUNT && type_float[t];
}

const char *
isa_illegal_str(enum isa_illegal r)
{
   return (unsigned)r < ISA_ILLEGAL_COUNT ? isa_illegal_names[r] : "?";
}

const char *
isa_role_name(enum isa_role r)
{
   return (unsigned)r < ISA_ROLE_COUNT ? isa_role_names[r] : "?";
}

const char *
isa_hazard_name(enum isa_hazard_kind h)
{
   return (unsigned)h < ISA_HAZARD_KIND_COUNT ? isa_hazard_names[h] : "?";
}

const char *
isa_sync_name(enum isa_sync s)
{
   return (unsigned)s < ISA_SYNC_COUNT ? isa_sync_names[s] : "?";
}

enum isa_type
isa_opnd_type(const struct isa_model *m, const struct isa_insn *in, int slot, unsigned *width)
{
   if (width)
      *width = 32;
   if (in->op >= m->nops)
      return ISA_TYPE_NONE;
   const struct isa_op *op = &m->ops[in->op];
   const struct isa_slot *s = NULL;
   if (slot >= 0 && slot < op->ndst)
      s = &op->slot[slot];
   else if (slot >= ISA_MAX_DST && slot - ISA_MAX_DST < op->nsrc)
      s = &op->slot[op->ndst + slot - ISA_MAX_DST];
   if (!s)
      return ISA_TYPE_NONE;
   if (width) {
      *width = isa_slot_width(m, op, s, in->mod);
      /* A register of a half file aliasing a full one (agx rNl/rNh) is a
       * 16-bit operand whatever the slot says: the width is per operand. */
      const struct isa_opnd *o = slot < ISA_MAX_DST ? &in->dst[slot] : &in->src[slot - ISA_MAX_DST];
      if (o->kind == ISA_OPND_REG && o->file < m->nfiles && m->files[o->file].half_of >= 0)
         *width = 16;
   }
   return isa_slot_type(m, op, s, in->mod);
}

const char *
isa_illegal_reason(const struct isa_model *m, const struct isa_insn *in)
{
   if (in->illegal == ISA_ILLEGAL_RULE && in->op < m->nops &&
       in->illegal_arg < m->ops[in->op].nrules)
      return m->ops[in->op].rules[in->illegal_arg].reason;
   return isa_illegal_str((enum isa_illegal)in->illegal);
}
