/*
 * gfx9 scalar memory: constant buffers read with SMEM (see opt_isel.h).
 *
 * The emulator maps constant buffer b at EMU_ADDR_CONST(b), 16 bytes a
 * slot (emu.h), and an SMEM load runs once per wave into SGPRs. Every
 * load_const of a constant buffer becomes a component of one scalar load
 * of its slot, issued at the start of the program (after the inputs):
 * `s_mov_b64 s[b:b+1], EMU_ADDR_CONST(buf)` once per buffer, then
 * `s_load_dword[xN] s[..], s[b:b+1], 16 * slot + 4 * first` covering the
 * components read (1, 2 or 4 of them; a tuple's extracts follow it). The
 * loads are outstanding together, and SMEM returns out of order, so the
 * first read of any of them waits for lgkmcnt(0) (opt_hazard_ws.c).
 *
 * Resource sizes (load_const of IR_SIZE_BUF + file) stay bound to SGPRs
 * before the first instruction, as user SGPRs are.
 */
#include "compiler/opt/opt_isel.h"
#include "emu/emu.h"

#include <stdlib.h>

/* The SMEM load of n dwords: a scalar op of semantics ldg syncing through
 * a counter, with an SGPR-pair base and an immediate offset; -1 if none. */
static int
smem_op(const struct isel *s, unsigned n)
{
   unsigned cnt;
   const uint16_t *ops = isa_ops_by_sem(s->m, ISA_SEM_LDG, &cnt);
   for (unsigned i = 0; i < cnt; i++) {
      struct isa_insn t;
      isa_insn_init(s->m, ops[i], &t);
      struct isa_class_info ci;
      isa_class_info(s->m, t.cls, &ci);
      if (ci.scalar && ci.sync != ISA_SYNC_NONE && t.ndst == 1 && t.nsrc == 2 &&
          isa_opnd_count(s->m, &t, ISA_SLOT_DST(0)) == n)
         return ops[i];
   }
   return -1;
}

struct slot_reads {
   int32_t buf, slot;
   unsigned mask;
};

static bool
is_cbuf_read(const struct ir_instr *in)
{
   return in->op == IR_OP_LOAD_CONST && !in->removed && in->buf >= 0 && in->buf < IR_MAX_CBUFS &&
          in->buf < ENV_MAX_CBUFS && in->slot >= 0 && in->slot < (1 << 16);
}

/* One scalar load of the components `mask` of (buf, slot) before pos; the
 * values, by component, in val. */
static bool
load_slot(struct isel *s, struct ir_instr *pos, struct ir_instr *base, const struct slot_reads *r,
          struct ir_instr **val)
{
   unsigned lo = 0, hi = 3;
   while (!(r->mask & (1u << lo)))
      lo++;
   while (!(r->mask & (1u << hi)))
      hi--;
   unsigned n = hi - lo + 1;
   n = n == 1 ? 1 : n == 2 && !(lo & 1) ? 2 : 4;
   if (n == 4)
      lo = 0;
   int op = smem_op(s, n);
   if (op < 0)
      return isel_unsupported(s, pos, "no scalar load (SMEM) in the model");
   struct ir_instr *ld = ir_mach_create(s->sh, (unsigned)op);
   ld->line = pos->line;
   ir_mach_set_src(ld, 0, &base, 1);
   ir_mach_set_fixed(ld, 1, 16u * (uint32_t)r->slot + 4u * lo);
   ir_mach_get(s->m, ld)->reg = (struct ir_reg){(int16_t)s->unif, 0, 0};
   ir_insert_before(pos, ld);
   if (n == 1) {
      val[lo] = ld;
      return true;
   }
   ld->type = IR_TYPE_V4;
   struct ir_instr *after = ld;
   for (unsigned c = lo; c < lo + n; c++) {
      if (!(r->mask & (1u << c)))
         continue;
      struct ir_instr *e = ir_instr_create(s->sh, IR_OP_EXTRACT, 1);
      e->type = IR_TYPE_32;
      ir_set_src(e, 0, ld);
      e->comp = (int32_t)(c - lo);
      e->line = pos->line;
      ir_mach_get(s->m, e)->reg = (struct ir_reg){(int16_t)s->unif, 0, 0};
      ir_insert_after(after, e);
      val[c] = after = e;
   }
   return true;
}

void
isel_const_smem(struct isel *s)
{
   if (s->cnst >= 0 || s->unif < 0 || smem_op(s, 1) < 0)
      return;
   struct ir_instr **order;
   unsigned n = ir_program_order(s->sh, &order);
   struct slot_reads *r = NULL;
   unsigned nr = 0, cap = 0;
   for (unsigned i = 0; i < n; i++) {
      const struct ir_instr *in = order[i];
      if (!is_cbuf_read(in))
         continue;
      unsigned k = 0;
      while (k < nr && (r[k].buf != in->buf || r[k].slot != in->slot))
         k++;
      if (k == nr) {
         struct slot_reads x = {in->buf, in->slot, 0};
         VEC_PUSH(r, nr, cap, x);
      }
      r[k].mask |= 1u << (in->comp & 3);
   }
   struct ir_block *entry = ir_list_first_block(&s->sh->body);
   struct ir_instr *pos = entry ? entry->first : NULL;
   struct ir_instr *(*val)[4] = xcalloc(nr + 1, sizeof(*val));
   struct ir_instr *base[IR_MAX_CBUFS] = {NULL};
   for (unsigned k = 0; k < nr && pos && !s->ctx->failed; k++) {
      unsigned b = (unsigned)r[k].buf;
      if (!base[b] && !(base[b] = isel_scalar_pair(s, pos, EMU_ADDR_CONST(b))))
         break;
      load_slot(s, pos, base[b], &r[k], val[k]);
   }
   for (unsigned i = 0; i < n && !s->ctx->failed && pos; i++) {
      struct ir_instr *in = order[i];
      if (!is_cbuf_read(in))
         continue;
      unsigned k = 0;
      while (r[k].buf != in->buf || r[k].slot != in->slot)
         k++;
      opt_replace(s->sh, in, val[k][in->comp & 3]);
   }
   free(val);
   free(r);
   free(order);
}
