/* IR text: print(parse(text)) == text for canonical texts, parse errors
 * name the line and column, immediates keep their bits. */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <stdlib.h>

static const char *const canonical[] = {
    /* straight line, fields, flags, immediates */
    "shader FRAG\n"
    "input 0 GENERIC 20 PERSPECTIVE CENTER\n"
    "output 0 COLOR 0 invariant\n"
    "  %0 = load_input slot=0 comp=x\n"
    "  %1 = imm 1.0\n"
    "  %2 = fadd %0, %1 precise\n"
    "  %3 = imm -1\n"
    "  %4 = imm 0x7fc00000\n"
    "  %5 = imm -0.0\n"
    "  %6 = imm.64 0x3ff0000000000000\n"
    "  %7 = load_const_ind buf=1 slot=-3 comp=w %3\n"
    "  %8 = load_sysval sv=INSTANCEID comp=x\n"
    "  %9 = bcsel %8, %2, %4 invariant\n"
    "  store_output slot=0 comp=x %9\n",
    /* if/else with a phi naming its predecessors */
    "shader VERT\n"
    "  %0 = load_input slot=0 comp=x\n"
    "  if %0 {\n"
    "@1:\n"
    "    %1 = fneg %0\n"
    "  } else {\n"
    "@2:\n"
    "    %2 = fabs %0\n"
    "  }\n"
    "  %3 = phi @1 %1, @2 %2\n"
    "  store_output slot=0 comp=x %3\n",
    /* a loop with a back edge (forward reference) and a break */
    "shader FRAG\n"
    "@0:\n"
    "  %0 = imm 0\n"
    "  %1 = imm 1\n"
    "  %2 = imm 10\n"
    "  loop {\n"
    "    %3 = phi @0 %0, @4 %5\n"
    "    %4 = ige %3, %2\n"
    "    if %4 {\n"
    "      break\n"
    "    }\n"
    "@4:\n"
    "    %5 = iadd %3, %1\n"
    "  }\n"
    "  store_output slot=0 comp=x %3\n",
    /* tex with roles, extract, arrays */
    "shader FRAG\n"
    "array 1 4\n"
    "  %0 = load_input slot=0 comp=x\n"
    "  %1 = load_input slot=0 comp=y\n"
    "  %2 = tex kind=txb target=2D res=0 samp=0 coord %0, coord %1, bias %0\n"
    "  %3 = extract comp=z %2\n"
    "  array_store_ind arr=1 slot=1 comp=y %1, %3\n"
    "  %4 = array_load arr=1 slot=2 comp=y\n"
    "  %5 = mov.64 %6\n"
    "  %6 = pack64 %3, %4\n"
    "  kill_if %4\n",
};

static void
test_roundtrip(void)
{
   for (unsigned i = 0; i < ARRAY_SIZE(canonical); i++) {
      struct diag_list d = {0};
      struct ir_shader *sh = ir_parse(canonical[i], strlen(canonical[i]), "t.ir", 1, &d);
      CHECKF(sh, "case %u: %s", i, diag_first_error(&d));
      if (!sh)
         continue;
      char *t = ir_print(sh);
      CHECKF(!strcmp(t, canonical[i]), "case %u printed:\n%s", i, t);
      /* and once more: the fixed point */
      struct ir_shader *sh2 = ir_parse(t, strlen(t), "t.ir", 1, &d);
      char *t2 = sh2 ? ir_print(sh2) : NULL;
      CHECK(t2 && !strcmp(t, t2));
      free(t);
      free(t2);
      ir_shader_free(sh);
      ir_shader_free(sh2);
      diag_clear(&d);
   }
}

