/*
 * TGSI -> LLVM IR, structured control flow: IF/ELSE, loops, SWITCH, CAL (inlined), KILL
 * (llvm_tr.h).
 */
#include "compiler/llvm/llvm_tr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- control flow ------------------------------------------------------- */

static struct frame *
push(struct tr *t, enum frame_kind k)
{
   if (t->depth >= ARRAY_SIZE(t->fr)) {
      tr_fail(t, NULL, "control flow nested too deeply");
      return NULL;
   }
   struct frame *fr = &t->fr[t->depth++];
   memset(fr, 0, sizeof(*fr));
   fr->kind = k;
   return fr;
}

static struct frame *
innermost(struct tr *t, bool loop_only)
{
   for (unsigned k = t->depth; k-- > 0;) {
      struct frame *fr = &t->fr[k];
      if (fr->kind == FR_SUB)
         return NULL;
      if (fr->kind == FR_LOOP || (!loop_only && fr->kind == FR_SWITCH))
         return fr;
   }
   return NULL;
}

/* Dead code after a jump goes to a block nothing reaches. */
static void
dead_block(struct tr *t)
{
   t->cb = tr_new_block(t);
}

/* The channels a region [a, b) writes (a CAL: all). */
static void
written(struct tr *t, unsigned a, unsigned b, bool *w)
{
   for (unsigned k = a; k < b; k++) {
      const struct tgsi_insn *in = &t->s->insns[k];
      if (in->op == TGSI_OP_CAL) {
         for (unsigned v = 0; v < t->nvars; v++)
            w[v] = true;
         return;
      }
      if (!in->ndst || !tr_is_var_file(in->dst[0].reg.file))
         continue;
      const struct tgsi_reg *r = &in->dst[0].reg;
      unsigned lo = (unsigned)(r->index < 0 ? 0 : r->index), hi = lo;
      if (r->indirect)
         tr_ind_range(t, r, &lo, &hi);
      for (unsigned x = lo; x <= hi && x < t->count[r->file]; x++)
         for (unsigned c = 0; c < 4; c++)
            if (in->dst[0].mask & (1u << c))
               w[tr_var_of(t, r->file, x, c)] = true;
   }
}

static val
cond_of(struct tr *t, const struct tgsi_insn *in)
{
   val x = tr_src(t, in, 0, 0);
   if (in->op == TGSI_OP_UIF)
      return tr_icmp(t, "ne", x, K(0));
   return tr_fcmp(t, "une", x, K(0)); /* -0 false, NaN true */
}

bool
tr_do_if(struct tr *t, const struct tgsi_insn *in)
{
   val c = cond_of(t, in);
   struct frame *fr = push(t, FR_IF);
   if (!fr)
      return false;
   unsigned then = tr_new_block(t);
   fr->has_else = in->target >= 0 && t->s->insns[in->target].op == TGSI_OP_ELSE;
   fr->end = tr_new_block(t);
   fr->other = fr->has_else ? tr_new_block(t) : fr->end;
   fr->entry = tr_snap(t);
   fr->entry_blk = t->cb;
   if (!fr->has_else) {
      struct edge e = {tr_snap(t), t->cb};
      VEC_PUSH(fr->in.v, fr->in.n, fr->in.cap, e);
   }
   tr_emit0(t, "br i1 %s, label %%b%u, label %%b%u", tr_v(c), then, fr->other);
   tr_blk(t)->term = true;
   t->cb = then;
   return true;
}

bool
tr_do_else(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_IF)
      return tr_fail(t, in, "ELSE without IF");
   tr_add_edge(t, &fr->in);
   tr_br(t, fr->end);
   t->cb = fr->other;
   memcpy(t->cur, fr->entry, sizeof(val) * t->nvars);
   return true;
}

bool
tr_do_endif(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_IF)
      return tr_fail(t, in, "ENDIF without IF");
   tr_add_edge(t, &fr->in);
   tr_br(t, fr->end);
   tr_join(t, fr->end, &fr->in);
   free(fr->entry);
   t->depth--;
   return true;
}

bool
tr_do_bgnloop(struct tr *t, const struct tgsi_insn *in, unsigned pc)
{
   struct frame *fr = push(t, FR_LOOP);
   if (!fr)
      return false;
   if (in->target < 0)
      return tr_fail(t, in, "BGNLOOP without ENDLOOP");
   fr->other = tr_new_block(t);
   fr->end = tr_new_block(t);
   unsigned pre = t->cb;
   tr_br(t, fr->other);
   t->cb = fr->other;
   bool *w = xcalloc(t->nvars ? t->nvars : 1, sizeof(bool));
   written(t, pc + 1, (unsigned)in->target, w);
   for (unsigned v = 0; v < t->nvars; v++) {
      if (!w[v])
         continue;
      struct phi p = {.var = v, .res = t->nid++};
      tr_phi_add(&p, t->cur[v], pre);
      VEC_PUSH(tr_blk(t)->phis, tr_blk(t)->nphis, tr_blk(t)->phis_cap, p);
      t->cur[v] = p.res;
   }
   free(w);
   return true;
}

