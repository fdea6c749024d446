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
 * Also the model facts the compilers and the hazard function rely on:
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
check_roundtrip(const struct isa_model *m, const char *hex, const char *text, bool both, bool *seen,
                int lineno)
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
             lineno, text, (unsigned long long)get64(out), (unsigned long long)get64(out + 8), hex);
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
   CHECKF(e != ISA_ERR_OK && d.n && strstr(d.v[0].msg, msg), "line %d: '%s': expected '%s', got %s",
          lineno, text, msg, d.n ? d.v[0].msg : "success");
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
         CHECKF(isa_decode(m, b, 16, &pos, &in) == ISA_ERR_DECODE, "line %d: %s decodes", lineno,
                line + 2);
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

static struct isa_insn
parse1(const struct isa_model *m, const char *text)
{
   struct isa_insn in;
   struct diag_list d = {0};
   memset(&in, 0, sizeof(in));
   CHECKF(isa_parse_insn(m, text, &in, &d) == ISA_ERR_OK, "'%s': %s", text, d.n ? d.v[0].msg : "?");
   diag_clear(&d);
   return in;
}

static const char *
class_of(const struct isa_model *m, const char *text)
{
   struct isa_insn in = parse1(m, text);
   struct isa_class_info ci;
   isa_class_info(m, in.cls, &ci);
   return ci.name;
}

/* What the compilers and the hazard function read from the model. */
static void
model_facts(const struct isa_model *m)
{
   CHECK(isa_hazard_kind(m) == ISA_HAZARD_STALL_COUNTS && isa_model_is_bundled(m));
   CHECK(isa_hazard_param(m, "scoreboards", 0) == 6 && isa_hazard_param(m, "max_stall", 0) == 15);
   CHECK(isa_hazard_param(m, "bar_min", 0) == 2 && isa_hazard_param(m, "flow_stall", 0) == 13);
   CHECK(isa_hazard_param(m, "pred_latency", 0) == 13);
   static const enum isa_role roles[] = {ISA_ROLE_STALL,  ISA_ROLE_YIELD,     ISA_ROLE_WR_BAR,
                                         ISA_ROLE_RD_BAR, ISA_ROLE_WAIT_MASK, ISA_ROLE_REUSE,
                                         ISA_ROLE_GUARD};
   for (unsigned i = 0; i < ARRAY_SIZE(roles); i++)
      CHECKF(isa_mod_by_role(m, roles[i]) >= 0, "no modifier plays %s", isa_role_name(roles[i]));
   /* Latency classes: fixed ALU, variable (scoreboarded) SFU, conversions,
    * XMAD, memory and texture, 13-cycle flow. */
   CHECK(!strcmp(class_of(m, "FADD R0, R1, R2"), "alu"));
   CHECK(!strcmp(class_of(m, "ISETP.LT.AND P0, PT, R1, R2, PT"), "alu"));
   CHECK(!strcmp(class_of(m, "MUFU.RCP R0, R1"), "mufu"));
   CHECK(!strcmp(class_of(m, "F2I.S32.F32.RZ R0, R1"), "conv"));
   CHECK(!strcmp(class_of(m, "XMAD R0, R1, R2, R3"), "imul"));
   CHECK(!strcmp(class_of(m, "LDG R0, [R1+0]"), "ldg"));
   CHECK(!strcmp(class_of(m, "TEX.2D.Mf R0, R1, R2, t0"), "tex"));
   CHECK(!strcmp(class_of(m, "BRA +0"), "flow") && !strcmp(class_of(m, "EXIT"), "flow"));

   /* The delay function: ALU -> ALU 6 cycles, predicate results 13, a
    * variable-latency producer needs its scoreboard, WAR on a texture's
    * sources its read barrier; unrelated registers need nothing. */
   struct isa_insn fadd = parse1(m, "FADD R0, R1, R2"), use = parse1(m, "FMUL R3, R0, R4");
   struct isa_insn other = parse1(m, "FMUL R3, R5, R4");
   struct isa_delay dl = isa_delay(m, &fadd, 0, &use, ISA_MAX_DST + 0);
   CHECK(dl.distance == 6 && dl.sync == ISA_SYNC_NONE);
   dl = isa_delay(m, &fadd, 0, &other, ISA_MAX_DST + 0);
   CHECK(dl.distance == 0 && dl.sync == ISA_SYNC_NONE);
   struct isa_insn setp = parse1(m, "ISETP.LT.AND P1, PT, R1, R2, PT");
   struct isa_insn sel = parse1(m, "SEL R0, R1, R2, P1");
   dl = isa_delay(m, &setp, 0, &sel, ISA_MAX_DST + 1);
   CHECK(dl.distance == 13 && dl.sync == ISA_SYNC_NONE);
   struct isa_insn rcp = parse1(m, "MUFU.RCP R0, R1");
   dl = isa_delay(m, &rcp, 0, &use, ISA_MAX_DST + 0);
   CHECK(dl.sync == ISA_SYNC_SCOREBOARD);
   struct isa_insn tex = parse1(m, "TEX.2D.M3 R8, R1, R2, t0"), clobber = parse1(m, "MOV R1, R7");
   dl = isa_delay(m, &tex, ISA_MAX_DST + 0, &clobber, 0);
   CHECK(dl.sync == ISA_SYNC_SCOREBOARD);
   struct isa_insn read9 = parse1(m, "MOV R0, R9"), read10 = parse1(m, "MOV R0, R10");
   CHECK(isa_delay(m, &tex, 0, &read9, ISA_MAX_DST + 0).sync == ISA_SYNC_SCOREBOARD);
   CHECK(isa_delay(m, &tex, 0, &read10, ISA_MAX_DST + 0).sync ==
         ISA_SYNC_NONE); /* mask 3: R8, R9 */

   /* Legaliser facts: commutative ALU ops, compares that flip, no swap
    * for SEL's predicate or ISCADD. */
   struct isa_op_info oi;
   isa_op_info(m, parse1(m, "FSETP.LT.AND P0, PT, R1, R2, PT").op, &oi);
   CHECK(oi.commute[0] == 0 && oi.commute[1] == 1 && oi.flip_mod == isa_mod_find(m, "fcmp"));
   isa_op_info(m, parse1(m, "ISETP.LT.AND P0, PT, R1, 5, PT").op, &oi);
   CHECK(oi.commute[0] == 0 && oi.flip_mod == isa_mod_find(m, "icmp"));
   isa_op_info(m, parse1(m, "FFMA R0, R1, R2, R3").op, &oi);
   CHECK(oi.commute[0] == 0 && oi.commute[1] == 1 && oi.flip_mod < 0);
   isa_op_info(m, parse1(m, "ISCADD R0, R1, R2, 3").op, &oi);
   CHECK(oi.commute[0] < 0);
   /* Every op has semantics and a class. */
   for (unsigned i = 0; i < isa_op_count(m); i++) {
      isa_op_info(m, i, &oi);
      CHECKF(oi.sem != ISA_SEM_NOP || !strcmp(oi.name, "NOP"), "op %s has no semantics", oi.name);
      CHECKF(oi.size == 8, "op %s is %u bytes", oi.name, oi.size);
   }
}

int
main(void)
{
   struct isa_model *m = open_sm50();
   if (!m)
      return test_done();
   run_fixture(m, "fixtures/isa/sm50.txt");
   model_facts(m);
   random_bundles(m, test_reps(200000));
   isa_close(m);
   return test_done();
}
