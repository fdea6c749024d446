/*
 * isa_delay() on the a3xx model: the delay-slot numbers of isa_a3xx.md §4
 * (ALU->ALU 3, ALU->SFU/tex/mem/flow 6, mad src3 1 but not sel src3, 6
 * after an address-register write, (rptN) slack), the sync flags ((ss)
 * after SFU and ldl, (sy) after tex and ldg, (ss) for WAR on tex/SFU/memory
 * sources), no hazard between unrelated or non-aliasing registers -- and
 * that the numbers come from the model: edit the YAML, the answers change.
 */
#include "isa/isa.h"
#include "util/test.h"
#include "util/util.h"

#include <stdlib.h>

static struct isa_model *m;

static struct isa_insn
as(const char *text)
{
   struct isa_insn in;
   struct diag_list d = {0};
   enum isa_err e = isa_parse_insn(m, text, &in, &d);
   CHECKF(e == ISA_ERR_OK, "'%s': %s", text, d.n ? d.v[0].msg : isa_strerror(e));
   diag_clear(&d);
   return in;
}

/* Distance and sync from producer dst 0 to consumer src `src`. */
static void
raw(const char *p, const char *c, int src, int dist, enum isa_sync sync)
{
   struct isa_insn a = as(p), b = as(c);
   struct isa_delay d = isa_delay(m, &a, ISA_SLOT_DST(0), &b, ISA_SLOT_SRC(src));
   CHECKF(d.distance == dist && d.sync == sync, "%s -> %s (src %d): got %d/%s, expected %d/%s", p,
          c, src, d.distance, isa_sync_name(d.sync), dist, isa_sync_name(sync));
}

static void
war(const char *p, int src, const char *c, int dist, enum isa_sync sync)
{
   struct isa_insn a = as(p), b = as(c);
   struct isa_delay d = isa_delay(m, &a, ISA_SLOT_SRC(src), &b, ISA_SLOT_DST(0));
   CHECKF(d.distance == dist && d.sync == sync, "WAR %s (src %d) -> %s: got %d/%s", p, src, c,
          d.distance, isa_sync_name(d.sync));
}