/* A back edge from the current block to the loop header. */
static void
back_edge(struct tr *t, struct frame *fr)
{
   struct block *h = &t->blocks[fr->other];
   if (tr_blk(t)->term)
      return;
   for (unsigned k = 0; k < h->nphis; k++) {
      struct phi *p = &h->phis[k];
      tr_phi_add(p, t->cur[p->var], t->cb);
   }
   tr_br(t, fr->other);
}

bool
tr_do_endloop(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_LOOP)
      return tr_fail(t, in, "ENDLOOP without BGNLOOP");
   back_edge(t, fr);
   tr_join(t, fr->end, &fr->in);
   t->depth--;
   return true;
}

bool
tr_do_brk(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = innermost(t, false);
   if (!fr)
      return tr_fail(t, in, "BRK outside a loop or switch");
   if (!tr_blk(t)->term) {
      tr_add_edge(t, &fr->in);
      tr_br(t, fr->end);
   }
   dead_block(t);
   return true;
}

bool
tr_do_cont(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = innermost(t, true);
   if (!fr)
      return tr_fail(t, in, "CONT outside a loop");
   back_edge(t, fr);
   dead_block(t);
   return true;
}

static void
sw_edge(struct frame *fr, unsigned b)
{
   for (unsigned k = 0; k < fr->ne; k++)
      if (fr->eb[k] == b) {
         fr->ec[k]++;
         return;
      }
   fr->eb = xrealloc(fr->eb, (fr->ne + 1) * sizeof(unsigned));
   fr->ec = xrealloc(fr->ec, (fr->ne + 1) * sizeof(unsigned));
   fr->eb[fr->ne] = b;
   fr->ec[fr->ne++] = 1;
}

/* SWITCH: the CASE/DEFAULT labels at this nesting level, one block per
 * run of adjacent labels. */
bool
tr_do_switch(struct tr *t, const struct tgsi_insn *in, unsigned pc)
{
   if (in->target < 0)
      return tr_fail(t, in, "SWITCH without ENDSWITCH");
   val selv = tr_src(t, in, 0, 0);
   struct frame *fr = push(t, FR_SWITCH);
   if (!fr)
      return false;
   fr->first = pc;
   fr->end = tr_new_block(t);
   unsigned n = (unsigned)in->target - pc;
   fr->cases = xcalloc(n + 1, sizeof(unsigned));
   struct strbuf sw = {0};
   unsigned depth = 0, last = 0, dflt = 0;
   uint32_t *seen = NULL;
   unsigned nseen = 0, seen_cap = 0;
   for (unsigned k = pc + 1; k < (unsigned)in->target; k++) {
      const struct tgsi_insn *x = &t->s->insns[k];
      if (x->op == TGSI_OP_SWITCH)
         depth++;
      else if (x->op == TGSI_OP_ENDSWITCH)
         depth--;
      if (depth || (x->op != TGSI_OP_CASE && x->op != TGSI_OP_DEFAULT)) {
         last = 0;
         continue;
      }
      if (!last)
         last = tr_new_block(t);
      fr->cases[k - pc] = last;
      if (x->op == TGSI_OP_DEFAULT) {
         dflt = last;
         sw_edge(fr, last);
         continue;
      }
      if (x->src[0].reg.file != TGSI_FILE_IMM || x->src[0].reg.indirect || x->src[0].neg)
         return tr_fail(t, x, "CASE with a non-immediate value not translated");
      uint32_t cv = (uint32_t)tr_fetch_chan(t, x, &x->src[0].reg, x->src[0].swz[0] & 3);
      bool dup = false;
      for (unsigned j = 0; j < nseen; j++)
         dup |= seen[j] == cv;
      if (dup)
         continue; /* the first CASE with a value takes it */
      VEC_PUSH(seen, nseen, seen_cap, cv);
      sw_edge(fr, last);
      strbuf_printf(&sw, " i32 %d, label %%b%u", (int32_t)cv, last);
   }
   free(seen);
   fr->has_default = dflt != 0;
   fr->entry = tr_snap(t);
   fr->entry_blk = t->cb;
   if (!dflt) {
      struct edge e = {tr_snap(t), t->cb};
      VEC_PUSH(fr->in.v, fr->in.n, fr->in.cap, e);
   }
   tr_emit0(t, "switch i32 %s, label %%b%u [%s ]", tr_v(selv), dflt ? dflt : fr->end,
            sw.s ? sw.s : "");
   free(sw.s);
   tr_blk(t)->term = true;
   dead_block(t);
   return true;
}

