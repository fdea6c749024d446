/*
 * The gfx9 model against LLVM's AMDGPU assembler (llvm-mc -arch=amdgcn
 * -mcpu=gfx900), the encoding oracle. For every op of the model and every
 * operand form each of its slots allows, one instruction is built
 * (registers, inline integers and floats, the literal; every visible
 * modifier and operand flag set in one more variant), then:
 *
 *  1. diffcomp's text, assembled by llvm-mc, gives diffcomp's bytes;
 *  2. diffcomp's bytes, disassembled by llvm-mc, give text that diffcomp
 *     assembles back to the same bytes;
 *  3. diffcomp's bytes disassemble (diffcomp) to diffcomp's text.
 *
 * Instances the model itself flags illegal (two SGPRs on the constant bus)
 * are not built. Without llvm-mc the test says so and passes: CI installs
 * it (.ci/run). With DIFFCOMP_GFX9_FIXTURE=FILE it also writes every
 * agreed instance as a round-trip line (fixtures/isa/gfx9.txt was made so).
 */
#include "isa/isa.h"
#include "isa/isa_priv.h" /* formats and fields, to build every form */
#include "util/test.h"
#include "util/util.h"

#include <stdlib.h>
#include <unistd.h>

#define MAX_CASES 8192

struct tcase {
   struct isa_insn in;
   uint8_t bytes[16];
   size_t len;
   char text[256];
   char llvm_text[256];
   bool asm_ok, dis_ok; /* llvm-mc produced an answer */
   uint8_t llvm_bytes[16];
   size_t llvm_len;
};

static struct tcase cases[MAX_CASES];
static unsigned ncases;

/* A value immediate form cs holds, typical of it. */
static bool
imm_for(const struct isa_model *m, const struct isa_case *cs, uint32_t *v)
{
   static const uint32_t tries[] = {7,      0xfffffffb, 0x40000000, 0x3e22f983,
                                    0x1234, 3,          16,         0xfffffff0};
   if (cs->lut < 0 && !cs->sign && !cs->fmt.pre && cs->val.width == 16) {
      *v = 16; /* an offset */
      return true;
   }
   if (cs->lut < 0 && cs->val.width == 32) {
      *v = 0x1234; /* the literal: no inline constant */
      return true;
   }
   if (cs->lut < 0 && !cs->sign && cs->val.width <= 2) {
      *v = 1; /* a lane of a quad (ds_swizzle_b32) */
      return true;
   }
   for (unsigned i = 0; i < ARRAY_SIZE(tries); i++)
      if (isa_case_holds(m, cs, tries[i]) && (cs->pcrel || tries[i] != 3) &&
          (cs->val.width >= 16 || tries[i] != 0x1234)) {
         *v = tries[i];
         return true;
      }
   return false;
}

/* Fills operand slot s with form c; false if the form cannot be built. */
static bool
fill(const struct isa_model *m, const struct isa_op *op, unsigned s, unsigned c, struct isa_opnd *o)
{
   const struct isa_format *fm = &m->formats[op->fields[op->slot[s].field].format];
   const struct isa_case *cs = &fm->cases[c];
   memset(o, 0, sizeof(*o));
   if (cs->kind == ISA_OPND_IMM) {
      static const int16_t no_mods[ISA_MAX_MODS];
      enum isa_imm64 w = isa_slot_imm64(m, op, &op->slot[s], no_mods);
      uint64_t field = 0, x;
      o->kind = ISA_OPND_IMM;
      if (!imm_for(m, cs, &o->value))
         return false;
      if (w == ISA_IMM64_NONE)
         return true;
      /* a 64-bit slot reads the form's 64 bits: the double of 2.0, the
       * literal 0x1234 as a float slot's high word */
      for (unsigned i = 0; cs->lut >= 0 && i < m->luts[cs->lut].n; i++)
         if (m->luts[cs->lut].v[i] == o->value)
            field = i;
      x = isa_case_widen(m, cs, field, o->value, w);
      o->value = (uint32_t)x;
      o->hi = (uint32_t)(x >> 32);
      return true;
   }
   if (cs->kind != ISA_OPND_REG)
      return false;
   const struct isa_regset *rs = &m->regsets[cs->regset];
   const struct isa_regrange *r = &rs->v[0];
   o->kind = ISA_OPND_REG;
   o->file = (uint8_t)r->file;
   /* Distinct, aligned registers per slot: v1, v5, v9 ...; s4, s8, s12. */
   unsigned idx = m->files[r->file].kind == ISA_FILE_UNIFORM ? 4 * (s + 1) : 1 + 4 * s;
   o->index = (uint16_t)idx;
   return true;
}

