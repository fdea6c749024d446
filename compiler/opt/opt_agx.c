/*
 * The optimizing path on execution-mask models (agx, opt_agx.h): the
 * reference expansion, then the machine passes in order
 *
 *   lanes   fine derivatives as one simd_shuffle_xor, votes without the
 *           active-lane ballot (opt_agx_lanes.c)
 *   cmpsel  a compare feeding selects fused into them, through a TGSI
 *           `!c` (the inverted compare), and fmin/fmax's signed-zero
 *           select dropped where an operand is a nonzero constant
 *           (opt_agx_cmpsel.c)
 *   half    scratch values placed again, the 16-bit ones (booleans, shift
 *           counts, small constants) in register halves packed two to a
 *           register ("pack"; opt_agx_half.c)
 *   wait    each load or store's wait placed before the first instruction
 *           that needs its result (opt_agx_wait.c)
 *
 * and the reference back end (with opts.validate, opt_agx_verify.c
 * checks the half and wait passes' output first: a compile error on a
 * wrong program). This file holds the driver and what the
 * passes share: which registers an operand touches, regions, liveness
 * across regions, and compaction of the item list (labels move with
 * their instruction).
 */
#include "compiler/opt/opt_agx.h"

#include <stdlib.h>

const char *const opt_agx_passes[] = {"lanes", "cmpsel", "half", "pack", "wait", NULL};

bool
opt_agx_model(const struct isa_model *m)
{
   for (unsigned op = 0; op < isa_op_count(m); op++) {
      struct isa_op_info oi;
      isa_op_info(m, op, &oi);
      if (oi.sem == ISA_SEM_EXEC_IF)
         return true;
   }
   return false;
}

bool
agx_opnd_regs(const struct agx_prog *p, const struct isa_insn *in, int slot, unsigned *first,
              unsigned *n)
{
   const struct isa_opnd *o = slot < ISA_MAX_DST ? &in->dst[slot] : &in->src[slot - ISA_MAX_DST];
   if (o->kind != ISA_OPND_REG)
      return false;
   if ((int)o->file == p->rc->gpr) { /* a 64-bit operand (a memory base) is a pair */
      *first = o->index;
      *n = MAX2(isa_opnd_regs(p->m, in, slot), 1u);
      return true;
   }
   if ((int)o->file == p->half_file) {
      *first = o->index / 2u;
      *n = 1;
      return true;
   }
   return false;
}

static bool
touches(const struct agx_prog *p, const struct isa_insn *in, unsigned reg, bool dst)
{
   unsigned n = dst ? in->ndst : in->nsrc;
   for (unsigned k = 0; k < n; k++) {
      unsigned f, c;
      if (agx_opnd_regs(p, in, dst ? ISA_SLOT_DST(k) : ISA_SLOT_SRC(k), &f, &c) && reg >= f &&
          reg < f + c)
         return true;
   }
   return false;
}

bool
agx_reads(const struct agx_prog *p, const struct isa_insn *in, unsigned reg)
{
   return touches(p, in, reg, false);
}

bool
agx_writes(const struct agx_prog *p, const struct isa_insn *in, unsigned reg)
{
   return touches(p, in, reg, true);
}

bool
agx_ends_region(const struct agx_prog *p, unsigned i)
{
   struct isa_class_info ci;
   const struct isa_insn *in = &p->rc->items[i].in;
   isa_class_info(p->m, in->cls, &ci);
   return ci.flow || in->sem == ISA_SEM_BARRIER;
}

void
agx_regions(struct agx_prog *p)
{
   struct ref_ctx *c = p->rc;
   free(p->start);
   p->start = xcalloc(c->nitems + 1, sizeof(bool));
   p->start[0] = true;
   for (unsigned l = 0; l < c->nlabels; l++)
      if (c->labels[l] >= 0)
         p->start[c->labels[l]] = true;
   for (unsigned i = 0; i + 1 < c->nitems; i++)
      if (agx_ends_region(p, i))
         p->start[i + 1] = true;
}

bool
agx_read_elsewhere(const struct agx_prog *p, unsigned reg, unsigned from, unsigned to)
{
   const struct ref_ctx *c = p->rc;
   bool wrote = false;
   for (unsigned k = 0; k < c->nitems; k++) {
      if (p->start[k])
         wrote = false;
      if (p->dead[k])
         continue;
      const struct isa_insn *in = &c->items[k].in;
      if ((k < from || k >= to) && !wrote && agx_reads(p, in, reg))
         return true;
      if (k == from) /* the reads after it see its value */
         wrote = false;
      else if (agx_writes(p, in, reg))
         wrote = true;
   }
   return false;
}