static void
test_valid_after_parse(void)
{
   /* The first three are valid IR; the fourth uses %6 before defining it. */
   for (unsigned i = 0; i < ARRAY_SIZE(canonical); i++) {
      struct diag_list d = {0};
      struct ir_shader *sh = ir_parse(canonical[i], strlen(canonical[i]), "t.ir", 1, &d);
      CHECK(sh);
      if (!sh)
         continue;
      bool ok = ir_validate(sh, NULL, &d);
      CHECKF(ok == (i != 3), "case %u: %s", i, diag_first_error(&d));
      ir_shader_free(sh);
      diag_clear(&d);
   }
}

static void
expect_error(const char *text, int line, int col, const char *msg)
{
   struct diag_list d = {0};
   struct ir_shader *sh = ir_parse(text, strlen(text), "e.ir", 1, &d);
   CHECK(!sh);
   CHECKF(d.nerrors == 1 && d.v[0].line == line && d.v[0].col == col && strstr(d.v[0].msg, msg),
          "got %d:%d '%s', want %d:%d '%s'", d.n ? d.v[0].line : 0, d.n ? d.v[0].col : 0,
          d.n ? d.v[0].msg : "", line, col, msg);
   ir_shader_free(sh);
   diag_clear(&d);
}

static void
test_errors(void)
{
   expect_error("frag\n", 1, 1, "expected 'shader STAGE'");
   expect_error("shader FOO\n", 1, 8, "expected a stage");
   expect_error("shader FRAG\n  %0 = fadd2 %1\n", 2, 8, "unknown op 'fadd2'");
   expect_error("shader FRAG\n  %0 = imm 1\n  %0 = imm 2\n", 3, 3, "defined twice");
   expect_error("shader FRAG\n  %0 = fneg %7\n", 2, 13, "undefined value %7");
   expect_error("shader FRAG\n  %0 = load_input slot=0 comp=q\n", 2, 31, "bad comp 'q'");
   expect_error("shader FRAG\n  %0 = fadd slot=0 %1, %1\n", 2, 13, "has no field 'slot'");
   expect_error("shader FRAG\n  kill_if\n  }\n", 3, 3, "'}' without an open");
   expect_error("shader FRAG\n  loop {\n", 3, 1, "missing '}'");
   expect_error("shader FRAG\n  %1 = imm 1\n  %0 = phi @4 %1\n", 3, 12, "undefined block label @4");
   expect_error("shader FRAG\n  %0 = imm 1.5x\n", 2, 12, "bad immediate");
   expect_error("shader FRAG\n  store_output slot=0 comp=x %0 fast\n", 2, 33, "unexpected 'fast'");
   expect_error("shader FRAG\n  %0 = kill\n", 2, 3, "has no result");
   expect_error("shader FRAG\n  %0 = fadd.64 %0, %0\n", 2, 8, "fixed width");
}

static void
test_imm_format(void)
{
   static const uint32_t bits[] = {0,           1,           0xffffffffu, 0x3f800000u, 0x80000000u,
                                   0x7f800000u, 0x7fc00001u, 0x00000001u, 0x3dcccccdu, 0x4b800001u,
                                   0xc2f60000u, 0x00800000u, 0x12345678u};
   for (unsigned i = 0; i < ARRAY_SIZE(bits); i++) {
      char buf[64], text[128];
      ir_format_imm(buf, sizeof(buf), bits[i], false);
      snprintf(text, sizeof(text), "shader FRAG\n  %%0 = imm %s\n", buf);
      struct diag_list d = {0};
      struct ir_shader *sh = ir_parse(text, strlen(text), "i.ir", 1, &d);
      CHECKF(sh && (uint32_t)sh->values[0]->imm == bits[i], "0x%08x printed as %s", bits[i], buf);
      ir_shader_free(sh);
      diag_clear(&d);
   }
   char buf[64];
   CHECK(ir_format_imm(buf, sizeof(buf), 0x3f800000u, false) && !strcmp(buf, "1.0"));
   CHECK(!ir_format_imm(buf, sizeof(buf), 0x7f800000u, false) && !strcmp(buf, "0x7f800000"));
   CHECK(!ir_format_imm(buf, sizeof(buf), 0xfffffffbu, false) && !strcmp(buf, "-5"));
}

