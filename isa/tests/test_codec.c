/*
 * The codec, printer and assembler against the fixture files
 * fixtures/isa/<model>.txt (format in their header): every round-trip line
 * is checked in both directions, every op of the model must appear in one,
 * and the illegal and refused cases must fail the way the file says.
 *
 * Then a million random words per model (fixed seed; every other one has
 * the fixed bits of a random op so that operand decoding is exercised):
 * decoding and printing never crash, and every word that decodes as legal
 * re-encodes to a word that decodes to the same record, and (every 16th)
 * prints text that assembles back to it.
 */
#include "isa/isa.h"
#include "isa/isa_priv.h" /* op patterns, to aim half of the random words at ops */
#include "util/test.h"
#include "util/util.h"

#include <stdlib.h>

static struct isa_model *
open_model(const char *name)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   char *path = strstr(name, ".yaml") ? xasprintf("fixtures/isa/%s", name) : xstrdup(name);
   enum isa_err e = isa_open(path, &m, &d);
   CHECKF(e == ISA_ERR_OK, "%s: %s %s", path, isa_strerror(e), d.n ? d.v[0].msg : "");
   free(path);
   diag_clear(&d);
   return m;
}

static bool
parse_hex(const char *s, uint8_t *bytes, size_t *len)
{
   /* The word as a number, most significant digit first. */
   size_t n = strspn(s, "0123456789abcdefABCDEF");
   if (!n || n > 32 || n % 2)
      return false;
   *len = n / 2;
   memset(bytes, 0, 16);
   for (size_t i = 0; i < n; i++) {
      char c = s[n - 1 - i];
      unsigned v = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
      bytes[i / 2] |= (uint8_t)(v << ((i & 1) * 4));
   }
   return true;
}

static void
hex_of(const uint8_t *b, size_t len, char *out)
{
   for (size_t i = 0; i < len; i++)
      sprintf(out + 2 * i, "%02x", b[len - 1 - i]);
}

static void
check_roundtrip(const struct isa_model *m, const char *hex, const char *text, bool both, bool *seen,
                int lineno)
{
   uint8_t bytes[16], enc[16];
   size_t len, pos = 0, elen = 0;
   struct isa_insn in, as;
   char buf[256], h[40];
   CHECKF(parse_hex(hex, bytes, &len), "line %d: bad hex", lineno);
   enum isa_err e = isa_decode(m, bytes, len, &pos, &in);
   CHECKF(e == ISA_ERR_OK && pos == len, "line %d: %s does not decode: %s", lineno, hex,
          isa_strerror(e));
   if (e)
      return;
   seen[in.op] = true;
   CHECKF(!in.illegal, "line %d: %s decodes as illegal: %s", lineno, hex,
          isa_illegal_str(in.illegal));
   isa_print_insn(m, &in, buf, sizeof(buf));
   CHECKF(!strcmp(buf, text), "line %d: %s prints '%s', expected '%s'", lineno, hex, buf, text);
   if (!both)
      return;
   struct diag_list d = {0};
   e = isa_parse_insn(m, text, &as, &d);
   CHECKF(e == ISA_ERR_OK, "line %d: '%s' does not assemble: %s", lineno, text,
          d.n ? d.v[0].msg : isa_strerror(e));
   diag_clear(&d);
   if (e)
      return;
   e = isa_encode(m, &as, enc, &elen, NULL);
   hex_of(enc, elen, h);
   CHECKF(e == ISA_ERR_OK && elen == len && !memcmp(enc, bytes, len),
          "line %d: '%s' assembles to %s, expected %s", lineno, text, h, hex);
}

static void
check_illegal(const struct isa_model *m, const char *hex, const char *why, int lineno)
{
   uint8_t bytes[16];
   size_t len, pos = 0;
   struct isa_insn in;
   CHECK(parse_hex(hex, bytes, &len));
   enum isa_err e = isa_decode(m, bytes, len, &pos, &in);
   CHECKF(e == ISA_ERR_OK && in.illegal &&
              (strstr(isa_illegal_str(in.illegal), why) || strstr(isa_illegal_reason(m, &in), why)),
          "line %d: %s: expected illegal '%s', got %s/%s", lineno, hex, why, isa_strerror(e),
          isa_illegal_str(in.illegal));
   /* The encoder refuses what the decoder flags. */
   if (!e && in.illegal)
      CHECKF(isa_check_insn(m, &in, NULL) != ISA_ERR_OK, "line %d: %s re-encodes", lineno, hex);
}

static void
check_refused(const struct isa_model *m, const char *text, const char *msg, int lineno)
{
   struct diag_list d = {0};
   struct isa_insn in;
   enum isa_err e = isa_parse_insn(m, text, &in, &d);
   CHECKF(e != ISA_ERR_OK && d.n && strstr(d.v[0].msg, msg), "line %d: '%s': expected '%s', got %s",
          lineno, text, msg, d.n ? d.v[0].msg : "success");
   diag_clear(&d);
}

