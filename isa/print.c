/*
 * The disassembler: renders a decoded record with its op's syntax template
 * (model syntax, `{field}` placeholders). What it prints, asm.c parses back
 * to the same record; the round-trip fixtures check both directions.
 *
 * A narrow hidden width (a3xx half precision) shows in the register names
 * (hr0.x); where no operand can show it, the half mark goes on the
 * registers that cannot ("hp0.x", isa_needs_half_mark).
 *
 * Floats print as the shortest decimal that reads back to the same bits, in
 * parentheses: "(0.5)", "(-0.0)", "(inf)"; NaNs as their raw bits
 * "(0x7fc00000)", so every immediate survives a round trip.
 */
#include "isa/isa_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* A bounded string builder that keeps counting past the end, like snprintf. */
struct sb {
   char *buf;
   size_t size, len;
};

static void
sb_add(struct sb *s, const char *t)
{
   size_t n = strlen(t);
   if (s->len < s->size) {
      size_t room = s->size - s->len - 1;
      memcpy(s->buf + s->len, t, MIN2(n, room));
      s->buf[s->len + MIN2(n, room)] = 0;
   }
   s->len += n;
}

DC_PRINTF(2, 3) static void sb_printf(struct sb *s, const char *fmt, ...)
{
   char tmp[128];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(tmp, sizeof(tmp), fmt, ap);
   va_end(ap);
   sb_add(s, tmp);
}

/* Appends v in base 10 or 16, digits only. */
static void
sb_num(struct sb *s, unsigned long long v, unsigned base)
{
   char tmp[24], *p = tmp + sizeof(tmp);
   *--p = 0;
   do {
      *--p = "0123456789abcdef"[v % base];
      v /= base;
   } while (v);
   sb_add(s, p);
}

/* Appends what isa_fmt_print writes for a display pattern; the plain
 * conversions are formatted here because snprintf dominated the
 * disassembler's profile (the fuzzers print every decoded word). */
static void
sb_fmt(struct sb *s, const struct isa_fmt *f, int64_t v, const char *str)
{
   const char *plain = f->conv == 'd'   ? "%lld"
                       : f->conv == 'u' ? "%llu"
                       : f->conv == 'x' ? "%llx"
                       : f->conv == 's' ? "%s"
                                        : "";
   if (strcmp(f->spec, plain)) { /* flags or a width */
      char tmp[128];
      isa_fmt_print(tmp, sizeof(tmp), f, v, str);
      sb_add(s, tmp);
      return;
   }
   sb_add(s, f->pre);
   if (f->conv == 's') {
      sb_add(s, str ? str : "");
   } else if (f->conv == 'd' && v < 0) {
      sb_add(s, "-");
      sb_num(s, 0ull - (unsigned long long)v, 10);
   } else if (f->conv) {
      sb_num(s, (unsigned long long)v, f->conv == 'x' ? 16 : 10);
   }
   sb_add(s, f->post);
}

void
isa_reg_name(const struct isa_model *m, unsigned file, unsigned idx, char *buf, size_t size)
{
   if (file >= m->nfiles) {
      snprintf(buf, size, "?reg%u", idx);
      return;
   }
   const struct isa_regfile *f = &m->files[file];
   if (f->names && idx < f->count && f->names[idx])
      snprintf(buf, size, "%s", f->names[idx]);
   else if (f->print == ISA_PRINT_VEC4)
      snprintf(buf, size, "%s%u.%c", f->prefix, idx / 4, "xyzw"[idx % 4]);
   else if (f->print == ISA_PRINT_HALVES)
      snprintf(buf, size, "%s%u%c", f->prefix, idx / 2, idx & 1 ? 'h' : 'l');
   else
      snprintf(buf, size, "%s%u", f->prefix, idx);
}

/* n registers from idx of a `print: range` file: "s[4:7]", or the pair's
 * name ("vcc"). */
void
isa_reg_range_name(const struct isa_model *m, unsigned file, unsigned idx, unsigned n, char *buf,
                   size_t size)
{
   const struct isa_regfile *f = &m->files[file];
   if (n == 2 && f->pair_names && idx < f->count && f->pair_names[idx])
      snprintf(buf, size, "%s", f->pair_names[idx]);
   else
      snprintf(buf, size, "%s[%u:%u]", f->prefix, idx, idx + n - 1);
}

