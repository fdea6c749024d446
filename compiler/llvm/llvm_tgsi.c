/*
 * TGSI -> LLVM IR (text) for the AMDGPU back end, exactly: every TGSI
 * value keeps the interpreter's meaning (tgsi_semantics.md), using LLVM's
 * precise operations except where TGSI itself allows inexactness (MAD and
 * DP* may fuse, RCP/RSQ/SQRT/DIV/EX2/LG2/POW/SIN/COS are approximations).
 *
 * Every register channel is an i32 SSA value (floats are bitcast at each
 * use, which LLVM folds away). Structured control flow becomes blocks and
 * phis as it is read: IF/ELSE/ENDIF and SWITCH merge the states of their
 * arms; a loop header gets a phi for every channel the body writes, whose
 * back-edge values are added at CONT and ENDLOOP; BRK edges meet at the
 * exit. Subroutines are inlined at each CAL. No alloca: llc does not run
 * mem2reg, so the IR is already in SSA form.
 *
 * Inputs, constants and system values are arguments (i32 inreg for the
 * uniform ones, VGPRs for per-lane values), outputs are returned floats;
 * the binding of each is written into the IR's header (llvm.h).
 */
#include "compiler/llvm/llvm_tr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- diagnostics ------------------------------------------------------- */

/* TGSI ops on 64-bit values (double, int64): llvm_tgsi_wide.c. */
static bool
is_64bit(enum tgsi_opcode op)
{
   const struct tgsi_op_info *oi = &tgsi_op_info[op];
   return oi->type == TGSI_TYPE_D || oi->type == TGSI_TYPE_I64 || oi->type == TGSI_TYPE_U64 ||
          op == TGSI_OP_F2D || op == TGSI_OP_I2D || op == TGSI_OP_U2D || op == TGSI_OP_U2I64 ||
          op == TGSI_OP_I2I64 || op == TGSI_OP_F2I64 || op == TGSI_OP_F2U64;
}

bool DC_PRINTF(3, 4) tr_fail(struct tr *t, const struct tgsi_insn *in, const char *fmt, ...)
{
   if (t->failed)
      return false;
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   diag_add(t->d, DIAG_ERROR, t->s->name ? t->s->name : "<tgsi>", in ? in->loc.line : 0,
            in ? in->loc.col : 0, NULL, "llvm: %s", m);
   free(m);
   t->failed = true;
   return false;
}

/* ---- values and emission ---------------------------------------------- */

const char *
tr_v(val v)
{
   static char ring[16][24];
   static unsigned k;
   char *b = ring[k++ % 16];
   if (IS_K(v))
      snprintf(b, 24, "%d", (int32_t)(uint32_t)v);
   else
      snprintf(b, 24, "%%v%u", (uint32_t)v);
   return b;
}

struct block *
tr_blk(struct tr *t)
{
   return &t->blocks[t->cb];
}

unsigned
tr_new_block(struct tr *t)
{
   struct block b = {0};
   VEC_PUSH(t->blocks, t->nblocks, t->blocks_cap, b);
   return t->nblocks - 1;
}

/* "%vN = <text>" in the current block; returns %vN. */
val DC_PRINTF(2, 3) tr_emit(struct tr *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   val r = t->nid++;
   strbuf_printf(&tr_blk(t)->body, "  %%v%u = %s\n", (uint32_t)r, m);
   free(m);
   return r;
}

void DC_PRINTF(2, 3) tr_emit0(struct tr *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   strbuf_printf(&tr_blk(t)->body, "  %s\n", m);
   free(m);
}

void
tr_br(struct tr *t, unsigned to)
{
   if (!tr_blk(t)->term)
      tr_emit0(t, "br label %%b%u", to);
   tr_blk(t)->term = true;
}

val *
tr_snap(struct tr *t)
{
   val *s = xmalloc(sizeof(val) * (t->nvars ? t->nvars : 1));
   memcpy(s, t->cur, sizeof(val) * t->nvars);
   return s;
}

void
tr_add_edge(struct tr *t, struct edges *e)
{
   struct edge x = {tr_snap(t), t->cb};
   VEC_PUSH(e->v, e->n, e->cap, x);
}

void
tr_phi_add(struct phi *p, val v, unsigned b)
{
   VEC_RESERVE(p->v, p->cap, p->n + 1);
   p->blk = xrealloc(p->blk, p->cap * sizeof(unsigned));
   p->v[p->n] = v;
   p->blk[p->n++] = b;
}

/* Starts block b reached by the edges: a phi where they disagree. */
void
tr_join(struct tr *t, unsigned b, struct edges *e)
{
   t->cb = b;
   for (unsigned v = 0; v < t->nvars; v++) {
      if (!e->n) {
         t->cur[v] = K(0);
         continue;
      }
      bool same = true;
      for (unsigned k = 1; k < e->n; k++)
         same &= e->v[k].state[v] == e->v[0].state[v];
      if (same) {
         t->cur[v] = e->v[0].state[v];
         continue;
      }
      struct phi p = {.var = v, .res = t->nid++};
      for (unsigned k = 0; k < e->n; k++)
         tr_phi_add(&p, e->v[k].state[v], e->v[k].blk);
      VEC_PUSH(tr_blk(t)->phis, tr_blk(t)->nphis, tr_blk(t)->phis_cap, p);
      t->cur[v] = p.res;
   }
   for (unsigned k = 0; k < e->n; k++)
      free(e->v[k].state);
   free(e->v);
   memset(e, 0, sizeof(*e));
}