static void
test_a3xx(void)
{
   /* ALU -> ALU: 3 */
   raw("add.f r0.x, r1.x, r2.x", "add.f r3.x, r0.x, r4.x", 0, 3, ISA_SYNC_NONE);
   raw("add.f r0.x, r1.x, r2.x", "add.f r3.x, r4.x, r0.x", 1, 3, ISA_SYNC_NONE);
   raw("mov.f32f32 r0.x, c0.x", "mul.f r3.x, r0.x, r0.x", 0, 3, ISA_SYNC_NONE);
   raw("mad.f32 r0.x, r1.x, r2.x, r3.x", "add.f r3.x, r0.x, r4.x", 0, 3, ISA_SYNC_NONE);
   /* ALU -> SFU / tex / memory / flow: 6 */
   raw("add.f r0.x, r1.x, r2.x", "rcp r3.x, r0.x", 0, 6, ISA_SYNC_NONE);
   raw("add.f r0.x, r1.x, r2.x", "sam (f32)(xyzw)r4.x, r0.x, s#0, t#0", 0, 6, ISA_SYNC_NONE);
   raw("add.f r0.y, r1.x, r2.x", "sam (f32)(xyzw)r4.x, r0.x, s#0, t#0", 0, 6, ISA_SYNC_NONE);
   raw("add.u r0.x, r1.x, r2.x", "ldg.f32 r4.x, g[r0.x+0], 1", 0, 6, ISA_SYNC_NONE);
   raw("add.u r0.x, r1.x, r2.x", "stg.f32 g[r5.x+0], r0.x, 1", 2, 6, ISA_SYNC_NONE);
   raw("cmps.f.lt p0.x, r1.x, r2.x", "br p0.x, #3", 0, 6, ISA_SYNC_NONE);
   raw("cmps.f.lt p0.x, r1.x, r2.x", "kill p0.x", 0, 6, ISA_SYNC_NONE);
   /* mad reads src3 two cycles late: 1; sel does not: 3. */
   raw("add.f r0.x, r1.x, r2.x", "mad.f32 r3.x, r4.x, r5.x, r0.x", 2, 1, ISA_SYNC_NONE);
   raw("add.f r0.x, r1.x, r2.x", "mad.f32 r3.x, r0.x, r5.x, r6.x", 0, 3, ISA_SYNC_NONE);
   raw("add.f r0.x, r1.x, r2.x", "mad.f32 r3.x, r4.x, r0.x, r6.x", 1, 3, ISA_SYNC_NONE);
   raw("add.f r0.x, r1.x, r2.x", "sel.b32 r3.x, r4.x, r5.x, r0.x", 2, 3, ISA_SYNC_NONE);
   /* Address register writes: 6 before a relative access. */
   raw("mov.s16s16 a0.x, hr0.x", "mov.f32f32 r1.x, r<a0.x + 4>", 0, 6, ISA_SYNC_NONE);
   raw("mov.s16s16 a0.x, hr0.x", "add.f r1.x, c<a0.x>, r2.x", 0, 6, ISA_SYNC_NONE);
   raw("mov.u16u16 a1.x, hr0.x", "mov.f32f32 r1.x, r<a0.x + 4>", 0, 0, ISA_SYNC_NONE);
   /* A relative source may read any register of its file. */
   raw("add.f r9.x, r1.x, r2.x", "mov.f32f32 r1.x, r<a0.x + 4>", 0, 3, ISA_SYNC_NONE);
   /* (ss) producers: SFU, ldl. (sy) producers: tex, ldg. */
   raw("rcp r0.x, r1.x", "add.f r2.x, r0.x, r3.x", 0, 0, ISA_SYNC_SS);
   raw("ldl.u32 r0.x, l[r1.x+0], 1", "add.u r2.x, r0.x, r3.x", 0, 0, ISA_SYNC_SS);
   raw("sam (f32)(xyzw)r0.x, r1.x, s#0, t#0", "add.f r2.x, r0.w, r3.x", 0, 0, ISA_SYNC_SY);
   raw("sam (f32)(xy)r0.x, r1.x, s#0, t#0", "add.f r2.x, r0.z, r3.x", 0, 0, ISA_SYNC_NONE);
   raw("ldg.u32 r0.x, g[r1.x+0], 4", "add.u r2.x, r0.w, r3.x", 0, 0, ISA_SYNC_SY);
   raw("ldg.u32 r0.x, g[r1.x+0], 3", "add.u r2.x, r0.w, r3.x", 0, 0, ISA_SYNC_NONE);
   /* No common register, or half and full files that do not alias (a3xx). */
   raw("add.f r0.x, r1.x, r2.x", "add.f r3.x, r0.y, r4.x", 0, 0, ISA_SYNC_NONE);
   raw("add.f hr0.x, hr1.x, hr2.x", "add.f r3.x, r0.x, r4.x", 0, 0, ISA_SYNC_NONE);
   raw("add.f r0.x, r1.x, r2.x", "add.f r3.x, c0.x, r4.x", 0, 0, ISA_SYNC_NONE);
   /* (rptN): the repeats after the write count as elapsed slots. */
   raw("(rpt2)add.f r0.x, r1.x, r2.x", "add.f r3.x, r0.x, r4.x", 0, 1, ISA_SYNC_NONE);
   raw("(rpt2)add.f r0.x, r1.x, r2.x", "add.f r3.x, r0.z, r4.x", 0, 3, ISA_SYNC_NONE);
   raw("(rpt2)add.f r0.x, r1.x, r2.x", "(rpt2)add.f r3.x, (r)r0.x, r4.x", 0, 1, ISA_SYNC_NONE);
   raw("(rpt3)add.f r0.x, r1.x, r2.x", "add.f r3.x, r0.x, r4.x", 0, 0, ISA_SYNC_NONE);
   raw("add.f r0.z, r1.x, r2.x", "(rpt2)add.f r3.x, (r)r0.x, r4.x", 0, 1, ISA_SYNC_NONE);
   /* WAR: tex/SFU/memory read their sources late: (ss). ALU does not. */
   war("sam (f32)(xyzw)r4.x, r0.x, s#0, t#0", 0, "add.f r0.y, r1.x, r2.x", 0, ISA_SYNC_SS);
   war("rcp r4.x, r0.x", 0, "add.f r0.x, r1.x, r2.x", 0, ISA_SYNC_SS);
   war("stg.f32 g[r5.x+0], r0.x, 2", 2, "add.f r0.y, r1.x, r2.x", 0, ISA_SYNC_SS);
   war("stg.f32 g[r5.x+0], r0.x, 1", 2, "add.f r0.y, r1.x, r2.x", 0, ISA_SYNC_NONE);
   war("add.f r4.x, r0.x, r1.x", 0, "add.f r0.x, r1.x, r2.x", 0, ISA_SYNC_NONE);
   war("mov.f32f32 r4.x, r<a0.x + 1>", 0, "mov.s16s16 a0.x, hr1.x", 0, ISA_SYNC_NONE);
   war("rcp r4.x, r<a0.x + 1>", 0, "mov.s16s16 a0.x, hr1.x", 0, ISA_SYNC_SS);
   /* WAW on a tex destination races with the sampler: (sy). */
   struct isa_insn t = as("sam (f32)(xyzw)r0.x, r1.x, s#0, t#0"), a = as("add.f r0.y, r1.x, r2.x");
   struct isa_delay d = isa_delay(m, &t, ISA_SLOT_DST(0), &a, ISA_SLOT_DST(0));
   CHECK(d.distance == 0 && d.sync == ISA_SYNC_SY);
   /* Two reads never conflict; bad slots answer "nothing". */
   d = isa_delay(m, &t, ISA_SLOT_SRC(0), &a, ISA_SLOT_SRC(0));
   CHECK(d.distance == 0 && d.sync == ISA_SYNC_NONE);
   d = isa_delay(m, &t, ISA_SLOT_DST(1), &a, ISA_SLOT_SRC(0));
   CHECK(d.distance == 0 && d.sync == ISA_SYNC_NONE);
   CHECK(isa_opnd_count(m, &t, ISA_SLOT_DST(0)) == 4);
   CHECK(isa_opnd_count(m, &t, ISA_SLOT_SRC(0)) == 2);
   CHECK(isa_opnd_count(m, &a, ISA_SLOT_DST(0)) == 1);
}