static void
run_fixture(const char *path, unsigned *nmodels)
{
   char *text = NULL, *err = NULL;
   CHECKF(read_file(path, &text, NULL, &err), "%s", err);
   if (!text) {
      free(err);
      return;
   }
   struct isa_model *m = NULL;
   bool *seen = NULL;
   unsigned nrt = 0;
   int lineno = 0;
   for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
      lineno++;
      char *sep;
      if (!*line || *line == '#')
         continue;
      if (!strncmp(line, "model: ", 7)) {
         m = open_model(line + 7);
         if (!m)
            break;
         seen = xcalloc(isa_op_count(m), sizeof(bool));
         (*nmodels)++;
      } else if (!m) {
         CHECKF(0, "%s: no model line before line %d", path, lineno);
         break;
      } else if (line[0] == '?' && (sep = strstr(line, " : "))) {
         *sep = 0;
         check_illegal(m, line + 2, sep + 3, lineno);
      } else if (line[0] == 'X') {
         uint8_t b[16];
         size_t len, pos = 0;
         struct isa_insn in;
         CHECK(parse_hex(line + 2, b, &len));
         CHECKF(isa_decode(m, b, len, &pos, &in) == ISA_ERR_DECODE, "line %d: %s decodes", lineno,
                line + 2);
      } else if (line[0] == '!' && (sep = strstr(line, " : "))) {
         *sep = 0;
         check_refused(m, line + 2, sep + 3, lineno);
      } else if ((sep = strstr(line, " : ")) || (sep = strstr(line, " = "))) {
         bool both = sep[1] == ':';
         *sep = 0;
         check_roundtrip(m, line, sep + 3, both, seen, lineno);
         nrt += both;
      } else {
         CHECKF(0, "%s:%d: unrecognised line", path, lineno);
      }
   }
   if (m) {
      for (unsigned i = 0; i < isa_op_count(m); i++) {
         struct isa_op_info oi;
         isa_op_info(m, i, &oi);
         CHECKF(seen[i], "%s: op '%s' has no round-trip line", path, oi.name);
      }
      CHECKF(nrt >= isa_op_count(m), "%s: only %u round-trip lines", path, nrt);
   }
   free(seen);
   isa_close(m);
   free(text);
}

/* Decode-encode-decode and print-assemble on random words. */
static void
random_words(const char *name, unsigned count)
{
   struct isa_model *m = open_model(name);
   if (!m)
      return;
   struct rng r;
   rng_seed(&r, 0x15a15a);
   unsigned decoded = 0, legal = 0, bad = 0;
   for (unsigned i = 0; i < count; i++) {
      uint8_t b[16], e[16];
      struct isa_bits w = {{rng_next(&r), rng_next(&r)}};
      if (i & 1) {
         /* Fixed bits of a random op, random everything else. */
         const struct isa_op *op = &m->ops[rng_below(&r, m->nops)];
         for (int k = 0; k < 2; k++)
            w.w[k] = (w.w[k] & ~op->mask.w[k]) | op->match.w[k];
      }
      isa_store_bits(&w, 16, b);
      size_t pos = 0, len = 0;
      struct isa_insn in, again, as;
      if (isa_decode(m, b, 16, &pos, &in) != ISA_ERR_OK)
         continue;
      decoded++;
      char txt[256];
      isa_print_insn(m, &in, txt, sizeof(txt)); /* must not crash, legal or not */
      if (in.illegal)
         continue;
      legal++;
      size_t p2 = 0;
      bool ok = isa_encode(m, &in, e, &len, NULL) == ISA_ERR_OK &&
                isa_decode(m, e, len, &p2, &again) == ISA_ERR_OK;
      again.addr = in.addr;
      ok = ok && !memcmp(&in, &again, sizeof(in));
      if (ok && (i & 15) == 0) {
         ok = isa_parse_insn(m, txt, &as, NULL) == ISA_ERR_OK;
         as.addr = in.addr;
         /* A variable-length model assembles the shortest form that holds
          * the operands (agx short/long): another form, the same text. */
         char txt2[256];
         if (ok && memcmp(&as, &in, sizeof(in))) {
            isa_print_insn(m, &as, txt2, sizeof(txt2));
            ok = as.op != in.op && !strcmp(txt, txt2) && m->ops[as.op].bits < m->ops[in.op].bits;
         }
      }
      if (!ok && bad++ < 5)
         CHECKF(0, "%s: random word %u (%s) does not round-trip", name, i, txt);
   }
   CHECKF(bad == 0, "%s: %u random words failed", name, bad);
   CHECKF(decoded > count / 2 && legal > count / 20, "%s: only %u decoded, %u legal", name, decoded,
          legal);
   printf("%s: %u random words, %u decoded, %u legal\n", name, count, decoded, legal);
   isa_close(m);
}