/* Float view of an i32 value, and back. */
val
tr_f(struct tr *t, val v)
{
   return tr_emit(t, "bitcast i32 %s to float", tr_v(v));
}

val
tr_i(struct tr *t, val fv)
{
   return tr_emit(t, "bitcast float %s to i32", tr_v(fv));
}

static const char *const intr_decl[IN_COUNT] = {
    "declare float @llvm.fabs.f32(float)",
    "declare float @llvm.minnum.f32(float, float)",
    "declare float @llvm.maxnum.f32(float, float)",
    "declare float @llvm.fma.f32(float, float, float)",
    "declare float @llvm.floor.f32(float)",
    "declare float @llvm.ceil.f32(float)",
    "declare float @llvm.trunc.f32(float)",
    "declare float @llvm.rint.f32(float)",
    "declare float @llvm.sqrt.f32(float)",
    "declare float @llvm.exp2.f32(float)",
    "declare float @llvm.log2.f32(float)",
    "declare float @llvm.sin.f32(float)",
    "declare float @llvm.cos.f32(float)",
    "declare float @llvm.amdgcn.rcp.f32(float)",
    "declare float @llvm.amdgcn.rsq.f32(float)",
    "declare float @llvm.amdgcn.fmul.legacy(float, float)",
    "declare float @llvm.amdgcn.ldexp.f32(float, i32)",
    "declare i32 @llvm.bitreverse.i32(i32)",
    "declare i32 @llvm.ctpop.i32(i32)",
    "declare i32 @llvm.ctlz.i32(i32, i1)",
    "declare i32 @llvm.cttz.i32(i32, i1)",
    "declare void @llvm.amdgcn.kill(i1)",
    "declare void @llvm.amdgcn.s.barrier()",
    "",
    "declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)",
    "declare float @llvm.amdgcn.wqm.f32(float)",
    "declare void @llvm.amdgcn.wqm.demote(i1)",
};

void
tr_use(struct tr *t, enum intr k)
{
   if (t->declared & (1u << k))
      return;
   t->declared |= 1u << k;
   strbuf_printf(&t->decls, "%s\n", intr_decl[k]);
}

/* Float ops on i32 values, returning i32. */
val
tr_f1(struct tr *t, enum intr k, const char *name, val a)
{
   tr_use(t, k);
   val fa = tr_f(t, a);
   return tr_i(t, tr_emit(t, "call float @llvm.%s(float %s)", name, tr_v(fa)));
}

val
tr_f2(struct tr *t, enum intr k, const char *name, val a, val b)
{
   tr_use(t, k);
   val fa = tr_f(t, a), fb = tr_f(t, b);
   return tr_i(t, tr_emit(t, "call float @llvm.%s(float %s, float %s)", name, tr_v(fa), tr_v(fb)));
}

val
tr_fbin(struct tr *t, const char *op, const char *flags, val a, val b)
{
   val fa = tr_f(t, a), fb = tr_f(t, b);
   return tr_i(t, tr_emit(t, "%s %sfloat %s, %s", op, flags, tr_v(fa), tr_v(fb)));
}

val
tr_ibin(struct tr *t, const char *op, val a, val b)
{
   return tr_emit(t, "%s i32 %s, %s", op, tr_v(a), tr_v(b));
}

val
tr_fcmp(struct tr *t, const char *cc, val a, val b)
{
   val fa = tr_f(t, a), fb = tr_f(t, b);
   return tr_emit(t, "fcmp %s float %s, %s", cc, tr_v(fa), tr_v(fb));
}

val
tr_icmp(struct tr *t, const char *cc, val a, val b)
{
   return tr_emit(t, "icmp %s i32 %s, %s", cc, tr_v(a), tr_v(b));
}

val
tr_sel(struct tr *t, val c, val a, val b)
{
   return tr_emit(t, "select i1 %s, i32 %s, i32 %s", tr_v(c), tr_v(a), tr_v(b));
}

/* i1 -> 0 / ~0 */
val
tr_mask_of(struct tr *t, val c)
{
   return tr_emit(t, "sext i1 %s to i32", tr_v(c));
}

/* ---- arguments --------------------------------------------------------- */

/* A uniform argument goes to an SGPR while the calling convention has
 * one, then to a VGPR (the same value in every lane). */
void DC_PRINTF(3, 4) tr_new_arg(struct tr *t, char kind, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   struct arg a = {kind, xvasprintf(fmt, ap)};
   va_end(ap);
   if (a.kind == 's' && t->nsgpr >= MAX_SGPR_ARGS)
      a.kind = 'v';
   if (a.kind == 'v' && t->nvgpr >= MAX_VGPR_ARGS && (t->over = true))
      tr_fail(t, NULL,
              "more than %u SGPR and %u VGPR arguments (inputs, constants, resources) "
              "not translated",
              MAX_SGPR_ARGS, MAX_VGPR_ARGS);
   a.kind == 's' ? t->nsgpr++ : t->nvgpr++;
   VEC_PUSH(t->args, t->nargs, t->args_cap, a);
}

void DC_PRINTF(2, 3) tr_directive(struct tr *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   VEC_PUSH(t->dirs, t->ndirs, t->dirs_cap, m);
}