/* The same questions against an edited copy of the model. */
static void
test_from_model(void)
{
   char *text = NULL, *err = NULL;
   size_t len;
   CHECK(read_file(DC_SOURCE_DIR "/isa/models/a3xx.yaml", &text, &len, &err));
   if (!text)
      return;
   const char *edits[][2] = {{"alu: {latency: 3}", "alu: {latency: 5}"},
                             {"sfu: {sync: ss, war: ss, soft: 10, read_early: 3}",
                              "sfu: {sync: ss, war: ss, soft: 10, read_early: 4}"},
                             {"addr_write: 6", "addr_write: 9"}};
   for (unsigned i = 0; i < ARRAY_SIZE(edits); i++) {
      char *p = strstr(text, edits[i][0]);
      CHECKF(p != NULL, "model text lacks '%s'", edits[i][0]);
      if (!p)
         continue;
      char *t = xasprintf("%.*s%s%s", (int)(p - text), text, edits[i][1], p + strlen(edits[i][0]));
      free(text);
      text = t;
   }
   struct isa_model *orig = m, *edited = NULL;
   struct diag_list d = {0};
   CHECK(isa_open_string(text, strlen(text), "edited.yaml", &edited, &d) == ISA_ERR_OK);
   diag_clear(&d);
   free(text);
   if (!edited)
      return;
   m = edited;
   raw("add.f r0.x, r1.x, r2.x", "add.f r3.x, r0.x, r4.x", 0, 5, ISA_SYNC_NONE);
   raw("add.f r0.x, r1.x, r2.x", "rcp r3.x, r0.x", 0, 9, ISA_SYNC_NONE);
   raw("add.f r0.x, r1.x, r2.x", "mad.f32 r3.x, r4.x, r5.x, r0.x", 2, 3, ISA_SYNC_NONE);
   raw("mov.s16s16 a0.x, hr0.x", "mov.f32f32 r1.x, r<a0.x + 4>", 0, 9, ISA_SYNC_NONE);
   isa_close(edited);
   m = orig;
}

int
main(void)
{
   struct diag_list d = {0};
   CHECK(isa_open("a3xx", &m, &d) == ISA_ERR_OK);
   diag_clear(&d);
   if (!m)
      return test_done();
   test_a3xx();
   test_from_model();
   isa_close(m);
   return test_done();
}