/* A bundled model: control words every three instructions, control
 * fields written as text in front of each instruction. */
static void
test_bundle(void)
{
   struct isa_model *bm = open_model("bundle_test.yaml");
   if (!bm)
      return;
   const char *lines[] = {"[B00:R7:W0::S02] LDG R4, [R2]", "[B01:R7:W7:Y:S06] FADD R1, R4, RZ",
                          "[B00:R7:W7::S15] FADD R2, R1, R1", "[B3f:R5:W7::S01] NOP"};
   char *text = xasprintf("%s\n%s\n%s\n%s\n", lines[0], lines[1], lines[2], lines[3]);
   struct diag_list d = {0};
   struct isa_insn *v = NULL, *back = NULL;
   size_t n = 0, len = 0, nb = 0;
   uint8_t *bytes = NULL;
   CHECK(isa_assemble(bm, text, "b.s", &v, &n, &bytes, &len, &d) == ISA_ERR_OK);
   CHECK(n == 4 && len == 64);
   CHECK(n == 4 && v[0].addr == 8 && v[1].addr == 16 && v[3].addr == 40);
   if (len == 64) {
      uint64_t ctrl0, ctrl1, w1;
      memcpy(&ctrl0, bytes, 8);
      memcpy(&w1, bytes + 16, 8);
      memcpy(&ctrl1, bytes + 32, 8);
      /* slot 0: stall 2, write barrier 0, read barrier 7 (none) */
      CHECK_EQ_U(ctrl0 & 0x1fffff, 2 | (0 << 5) | (7 << 8));
      /* slot 1: stall 6, yield, barriers none, wait mask 1 */
      CHECK_EQ_U((ctrl0 >> 21) & 0x1fffff, 6 | (1 << 4) | (7 << 5) | (7 << 8) | (1 << 11));
      CHECK_EQ_U((ctrl1 & 0x1fffff) >> 11, 0x3f);
      CHECK_EQ_U(w1, 0x5c5800000ff00401ull);
   }
   CHECK(isa_decode_program(bm, bytes, len, &back, &nb, &d) == ISA_ERR_OK && nb == 6);
   for (size_t i = 0; i < nb && i < 6; i++) {
      char buf[128];
      isa_print_insn(bm, &back[i], buf, sizeof(buf));
      const char *want = i < 4 ? lines[i] : "[B00:R7:W7::S00] NOP";
      CHECKF(!strcmp(buf, want), "bundle insn %zu prints '%s', expected '%s'", i, buf, want);
   }
   /* The hazard function on the stall-count mechanism. */
   if (nb == 6) {
      struct isa_delay dl = isa_delay(bm, &back[1], ISA_SLOT_DST(0), &back[2], ISA_SLOT_SRC(0));
      CHECK(dl.distance == 6 && dl.sync == ISA_SYNC_NONE);
      dl = isa_delay(bm, &back[0], ISA_SLOT_DST(0), &back[1], ISA_SLOT_SRC(0));
      CHECK(dl.distance == 0 && dl.sync == ISA_SYNC_SCOREBOARD);
      dl = isa_delay(bm, &back[0], ISA_SLOT_SRC(0), &back[2], ISA_SLOT_DST(0));
      CHECK(dl.distance == 0 && dl.sync == ISA_SYNC_SCOREBOARD);
   }
   /* Control fields out of range are refused. */
   struct isa_insn bad;
   CHECK(isa_parse_insn(bm, "[B40:R7:W7::S00] NOP", &bad, NULL) != ISA_ERR_OK);
   CHECK(isa_parse_insn(bm, "[B00:R7:W7::S16] NOP", &bad, NULL) != ISA_ERR_OK);
   free(v);
   free(back);
   free(bytes);
   free(text);
   diag_clear(&d);
   isa_close(bm);
}

int
main(void)
{
   unsigned nmodels = 0;
   run_fixture("fixtures/isa/a3xx.txt", &nmodels);
   run_fixture("fixtures/isa/sketch_gfx9.txt", &nmodels);
   run_fixture("fixtures/isa/gfx9.txt", &nmodels);
   run_fixture("fixtures/isa/sketch_agx.txt", &nmodels);
   run_fixture("fixtures/isa/agx.txt", &nmodels);
   CHECK(nmodels == 5);
   test_bundle();
   random_words("a3xx", test_reps(1000000));
   random_words("sketch_gfx9.yaml", test_reps(1000000));
   random_words("gfx9", test_reps(1000000));
   random_words("sketch_agx.yaml", test_reps(1000000));
   random_words("agx", test_reps(1000000));
   return test_done();
}