/* "%vN = <text>" in the entry block, ahead of every branch. */
static val DC_PRINTF(2, 3) entry_emit(struct tr *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   val r = t->nid++;
   strbuf_printf(&t->entry, "  %%v%u = %s\n", (uint32_t)r, m);
   free(m);
   return r;
}

/* Constant buffer b's address (the emulator's EMU_ADDR_CONST(b)) as an
 * inreg argument, made an i32 addrspace(4)* in the entry block. */
static val
const_ptr(struct tr *t, unsigned b)
{
   if (!t->cbuf[b]) {
      tr_new_arg(t, 's', ".value 0x%x", (0x61u + b) << 24);
      val a = ARG_ID(t->nargs - 1);
      val w = entry_emit(t, "zext i32 %s to i64", tr_v(a));
      t->cbuf[b] = entry_emit(t, "inttoptr i64 %s to i32 addrspace(4)*", tr_v(w));
   }
   return t->cbuf[b];
}

/* A constant dword: an SGPR argument, created on first use; past the
 * argument limits a load from the constant buffer (llc's s_load). */
static val
const_arg(struct tr *t, const struct tgsi_insn *in, unsigned buf, unsigned idx, unsigned c)
{
   uint32_t key = buf << 24 | idx << 2 | c;
   for (unsigned k = 0; k < t->nconst; k++)
      if (t->ckey[k] == key)
         return t->carg[k];
   (void)in;
   val v;
   if (t->cmem) {
      val p = const_ptr(t, buf);
      val g =
          entry_emit(t, "getelementptr i32, i32 addrspace(4)* %s, i32 %u", tr_v(p), 4 * idx + c);
      v = entry_emit(t, "load i32, i32 addrspace(4)* %s, align 4", tr_v(g));
   } else {
      tr_new_arg(t, 's', ".const CONST[%u][%u].%c", buf, idx, "xyzw"[c]);
      v = ARG_ID(t->nargs - 1);
   }
   VEC_RESERVE(t->ckey, t->nconst_cap, t->nconst + 1);
   t->carg = xrealloc(t->carg, t->nconst_cap * sizeof(val));
   t->ckey[t->nconst] = key;
   t->carg[t->nconst++] = v;
   return v;
}

/* An indirect constant read from memory (llvm_from_tgsi's second try):
 * the slot's word where a declaration of the buffer covers it, else 0 (a
 * safe slot is read instead). */
static val
const_indirect(struct tr *t, unsigned buf, val idx, unsigned c)
{
   val in = K(0), safe = K(0);
   bool any = false;
   for (unsigned k = 0; k < t->s->ndecls; k++) {
      const struct tgsi_decl *d = &t->s->decls[k];
      if (d->file != TGSI_FILE_CONST || (d->has_dim ? d->dim : 0) != buf)
         continue;
      val rel = tr_ibin(t, "sub", idx, K(d->first));
      val ok = tr_emit(t, "icmp ule i32 %s, %u", tr_v(rel), d->last - d->first);
      in = any ? tr_emit(t, "or i1 %s, %s", tr_v(in), tr_v(ok)) : ok;
      safe = K(d->first);
      any = true;
   }
   if (!any)
      return K(0);
   val at = tr_emit(t, "select i1 %s, i32 %s, i32 %s", tr_v(in), tr_v(idx), tr_v(safe));
   val w = tr_ibin(t, "add", tr_ibin(t, "shl", at, K(2)), K(c));
   val g = tr_emit(t, "getelementptr i32, i32 addrspace(4)* %s, i32 %s", tr_v(const_ptr(t, buf)),
                   tr_v(w));
   val v = tr_emit(t, "load i32, i32 addrspace(4)* %s, align 4", tr_v(g));
   return tr_emit(t, "select i1 %s, i32 %s, i32 0", tr_v(in), tr_v(v));
}

/* ---- registers -------------------------------------------------------- */

bool
tr_is_var_file(enum tgsi_file f)
{
   return f == TGSI_FILE_TEMP || f == TGSI_FILE_OUT || f == TGSI_FILE_ADDR;
}

unsigned
tr_var_of(struct tr *t, enum tgsi_file f, unsigned idx, unsigned c)
{
   return t->base[f] + 4 * idx + c;
}

/* The range an indirect TEMP reference may reach: its array, else the file. */
void
tr_ind_range(struct tr *t, const struct tgsi_reg *r, unsigned *lo, unsigned *hi)
{
   *lo = 0;
   *hi = t->count[r->file] ? t->count[r->file] - 1 : 0;
   for (unsigned k = 0; k < t->s->ndecls; k++) {
      const struct tgsi_decl *d = &t->s->decls[k];
      if (d->file == r->file && r->array_id && d->array_id == r->array_id) {
         *lo = d->first;
         *hi = d->last;
      }
   }
}

static val
addr_of(struct tr *t, const struct tgsi_insn *in, const struct tgsi_ind *ind)
{
   struct tgsi_reg a = {.file = ind->file, .index = (int32_t)ind->index};
   return tr_fetch_chan(t, in, &a, ind->comp);
}