void
agx_compact(struct agx_prog *p)
{
   struct ref_ctx *c = p->rc;
   unsigned *to = xmalloc((c->nitems + 1) * sizeof(unsigned)), n = 0;
   for (unsigned i = 0; i < c->nitems; i++) {
      to[i] = n;
      if (!p->dead[i])
         c->items[n++] = c->items[i];
   }
   to[c->nitems] = n;
   for (unsigned l = 0; l < c->nlabels; l++)
      if (c->labels[l] >= 0)
         c->labels[l] = (int)to[c->labels[l]];
   c->nitems = n;
   free(to);
   free(p->dead);
   p->dead = xcalloc(n + 1, sizeof(bool));
   agx_regions(p);
}

static int
half_file(const struct ref_ctx *c)
{
   for (unsigned f = 0; f < isa_file_count(c->m); f++) {
      struct isa_file_info fi;
      isa_file_info(c->m, f, &fi);
      if (fi.kind == ISA_FILE_HALF && fi.half_of == c->gpr)
         return (int)f;
   }
   return -1;
}

/* The items' instructions (opt_agx_verify.c compares a pass's output
 * with them). */
static struct isa_insn *
snapshot(const struct ref_ctx *c)
{
   struct isa_insn *v = xmalloc((c->nitems + 1) * sizeof(*v));
   for (unsigned i = 0; i < c->nitems; i++)
      v[i] = c->items[i].in;
   return v;
}

static bool
pass_on(const struct opt_options *o, const char *name)
{
   return !o->disable || !comma_list_has(o->disable, name);
}

enum compile_status
opt_agx_compile(const struct tgsi_shader *s, const struct isa_model *m, const struct opt_options *o,
                struct emu_program *out, struct compile_stats *stats, char **log,
                struct diag_list *d)
{
   struct ref_ctx rc;
   struct opt_ctx ctx;
   struct agx_stats st = {0, 0, 0, 0, 0, 0, 0, 0, 0};
   opt_ctx_init(&ctx, o, d);
   ref_open(&rc, s, m, d);
   if (rc.status == COMPILE_OK) {
      struct agx_prog p = {.rc = &rc, .ctx = &ctx, .m = m, .st = &st};
      p.half_file = half_file(&rc);
      p.homes_end = rc.homes_top; /* the end of the TGSI homes */
      p.dead = xcalloc(rc.nitems + 1, sizeof(bool));
      agx_regions(&p);
      if (pass_on(o, "lanes")) {
         ctx.pass = "lanes";
         opt_agx_lanes(&p);
         agx_compact(&p);
      }
      if (pass_on(o, "cmpsel")) {
         ctx.pass = "cmpsel";
         opt_agx_cmpsel(&p);
         agx_compact(&p);
      }
      if (pass_on(o, "half")) {
         ctx.pass = "half";
         struct isa_insn *before = o->validate ? snapshot(&rc) : NULL;
         opt_agx_half(&p, pass_on(o, "pack"));
         if (before && rc.status == COMPILE_OK)
            agx_verify_places(&p, before);
         free(before);
      }
      ctx.pass = "wait";
      opt_agx_wait(&p);
      rc.waits_placed = true;
      if (o->validate && rc.status == COMPILE_OK)
         agx_verify_waits(&p);
      ctx.pass = "emit";
      free(p.start);
      free(p.dead);
   }
   enum compile_status r = ref_close(&rc, out, stats);
   if (r == COMPILE_OK && o->bisect)
      opt_log(&ctx,
              "agx: %u selects fused, %u booleans kept live, %u compares removed, %u min/max "
              "fixups dropped, %u values in 16-bit halves (%u beside a live one), %u waits "
              "deferred, %u derivatives as one shuffle, %u votes without the active ballot\n",
              st.fused, st.kept, st.removed, st.minmax, st.narrowed, st.packed, st.waits_deferred,
              st.lanes_deriv, st.lanes_vote);
   if (log) {
      *log = ctx.log;
      ctx.log = NULL;
   }
   opt_ctx_fini(&ctx);
   return r;
}
