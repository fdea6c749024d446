/*
 * The sm50 model against fixtures/isa/sm50.txt (format in its header):
 * every round-trip line is checked in both directions through a
 * one-instruction program (control word + instruction), every op must
 * appear in one, and the illegal, undecodable and refused cases must fail
 * the way the file says.
 *
 * Then random bundles (fixed seed; half of the instruction words carry the
 * fixed bits of a random op): decoding and printing never crash, and the
 * legal ones re-encode, as a program, to bytes that decode to the same
 * records; every 16th prints text that assembles back to it.
 *
 * Last, the model facts the compilers and the hazard function rely on:
 * latency classes, compare flips, commutativity, the delay function.
 */
#include "isa/isa.h"
#include "isa/isa_priv.h" /* op patterns, to aim random words at ops */
#include "util/test.h"
#include "util/util.h"

#include <stdlib.h>

static struct isa_model *
open_sm50(void)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   enum isa_err e = isa_open("sm50", &m, &d);
   CHECKF(e == ISA_ERR_OK, "sm50: %s %s", isa_strerror(e), d.n ? d.v[0].msg : "");
   diag_clear(&d);
   return m;
}

static void
put64(uint8_t *p, uint64_t w)
{
   for (int i = 0; i < 8; i++)
      p[i] = (uint8_t)(w >> (8 * i));
}

static uint64_t
get64(const uint8_t *p)
{
   uint64_t w = 0;
   for (int i = 0; i < 8; i++)
      w |= (uint64_t)p[i] << (8 * i);
   return w;
}

/* "CTRL INSN" as two 64-bit hex words -> the 16 bytes of memory. */
static bool
parse_pair(const char *s, uint8_t *bytes)
{
   char *end;
   uint64_t ctrl = strtoull(s, &end, 16);
   if (end != s + 16 || *end != ' ')
      return false;
   const char *t = end + 1;
   uint64_t insn = strtoull(t, &end, 16);
   if (end != t + 16)
      return false;
   put64(bytes, ctrl);
   put64(bytes + 8, insn);
   return true;
}

static void
check_roundtrip(const struct isa_model *m, const char *hex, const char *text, bool both,
                bool *seen, int lineno)
{
   uint8_t bytes[16];
   size_t pos = 0;
   struct isa_insn in;
   char buf[256];
   CHECKF(parse_pair(hex, bytes), "line %d: bad words", lineno);
   enum isa_err e = isa_decode(m, bytes, 16, &pos, &in);
   CHECKF(e == ISA_ERR_OK && pos == 16, "line %d: %s does not decode: %s", lineno, hex,
          isa_strerror(e));
   if (e)
      return;
   seen[in.op] = true;
   CHECKF(!in.illegal, "line %d: %s decodes as illegal: %s", lineno, hex,
          isa_illegal_str((enum isa_illegal)in.illegal));
   isa_print_insn(m, &in, buf, sizeof(buf));
   CHECKF(!strcmp(buf, text), "line %d: %s prints '%s', expected '%s'", lineno, hex, buf, text);
   if (!both)
      return;
   struct diag_list d = {0};
   struct isa_insn *v = NULL;
   size_t n = 0, len = 0;
   uint8_t *out = NULL;
   e = isa_assemble(m, text, "<fixture>", &v, &n, &out, &len, &d);
   CHECKF(e == ISA_ERR_OK && n == 1 && len == 32, "line %d: '%s' does not assemble: %s", lineno,
          text, d.n ? d.v[0].msg : isa_strerror(e));
   if (!e && len >= 16)
      CHECKF(!memcmp(out, bytes, 16), "line %d: '%s' assembles to %016llx %016llx, expected %s",
             lineno, text, (unsigned long long)get64(out), (unsigned long long)get64(out + 8),
             hex);
   free(v);
   free(out);
   diag_clear(&d);
}

static void
check_illegal(const struct isa_model *m, const char *hex, const char *why, int lineno)
{
   uint8_t bytes[16];
   size_t pos = 0;
   struct isa_insn in;
   CHECK(parse_pair(hex, bytes));
   enum isa_err e = isa_decode(m, bytes, 16, &pos, &in);
   CHECKF(e == ISA_ERR_OK && in.illegal, "line %d: %s: expected illegal, got %s", lineno, hex,
          e ? isa_strerror(e) : "legal");
   if (e || !in.illegal)
      return;
   /* The encoder refuses what the decoder flags; its message or the
    * decoder's reason names why. */
   struct diag_list d = {0};
   enum isa_err ce = isa_check_insn(m, &in, &d);
   uint8_t *out = NULL;
   size_t len = 0;
   enum isa_err pe = isa_encode_program(m, &in, 1, &out, &len, NULL);
   free(out);
   bool named = strstr(isa_illegal_str((enum isa_illegal)in.illegal), why) ||
                (d.n && strstr(d.v[0].msg, why));
   CHECKF(ce != ISA_ERR_OK || pe != ISA_ERR_OK, "line %d: %s re-encodes", lineno, hex);
   CHECKF(named, "line %d: %s: '%s' not in '%s' / '%s'", lineno, hex, why,
          isa_illegal_str((enum isa_illegal)in.illegal), d.n ? d.v[0].msg : "");
   diag_clear(&d);
}

static void
check_refused(const struct isa_model *m, const char *text, const char *msg, int lineno)
{
   struct diag_list d = {0};
   uint8_t *out = NULL;
   size_t len = 0;
   enum isa_err e = isa_assemble(m, text, "<fixture>", NULL, NULL, &out, &len, &d);
   CHECKF(e != ISA_ERR_OK && d.n && strstr(d.v[0].msg, msg),
          "line %d: '%s': expected '%s', got %s", lineno, text, msg, d.n ? d.v[0].msg : "success");
   free(out);
   diag_clear(&d);
}