val
tr_fetch_chan(struct tr *t, const struct tgsi_insn *in, const struct tgsi_reg *r, unsigned c)
{
   if (r->has_dim && r->file != TGSI_FILE_CONST) {
      tr_fail(t, in, "2-D %s operands (per-vertex inputs) not translated",
              tgsi_file_names[r->file]);
      return K(0);
   }
   switch (r->file) {
   case TGSI_FILE_IMM:
      if (r->indirect) {
         tr_fail(t, in, "indirect immediate reads not translated");
         return K(0);
      }
      if (r->index < 0 || (unsigned)r->index >= t->s->nimms)
         return K(0);
      return K(t->s->imms[r->index].u[c]); /* 64-bit types: words, low first */
   case TGSI_FILE_TEMP:
   case TGSI_FILE_OUT:
   case TGSI_FILE_ADDR:
      if (r->indirect) {
         unsigned lo, hi;
         tr_ind_range(t, r, &lo, &hi);
         val a = addr_of(t, in, &r->ind);
         val idx = tr_ibin(t, "add", a, K(r->index));
         val res = K(0);
         for (unsigned k = lo; k <= hi && k < t->count[r->file]; k++)
            res = tr_sel(t, tr_icmp(t, "eq", idx, K(k)), t->cur[tr_var_of(t, r->file, k, c)], res);
         return res;
      }
      if (r->index < 0 || (unsigned)r->index >= t->count[r->file])
         return K(0);
      return t->cur[tr_var_of(t, r->file, (unsigned)r->index, c)];
   case TGSI_FILE_IN:
      if (r->indirect) {
         tr_fail(t, in, "indirect input reads not translated");
         return K(0);
      }
      if (r->index < 0 || (unsigned)r->index >= t->nin || t->in_arg[4 * r->index + c] == 0)
         return K(0);
      return t->in_arg[4 * r->index + c];
   case TGSI_FILE_SV:
      if (r->index < 0 || (unsigned)r->index >= t->nsv || t->sv_arg[4 * r->index + c] == 0) {
         tr_fail(t, in, "system value SV[%d] not translated", r->index);
         return K(0);
      }
      return t->sv_arg[4 * r->index + c];
   case TGSI_FILE_CONST: {
      unsigned buf = r->has_dim ? (unsigned)r->dim : 0;
      if (r->dim_indirect) {
         tr_fail(t, in, "indirect constant-buffer index not translated");
         return K(0);
      }
      if (!r->indirect)
         return r->index < 0 ? K(0) : const_arg(t, in, buf, (unsigned)r->index, c);
      /* A select over the declared range; 0 outside it, as the
       * interpreter reads an unbound slot. */
      val a = addr_of(t, in, &r->ind);
      val idx = tr_ibin(t, "add", a, K(r->index));
      if (t->cmem)
         return const_indirect(t, buf, idx, c);
      val res = K(0);
      for (unsigned k = 0; k < t->s->ndecls; k++) {
         const struct tgsi_decl *d = &t->s->decls[k];
         if (d->file != TGSI_FILE_CONST || (d->has_dim ? d->dim : 0) != buf)
            continue;
         for (uint32_t j = d->first; j <= d->last && !t->failed; j++) {
            val v = const_arg(t, in, buf, j, c);
            res = tr_sel(t, tr_icmp(t, "eq", idx, K(j)), v, res);
         }
      }
      return res;
   }
   default:
      tr_fail(t, in, "%s operands not translated", tgsi_file_names[r->file]);
      return K(0);
   }
}

/* Source si, channel c (after the swizzle), with its modifiers applied as
 * the opcode's fetch type says. */
val
tr_src(struct tr *t, const struct tgsi_insn *in, unsigned si, unsigned c)
{
   const struct tgsi_src *s = &in->src[si];
   val v = tr_fetch_chan(t, in, &s->reg, s->swz[c] & 3);
   uint8_t ty = tgsi_interp_src_type(in->op, si);
   if (!s->neg && !s->abs)
      return v;
   if (ty == TGSI_TYPE_F) {
      val fv = tr_f(t, v);
      if (s->abs) {
         tr_use(t, IN_FABS);
         fv = tr_emit(t, "call float @llvm.fabs.f32(float %s)", tr_v(fv));
      }
      if (s->neg)
         fv = tr_emit(t, "fneg float %s", tr_v(fv));
      return tr_i(t, fv);
   }
   if (ty == TGSI_TYPE_I || ty == TGSI_TYPE_U) {
      if (s->abs) {
         tr_fail(t, in, "an integer |x| source modifier not translated (TGSI leaves it undefined)");
         return K(0);
      }
      return tr_ibin(t, "sub", K(0), v);
   }
   tr_fail(t, in, "source modifiers on %s not translated", tgsi_op_info[in->op].name);
   return K(0);
}

static val
saturate(struct tr *t, val v)
{
   tr_use(t, IN_MAXNUM);
   tr_use(t, IN_MINNUM);
   val fv = tr_f(t, v);
   val a = tr_emit(t, "call float @llvm.maxnum.f32(float %s, float 0.0)", tr_v(fv));
   return tr_i(t, tr_emit(t, "call float @llvm.minnum.f32(float %s, float 1.0)", tr_v(a)));
}