static void
add_case(const struct isa_model *m, const struct isa_insn *in0)
{
   /* A field that is two slots (s_bitset0_b32's destination, also read)
    * holds one operand: the first slot's. */
   struct isa_insn x = *in0, *in = &x;
   const struct isa_op *op = &m->ops[in->op];
   for (unsigned s = 1; s < (unsigned)op->ndst + op->nsrc; s++)
      for (unsigned e = 0; e < s; e++)
         if (op->slot[e].field == op->slot[s].field) {
            struct isa_opnd *o = e < op->ndst ? &in->dst[e] : &in->src[e - op->ndst];
            *(s < op->ndst ? &in->dst[s] : &in->src[s - op->ndst]) = *o;
            break;
         }
   if (ncases >= MAX_CASES || isa_check_insn(m, in, NULL) != ISA_ERR_OK)
      return;
   struct tcase *t = &cases[ncases];
   memset(t, 0, sizeof(*t));
   t->in = *in;
   if (isa_encode(m, in, t->bytes, &t->len, NULL) != ISA_ERR_OK)
      return;
   isa_print_insn(m, in, t->text, sizeof(t->text));
   ncases++;
}

/* Sets every visible modifier of op to a non-default value and every
 * operand flag its fields can carry. */
static void
decorate(const struct isa_model *m, const struct isa_op *op, struct isa_insn *in)
{
   for (unsigned i = 0; i < op->nfields; i++) {
      const struct isa_field *f = &op->fields[i];
      if (f->kind == ISA_FK_MOD) {
         const struct isa_mod *md = &m->mods[f->mod];
         if (md->hidden)
            continue;
         if (md->kind == ISA_MOD_ENUM) {
            const struct isa_enum *e = &m->enums[md->enm];
            in->mod[f->mod] = (int16_t)e->v[e->n > 1 ? 1 : 0].value;
         } else {
            in->mod[f->mod] = (int16_t)(md->kind == ISA_MOD_INT && md->max >= 3 ? 3 : 1);
         }
      }
   }
   for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
      struct isa_opnd *o = s < op->ndst ? &in->dst[s] : &in->src[s - op->ndst];
      uint8_t fl = op->slot[s].flag_bits;
      const struct isa_format *fm = &m->formats[op->fields[op->slot[s].field].format];
      for (unsigned i = 0; i < fm->nfields; i++)
         if (fm->fields[i].kind == ISA_FK_FLAG)
            fl |= fm->fields[i].flag;
      if (o->kind == ISA_OPND_REG)
         o->flags |= fl & (ISA_OPND_F_NEG | ISA_OPND_F_ABS | ISA_OPND_F_SEXT);
   }
}

static void
build_cases(const struct isa_model *m)
{
   for (unsigned i = 0; i < m->nops; i++) {
      const struct isa_op *op = &m->ops[i];
      unsigned ns = (unsigned)op->ndst + op->nsrc;
      struct isa_insn base;
      isa_insn_init(m, i, &base);
      int first[ISA_MAX_SLOTS];
      bool ok = true;
      for (unsigned s = 0; s < ns; s++) {
         const struct isa_format *fm = &m->formats[op->fields[op->slot[s].field].format];
         first[s] = -1;
         for (unsigned c = 0; c < fm->ncases && first[s] < 0; c++) {
            struct isa_opnd o;
            if ((op->slot[s].allow & (1u << c)) && fill(m, op, s, c, &o)) {
               first[s] = (int)c;
               *(s < op->ndst ? &base.dst[s] : &base.src[s - op->ndst]) = o;
            }
         }
         ok &= first[s] >= 0;
      }
      if (!ok)
         continue;
      add_case(m, &base);
      struct isa_insn dec = base;
      decorate(m, op, &dec);
      add_case(m, &dec);
      for (unsigned s = 0; s < ns; s++) {
         const struct isa_format *fm = &m->formats[op->fields[op->slot[s].field].format];
         for (unsigned c = 0; c < fm->ncases; c++) {
            struct isa_insn v = base;
            struct isa_opnd o;
            if ((int)c == first[s] || !(op->slot[s].allow & (1u << c)) || !fill(m, op, s, c, &o))
               continue;
            *(s < op->ndst ? &v.dst[s] : &v.src[s - op->ndst]) = o;
            add_case(m, &v);
         }
      }
   }
}