/* Inserts a piece of syntax at a random spot, deleting a few characters. */
static char *
mutate_chars(const char *base, struct rng *r, const char *const *pieces, unsigned npieces)
{
   size_t n = strlen(base);
   size_t at = rng_below(r, (uint32_t)n), cut = rng_below(r, 8);
   const char *ins = pieces[rng_below(r, npieces)];
   size_t k = strlen(ins);
   if (at + cut > n)
      cut = n - at;
   char *t = xmalloc(n + k + 1);
   memcpy(t, base, at);
   memcpy(t + at, ins, k);
   memcpy(t + at + k, base + at + cut, n - at - cut + 1);
   return t;
}

/* Deletes, duplicates or swaps whole lines, or renames a value: text that
 * still parses but breaks the IR's rules. */
static char *
mutate_lines(const char *base, struct rng *r)
{
   const char *line[64];
   size_t len[64];
   unsigned n = 0;
   for (const char *p = base; *p && n < 64; n++) {
      line[n] = p;
      len[n] = strcspn(p, "\n") + 1;
      p += len[n];
   }
   unsigned a = 1 + rng_below(r, n - 1), b = 1 + rng_below(r, n - 1), op = rng_below(r, 4);
   char *t = xmalloc(strlen(base) * 2 + 16), *o = t;
   for (unsigned i = 0; i < n; i++) {
      unsigned src = op == 2 && i == a ? b : op == 2 && i == b ? a : i;
      if (op == 0 && i == a)
         continue; /* delete */
      memcpy(o, line[src], len[src]);
      o += len[src];
      if (op == 1 && i == a) { /* duplicate */
         memcpy(o, line[a], len[a]);
         o += len[a];
      }
   }
   *o = 0;
   if (op == 3) { /* rename the first use of a value on line a */
      char *pct = strchr(t + (line[a] - base), '%');
      if (pct && pct[1] >= '0' && pct[1] <= '9')
         pct[1] = (char)('0' + rng_below(r, 10));
   }
   return t;
}

/* Mutated IR text never crashes the parser, the validator or the printer:
 * it parses with an error, or gives a shader the validator accepts or
 * rejects with a message. */
static void
test_mutations(void)
{
   static const char *const pieces[] = {
       "%0",    "%99",   "@1",     "@0:",  "{",        "}",  "} else {", ",",
       "phi",   "tex",   "=",      "imm",  "x",        "\n", "loop {",   "if %0 {",
       "break", "slot=", "comp=w", "role", "coord %1", ".64"};
   struct rng r;
   rng_seed(&r, 99);
   unsigned parsed = 0, valid = 0;
   for (int iter = 0; iter < 3000; iter++) {
      const char *base = canonical[rng_below(&r, ARRAY_SIZE(canonical))];
      char *t =
          iter % 2 ? mutate_chars(base, &r, pieces, ARRAY_SIZE(pieces)) : mutate_lines(base, &r);
      struct diag_list d = {0};
      struct ir_shader *sh = ir_parse(t, strlen(t), "m.ir", 1, &d);
      if (sh) {
         parsed++;
         bool ok = ir_validate(sh, "mutation", &d);
         valid += ok;
         CHECK(ok || d.nerrors == 1);
         char *p = ir_print(sh);
         CHECK(p != NULL);
         free(p);
      } else {
         CHECK(d.nerrors == 1 && d.v[0].line >= 1);
      }
      ir_shader_free(sh);
      diag_clear(&d);
      free(t);
   }
   CHECKF(parsed > 300 && valid > 50, "parsed %u, valid %u", parsed, valid);
}

int
main(void)
{
   test_roundtrip();
   test_mutations();
   test_valid_after_parse();
   test_errors();
   test_imm_format();
   return test_done();
}