void
tr_store(struct tr *t, const struct tgsi_insn *in, unsigned c, val v)
{
   const struct tgsi_dst *d = &in->dst[0];
   const struct tgsi_reg *r = &d->reg;
   if (in->sat)
      v = saturate(t, v);
   if (!tr_is_var_file(r->file)) {
      tr_fail(t, in, "writes to %s not translated", tgsi_file_names[r->file]);
      return;
   }
   if (r->has_dim) {
      tr_fail(t, in, "2-D destinations not translated");
      return;
   }
   if (r->indirect) {
      unsigned lo, hi;
      tr_ind_range(t, r, &lo, &hi);
      val a = addr_of(t, in, &r->ind);
      val idx = tr_ibin(t, "add", a, K(r->index));
      for (unsigned k = lo; k <= hi && k < t->count[r->file]; k++) {
         unsigned var = tr_var_of(t, r->file, k, c);
         t->cur[var] = tr_sel(t, tr_icmp(t, "eq", idx, K(k)), v, t->cur[var]);
      }
      return;
   }
   if (r->index >= 0 && (unsigned)r->index < t->count[r->file])
      t->cur[tr_var_of(t, r->file, (unsigned)r->index, c)] = v;
}

static bool
insn(struct tr *t, const struct tgsi_insn *in, unsigned pc)
{
   switch (in->op) {
   case TGSI_OP_NOP:
      return true;
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
      return tr_do_if(t, in);
   case TGSI_OP_ELSE:
      return tr_do_else(t, in);
   case TGSI_OP_ENDIF:
      return tr_do_endif(t, in);
   case TGSI_OP_BGNLOOP:
      return tr_do_bgnloop(t, in, pc);
   case TGSI_OP_ENDLOOP:
      return tr_do_endloop(t, in);
   case TGSI_OP_BRK:
      return tr_do_brk(t, in);
   case TGSI_OP_CONT:
      return tr_do_cont(t, in);
   case TGSI_OP_SWITCH:
      return tr_do_switch(t, in, pc);
   case TGSI_OP_CASE:
   case TGSI_OP_DEFAULT:
      return tr_do_case(t, in, pc);
   case TGSI_OP_ENDSWITCH:
      return tr_do_endswitch(t, in);
   case TGSI_OP_RET:
      return tr_do_ret(t);
   case TGSI_OP_CAL:
      return tr_do_cal(t, in);
   case TGSI_OP_KILL:
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
   case TGSI_OP_DEMOTE:
      return tr_do_kill(t, in);
   case TGSI_OP_BARRIER:
      tr_use(t, IN_BARRIER);
      tr_emit0(t, "fence syncscope(\"workgroup\") release");
      tr_emit0(t, "call void @llvm.amdgcn.s.barrier()");
      tr_emit0(t, "fence syncscope(\"workgroup\") acquire");
      return true;
   case TGSI_OP_MEMBAR:
      tr_emit0(t, "fence syncscope(\"workgroup\") acq_rel");
      return true;
   case TGSI_OP_RESQ:
      return tr_resq(t, in);
   case TGSI_OP_LOAD:
      return tr_mem_load(t, in);
   case TGSI_OP_STORE:
      return tr_mem_store(t, in);
   case TGSI_OP_ATOMUADD:
   case TGSI_OP_ATOMXCHG:
   case TGSI_OP_ATOMCAS:
   case TGSI_OP_ATOMAND:
   case TGSI_OP_ATOMOR:
   case TGSI_OP_ATOMXOR:
   case TGSI_OP_ATOMUMIN:
   case TGSI_OP_ATOMUMAX:
   case TGSI_OP_ATOMIMIN:
   case TGSI_OP_ATOMIMAX:
   case TGSI_OP_ATOMINC_WRAP:
   case TGSI_OP_ATOMDEC_WRAP:
   case TGSI_OP_ATOMFADD:
      return tr_mem_atomic(t, in);
   case TGSI_OP_TEX:
   case TGSI_OP_TXP:
   case TGSI_OP_TXB:
   case TGSI_OP_TXL:
   case TGSI_OP_TEX_LZ:
   case TGSI_OP_TXD:
   case TGSI_OP_TEX2:
   case TGSI_OP_TXB2:
   case TGSI_OP_TXL2:
   case TGSI_OP_TG4:
      return tr_tex_sample(t, in);
   case TGSI_OP_TXF:
   case TGSI_OP_TXF_LZ:
      return tr_tex_fetch(t, in);
   case TGSI_OP_TXQ:
      return tr_tex_query(t, in);
   case TGSI_OP_LODQ:
      return tr_tex_lodq(t, in);
   case TGSI_OP_BALLOT:
   case TGSI_OP_READ_FIRST:
   case TGSI_OP_READ_INVOC:
   case TGSI_OP_VOTE_ANY:
   case TGSI_OP_VOTE_ALL:
   case TGSI_OP_VOTE_EQ:
      return tr_subgroup(t, in);
   case TGSI_OP_INTERP_CENTROID:
   case TGSI_OP_INTERP_SAMPLE:
      return tr_interp(t, in);
   case TGSI_OP_SAMPLE_INFO:
   case TGSI_OP_SAMPLE_POS:
   case TGSI_OP_READ_HELPER:
      return tr_sample_info(t, in);
   default:
      break;
   }
   const struct tgsi_op_info *oi = &tgsi_op_info[in->op];
   if (is_64bit(in->op))
      return tr_wide(t, in);
   if (oi->flags & (TGSI_OPF_TEX | TGSI_OPF_OTHR))
      return tr_fail(t, in, "%s: textures, images and special ops not translated", oi->name);
   if (in->op == TGSI_OP_DDX || in->op == TGSI_OP_DDY || in->op == TGSI_OP_DDX_FINE ||
       in->op == TGSI_OP_DDY_FINE)
      return tr_deriv(t, in);
   if (!tr_alu(t, in))
      return tr_fail(t, in, "%s not translated", oi->name);
   return !t->failed;
}