static void
run_fixture(const struct isa_model *m, const char *path)
{
   char *text = NULL, *err = NULL;
   CHECKF(read_file(path, &text, NULL, &err), "%s", err);
   if (!text) {
      free(err);
      return;
   }
   bool *seen = xcalloc(isa_op_count(m), sizeof(bool));
   unsigned nrt = 0, nill = 0, nx = 0, nref = 0;
   int lineno = 0;
   for (char *line = text, *next; line && *line; line = next) {
      next = strchr(line, '\n');
      if (next)
         *next++ = 0;
      lineno++;
      char *sep;
      if (!*line || *line == '#')
         continue;
      if (!strncmp(line, "model: ", 7)) {
         CHECKF(!strcmp(line + 7, "sm50"), "line %d: model %s", lineno, line + 7);
      } else if (line[0] == '?' && (sep = strstr(line, " : "))) {
         *sep = 0;
         check_illegal(m, line + 2, sep + 3, lineno);
         nill++;
      } else if (line[0] == 'X') {
         uint8_t b[16];
         size_t pos = 0;
         struct isa_insn in;
         CHECK(parse_pair(line + 2, b));
         CHECKF(isa_decode(m, b, 16, &pos, &in) == ISA_ERR_DECODE, "line %d: %s decodes",
                lineno, line + 2);
         nx++;
      } else if (line[0] == '!' && (sep = strstr(line, " : "))) {
         *sep = 0;
         check_refused(m, line + 2, sep + 3, lineno);
         nref++;
      } else if ((sep = strstr(line, " : ")) || (sep = strstr(line, " = "))) {
         bool both = sep[1] == ':';
         *sep = 0;
         check_roundtrip(m, line, sep + 3, both, seen, lineno);
         nrt += both;
      } else {
         CHECKF(0, "%s:%d: unrecognised line", path, lineno);
      }
   }
   for (unsigned i = 0; i < isa_op_count(m); i++) {
      struct isa_op_info oi;
      isa_op_info(m, i, &oi);
      CHECKF(seen[i], "%s: op %u (%s) has no round-trip line", path, i, oi.name);
   }
   CHECKF(nrt >= isa_op_count(m) && nill >= 5 && nx >= 3 && nref >= 10,
          "%s: %u round-trip, %u illegal, %u undecodable, %u refused lines", path, nrt, nill, nx,
          nref);
   printf("%s: %u round-trip, %u illegal, %u undecodable, %u refused\n", path, nrt, nill, nx, nref);
   free(seen);
   free(text);
}

/* Random bundles: a control word and three instruction words. */
static void
random_bundles(const struct isa_model *m, unsigned count)
{
   struct rng r;
   rng_seed(&r, 0x5350);
   unsigned decoded = 0, legal = 0, bad = 0, nops = isa_op_count(m);
   for (unsigned i = 0; i < count; i++) {
      uint8_t b[32];
      for (int k = 0; k < 4; k++) {
         uint64_t w = rng_next(&r);
         if (k && (rng_next(&r) & 1)) {
            /* The fixed bits of a random op, random everything else. */
            const struct isa_op *op = &m->ops[rng_below(&r, nops)];
            w = (w & ~op->mask.w[0]) | op->match.w[0];
         }
         put64(b + 8 * k, w);
      }
      struct isa_insn in[3], again[3];
      size_t pos = 0;
      bool all = true;
      for (int k = 0; k < 3; k++) {
         if (isa_decode(m, b, 32, &pos, &in[k]) != ISA_ERR_OK) {
            all = false;
            break;
         }
         char txt[256];
         isa_print_insn(m, &in[k], txt, sizeof(txt)); /* must not crash */
         decoded++;
         all &= !in[k].illegal;
      }
      if (!all)
         continue;
      legal++;
      uint8_t *out = NULL;
      size_t len = 0;
      bool ok = isa_encode_program(m, in, 3, &out, &len, NULL) == ISA_ERR_OK && len == 32;
      pos = 0;
      for (int k = 0; ok && k < 3; k++) {
         ok = isa_decode(m, out, len, &pos, &again[k]) == ISA_ERR_OK;
         ok = ok && !memcmp(&in[k], &again[k], sizeof(in[k]));
      }
      free(out);
      if (ok && (i & 15) == 0) {
         char txt[256];
         struct isa_insn as;
         isa_print_insn(m, &in[1], txt, sizeof(txt));
         uint8_t *o2 = NULL;
         struct isa_insn *v = NULL;
         size_t n = 0;
         ok = isa_assemble(m, txt, "<random>", &v, &n, &o2, &len, NULL) == ISA_ERR_OK && n == 1;
         if (ok) {
            as = v[0];
            as.addr = in[1].addr;
            ok = !memcmp(&as, &in[1], sizeof(as));
         }
         free(v);
         free(o2);
      }
      if (!ok && bad++ < 5) {
         char txt[256];
         isa_print_insn(m, &in[0], txt, sizeof(txt));
         CHECKF(0, "random bundle %u (%s ...) does not round-trip", i, txt);
      }
   }
   CHECKF(bad == 0, "%u random bundles failed", bad);
   printf("sm50: %u random bundles, %u instructions decoded, %u legal bundles\n", count, decoded,
          legal);
}

int
main(void)
{
   struct isa_model *m = open_sm50();
   if (!m)
      return test_done();
   run_fixture(m, "fixtures/isa/sm50.txt");
   random_bundles(m, 200000);
   isa_close(m);
   return test_done();
}