void
isa_float_text(uint32_t bits, char *buf, size_t size)
{
   float f = uif(bits);
   if (isnan(f)) {
      snprintf(buf, size, "0x%08x", bits);
      return;
   }
   if (isinf(f)) {
      snprintf(buf, size, "%sinf", f < 0 ? "-" : "");
      return;
   }
   for (int prec = 1; prec <= 9; prec++) {
      snprintf(buf, size, "%.*g", prec, (double)f);
      if (fui(strtof(buf, NULL)) == bits)
         break;
   }
   if (!strpbrk(buf, ".e"))
      snprintf(buf + strlen(buf), size - strlen(buf), ".0");
}

static void
print_mod(const struct isa_model *m, unsigned mod, int v, struct sb *s)
{
   const struct isa_mod *md = &m->mods[mod];
   if (md->hidden)
      return;
   if (md->kind == ISA_MOD_FLAG) {
      if (v) {
         sb_add(s, md->fmt.pre);
         sb_add(s, md->fmt.post);
      }
   } else if (md->kind == ISA_MOD_INT) {
      if (v || md->always)
         sb_fmt(s, &md->fmt, v, NULL);
   } else {
      const struct isa_enum_entry *e = isa_enum_entry(&m->enums[md->enm], v);
      char num[16];
      snprintf(num, sizeof(num), "?%d", v);
      if (e && !e->print[0])
         return;
      sb_fmt(s, &md->fmt, v, e ? e->print : num);
   }
}

/* The immediate form a value prints with: the first allowed form with a
 * display pattern of its own that holds it (gfx9: inline integers "%d",
 * inline floats "%f", the literal "0x%x"), else the first allowed form
 * with a pattern, else NULL (type-driven printing). */
static const struct isa_case *
imm_case(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *sl, uint32_t v,
         bool *any_signed)
{
   const struct isa_format *fm = &m->formats[op->fields[sl->field].format];
   const struct isa_case *fmt = NULL, *holds = NULL;
   *any_signed = false;
   for (unsigned c = 0; c < fm->ncases; c++) {
      const struct isa_case *cs = &fm->cases[c];
      if (cs->kind != ISA_OPND_IMM || !(sl->allow & (1u << c)))
         continue;
      *any_signed |= cs->sign;
      if (!fmt && cs->fmt.pre)
         fmt = cs;
      if (!holds && cs->fmt.pre && isa_case_holds(m, cs, v))
         holds = cs;
   }
   return holds ? holds : fmt;
}

/* The shortest text that reads back as double bits x ("0.5",
 * "0.15915494309189532", as llvm-mc prints a 64-bit operand). */
static void
double_text(uint64_t x, char *buf, size_t size)
{
   double d;
   memcpy(&d, &x, sizeof(d));
   for (int prec = 1; prec <= 17; prec++) {
      snprintf(buf, size, "%.*g", prec, d);
      double r = strtod(buf, NULL);
      if (!memcmp(&r, &d, sizeof(d)))
         break;
   }
   if (!strpbrk(buf, ".e"))
      snprintf(buf + strlen(buf), size - strlen(buf), ".0");
}

/* An immediate of a 64-bit slot (isa_case_widen): the form that holds
 * it, a float table entry as its double, a literal in a float slot as its
 * high word. False: no form holds it (printed as 32 bits). */
static bool
print_imm64(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *sl,
            const struct isa_insn *in, const struct isa_opnd *o, struct sb *s)
{
   enum isa_imm64 w = isa_slot_imm64(m, op, sl, in->mod);
   const struct isa_format *fm = &m->formats[op->fields[sl->field].format];
   uint64_t x = (uint64_t)o->hi << 32 | o->value;
   char tmp[96];
   if (w == ISA_IMM64_NONE)
      return false;
   for (unsigned c = 0; c < fm->ncases; c++) {
      const struct isa_case *cs = &fm->cases[c];
      if (cs->kind != ISA_OPND_IMM || !(sl->allow & (1u << c)) || !cs->fmt.pre ||
          !isa_case_holds64(m, cs, w, x))
         continue;
      if (cs->fmt.conv == 'f') {
         double_text(x, tmp, sizeof(tmp));
         sb_add(s, cs->fmt.pre);
         sb_add(s, tmp);
         sb_add(s, cs->fmt.post);
      } else {
         uint32_t v = w == ISA_IMM64_FLOAT && cs->lut < 0 && cs->val.width >= 32 ? o->hi : o->value;
         sb_fmt(s, &cs->fmt, cs->fmt.conv == 'd' ? (int32_t)v : (int64_t)v, NULL);
      }
      return true;
   }
   return false;
}