bool
llvm_tgsi_supports_direct(enum tgsi_opcode op)
{
   return op != TGSI_OP_ARL && op != TGSI_OP_UARL && llvm_tgsi_supports(op);
}

bool
llvm_tgsi_supports(enum tgsi_opcode op)
{
   const struct tgsi_op_info *oi = &tgsi_op_info[op];
   switch (op) {
   case TGSI_OP_LOAD:
   case TGSI_OP_STORE:
   case TGSI_OP_RESQ:
   case TGSI_OP_BARRIER:
   case TGSI_OP_MEMBAR:
   case TGSI_OP_KILL:
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
   case TGSI_OP_TEX:
   case TGSI_OP_TXP:
   case TGSI_OP_TXB:
   case TGSI_OP_TXL:
   case TGSI_OP_TEX_LZ:
   case TGSI_OP_TXD:
   case TGSI_OP_TEX2:
   case TGSI_OP_TXB2:
   case TGSI_OP_TXL2:
   case TGSI_OP_TG4:
   case TGSI_OP_TXF:
   case TGSI_OP_TXF_LZ:
   case TGSI_OP_TXQ:
   case TGSI_OP_LODQ:
      return tgsi_interp_supports(op);
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
   case TGSI_OP_SAMPLE_INFO:
   case TGSI_OP_SAMPLE_POS:
   case TGSI_OP_READ_HELPER:
      return tgsi_interp_supports(op);
   default:
      if (is_64bit(op))
         return tgsi_wide_kind(op) >= 0 && tgsi_interp_supports(op);
      return !is_64bit(op) && !(oi->flags & (TGSI_OPF_TEX | TGSI_OPF_OTHR)) &&
             tgsi_interp_supports(op);
   }
}

bool
tr_translate_range(struct tr *t, unsigned a, unsigned b)
{
   for (unsigned pc = a; pc < b && !t->failed; pc++) {
      const struct tgsi_insn *in = &t->s->insns[pc];
      if (in->op == TGSI_OP_END)
         return tr_do_ret(t);
      if (in->op == TGSI_OP_BGNSUB || in->op == TGSI_OP_ENDSUB)
         continue;
      t->cur_insn = pc;
      if (!insn(t, in, pc))
         return false;
   }
   return !t->failed;
}

/* ---- declarations and the function ------------------------------------ */

static bool
uniform_sv(enum tgsi_semantic s)
{
   return s == TGSI_SEM_BLOCK_ID || s == TGSI_SEM_GRID_SIZE || s == TGSI_SEM_BLOCK_SIZE ||
          s == TGSI_SEM_WORK_DIM || s == TGSI_SEM_BASEVERTEX || s == TGSI_SEM_BASEINSTANCE ||
          s == TGSI_SEM_DRAWID;
}

static bool
declare(struct tr *t)
{
   const struct tgsi_shader *s = t->s;
   for (unsigned k = 0; k < s->ndecls; k++) {
      const struct tgsi_decl *d = &s->decls[k];
      if (d->file == TGSI_FILE_TEMP || d->file == TGSI_FILE_OUT || d->file == TGSI_FILE_ADDR)
         t->count[d->file] = MAX2(t->count[d->file], d->last + 1);
      if (d->file == TGSI_FILE_IN)
         t->nin = MAX2(t->nin, d->last + 1);
      if (d->file == TGSI_FILE_OUT && d->invariant)
         t->invariant = true;
      if (d->file == TGSI_FILE_SV)
         t->nsv = MAX2(t->nsv, d->last + 1);
   }
   unsigned n = 0;
   for (unsigned f = 0; f < TGSI_FILE_COUNT; f++) {
      t->base[f] = n;
      if (tr_is_var_file((enum tgsi_file)f))
         n += 4 * t->count[f];
   }
   t->nvars = n;
   t->cur = xcalloc(n ? n : 1, sizeof(val));
   for (unsigned v = 0; v < n; v++)
      t->cur[v] = K(0);
   t->in_arg = xcalloc(4 * t->nin + 1, sizeof(val));
   t->sv_arg = xcalloc(4 * t->nsv + 1, sizeof(val));
   /* Per-lane inputs first (VGPRs in order), then system values. */
   for (unsigned k = 0; k < s->ndecls; k++) {
      const struct tgsi_decl *d = &s->decls[k];
      if (d->file != TGSI_FILE_IN)
         continue;
      if (d->has_dim)
         return tr_fail(t, NULL, "per-vertex inputs not translated");
      for (uint32_t r = d->first; r <= d->last; r++)
         for (unsigned c = 0; c < 4; c++) {
            tr_new_arg(t, 'v', ".input IN[%u].%c", r, "xyzw"[c]);
            t->in_arg[4 * r + c] = ARG_ID(t->nargs - 1);
         }
   }
   for (unsigned k = 0; k < s->ndecls; k++) {
      const struct tgsi_decl *d = &s->decls[k];
      if (d->file != TGSI_FILE_SV)
         continue;
      if (!d->has_semantic)
         return tr_fail(t, NULL, "a system value without a semantic");
      for (uint32_t r = d->first; r <= d->last; r++)
         for (unsigned c = 0; c < 4; c++) {
            tr_new_arg(t, uniform_sv(d->semantic) ? 's' : 'v', ".sysval %s.%c",
                       tgsi_semantic_names[d->semantic], "xyzw"[c]);
            t->sv_arg[4 * r + c] = ARG_ID(t->nargs - 1);
         }
   }
   for (unsigned k = 0; k < s->nprops; k++) {
      const struct tgsi_prop *p = &s->props[k];
      (void)p;
   }
   return tr_declare_textures(t);
}