/* Runs llvm-mc on the lines (args after the fixed ones), each followed by
 * a marker instruction the model lacks (s_setprio 3), so that an answer
 * is whatever llvm-mc printed between two markers: one line, or none
 * (an error, or bytes it split into two instructions). Fills answer[i]
 * (NULL for none); returns the malloc'd text the answers point into. */
static char *
run_llvm(const char *args, bool bytes, char *const *lines, unsigned n, char **answer)
{
   static const char *const marker[2] = {"s_setprio 3", "0x03,0x00,0x8f,0xbf"};
   char inp[] = "/tmp/dc_gfx9_in_XXXXXX", outp[] = "/tmp/dc_gfx9_out_XXXXXX";
   int fi = mkstemp(inp), fo = mkstemp(outp);
   CHECK(fi >= 0 && fo >= 0);
   FILE *f = fdopen(fi, "w");
   for (unsigned i = 0; i < n; i++)
      fprintf(f, "%s\n%s\n", lines[i], marker[bytes]);
   fclose(f);
   close(fo);
   char *cmd =
       xasprintf("llvm-mc -arch=amdgcn -mcpu=gfx900 %s < %s > %s 2> /dev/null", args, inp, outp);
   CHECK(system(cmd) >= 0);
   free(cmd);
   char *out = NULL, *msg = NULL;
   read_file(outp, &out, NULL, &msg);
   free(msg);
   unlink(inp);
   unlink(outp);
   unsigned k = 0, seen = 0;
   char *cur = NULL;
   for (char *line = out ? strtok(out, "\n") : NULL; line && k < n; line = strtok(NULL, "\n")) {
      if (line[0] != '\t' || line[1] == '.')
         continue; /* ".text" and the like */
      if (!strncmp(line + 1, "s_setprio 3", 11)) {
         answer[k++] = seen == 1 ? cur : NULL;
         seen = 0;
         continue;
      }
      cur = line + 1;
      seen++;
   }
   while (k < n)
      answer[k++] = NULL;
   return out;
}

static size_t
parse_encoding(const char *s, uint8_t *b)
{
   const char *p = s ? strstr(s, "encoding: [") : NULL;
   size_t n = 0;
   if (!p)
      return 0;
   p += 11;
   while (*p && *p != ']' && n < 16) {
      b[n++] = (uint8_t)strtoul(p, (char **)&p, 16);
      if (*p == ',')
         p++;
   }
   return n;
}

static void
hex_word(const uint8_t *b, size_t len, char *out)
{
   for (size_t i = 0; i < len; i++)
      sprintf(out + 2 * i, "%02x", b[len - 1 - i]);
}

