/*
 * gfx9's hazard facts through isa_delay (the one place that answers):
 * the manual wait-state table (VALU writes an SGPR -> VMEM reads it: 5,
 * any register of a group counts; not for VGPRs, not after SALU, not for
 * a VALU consumer; the rows naming an operand: a lane select, v_div_fmas's
 * implicit vcc: 4) and the counters a load's consumers wait on (vmcnt,
 * lgkmcnt).
 */
#include "isa/isa.h"
#include "util/test.h"
#include "util/util.h"

static struct isa_model *m;

static struct isa_insn
insn(const char *text)
{
   struct isa_insn in;
   struct diag_list d = {0};
   CHECKF(isa_parse_insn(m, text, &in, &d) == ISA_ERR_OK, "'%s': %s", text, d.n ? d.v[0].msg : "");
   diag_clear(&d);
   return in;
}

static void
expect(const char *p, int ps, const char *c, int cs, int distance, enum isa_sync sync)
{
   struct isa_insn a = insn(p), b = insn(c);
   struct isa_delay d = isa_delay(m, &a, ps, &b, cs);
   CHECKF(d.distance == distance && d.sync == sync, "'%s' -> '%s': %d/%s, expected %d/%s", p, c,
          d.distance, isa_sync_name(d.sync), distance, isa_sync_name(sync));
}

int
main(void)
{
   struct diag_list d = {0};
   CHECK(isa_open("gfx9", &m, &d) == ISA_ERR_OK);
   diag_clear(&d);
   if (!m)
      return test_done();
   const char *sample = "image_sample v[1:4], v[5:6], s[16:23], s[24:27] dmask:0xf";
   /* VALU writes SGPRs the sample's resource covers: 5 wait states. */
   expect("v_cmp_lt_f32_e64 s[16:17], v5, v6", ISA_SLOT_DST(0), sample, ISA_SLOT_SRC(1), 5,
          ISA_SYNC_NONE);
   expect("v_cmp_lt_f32_e64 s[20:21], v5, v6", ISA_SLOT_DST(0), sample, ISA_SLOT_SRC(1), 5,
          ISA_SYNC_NONE);
   expect("v_cmp_lt_f32_e64 s[24:25], v5, v6", ISA_SLOT_DST(0), sample, ISA_SLOT_SRC(2), 5,
          ISA_SYNC_NONE);
   /* Outside the group, a SALU producer, a VGPR, a VALU consumer: none. */
   expect("v_cmp_lt_f32_e64 s[28:29], v5, v6", ISA_SLOT_DST(0), sample, ISA_SLOT_SRC(1), 0,
          ISA_SYNC_NONE);
   expect("s_mov_b64 s[16:17], 0", ISA_SLOT_DST(0), sample, ISA_SLOT_SRC(1), 0, ISA_SYNC_NONE);
   expect("v_mov_b32_e32 v5, 0", ISA_SLOT_DST(0), sample, ISA_SLOT_SRC(0), 0, ISA_SYNC_NONE);
   expect("v_cmp_lt_f32_e64 s[16:17], v5, v6", ISA_SLOT_DST(0),
          "v_cndmask_b32_e64 v1, v2, v3, s[16:17]", ISA_SLOT_SRC(1), 0, ISA_SYNC_NONE);
   /* Rows that name an operand: VALU writes an SGPR -> v_readlane's or
    * v_writelane's lane select (src1): 4, not its value (src0, a VGPR) nor
    * another VALU op's SGPR source; VALU writes VCC (explicitly or as
    * VOPC e32's implicit destination) -> v_div_fmas's implicit vcc: 4. */
   expect("v_readfirstlane_b32 s4, v2", ISA_SLOT_DST(0), "v_readlane_b32 s5, v1, s4",
          ISA_SLOT_SRC(1), 4, ISA_SYNC_NONE);
   expect("v_readfirstlane_b32 s4, v2", ISA_SLOT_DST(0), "v_writelane_b32 v3, 7, s4",
          ISA_SLOT_SRC(1), 4, ISA_SYNC_NONE);
   expect("v_readfirstlane_b32 s6, v2", ISA_SLOT_DST(0), "v_writelane_b32 v3, s6, 5",
          ISA_SLOT_SRC(0), 0, ISA_SYNC_NONE);
   expect("v_readfirstlane_b32 s4, v2", ISA_SLOT_DST(0), "v_add_u32_e32 v1, s4, v2",
          ISA_SLOT_SRC(0), 0, ISA_SYNC_NONE);
   expect("s_mov_b32 s4, 0", ISA_SLOT_DST(0), "v_readlane_b32 s5, v1, s4", ISA_SLOT_SRC(1), 0,
          ISA_SYNC_NONE);
   const char *fmas = "v_div_fmas_f32 v3, v0, v1, v2";
   expect("v_cmp_lt_f32_e32 vcc, v0, v1", ISA_SLOT_IMP_DST(0), fmas, ISA_SLOT_IMP_SRC(0), 4,
          ISA_SYNC_NONE);
   expect("v_cmp_lt_f32_e64 vcc, v0, v1", ISA_SLOT_DST(0), fmas, ISA_SLOT_IMP_SRC(0), 4,
          ISA_SYNC_NONE);
   expect("v_cmp_lt_f32_e64 s[4:5], v0, v1", ISA_SLOT_DST(0), fmas, ISA_SLOT_IMP_SRC(0), 0,
          ISA_SYNC_NONE);
   expect("v_cmp_lt_f32_e32 vcc, v0, v1", ISA_SLOT_IMP_DST(0), "v_cndmask_b32_e32 v1, v2, v3, vcc",
          ISA_SLOT_IMP_SRC(0), 0, ISA_SYNC_NONE);
   /* SALU writes M0 -> s_sendmsg reads it (implicitly): 1; not another
    * SGPR, not through a VALU write. */
   const char *emit = "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)";
   expect("s_mov_b32 m0, 0", ISA_SLOT_DST(0), emit, ISA_SLOT_IMP_SRC(0), 1, ISA_SYNC_NONE);
   expect("s_mov_b32 s4, 0", ISA_SLOT_DST(0), emit, ISA_SLOT_IMP_SRC(0), 0, ISA_SYNC_NONE);
   /* Loads: their consumers wait on the counters. */
   expect("global_load_dword v5, v[6:7], off offset:0", ISA_SLOT_DST(0), "v_add_f32_e32 v1, v5, v2",
          ISA_SLOT_SRC(0), 0, ISA_SYNC_VMCNT);
   expect("s_load_dwordx2 s[4:5], s[0:1], 0x0", ISA_SLOT_DST(0), "v_mov_b32_e32 v1, s5",
          ISA_SLOT_SRC(0), 0, ISA_SYNC_LGKMCNT);
   expect("ds_read_b32 v5, v6 offset:0", ISA_SLOT_DST(0), "v_add_f32_e32 v1, v5, v2",
          ISA_SLOT_SRC(0), 0, ISA_SYNC_LGKMCNT);
   isa_close(m);
   return test_done();
}