static void
print_phis(struct tr *t, struct strbuf *o, struct block *b)
{
   for (unsigned k = 0; k < b->nphis; k++) {
      struct phi *p = &b->phis[k];
      strbuf_printf(o, "  %s = phi i32", tr_v(p->res));
      for (unsigned j = 0; j < p->n; j++)
         strbuf_printf(o, "%s [ %s, %%b%u ]", j ? "," : "", tr_v(p->v[j]), p->blk[j]);
      strbuf_printf(o, "\n");
      free(p->v);
      free(p->blk);
   }
   free(b->phis);
   (void)t;
}

/* OUT registers the function returns (four floats each); none for
 * compute. */
static unsigned
output_regs(const struct tgsi_shader *s)
{
   return s->stage == TGSI_STAGE_COMP ? 0 : tgsi_output_count(s);
}

/* The return type: a float per output channel. A pixel shader part
 * returns to its epilog, which exports with EXEC as the kept lanes; llc
 * keeps EXEC so only in a part that returns values, so a fragment shader
 * with no outputs returns one float, bound to nothing. Caller frees. */
static char *
return_type(const struct tgsi_shader *s)
{
   unsigned n = 4 * output_regs(s);
   if (!n)
      return xstrdup(s->stage == TGSI_STAGE_FRAG ? "{ float }" : "void");
   struct strbuf ty = {0};
   strbuf_printf(&ty, "{");
   for (unsigned k = 0; k < n; k++)
      strbuf_printf(&ty, "%sfloat", k ? ", " : " ");
   strbuf_printf(&ty, " }");
   return ty.s;
}

/* Blocks with no predecessors still need a terminator; a phi listing a
 * block that does not branch to it is invalid, so every block ends in a
 * branch as written. */
static char *
finish(struct tr *t)
{
   const struct tgsi_shader *s = t->s;
   const char *cc = s->stage == TGSI_STAGE_FRAG   ? "amdgpu_ps"
                    : s->stage == TGSI_STAGE_VERT ? "amdgpu_vs"
                                                  : "amdgpu_cs";
   unsigned nout = output_regs(s);
   struct strbuf o = {0};
   strbuf_printf(&o, "; TGSI %s translated by diffcomp for llc -march=amdgcn -mcpu=gfx900\n",
                 s->name ? s->name : "<tgsi>");
   strbuf_printf(&o, "; diffcomp-llvm: stage %s\n",
                 s->stage == TGSI_STAGE_FRAG   ? "frag"
                 : s->stage == TGSI_STAGE_VERT ? "vert"
                                               : "comp");
   for (unsigned k = 0; k < t->ndirs; k++)
      strbuf_printf(&o, "; diffcomp-llvm: directive %s\n", t->dirs[k]);
   for (unsigned k = 0; k < t->nargs; k++)
      strbuf_printf(&o, "; diffcomp-llvm: arg %c %s\n", t->args[k].kind, t->args[k].bind);
   for (unsigned r = 0; r < nout; r++)
      for (unsigned c = 0; c < 4; c++)
         strbuf_printf(&o, "; diffcomp-llvm: ret .output OUT[%u].%c\n", r, "xyzw"[c]);
   strbuf_printf(&o, "\n");
   char *rt = return_type(s);
   strbuf_printf(&o, "define %s %s @main(", cc, rt);
   for (unsigned k = 0; k < t->nargs; k++)
      strbuf_printf(&o, "%si32 %s%%a%u", k ? ", " : "", t->args[k].kind == 's' ? "inreg " : "", k);
   strbuf_printf(&o, ") #0 {\n");
   strbuf_printf(&o, "entry:\n");
   for (unsigned k = 0; k < t->nargs; k++)
      strbuf_printf(&o, "  %%v%u = bitcast i32 %%a%u to i32\n", 0x80000000u + k, k);
   if (t->entry.s)
      strbuf_printf(&o, "%s", t->entry.s);
   strbuf_printf(&o, "  br label %%b0\n");
   for (unsigned b = 0; b < t->nblocks; b++) {
      struct block *bl = &t->blocks[b];
      strbuf_printf(&o, "b%u:\n", b);
      print_phis(t, &o, bl);
      if (bl->body.s)
         strbuf_printf(&o, "%s", bl->body.s);
      if (!bl->term)
         strbuf_printf(&o, "  unreachable\n");
      free(bl->body.s);
   }
   strbuf_printf(&o, "}\n\n%s", t->decls.s ? t->decls.s : "");
   strbuf_printf(&o, "\nattributes #0 = { \"InitialPSInputAddr\"=\"0xffff\" "
                     "\"denormal-fp-math-f32\"=\"ieee,ieee\" }\n");
   free(rt);
   return o.s;
}