int
main(void)
{
   if (system("llvm-mc --version > /dev/null 2>&1") != 0) {
      printf("llvm-mc not found: the gfx9 encodings are not compared with LLVM (CI installs "
             "the llvm package)\n");
      return 0;
   }
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   CHECKF(isa_open("gfx9", &m, &d) == ISA_ERR_OK, "%s", d.n ? d.v[0].msg : "");
   diag_clear(&d);
   if (!m)
      return test_done();
   build_cases(m);

   /* 1. diffcomp text -> llvm-mc bytes. */
   char **lines = xcalloc(ncases, sizeof(char *)), **ans = xcalloc(ncases, sizeof(char *));
   for (unsigned i = 0; i < ncases; i++)
      lines[i] = cases[i].text;
   char *out = run_llvm("-show-encoding", false, lines, ncases, ans);
   unsigned asm_agree = 0;
   for (unsigned i = 0; i < ncases; i++) {
      struct tcase *t = &cases[i];
      uint8_t b[16];
      size_t n = parse_encoding(ans[i], b);
      t->asm_ok = n == t->len && !memcmp(b, t->bytes, n);
      char h1[40], h2[40] = "(error)";
      hex_word(t->bytes, t->len, h1);
      if (n)
         hex_word(b, n, h2);
      CHECKF(t->asm_ok, "'%s': diffcomp %s, llvm-mc %s", t->text, h1, h2);
      asm_agree += t->asm_ok;
   }
   free(out);

   /* 2. diffcomp bytes -> llvm-mc text -> diffcomp bytes; 3. our round trip. */
   char **hexl = xcalloc(ncases, sizeof(char *));
   for (unsigned i = 0; i < ncases; i++) {
      struct tcase *t = &cases[i];
      char buf[96] = "";
      for (size_t k = 0; k < t->len; k++)
         sprintf(buf + strlen(buf), "%s0x%02x", k ? "," : "", t->bytes[k]);
      hexl[i] = xstrdup(buf);
   }
   out = run_llvm("--disassemble", true, hexl, ncases, ans);
   unsigned dis_agree = 0, same_text = 0;
   for (unsigned i = 0; i < ncases; i++) {
      struct tcase *t = &cases[i];
      struct isa_insn as;
      uint8_t b[16];
      size_t n = 0;
      char *lt = ans[i] ? xstrdup(ans[i]) : NULL;
      if (lt) {
         char *c = strstr(lt, " ;");
         if (c)
            *c = 0;
         for (size_t k = strlen(lt); k && lt[k - 1] == ' '; k--)
            lt[k - 1] = 0;
      }
      bool ok = lt && isa_parse_insn(m, lt, &as, &d) == ISA_ERR_OK &&
                isa_encode(m, &as, b, &n, NULL) == ISA_ERR_OK && n == t->len &&
                !memcmp(b, t->bytes, n);
      CHECKF(ok, "%s (%s): llvm-mc prints '%s', which diffcomp reads %s", hexl[i], t->text,
             lt ? lt : "(invalid)", d.n ? d.v[0].msg : "to other bytes");
      diag_clear(&d);
      dis_agree += ok;
      same_text += lt && !strcmp(lt, t->text);
      t->dis_ok = ok;
      free(lt);
      size_t pos = 0;
      struct isa_insn back;
      char txt[256] = "";
      if (isa_decode(m, t->bytes, t->len, &pos, &back) == ISA_ERR_OK)
         isa_print_insn(m, &back, txt, sizeof(txt));
      CHECKF(!strcmp(txt, t->text), "%s: diffcomp decodes '%s', built '%s'", hexl[i], txt, t->text);
   }
   free(out);

   unsigned nops = 0;
   bool *seen = xcalloc(m->nops + 1, sizeof(bool));
   for (unsigned i = 0; i < ncases; i++)
      if (cases[i].asm_ok && cases[i].dis_ok && !seen[cases[i].in.op]) {
         seen[cases[i].in.op] = true;
         nops++;
      }
   for (unsigned i = 0; i < m->nops; i++)
      if (!seen[i])
         fprintf(stderr, "no agreed instance: %s\n", m->ops[i].key);
   printf("gfx9 vs llvm-mc: %u ops of %u, %u instances (op x operand form x modifiers): "
          "%u assemble to the same bytes, %u disassemble to text read back to them "
          "(%u with the same text)\n",
          nops, m->nops, ncases, asm_agree, dis_agree, same_text);
   CHECKF(nops == m->nops, "%u ops without an agreed instance", m->nops - nops);

   const char *fx = getenv("DIFFCOMP_GFX9_FIXTURE");
   if (fx) {
      FILE *f = fopen(fx, "w");
      for (unsigned i = 0; f && i < ncases; i++)
         if (cases[i].asm_ok && cases[i].dis_ok) {
            char h[40];
            hex_word(cases[i].bytes, cases[i].len, h);
            fprintf(f, "%s : %s\n", h, cases[i].text);
         }
      if (f)
         fclose(f);
   }
   for (unsigned i = 0; i < ncases; i++)
      free(hexl[i]);
   free(hexl);
   free(lines);
   free(ans);
   free(seen);
   isa_close(m);
   return test_done();
}