static void
print_imm(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *sl,
          const struct isa_insn *in, uint32_t v, struct sb *s)
{
   bool sgn;
   const struct isa_case *cs = imm_case(m, op, sl, v, &sgn);
   char tmp[96];
   if (cs && cs->fmt.conv == 'f') {
      isa_float_text(v, tmp, sizeof(tmp));
      sb_add(s, cs->fmt.pre);
      sb_add(s, tmp);
      sb_add(s, cs->fmt.post);
      return;
   }
   if (cs) {
      sb_fmt(s, &cs->fmt, cs->fmt.conv == 'd' ? (int32_t)v : (int64_t)v, NULL);
      return;
   }
   enum isa_type t = isa_slot_type(m, op, sl, in->mod);
   if (t == ISA_TYPE_F32) {
      isa_float_text(v, tmp, sizeof(tmp));
      sb_printf(s, "(%s)", tmp);
   } else if (sgn || t == ISA_TYPE_S32 || t == ISA_TYPE_S16 || t == ISA_TYPE_S8) {
      sb_printf(s, "%d", (int32_t)v);
   } else if (v < 0x10000) {
      sb_printf(s, "%u", v);
   } else {
      sb_printf(s, "0x%x", v);
   }
}

/* Whether the slot's constants carry a bank (printed c[bank][offset]). */
bool
isa_slot_banked(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *sl)
{
   const struct isa_format *fm = &m->formats[op->fields[sl->field].format];
   for (unsigned c = 0; c < fm->ncases; c++)
      if (fm->cases[c].kind == ISA_OPND_CONST && fm->cases[c].bank_field >= 0 &&
          (sl->allow & (1u << c)))
         return true;
   return false;
}

/* What a register file says about the width of a hidden width modifier
 * (a3xx `full`): 32 for a file with a half partner (r, c), 16 for a half
 * file (hr, hc), 0 for files that say nothing (predicates, address). The
 * assembler infers the modifier from it. */
unsigned
isa_file_width_hint(const struct isa_model *m, unsigned file)
{
   if (file >= m->nfiles)
      return 0;
   if (m->files[file].half >= 0)
      return 32;
   for (unsigned f = 0; f < m->nfiles; f++)
      if (m->files[f].half == (int)file)
         return 16;
   return 0;
}

/* The prefix a half file adds to its full partner's ("h": r -> hr); its
 * length, 0 if the model has no such pair. */
size_t
isa_half_mark(const struct isa_model *m, const char **mark)
{
   for (unsigned f = 0; f < m->nfiles; f++) {
      int h = m->files[f].half;
      if (h < 0)
         continue;
      const char *fp = m->files[f].prefix, *hp = m->files[h].prefix;
      size_t fl = strlen(fp), hl = strlen(hp);
      if (hl > fl && !strcmp(hp + hl - fl, fp)) {
         *mark = hp;
         return hl - fl;
      }
   }
   return 0;
}

/* Whether operand `slot` prints with the half mark ("hp0.x", "ha1.x"): its
 * slot's width comes from a hidden modifier that is narrow, and no operand
 * of the same modifier is in a file that shows the width. Without the
 * mark, "rcp p0.w, p0.x" would read back as the full-precision form. */