/* The exit block: return every output channel as a float. */
static void
exit_block(struct tr *t)
{
   tr_join(t, t->exit, &t->exits);
   const struct tgsi_shader *s = t->s;
   unsigned nout = output_regs(s);
   if (!nout) { /* void, or the float of a pixel shader part (return_type) */
      tr_emit0(t, s->stage == TGSI_STAGE_FRAG ? "ret { float } { float 0.0 }" : "ret void");
      tr_blk(t)->term = true;
      return;
   }
   char *ty = return_type(s);
   char prev[24] = "undef";
   for (unsigned r = 0; r < nout; r++)
      for (unsigned c = 0; c < 4; c++) {
         val x = tr_f(t, r < t->count[TGSI_FILE_OUT] ? t->cur[tr_var_of(t, TGSI_FILE_OUT, r, c)]
                                                     : K(0));
         val agg = tr_emit(t, "insertvalue %s %s, float %s, %u", ty, prev, tr_v(x), 4 * r + c);
         snprintf(prev, sizeof(prev), "%s", tr_v(agg));
      }
   tr_emit0(t, "ret %s %s", ty, prev);
   tr_blk(t)->term = true;
   free(ty);
}

static void
stage_directives(struct tr *t)
{
   const struct tgsi_shader *s = t->s;
   if (s->stage != TGSI_STAGE_COMP)
      return;
   uint32_t bs[3] = {1, 1, 1};
   for (unsigned k = 0; k < s->nprops; k++) {
      const struct tgsi_prop *p = &s->props[k];
      if (p->prop == TGSI_PROP_CS_FIXED_BLOCK_WIDTH)
         bs[0] = p->value;
      if (p->prop == TGSI_PROP_CS_FIXED_BLOCK_HEIGHT)
         bs[1] = p->value;
      if (p->prop == TGSI_PROP_CS_FIXED_BLOCK_DEPTH)
         bs[2] = p->value;
   }
   tr_directive(t, ".block %u %u %u", bs[0], bs[1], bs[2]);
}

static char *translate(const struct tgsi_shader *s, struct diag_list *d, bool cmem, bool *over);

/* Constants and resources as arguments; past llc's argument limits, a
 * second try with constants loaded from memory (as Mesa passes them). */
char *
llvm_from_tgsi(const struct tgsi_shader *s, struct diag_list *d)
{
   unsigned n0 = d->n;
   bool over = false;
   char *out = translate(s, d, false, &over);
   if (!out && over) {
      diag_truncate(d, n0);
      out = translate(s, d, true, &over);
   }
   return out;
}

static char *
translate(const struct tgsi_shader *s, struct diag_list *d, bool cmem, bool *over)
{
   struct tr t = {.s = s, .d = d, .nid = 1, .cmem = cmem};
   char *out = NULL;
   if (s->stage != TGSI_STAGE_FRAG && s->stage != TGSI_STAGE_VERT && s->stage != TGSI_STAGE_COMP) {
      tr_fail(&t, NULL, "%s shaders not translated (amdgpu_ps, amdgpu_vs and amdgpu_cs only)",
              tgsi_stage_names[s->stage]);
      return NULL;
   }
   if (!declare(&t))
      goto done;
   stage_directives(&t);
   t.cb = tr_new_block(&t);
   t.exit = tr_new_block(&t);
   unsigned end = 0;
   while (end < s->ninsns && s->insns[end].op != TGSI_OP_END)
      end++;
   if (tr_translate_range(&t, 0, end) && t.depth == 0) {
      if (!tr_blk(&t)->term) {
         tr_add_edge(&t, &t.exits);
         tr_br(&t, t.exit);
      }
      exit_block(&t);
      if (!t.failed)
         out = finish(&t);
   } else if (!t.failed) {
      tr_fail(&t, NULL, "unbalanced control flow");
   }
done:
   for (unsigned k = 0; k < t.nargs; k++)
      free(t.args[k].bind);
   free(t.args);
   for (unsigned k = 0; k < t.ndirs; k++)
      free(t.dirs[k]);
   free(t.dirs);
   if (!out)
      for (unsigned b = 0; b < t.nblocks; b++) {
         for (unsigned k = 0; k < t.blocks[b].nphis; k++) {
            free(t.blocks[b].phis[k].v);
            free(t.blocks[b].phis[k].blk);
         }
         free(t.blocks[b].phis);
         free(t.blocks[b].body.s);
      }
   for (unsigned k = 0; k < t.depth; k++) {
      free(t.fr[k].entry);
      free(t.fr[k].cases);
      free(t.fr[k].eb);
      free(t.fr[k].ec);
      for (unsigned j = 0; j < t.fr[k].in.n; j++)
         free(t.fr[k].in.v[j].state);
      free(t.fr[k].in.v);
   }
   for (unsigned j = 0; j < t.exits.n; j++)
      free(t.exits.v[j].state);
   free(t.exits.v);
   free(t.blocks);
   free(t.cur);
   free(t.in_arg);
   free(t.sv_arg);
   free(t.ckey);
   free(t.carg);
   free(t.decls.s);
   free(t.entry.s);
   *over = t.over;
   return out;
}