bool
tr_do_case(struct tr *t, const struct tgsi_insn *in, unsigned pc)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_SWITCH)
      return tr_fail(t, in, "%s outside a SWITCH", tgsi_op_info[in->op].name);
   unsigned b = fr->cases[pc - fr->first];
   if (b == t->cb)
      return true; /* a label after a label: the same block */
   struct edges e = {0};
   if (!tr_blk(t)->term) {
      tr_add_edge(t, &e); /* fall-through */
      tr_br(t, b);
   }
   unsigned cnt = 0;
   for (unsigned k = 0; k < fr->ne; k++)
      if (fr->eb[k] == b)
         cnt = fr->ec[k];
   for (unsigned k = 0; k < cnt; k++) {
      struct edge x = {tr_snap(t), fr->entry_blk};
      memcpy(x.state, fr->entry, sizeof(val) * t->nvars);
      VEC_PUSH(e.v, e.n, e.cap, x);
   }
   tr_join(t, b, &e);
   return true;
}

bool
tr_do_endswitch(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_SWITCH)
      return tr_fail(t, in, "ENDSWITCH without SWITCH");
   if (!tr_blk(t)->term) {
      tr_add_edge(t, &fr->in);
      tr_br(t, fr->end);
   }
   tr_join(t, fr->end, &fr->in);
   free(fr->entry);
   free(fr->cases);
   free(fr->eb);
   free(fr->ec);
   t->depth--;
   return true;
}

bool
tr_do_ret(struct tr *t)
{
   for (unsigned k = t->depth; k-- > 0;)
      if (t->fr[k].kind == FR_SUB) {
         if (!tr_blk(t)->term) {
            tr_add_edge(t, &t->fr[k].in);
            tr_br(t, t->fr[k].end);
         }
         dead_block(t);
         return true;
      }
   if (!tr_blk(t)->term) {
      tr_add_edge(t, &t->exits);
      tr_br(t, t->exit);
   }
   dead_block(t);
   return true;
}

bool
tr_do_cal(struct tr *t, const struct tgsi_insn *in)
{
   if (in->target < 0)
      return tr_fail(t, in, "CAL without BGNSUB");
   if (t->inline_depth >= MAX_INLINE)
      return tr_fail(t, in, "subroutine calls nested more than %u deep not translated", MAX_INLINE);
   unsigned a = (unsigned)in->target + 1, b = a;
   while (b < t->s->ninsns && t->s->insns[b].op != TGSI_OP_ENDSUB)
      b++;
   struct frame *fr = push(t, FR_SUB);
   if (!fr)
      return false;
   fr->end = tr_new_block(t);
   unsigned save_depth = t->depth;
   t->inline_depth++;
   bool ok = tr_translate_range(t, a, b);
   t->inline_depth--;
   if (!ok)
      return false;
   if (t->depth != save_depth)
      return tr_fail(t, in, "unbalanced control flow in a subroutine");
   fr = &t->fr[t->depth - 1];
   if (!tr_blk(t)->term) {
      tr_add_edge(t, &fr->in);
      tr_br(t, fr->end);
   }
   tr_join(t, fr->end, &fr->in);
   t->depth--;
   return true;
}

bool
tr_do_kill(struct tr *t, const struct tgsi_insn *in)
{
   if (t->s->stage != TGSI_STAGE_FRAG)
      return tr_fail(t, in, "%s outside a fragment shader", tgsi_op_info[in->op].name);
   if (in->op == TGSI_OP_DEMOTE) { /* the lane runs on as a helper, discarded at the end */
      tr_use(t, IN_DEMOTE);
      tr_emit0(t, "call void @llvm.amdgcn.wqm.demote(i1 false)");
      return true;
   }
   tr_use(t, IN_KILL);
   if (in->op == TGSI_OP_KILL) {
      tr_emit0(t, "call void @llvm.amdgcn.kill(i1 false)");
      return true;
   }
   val any = K(0);
   bool first = true;
   for (unsigned c = 0; c < 4; c++) {
      val lt = tr_fcmp(t, "olt", tr_src(t, in, 0, c), K(0));
      any = first ? lt : tr_emit(t, "or i1 %s, %s", tr_v(any), tr_v(lt));
      first = false;
   }
   val keep = tr_emit(t, "xor i1 %s, true", tr_v(any));
   tr_emit0(t, "call void @llvm.amdgcn.kill(i1 %s)", tr_v(keep));
   return true;
}