bool
isa_needs_half_mark(const struct isa_model *m, const struct isa_op *op, const struct isa_insn *in,
                    unsigned slot)
{
   const struct isa_slot *sl = &op->slot[slot];
   const struct isa_opnd *o = slot < op->ndst ? &in->dst[slot] : &in->src[slot - op->ndst];
   int wm = sl->width_mod;
   if (wm < 0 || !m->mods[wm].hidden || (o->kind != ISA_OPND_REG && o->kind != ISA_OPND_CONST) ||
       o->file >= m->nfiles || isa_file_width_hint(m, o->file) ||
       isa_slot_width(m, op, sl, in->mod) > 16)
      return false;
   for (unsigned u = 0; u < (unsigned)op->ndst + op->nsrc; u++) {
      const struct isa_opnd *ou = u < op->ndst ? &in->dst[u] : &in->src[u - op->ndst];
      if (op->slot[u].width_mod == wm && ou->kind != ISA_OPND_IMM && ou->kind != ISA_OPND_NONE &&
          isa_file_width_hint(m, ou->file))
         return false;
   }
   return true;
}

static void
print_operand(const struct isa_model *m, const struct isa_op *op, unsigned slot,
              const struct isa_insn *in, struct sb *s)
{
   const struct isa_slot *sl = &op->slot[slot];
   const struct isa_opnd *o = slot < op->ndst ? &in->dst[slot] : &in->src[slot - op->ndst];
   char *const *pr = m->opnd_print;
   bool neg = o->flags & ISA_OPND_F_NEG, abs = o->flags & ISA_OPND_F_ABS;
   /* A negated number would read back as another number ("-57"): a model
    * may give it a form of its own (gfx9: neg(57)). */
   bool neg_imm = neg && !abs && o->kind == ISA_OPND_IMM && pr[ISA_OPND_PRINT_NEG_IMM][0];
   if (neg_imm) {
      sb_add(s, pr[ISA_OPND_PRINT_NEG_IMM]);
   } else if (neg && abs && pr[ISA_OPND_PRINT_ABSNEG][0]) {
      sb_add(s, pr[ISA_OPND_PRINT_ABSNEG]);
   } else {
      if (neg)
         sb_add(s, pr[ISA_OPND_PRINT_NEG]);
      if (abs)
         sb_add(s, pr[ISA_OPND_PRINT_ABS]);
   }
   static const struct {
      uint8_t flag, print;
   } pre[] = {{ISA_OPND_F_R, ISA_OPND_PRINT_R},
              {ISA_OPND_F_LAST, ISA_OPND_PRINT_LAST},
              {ISA_OPND_F_NOT, ISA_OPND_PRINT_NOT},
              {ISA_OPND_F_SEXT, ISA_OPND_PRINT_SEXT},
              {ISA_OPND_F_HI, ISA_OPND_PRINT_HI}};
   for (unsigned i = 0; i < ARRAY_SIZE(pre); i++)
      if (o->flags & pre[i].flag)
         sb_add(s, pr[pre[i].print]);
   char name[48];
   if (o->flags & ISA_OPND_F_REL) {
      char addr[48];
      int addr_file = -1;
      for (unsigned i = 0; i < m->nfiles; i++)
         if (m->files[i].kind == ISA_FILE_ADDRESS && addr_file < 0)
            addr_file = (int)i;
      isa_reg_name(m, addr_file < 0 ? 0xffu : (unsigned)addr_file, o->bank, addr, sizeof(addr));
      int32_t off = (int32_t)o->value;
      const char *pfx = o->file < m->nfiles ? m->files[o->file].prefix : "?";
      if (off)
         sb_printf(s, "%s<%s %c %lld>", pfx, addr, off < 0 ? '-' : '+',
                   off < 0 ? -(long long)off : (long long)off);
      else
         sb_printf(s, "%s<%s>", pfx, addr);
   } else if (o->kind == ISA_OPND_CONST && isa_slot_banked(m, op, sl) && o->file < m->nfiles) {
      /* c[bank][byte offset] (sm50); the record holds the file's index. */
      const struct isa_regfile *f = &m->files[o->file];
      sb_printf(s, "%s[0x%x][0x%x]", f->prefix, o->bank, o->index * (f->width / 8));
   } else if (o->kind == ISA_OPND_REG || o->kind == ISA_OPND_CONST) {
      const char *mark;
      size_t ml = isa_half_mark(m, &mark);
      if (ml && isa_needs_half_mark(m, op, in, slot))
         sb_printf(s, "%.*s", (int)ml, mark);
      unsigned n = 1;
      if (o->file < m->nfiles && m->files[o->file].print == ISA_PRINT_RANGE)
         n = isa_opnd_regs(m, in,
                           slot < op->ndst ? (int)slot : ISA_MAX_DST + (int)(slot - op->ndst));
      if (n > 1)
         isa_reg_range_name(m, o->file, o->index, n, name, sizeof(name));
      else
         isa_reg_name(m, o->file, o->index, name, sizeof(name));
      sb_add(s, name);
   } else if (o->kind == ISA_OPND_IMM) {
      if (!print_imm64(m, op, sl, in, o, s))
         print_imm(m, op, sl, in, o->value, s);
   } else {
      sb_add(s, "?");
   }
   if (o->flags & ISA_OPND_F_SEXT)
      sb_add(s, pr[ISA_OPND_PRINT_SEXT_END]);
   if (abs)
      sb_add(s, pr[ISA_OPND_PRINT_ABS_END]);
   if (neg_imm)
      sb_add(s, pr[ISA_OPND_PRINT_NEG_IMM_END]);
}

size_t
isa_print_insn(const struct isa_model *m, const struct isa_insn *in, char *buf, size_t size)
{
   struct sb s = {buf, size, 0};
   if (size)
      buf[0] = 0;
   if (in->op >= m->nops) {
      sb_add(&s, "(invalid op)");
      return s.len;
   }
   const struct isa_op *op = &m->ops[in->op];
   int64_t vals[ISA_MAX_FIELDS];
   isa_record_vals(m, op, in, vals);
   for (unsigned t = 0; t < m->bundle.ntoks; t++) {
      const struct isa_tok *k = &m->bundle.toks[t];
      if (k->kind == ISA_TOK_LIT)
         sb_add(&s, k->text);
      else
         print_mod(m, (unsigned)m->bundle.fields[k->field].mod,
                   in->mod[m->bundle.fields[k->field].mod], &s);
   }
   for (unsigned t = 0; t < op->ntoks; t++) {
      const struct isa_tok *k = &op->toks[t];
      if (k->kind == ISA_TOK_LIT) {
         sb_add(&s, k->text);
      } else if (k->kind == ISA_TOK_NAME) {
         const char *name = op->mnemonic;
         for (unsigned a = 0; a < op->naliases; a++)
            if (isa_guards_hold(op->aliases[a].guard, op->aliases[a].nguard, vals)) {
               name = op->aliases[a].name;
               break;
            }
         sb_add(&s, name);
      } else {
         const struct isa_field *f = &op->fields[k->field];
         if (f->kind == ISA_FK_MOD) {
            if (isa_guards_hold(f->guard, f->nguard, vals))
               print_mod(m, (unsigned)f->mod, in->mod[f->mod], &s);
            continue;
         }
         /* a field that is two slots (a destination also read) prints once */
         for (unsigned sl = 0; sl < (unsigned)op->ndst + op->nsrc; sl++)
            if (op->slot[sl].field == k->field) {
               print_operand(m, op, sl, in, &s);
               break;
            }
      }
   }
   return s.len;
}

void
isa_reg_text(const struct isa_model *m, unsigned file, unsigned index, char *buf, size_t size)
{
   isa_reg_name(m, file, index, buf, size);
}

char *
isa_print_program(const struct isa_model *m, const uint8_t *code, size_t size, struct diag_list *d)
{
   struct isa_insn *insns = NULL;
   size_t n = 0;
   if (isa_decode_program(m, code, size, &insns, &n, d) != ISA_ERR_OK)
      return NULL;
   size_t len = 0, cap = 64 * n + 1;
   char *text = xmalloc(cap);
   text[0] = 0;
   for (size_t i = 0; i < n; i++) {
      size_t need = isa_print_insn(m, &insns[i], text + len, cap - len);
      while (len + need + 2 > cap) {
         cap *= 2;
         text = xrealloc(text, cap);
         isa_print_insn(m, &insns[i], text + len, cap - len);
      }
      len += need;
      text[len++] = '\n';
      text[len] = 0;
   }
   free(insns);
   return text;
}
