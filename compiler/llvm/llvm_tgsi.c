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
#include "compiler/llvm/llvm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint64_t val; /* %vN (N < 2^32), or VK | a 32-bit constant */
#define VK            (1ull << 32)
#define K(x)          (VK | (uint32_t)(x))
#define IS_K(v)       (((v)&VK) != 0)
#define MAX_INLINE    8
#define MAX_SGPR_ARGS 44  /* llc assigns inreg arguments s0..s43 */
#define MAX_VGPR_ARGS 136 /* and the others v0..v135 */

struct phi {
   unsigned var;
   val res;
   val *v;
   unsigned *blk;
   unsigned n, cap;
};

struct block {
   struct strbuf body;
   struct phi *phis;
   unsigned nphis, phis_cap;
   bool term;
};

struct edge {
   val *state;
   unsigned blk;
};

struct edges {
   struct edge *v;
   unsigned n, cap;
};

enum frame_kind { FR_IF, FR_LOOP, FR_SWITCH, FR_SUB };

struct frame {
   enum frame_kind kind;
   unsigned end;       /* merge block: ENDIF, loop exit, ENDSWITCH, return */
   unsigned other;     /* IF: the ELSE block; LOOP: the header */
   unsigned entry_blk; /* IF/SWITCH: the block that branched */
   val *entry;         /* IF/SWITCH: the state there */
   struct edges in;    /* edges into `end` */
   bool has_else, has_default;
   unsigned *cases;       /* SWITCH: block per instruction index offset (0: none) */
   unsigned first;        /* SWITCH: instruction index of the SWITCH */
   unsigned *eb, *ec, ne; /* SWITCH: edges from the switch per target block */
};

struct arg {
   char kind; /* 's' inreg, 'v' VGPR */
   char *bind;
};

struct tr {
   const struct tgsi_shader *s;
   struct diag_list *d;
   bool failed;
   struct arg *args;
   unsigned nargs, args_cap, nsgpr, nvgpr;
   char **dirs;
   unsigned ndirs, dirs_cap;
   /* variables: TEMP, OUT, ADDR channels */
   unsigned base[TGSI_FILE_COUNT], count[TGSI_FILE_COUNT];
   unsigned nvars;
   val *cur;
   /* argument value per (file, index, chan); constants by key */
   val *in_arg, *sv_arg;
   unsigned nin, nsv;
   uint32_t *ckey;
   val *carg;
   unsigned nconst, nconst_cap;
   /* the function */
   struct block *blocks;
   unsigned nblocks, blocks_cap, cb;
   uint32_t nid;
   struct frame fr[64];
   unsigned depth, inline_depth;
   unsigned exit;
   struct edges exits;
   struct strbuf decls;
   uint32_t declared; /* intrinsic declarations emitted (bit per kind) */
   bool invariant;    /* an INVARIANT output: nothing may fuse (its inputs are exact) */
   bool uses_lds;
   uint32_t lds_bytes;
   val buf_base[32], buf_size[32], lds_size;
   val rsrc[32][8]; /* texture unit: its resource descriptor's arguments */
   int target[32];  /* and its target, -1: none */
   unsigned cur_insn;
};

/* ---- diagnostics ------------------------------------------------------- */

/* TGSI ops on 64-bit values (double, int64), which the translator refuses. */
static bool
is_64bit(enum tgsi_opcode op)
{
   const struct tgsi_op_info *oi = &tgsi_op_info[op];
   return oi->type == TGSI_TYPE_D || oi->type == TGSI_TYPE_I64 || oi->type == TGSI_TYPE_U64 ||
          op == TGSI_OP_F2D || op == TGSI_OP_U2I64 || op == TGSI_OP_I2I64 ||
          op == TGSI_OP_F2I64 || op == TGSI_OP_F2U64;
}

static bool DC_PRINTF(3, 4) fail(struct tr *t, const struct tgsi_insn *in, const char *fmt, ...)
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

static const char *
V(val v)
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

static struct block *
blk(struct tr *t)
{
   return &t->blocks[t->cb];
}

static unsigned
new_block(struct tr *t)
{
   struct block b = {0};
   VEC_PUSH(t->blocks, t->nblocks, t->blocks_cap, b);
   return t->nblocks - 1;
}

/* "%vN = <text>" in the current block; returns %vN. */
static val DC_PRINTF(2, 3) emit(struct tr *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   val r = t->nid++;
   strbuf_printf(&blk(t)->body, "  %%v%u = %s\n", (uint32_t)r, m);
   free(m);
   return r;
}

static void DC_PRINTF(2, 3) emit0(struct tr *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   strbuf_printf(&blk(t)->body, "  %s\n", m);
   free(m);
}

static void
br(struct tr *t, unsigned to)
{
   if (!blk(t)->term)
      emit0(t, "br label %%b%u", to);
   blk(t)->term = true;
}

static val *
snap(struct tr *t)
{
   val *s = xmalloc(sizeof(val) * (t->nvars ? t->nvars : 1));
   memcpy(s, t->cur, sizeof(val) * t->nvars);
   return s;
}

static void
add_edge(struct tr *t, struct edges *e)
{
   struct edge x = {snap(t), t->cb};
   VEC_PUSH(e->v, e->n, e->cap, x);
}

static void
phi_add(struct phi *p, val v, unsigned b)
{
   VEC_RESERVE(p->v, p->cap, p->n + 1);
   p->blk = xrealloc(p->blk, p->cap * sizeof(unsigned));
   p->v[p->n] = v;
   p->blk[p->n++] = b;
}

/* Starts block b reached by the edges: a phi where they disagree. */
static void
join(struct tr *t, unsigned b, struct edges *e)
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
         phi_add(&p, e->v[k].state[v], e->v[k].blk);
      VEC_PUSH(blk(t)->phis, blk(t)->nphis, blk(t)->phis_cap, p);
      t->cur[v] = p.res;
   }
   for (unsigned k = 0; k < e->n; k++)
      free(e->v[k].state);
   free(e->v);
   memset(e, 0, sizeof(*e));
}

/* Float view of an i32 value, and back. */
static val
f(struct tr *t, val v)
{
   if (IS_K(v))
      return emit(t, "bitcast i32 %s to float", V(v));
   return emit(t, "bitcast i32 %s to float", V(v));
}

static val
i(struct tr *t, val fv)
{
   return emit(t, "bitcast float %s to i32", V(fv));
}

enum intr {
   IN_FABS,
   IN_MINNUM,
   IN_MAXNUM,
   IN_FMA,
   IN_FLOOR,
   IN_CEIL,
   IN_TRUNC,
   IN_RINT,
   IN_SQRT,
   IN_EXP2,
   IN_LOG2,
   IN_SIN,
   IN_COS,
   IN_RCP,
   IN_RSQ,
   IN_LEGACY_MUL,
   IN_LDEXP,
   IN_BITREV,
   IN_CTPOP,
   IN_CTLZ,
   IN_CTTZ,
   IN_KILL,
   IN_BARRIER,
   IN_FPTRUNC16,
   IN_COUNT
};

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
};

static void
use(struct tr *t, enum intr k)
{
   if (t->declared & (1u << k))
      return;
   t->declared |= 1u << k;
   strbuf_printf(&t->decls, "%s\n", intr_decl[k]);
}

/* Float ops on i32 values, returning i32. */
static val
f1(struct tr *t, enum intr k, const char *name, val a)
{
   use(t, k);
   val fa = f(t, a);
   return i(t, emit(t, "call float @llvm.%s(float %s)", name, V(fa)));
}

static val
f2(struct tr *t, enum intr k, const char *name, val a, val b)
{
   use(t, k);
   val fa = f(t, a), fb = f(t, b);
   return i(t, emit(t, "call float @llvm.%s(float %s, float %s)", name, V(fa), V(fb)));
}

static val
fbin(struct tr *t, const char *op, const char *flags, val a, val b)
{
   val fa = f(t, a), fb = f(t, b);
   return i(t, emit(t, "%s %sfloat %s, %s", op, flags, V(fa), V(fb)));
}

static val
ibin(struct tr *t, const char *op, val a, val b)
{
   return emit(t, "%s i32 %s, %s", op, V(a), V(b));
}

static val
fcmp(struct tr *t, const char *cc, val a, val b)
{
   val fa = f(t, a), fb = f(t, b);
   return emit(t, "fcmp %s float %s, %s", cc, V(fa), V(fb));
}

static val
icmp(struct tr *t, const char *cc, val a, val b)
{
   return emit(t, "icmp %s i32 %s, %s", cc, V(a), V(b));
}

static val
sel(struct tr *t, val c, val a, val b)
{
   return emit(t, "select i1 %s, i32 %s, i32 %s", V(c), V(a), V(b));
}

static val
mask_of(struct tr *t, val c) /* i1 -> 0 / ~0 */
{
   return emit(t, "sext i1 %s to i32", V(c));
}

/* ---- arguments --------------------------------------------------------- */

/* Arguments are %a0, %a1, ...; the entry block copies each to %vN with
 * N = ARG_ID(n), so they are ordinary values. */
#define ARG_ID(n) ((val)(0x80000000u + (n)))

/* A uniform argument goes to an SGPR while the calling convention has
 * one, then to a VGPR (the same value in every lane). */
static void DC_PRINTF(3, 4) new_arg(struct tr *t, char kind, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   struct arg a = {kind, xvasprintf(fmt, ap)};
   va_end(ap);
   if (a.kind == 's' && t->nsgpr >= MAX_SGPR_ARGS)
      a.kind = 'v';
   if (a.kind == 'v' && t->nvgpr >= MAX_VGPR_ARGS)
      fail(t, NULL,
           "more than %u SGPR and %u VGPR arguments (inputs, constants, resources) "
           "not translated",
           MAX_SGPR_ARGS, MAX_VGPR_ARGS);
   a.kind == 's' ? t->nsgpr++ : t->nvgpr++;
   VEC_PUSH(t->args, t->nargs, t->args_cap, a);
}

static void DC_PRINTF(2, 3) directive(struct tr *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   VEC_PUSH(t->dirs, t->ndirs, t->dirs_cap, m);
}

/* A constant dword: an SGPR argument, created on first use. */
static val
const_arg(struct tr *t, const struct tgsi_insn *in, unsigned buf, unsigned idx, unsigned c)
{
   uint32_t key = buf << 24 | idx << 2 | c;
   for (unsigned k = 0; k < t->nconst; k++)
      if (t->ckey[k] == key)
         return t->carg[k];
   (void)in;
   new_arg(t, 's', ".const CONST[%u][%u].%c", buf, idx, "xyzw"[c]);
   val v = ARG_ID(t->nargs - 1);
   VEC_RESERVE(t->ckey, t->nconst_cap, t->nconst + 1);
   t->carg = xrealloc(t->carg, t->nconst_cap * sizeof(val));
   t->ckey[t->nconst] = key;
   t->carg[t->nconst++] = v;
   return v;
}

/* ---- registers -------------------------------------------------------- */

static bool
is_var_file(enum tgsi_file f)
{
   return f == TGSI_FILE_TEMP || f == TGSI_FILE_OUT || f == TGSI_FILE_ADDR;
}

static unsigned
var_of(struct tr *t, enum tgsi_file f, unsigned idx, unsigned c)
{
   return t->base[f] + 4 * idx + c;
}

/* The range an indirect TEMP reference may reach: its array, else the file. */
static void
ind_range(struct tr *t, const struct tgsi_reg *r, unsigned *lo, unsigned *hi)
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

static val fetch_chan(struct tr *t, const struct tgsi_insn *in, const struct tgsi_reg *r,
                      unsigned c);

static val
addr_of(struct tr *t, const struct tgsi_insn *in, const struct tgsi_ind *ind)
{
   struct tgsi_reg a = {.file = ind->file, .index = (int32_t)ind->index};
   return fetch_chan(t, in, &a, ind->comp);
}

static val
fetch_chan(struct tr *t, const struct tgsi_insn *in, const struct tgsi_reg *r, unsigned c)
{
   if (r->has_dim && r->file != TGSI_FILE_CONST) {
      fail(t, in, "2-D %s operands (per-vertex inputs) not translated", tgsi_file_names[r->file]);
      return K(0);
   }
   switch (r->file) {
   case TGSI_FILE_IMM:
      if (r->indirect) {
         fail(t, in, "indirect immediate reads not translated");
         return K(0);
      }
      if (r->index < 0 || (unsigned)r->index >= t->s->nimms)
         return K(0);
      if (t->s->imms[r->index].type >= TGSI_IMM_FLT64) {
         fail(t, in, "64-bit immediates not translated");
         return K(0);
      }
      return K(t->s->imms[r->index].u[c]);
   case TGSI_FILE_TEMP:
   case TGSI_FILE_OUT:
   case TGSI_FILE_ADDR:
      if (r->indirect) {
         unsigned lo, hi;
         ind_range(t, r, &lo, &hi);
         val a = addr_of(t, in, &r->ind);
         val idx = ibin(t, "add", a, K(r->index));
         val res = K(0);
         for (unsigned k = lo; k <= hi && k < t->count[r->file]; k++)
            res = sel(t, icmp(t, "eq", idx, K(k)), t->cur[var_of(t, r->file, k, c)], res);
         return res;
      }
      if (r->index < 0 || (unsigned)r->index >= t->count[r->file])
         return K(0);
      return t->cur[var_of(t, r->file, (unsigned)r->index, c)];
   case TGSI_FILE_IN:
      if (r->indirect) {
         fail(t, in, "indirect input reads not translated");
         return K(0);
      }
      if (r->index < 0 || (unsigned)r->index >= t->nin || t->in_arg[4 * r->index + c] == 0)
         return K(0);
      return t->in_arg[4 * r->index + c];
   case TGSI_FILE_SV:
      if (r->index < 0 || (unsigned)r->index >= t->nsv || t->sv_arg[4 * r->index + c] == 0) {
         fail(t, in, "system value SV[%d] not translated", r->index);
         return K(0);
      }
      return t->sv_arg[4 * r->index + c];
   case TGSI_FILE_CONST: {
      unsigned buf = r->has_dim ? (unsigned)r->dim : 0;
      if (r->dim_indirect) {
         fail(t, in, "indirect constant-buffer index not translated");
         return K(0);
      }
      if (!r->indirect)
         return r->index < 0 ? K(0) : const_arg(t, in, buf, (unsigned)r->index, c);
      /* A select over the declared range; 0 outside it, as the
       * interpreter reads an unbound slot. */
      val a = addr_of(t, in, &r->ind);
      val idx = ibin(t, "add", a, K(r->index));
      val res = K(0);
      for (unsigned k = 0; k < t->s->ndecls; k++) {
         const struct tgsi_decl *d = &t->s->decls[k];
         if (d->file != TGSI_FILE_CONST || (d->has_dim ? d->dim : 0) != buf)
            continue;
         for (uint32_t j = d->first; j <= d->last && !t->failed; j++)
            res = sel(t, icmp(t, "eq", idx, K(j)), const_arg(t, in, buf, j, c), res);
      }
      return res;
   }
   default:
      fail(t, in, "%s operands not translated", tgsi_file_names[r->file]);
      return K(0);
   }
}

/* Source si, channel c (after the swizzle), with its modifiers applied as
 * the opcode's fetch type says. */
static val
src(struct tr *t, const struct tgsi_insn *in, unsigned si, unsigned c)
{
   const struct tgsi_src *s = &in->src[si];
   val v = fetch_chan(t, in, &s->reg, s->swz[c] & 3);
   uint8_t ty = tgsi_interp_src_type(in->op, si);
   if (!s->neg && !s->abs)
      return v;
   if (ty == TGSI_TYPE_F) {
      val fv = f(t, v);
      if (s->abs) {
         use(t, IN_FABS);
         fv = emit(t, "call float @llvm.fabs.f32(float %s)", V(fv));
      }
      if (s->neg)
         fv = emit(t, "fneg float %s", V(fv));
      return i(t, fv);
   }
   if (ty == TGSI_TYPE_I || ty == TGSI_TYPE_U) {
      if (s->abs) {
         fail(t, in, "an integer |x| source modifier not translated (TGSI leaves it undefined)");
         return K(0);
      }
      return ibin(t, "sub", K(0), v);
   }
   fail(t, in, "source modifiers on %s not translated", tgsi_op_info[in->op].name);
   return K(0);
}

static val
saturate(struct tr *t, val v)
{
   use(t, IN_MAXNUM);
   use(t, IN_MINNUM);
   val fv = f(t, v);
   val a = emit(t, "call float @llvm.maxnum.f32(float %s, float 0.0)", V(fv));
   return i(t, emit(t, "call float @llvm.minnum.f32(float %s, float 1.0)", V(a)));
}

static void
store(struct tr *t, const struct tgsi_insn *in, unsigned c, val v)
{
   const struct tgsi_dst *d = &in->dst[0];
   const struct tgsi_reg *r = &d->reg;
   if (in->sat)
      v = saturate(t, v);
   if (!is_var_file(r->file)) {
      fail(t, in, "writes to %s not translated", tgsi_file_names[r->file]);
      return;
   }
   if (r->has_dim) {
      fail(t, in, "2-D destinations not translated");
      return;
   }
   if (r->indirect) {
      unsigned lo, hi;
      ind_range(t, r, &lo, &hi);
      val a = addr_of(t, in, &r->ind);
      val idx = ibin(t, "add", a, K(r->index));
      for (unsigned k = lo; k <= hi && k < t->count[r->file]; k++) {
         unsigned var = var_of(t, r->file, k, c);
         t->cur[var] = sel(t, icmp(t, "eq", idx, K(k)), v, t->cur[var]);
      }
      return;
   }
   if (r->index >= 0 && (unsigned)r->index < t->count[r->file])
      t->cur[var_of(t, r->file, (unsigned)r->index, c)] = v;
}

/* ---- ALU ---------------------------------------------------------------- */

/* Whether an instruction must round every step: _PRECISE, or any
 * instruction of a shader with an INVARIANT output (which may feed it). */
static bool
exact(const struct tr *t, const struct tgsi_insn *in)
{
   return in->precise || t->invariant;
}

#define FK(x) K(fui(x))

static val
dot(struct tr *t, const struct tgsi_insn *in, unsigned n)
{
   const char *fl = exact(t, in) ? "" : "contract ";
   val acc = fbin(t, "fmul", fl, src(t, in, 0, 0), src(t, in, 1, 0));
   for (unsigned k = 1; k < n; k++)
      acc = fbin(t, "fadd", fl, acc, fbin(t, "fmul", fl, src(t, in, 0, k), src(t, in, 1, k)));
   return acc;
}

static val
ex2(struct tr *t, val x)
{
   return f1(t, IN_EXP2, "exp2.f32", x);
}

static val
lg2(struct tr *t, val x)
{
   return f1(t, IN_LOG2, "log2.f32", x);
}

static val
pow_(struct tr *t, val a, val b)
{
   /* exp2(b * log2(a)) with the legacy multiply (0 * inf = 0), so that
    * pow(x, 0) = 1 everywhere, as C's powf. */
   use(t, IN_LEGACY_MUL);
   val l = f(t, lg2(t, a)), fb = f(t, b);
   val m = emit(t, "call float @llvm.amdgcn.fmul.legacy(float %s, float %s)", V(fb), V(l));
   return ex2(t, i(t, m));
}

static val
ffloor(struct tr *t, val a)
{
   return f1(t, IN_FLOOR, "floor.f32", a);
}

/* GLSL packing: round to nearest even of the clamped, scaled value; NaN
 * packs as 0 (maxnum(NaN, 0) = 0). */
static val
unorm(struct tr *t, val x, float scale)
{
   val c = f2(t, IN_MINNUM, "minnum.f32", f2(t, IN_MAXNUM, "maxnum.f32", x, K(0)), FK(1.0f));
   val m = f1(t, IN_RINT, "rint.f32", fbin(t, "fmul", "", c, FK(scale)));
   return emit(t, "fptoui float %s to i32", V(f(t, m)));
}

static val
snorm8(struct tr *t, val x)
{
   val nan = fcmp(t, "uno", x, x);
   val c = f2(t, IN_MINNUM, "minnum.f32", f2(t, IN_MAXNUM, "maxnum.f32", x, FK(-1.0f)), FK(1.0f));
   val m = f1(t, IN_RINT, "rint.f32", fbin(t, "fmul", "", c, FK(127.0f)));
   val v = ibin(t, "and", emit(t, "fptosi float %s to i32", V(f(t, m))), K(0xff));
   return sel(t, nan, K(0), v);
}

/* REPL opcodes: one value from the .x of the sources. */
static bool
alu_repl(struct tr *t, const struct tgsi_insn *in, val *r)
{
   switch (in->op) {
   case TGSI_OP_DP2:
      *r = dot(t, in, 2);
      return true;
   case TGSI_OP_DP3:
      *r = dot(t, in, 3);
      return true;
   case TGSI_OP_DP4:
      *r = dot(t, in, 4);
      return true;
   case TGSI_OP_RCP:
      *r = f1(t, IN_RCP, "amdgcn.rcp.f32", src(t, in, 0, 0));
      return true;
   case TGSI_OP_RSQ:
      *r = f1(t, IN_RSQ, "amdgcn.rsq.f32", src(t, in, 0, 0));
      return true;
   case TGSI_OP_SQRT:
      *r = f1(t, IN_SQRT, "sqrt.f32", src(t, in, 0, 0));
      return true;
   case TGSI_OP_EX2:
      *r = ex2(t, src(t, in, 0, 0));
      return true;
   case TGSI_OP_LG2:
      *r = lg2(t, src(t, in, 0, 0));
      return true;
   case TGSI_OP_POW:
      *r = pow_(t, src(t, in, 0, 0), src(t, in, 1, 0));
      return true;
   case TGSI_OP_SIN:
      *r = f1(t, IN_SIN, "sin.f32", src(t, in, 0, 0));
      return true;
   case TGSI_OP_COS:
      *r = f1(t, IN_COS, "cos.f32", src(t, in, 0, 0));
      return true;
   case TGSI_OP_DPH: { /* dot3 + b.w */
      const char *fl = exact(t, in) ? "" : "contract ";
      val acc = fbin(t, "fmul", fl, src(t, in, 0, 0), src(t, in, 1, 0));
      for (unsigned k = 1; k < 3; k++)
         acc = fbin(t, "fadd", fl, acc, fbin(t, "fmul", fl, src(t, in, 0, k), src(t, in, 1, k)));
      *r = fbin(t, "fadd", fl, acc, src(t, in, 1, 3));
      return true;
   }
   case TGSI_OP_PK2US:
      *r = ibin(t, "or", unorm(t, src(t, in, 0, 0), 65535.0f),
                ibin(t, "shl", unorm(t, src(t, in, 0, 1), 65535.0f), K(16)));
      return true;
   case TGSI_OP_PK4UB:
   case TGSI_OP_PK4B: {
      val acc = K(0);
      for (unsigned c = 0; c < 4; c++) {
         val x = src(t, in, 0, c);
         val b = in->op == TGSI_OP_PK4UB ? unorm(t, x, 255.0f) : snorm8(t, x);
         acc = ibin(t, "or", acc, ibin(t, "shl", b, K(8 * c)));
      }
      *r = acc;
      return true;
   }
   case TGSI_OP_PK2H: {
      val lo = f(t, src(t, in, 0, 0)), hi = f(t, src(t, in, 0, 1));
      val hl = emit(t, "fptrunc float %s to half", V(lo));
      val hh = emit(t, "fptrunc float %s to half", V(hi));
      val il = emit(t, "bitcast half %s to i16", V(hl));
      val ih = emit(t, "bitcast half %s to i16", V(hh));
      val zl = emit(t, "zext i16 %s to i32", V(il));
      val zh = emit(t, "zext i16 %s to i32", V(ih));
      *r = ibin(t, "or", zl, ibin(t, "shl", zh, K(16)));
      return true;
   }
   default:
      return false;
   }
}

static val
f2i_guarded(struct tr *t, const char *op, val fa)
{
   /* fptosi/fptoui of an out-of-range value is poison in LLVM; the
    * interpreter marks those results undefined, so any defined value does. */
   return emit(t, "%s float %s to i32", op, V(fa));
}

/* Component-wise opcodes: result channel c. */
static bool
alu_comp(struct tr *t, const struct tgsi_insn *in, unsigned c, val *r)
{
   const char *fl = exact(t, in) ? "" : "contract ";
#define S(n) src(t, in, n, c)
   switch (in->op) {
   case TGSI_OP_MOV:
      *r = S(0);
      return true;
   case TGSI_OP_ADD:
      *r = fbin(t, "fadd", "", S(0), S(1));
      return true;
   case TGSI_OP_MUL:
      *r = fbin(t, "fmul", "", S(0), S(1));
      return true;
   case TGSI_OP_SUB:
      *r = fbin(t, "fsub", "", S(0), S(1));
      return true;
   case TGSI_OP_ABS:
      *r = f1(t, IN_FABS, "fabs.f32", S(0));
      return true;
   case TGSI_OP_CLAMP: {
      val a = S(0), lo = S(1), hi = S(2);
      *r = f2(t, IN_MINNUM, "minnum.f32", f2(t, IN_MAXNUM, "maxnum.f32", a, lo), hi);
      return true;
   }
   case TGSI_OP_SFL:
      *r = K(0);
      return true;
   case TGSI_OP_STR:
      *r = FK(1.0f);
      return true;
   case TGSI_OP_DIV:
      *r = fbin(t, "fdiv", "afn ", S(0), S(1));
      return true;
   case TGSI_OP_MAD: {
      val a = S(0), b = S(1), cc = S(2);
      *r = fbin(t, "fadd", fl, fbin(t, "fmul", fl, a, b), cc);
      return true;
   }
   case TGSI_OP_FMA: {
      use(t, IN_FMA);
      val a = f(t, S(0)), b = f(t, S(1)), cc = f(t, S(2));
      *r = i(t,
             emit(t, "call float @llvm.fma.f32(float %s, float %s, float %s)", V(a), V(b), V(cc)));
      return true;
   }
   case TGSI_OP_LRP: { /* a * (b - c) + c */
      val a = S(0), b = S(1), cc = S(2);
      *r = fbin(t, "fadd", fl, fbin(t, "fmul", fl, a, fbin(t, "fsub", "", b, cc)), cc);
      return true;
   }
   case TGSI_OP_MIN:
      *r = f2(t, IN_MINNUM, "minnum.f32", S(0), S(1));
      return true;
   case TGSI_OP_MAX:
      *r = f2(t, IN_MAXNUM, "maxnum.f32", S(0), S(1));
      return true;
   case TGSI_OP_SLT:
   case TGSI_OP_SGE:
   case TGSI_OP_SEQ:
   case TGSI_OP_SGT:
   case TGSI_OP_SLE:
   case TGSI_OP_SNE: {
      static const char *cc[] = {"olt", "oge", "oeq", "ogt", "ole", "une"};
      unsigned k = in->op == TGSI_OP_SLT   ? 0
                   : in->op == TGSI_OP_SGE ? 1
                   : in->op == TGSI_OP_SEQ ? 2
                   : in->op == TGSI_OP_SGT ? 3
                   : in->op == TGSI_OP_SLE ? 4
                                           : 5;
      *r = sel(t, fcmp(t, cc[k], S(0), S(1)), FK(1.0f), K(0));
      return true;
   }
   case TGSI_OP_FSLT:
      *r = mask_of(t, fcmp(t, "olt", S(0), S(1)));
      return true;
   case TGSI_OP_FSGE:
      *r = mask_of(t, fcmp(t, "oge", S(0), S(1)));
      return true;
   case TGSI_OP_FSEQ:
      *r = mask_of(t, fcmp(t, "oeq", S(0), S(1)));
      return true;
   case TGSI_OP_FSNE:
      *r = mask_of(t, fcmp(t, "une", S(0), S(1)));
      return true;
   case TGSI_OP_CMP: {
      val a = S(0), b = S(1), cc = S(2);
      *r = sel(t, fcmp(t, "olt", a, K(0)), b, cc);
      return true;
   }
   case TGSI_OP_UCMP: {
      val a = S(0), b = S(1), cc = S(2);
      *r = sel(t, icmp(t, "ne", a, K(0)), b, cc);
      return true;
   }
   case TGSI_OP_SSG: {
      val a = S(0);
      val neg = fcmp(t, "olt", a, K(0)), pos = fcmp(t, "ogt", a, K(0));
      *r = sel(t, neg, FK(-1.0f), sel(t, pos, FK(1.0f), K(0)));
      return true;
   }
   case TGSI_OP_FRC: { /* x - floor(x): may be 1.0, as C computes it */
      val a = S(0);
      *r = fbin(t, "fsub", "", a, ffloor(t, a));
      return true;
   }
   case TGSI_OP_FLR:
      *r = ffloor(t, S(0));
      return true;
   case TGSI_OP_CEIL:
      *r = f1(t, IN_CEIL, "ceil.f32", S(0));
      return true;
   case TGSI_OP_TRUNC:
      *r = f1(t, IN_TRUNC, "trunc.f32", S(0));
      return true;
   case TGSI_OP_ROUND:
      *r = f1(t, IN_RINT, "rint.f32", S(0));
      return true;
   case TGSI_OP_LDEXP: {
      use(t, IN_LDEXP);
      val a = f(t, S(0)), b = S(1);
      *r = i(t, emit(t, "call float @llvm.amdgcn.ldexp.f32(float %s, i32 %s)", V(a), V(b)));
      return true;
   }
   case TGSI_OP_ARL:
      *r = f2i_guarded(t, "fptosi", f(t, ffloor(t, S(0))));
      return true;
   case TGSI_OP_ARR: {
      val a = fbin(t, "fadd", "", S(0), FK(0.5f));
      *r = f2i_guarded(t, "fptosi", f(t, ffloor(t, a)));
      return true;
   }
   case TGSI_OP_F2I:
      *r = f2i_guarded(t, "fptosi", f(t, S(0)));
      return true;
   case TGSI_OP_F2U:
      *r = f2i_guarded(t, "fptoui", f(t, S(0)));
      return true;
   case TGSI_OP_I2F:
      *r = i(t, emit(t, "sitofp i32 %s to float", V(S(0))));
      return true;
   case TGSI_OP_U2F:
      *r = i(t, emit(t, "uitofp i32 %s to float", V(S(0))));
      return true;
   case TGSI_OP_UARL:
      *r = S(0);
      return true;
   case TGSI_OP_UADD:
      *r = ibin(t, "add", S(0), S(1));
      return true;
   case TGSI_OP_UMUL:
      *r = ibin(t, "mul", S(0), S(1));
      return true;
   case TGSI_OP_UMAD: {
      val a = S(0), b = S(1), cc = S(2);
      *r = ibin(t, "add", ibin(t, "mul", a, b), cc);
      return true;
   }
   case TGSI_OP_IMUL_HI:
   case TGSI_OP_UMUL_HI: {
      const char *ext = in->op == TGSI_OP_IMUL_HI ? "sext" : "zext";
      val a = emit(t, "%s i32 %s to i64", ext, V(S(0)));
      val b = emit(t, "%s i32 %s to i64", ext, V(S(1)));
      val m = emit(t, "mul i64 %s, %s", V(a), V(b));
      val h = emit(t, "lshr i64 %s, 32", V(m));
      *r = emit(t, "trunc i64 %s to i32", V(h));
      return true;
   }
   case TGSI_OP_UDIV:
   case TGSI_OP_UMOD: {
      val a = S(0), b = S(1);
      val z = icmp(t, "eq", b, K(0));
      val q = ibin(t, in->op == TGSI_OP_UDIV ? "udiv" : "urem", a, sel(t, z, K(1), b));
      *r = sel(t, z, K(0xffffffffu), q);
      return true;
   }
   case TGSI_OP_IDIV:
   case TGSI_OP_MOD: {
      /* b = 0: 0 (IDIV) and -1 (MOD); INT_MIN / -1 wraps (x86 traps; the
       * interpreter leaves it undefined): no divisor that is UB in LLVM. */
      val a = S(0), b = S(1);
      val z = icmp(t, "eq", b, K(0)), m1 = icmp(t, "eq", b, K(-1));
      val safe = sel(t, z, K(1), sel(t, m1, K(1), b));
      bool div = in->op == TGSI_OP_IDIV;
      val q = ibin(t, div ? "sdiv" : "srem", a, safe);
      val q1 = div ? ibin(t, "sub", K(0), a) : K(0);
      *r = sel(t, z, div ? K(0) : K(-1), sel(t, m1, q1, q));
      return true;
   }
   case TGSI_OP_INEG:
      *r = ibin(t, "sub", K(0), S(0));
      return true;
   case TGSI_OP_IABS: {
      val a = S(0);
      *r = sel(t, icmp(t, "sge", a, K(0)), a, ibin(t, "sub", K(0), a));
      return true;
   }
   case TGSI_OP_ISSG: {
      val a = S(0);
      *r = sel(t, icmp(t, "slt", a, K(0)), K(-1), sel(t, icmp(t, "sgt", a, K(0)), K(1), K(0)));
      return true;
   }
   case TGSI_OP_IMAX:
   case TGSI_OP_IMIN:
   case TGSI_OP_UMAX:
   case TGSI_OP_UMIN: {
      static const char *cc[] = {"sgt", "slt", "ugt", "ult"};
      unsigned k = in->op == TGSI_OP_IMAX   ? 0
                   : in->op == TGSI_OP_IMIN ? 1
                   : in->op == TGSI_OP_UMAX ? 2
                                            : 3;
      val a = S(0), b = S(1);
      *r = sel(t, icmp(t, cc[k], a, b), a, b);
      return true;
   }
   case TGSI_OP_ISLT:
      *r = mask_of(t, icmp(t, "slt", S(0), S(1)));
      return true;
   case TGSI_OP_ISGE:
      *r = mask_of(t, icmp(t, "sge", S(0), S(1)));
      return true;
   case TGSI_OP_USLT:
      *r = mask_of(t, icmp(t, "ult", S(0), S(1)));
      return true;
   case TGSI_OP_USGE:
      *r = mask_of(t, icmp(t, "uge", S(0), S(1)));
      return true;
   case TGSI_OP_USEQ:
      *r = mask_of(t, icmp(t, "eq", S(0), S(1)));
      return true;
   case TGSI_OP_USNE:
      *r = mask_of(t, icmp(t, "ne", S(0), S(1)));
      return true;
   case TGSI_OP_AND:
      *r = ibin(t, "and", S(0), S(1));
      return true;
   case TGSI_OP_OR:
      *r = ibin(t, "or", S(0), S(1));
      return true;
   case TGSI_OP_XOR:
      *r = ibin(t, "xor", S(0), S(1));
      return true;
   case TGSI_OP_NOT:
      *r = ibin(t, "xor", S(0), K(-1));
      return true;
   case TGSI_OP_SHL:
   case TGSI_OP_USHR:
   case TGSI_OP_ISHR: {
      const char *op = in->op == TGSI_OP_SHL ? "shl" : in->op == TGSI_OP_USHR ? "lshr" : "ashr";
      val a = S(0);
      *r = ibin(t, op, a, ibin(t, "and", S(1), K(31)));
      return true;
   }
   case TGSI_OP_IBFE:
   case TGSI_OP_UBFE: {
      /* The interpreter's formula (tgsi_exec's): off = offset & 31;
       * bits == 32 && off == 0: v; bits &= 31; bits == 0: 0; bits + off
       * < 32: (v << (32 - bits - off)) >> (32 - bits); else v >> off. */
      const char *sh = in->op == TGSI_OP_IBFE ? "ashr" : "lshr";
      val v = S(0), off = ibin(t, "and", S(1), K(31)), bits0 = S(2);
      val whole =
          emit(t, "and i1 %s, %s", V(icmp(t, "eq", bits0, K(32))), V(icmp(t, "eq", off, K(0))));
      val bits = ibin(t, "and", bits0, K(31));
      val sum = ibin(t, "add", bits, off);
      val in_range = icmp(t, "ult", sum, K(32));
      val l = ibin(t, "and", ibin(t, "sub", K(32), sum), K(31));
      val rr = ibin(t, "and", ibin(t, "sub", K(32), bits), K(31));
      val a = ibin(t, sh, ibin(t, "shl", v, l), rr);
      val b = ibin(t, sh, v, off);
      val x = sel(t, in_range, a, b);
      x = sel(t, icmp(t, "eq", bits, K(0)), K(0), x);
      *r = sel(t, whole, v, x);
      return true;
   }
   case TGSI_OP_BFI: {
      /* bits >= 32: bits == 32 ? insert : base; else the masked insert. */
      val base = S(0), ins = S(1), off = ibin(t, "and", S(2), K(31)), bits = S(3);
      val bm = ibin(t, "and", bits, K(31));
      val m0 = ibin(t, "sub", ibin(t, "shl", K(1), bm), K(1));
      val m = ibin(t, "shl", m0, off);
      val x = ibin(t, "or", ibin(t, "and", ibin(t, "shl", ins, off), m),
                   ibin(t, "and", base, ibin(t, "xor", m, K(-1))));
      val big = icmp(t, "uge", bits, K(32));
      *r = sel(t, big, sel(t, icmp(t, "eq", bits, K(32)), ins, base), x);
      return true;
   }
   case TGSI_OP_BREV:
      use(t, IN_BITREV);
      *r = emit(t, "call i32 @llvm.bitreverse.i32(i32 %s)", V(S(0)));
      return true;
   case TGSI_OP_POPC:
      use(t, IN_CTPOP);
      *r = emit(t, "call i32 @llvm.ctpop.i32(i32 %s)", V(S(0)));
      return true;
   case TGSI_OP_LSB: {
      use(t, IN_CTTZ);
      val a = S(0);
      val z = emit(t, "call i32 @llvm.cttz.i32(i32 %s, i1 false)", V(a));
      *r = sel(t, icmp(t, "eq", a, K(0)), K(-1), z);
      return true;
   }
   case TGSI_OP_UMSB:
   case TGSI_OP_IMSB: {
      use(t, IN_CTLZ);
      val a = S(0);
      if (in->op == TGSI_OP_IMSB)
         a = sel(t, icmp(t, "slt", a, K(0)), ibin(t, "xor", a, K(-1)), a);
      val z = emit(t, "call i32 @llvm.ctlz.i32(i32 %s, i1 false)", V(a));
      *r = ibin(t, "sub", K(31), z);
      return true;
   }
   default:
      return false;
   }
#undef S
}

/* CHAN opcodes: a formula per destination channel. */
static bool
alu_chan(struct tr *t, const struct tgsi_insn *in, unsigned c, val *r)
{
   switch (in->op) {
   case TGSI_OP_DST:
      *r = c == 0   ? FK(1.0f)
           : c == 1 ? fbin(t, "fmul", "", src(t, in, 0, 1), src(t, in, 1, 1))
           : c == 2 ? src(t, in, 0, 2)
                    : src(t, in, 1, 3);
      return true;
   case TGSI_OP_EXP: {
      val x = src(t, in, 0, 0);
      *r = c == 0   ? ex2(t, ffloor(t, x))
           : c == 1 ? fbin(t, "fsub", "", x, ffloor(t, x))
           : c == 2 ? ex2(t, x)
                    : FK(1.0f);
      return true;
   }
   case TGSI_OP_LOG: {
      use(t, IN_FABS);
      val x = src(t, in, 0, 0);
      val ax = i(t, emit(t, "call float @llvm.fabs.f32(float %s)", V(f(t, x))));
      val l = lg2(t, ax);
      *r = c == 0   ? ffloor(t, l)
           : c == 1 ? fbin(t, "fdiv", "afn ", ax, ex2(t, ffloor(t, l)))
           : c == 2 ? l
                    : FK(1.0f);
      return true;
   }
   case TGSI_OP_LIT: {
      if (c == 0 || c == 3) {
         *r = FK(1.0f);
         return true;
      }
      val x = src(t, in, 0, 0);
      val mx = f2(t, IN_MAXNUM, "maxnum.f32", x, K(0));
      if (c == 1) {
         *r = mx;
         return true;
      }
      val y = f2(t, IN_MAXNUM, "maxnum.f32", src(t, in, 0, 1), K(0));
      val w = f2(t, IN_MINNUM, "minnum.f32",
                 f2(t, IN_MAXNUM, "maxnum.f32", src(t, in, 0, 3), FK(-128.0f)), FK(128.0f));
      *r = sel(t, fcmp(t, "olt", K(0), x), pow_(t, y, w), K(0));
      return true;
   }
   case TGSI_OP_XPD: { /* a.yzx * b.zxy - a.zxy * b.yzx, w = 1 */
      if (c == 3) {
         *r = FK(1.0f);
         return true;
      }
      unsigned c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      const char *fl = exact(t, in) ? "" : "contract ";
      val p = fbin(t, "fmul", fl, src(t, in, 0, c1), src(t, in, 1, c2));
      val q = fbin(t, "fmul", fl, src(t, in, 0, c2), src(t, in, 1, c1));
      *r = fbin(t, "fsub", fl, p, q);
      return true;
   }
   case TGSI_OP_SCS:
      *r = c == 0   ? f1(t, IN_COS, "cos.f32", src(t, in, 0, 0))
           : c == 1 ? f1(t, IN_SIN, "sin.f32", src(t, in, 0, 0))
           : c == 2 ? K(0)
                    : FK(1.0f);
      return true;
   case TGSI_OP_NRM:
   case TGSI_OP_NRM4: {
      unsigned k = in->op == TGSI_OP_NRM ? 3 : 4;
      if (c >= k) {
         *r = FK(1.0f);
         return true;
      }
      const char *fl = exact(t, in) ? "" : "contract ";
      val d = fbin(t, "fmul", fl, src(t, in, 0, 0), src(t, in, 0, 0));
      for (unsigned j = 1; j < k; j++)
         d = fbin(t, "fadd", fl, d, fbin(t, "fmul", fl, src(t, in, 0, j), src(t, in, 0, j)));
      *r = fbin(t, "fmul", "", src(t, in, 0, c), f1(t, IN_RSQ, "amdgcn.rsq.f32", d));
      return true;
   }
   case TGSI_OP_UP2US:
   case TGSI_OP_UP4UB:
   case TGSI_OP_UP4B: {
      val x = src(t, in, 0, 0);
      if (in->op == TGSI_OP_UP2US) {
         val h = ibin(t, "and", ibin(t, "lshr", x, K(c & 1 ? 16 : 0)), K(0xffff));
         val fv = i(t, emit(t, "uitofp i32 %s to float", V(h)));
         *r = fbin(t, "fdiv", "", fv, FK(65535.0f));
      } else if (in->op == TGSI_OP_UP4UB) {
         val b = ibin(t, "and", ibin(t, "lshr", x, K(8 * c)), K(0xff));
         val fv = i(t, emit(t, "uitofp i32 %s to float", V(b)));
         *r = fbin(t, "fdiv", "", fv, FK(255.0f));
      } else {
         val b = ibin(t, "ashr", ibin(t, "shl", x, K(24 - 8 * c)), K(24));
         val fv = i(t, emit(t, "sitofp i32 %s to float", V(b)));
         val q = fbin(t, "fdiv", "", fv, FK(127.0f));
         *r = f2(t, IN_MAXNUM, "maxnum.f32", q, FK(-1.0f));
      }
      return true;
   }
   case TGSI_OP_UP2H: {
      val a = src(t, in, 0, 0);
      val h = c == 0 || c == 2 ? a : ibin(t, "lshr", a, K(16));
      val tr16 = emit(t, "trunc i32 %s to i16", V(h));
      val hf = emit(t, "bitcast i16 %s to half", V(tr16));
      *r = i(t, emit(t, "fpext half %s to float", V(hf)));
      return true;
   }
   default:
      return false;
   }
}

static bool
alu(struct tr *t, const struct tgsi_insn *in)
{
   unsigned mask = in->ndst ? in->dst[0].mask : 0;
   val res[4] = {0, 0, 0, 0};
   val r;
   unsigned done = 0;
   uint32_t save = t->nid;
   (void)save;
   if (alu_repl(t, in, &r)) {
      for (unsigned c = 0; c < 4; c++)
         res[c] = r;
      done = mask;
   } else {
      for (unsigned c = 0; c < 4 && !t->failed; c++) {
         if (!(mask & (1u << c)))
            continue;
         if (!alu_comp(t, in, c, &res[c]) && !alu_chan(t, in, c, &res[c]))
            return false;
         done |= 1u << c;
      }
   }
   /* Every source is read before any channel is written. */
   for (unsigned c = 0; c < 4; c++)
      if (done & (1u << c))
         store(t, in, c, res[c]);
   return true;
}

/* ---- memory ------------------------------------------------------------- */

static val
ptr_global(struct tr *t, unsigned b, val off)
{
   val base = t->buf_base[b];
   val lo = emit(t, "zext i32 %s to i64", V(base));
   val o = emit(t, "zext i32 %s to i64", V(off));
   val a = emit(t, "add i64 %s, %s", V(lo), V(o));
   return emit(t, "inttoptr i64 %s to i32 addrspace(1)*", V(a));
}

static val
ptr_lds(struct tr *t, val off)
{
   return emit(t, "inttoptr i32 %s to i32 addrspace(3)*", V(off));
}

static bool
resource(struct tr *t, const struct tgsi_insn *in, const struct tgsi_reg *r, unsigned *b)
{
   if (r->indirect || r->index < 0 || r->index >= 32)
      return fail(t, in, "indirect or out-of-range resource index not translated");
   *b = (unsigned)r->index;
   if (r->file == TGSI_FILE_BUFFER) {
      if (!t->buf_base[*b]) {
         new_arg(t, 's', ".value 0x%x", (unsigned)(0x01u + *b) << 24);
         t->buf_base[*b] = ARG_ID(t->nargs - 1);
         new_arg(t, 's', ".size BUFFER[%u].x", *b);
         t->buf_size[*b] = ARG_ID(t->nargs - 1);
         directive(t, ".buffer %u", *b);
      }
      return true;
   }
   if (r->file == TGSI_FILE_MEMORY) {
      const struct tgsi_decl *d = tgsi_find_decl(t->s, TGSI_FILE_MEMORY, *b);
      if (!d || !d->has_mem_type || d->mem_type != TGSI_MEMTYPE_SHARED || *b)
         return fail(t, in, "MEMORY other than one shared declaration not translated");
      if (!t->lds_size) {
         new_arg(t, 's', ".size MEMORY.x");
         t->lds_size = ARG_ID(t->nargs - 1);
      }
      return true;
   }
   return fail(t, in, "%s resources not translated", tgsi_file_names[r->file]);
}

static val
mem_ptr(struct tr *t, const struct tgsi_reg *r, unsigned b, val off)
{
   return r->file == TGSI_FILE_BUFFER ? ptr_global(t, b, off) : ptr_lds(t, off);
}

static const char *
space(const struct tgsi_reg *r)
{
   return r->file == TGSI_FILE_BUFFER ? "addrspace(1)" : "addrspace(3)";
}

static val
mem_size(struct tr *t, const struct tgsi_reg *r, unsigned b)
{
   return r->file == TGSI_FILE_BUFFER ? t->buf_size[b] : t->lds_size;
}

/* LOAD: words 0..n-1 at the byte offset, all or nothing: in bounds and
 * aligned, else zeros (env_mem_load). The address is made safe with a
 * select so that no branch is needed. */
static bool
mem_load(struct tr *t, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->src[0].reg;
   unsigned b, used = 0, n = 0;
   if (!resource(t, in, r, &b))
      return false;
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         used |= 1u << (in->src[0].swz[c] & 3);
   while (used >> n)
      n++;
   val off = src(t, in, 1, 0), size = mem_size(t, r, b);
   val al = icmp(t, "eq", ibin(t, "and", off, K(3)), K(0));
   val le = icmp(t, "ule", off, size);
   val room = icmp(t, "uge", ibin(t, "sub", size, off), K(4 * n));
   val ok = emit(t, "and i1 %s, %s", V(al), V(emit(t, "and i1 %s, %s", V(le), V(room))));
   val safe = sel(t, ok, off, K(0));
   val w[4] = {0, 0, 0, 0};
   for (unsigned c = 0; c < n; c++) {
      val p = mem_ptr(t, r, b, ibin(t, "add", safe, K(4 * c)));
      val l = emit(t, "load i32, i32 %s* %s, align 4", space(r), V(p));
      w[c] = sel(t, ok, l, K(0));
   }
   val res[4];
   for (unsigned c = 0; c < 4; c++)
      res[c] = w[in->src[0].swz[c] & 3] ? w[in->src[0].swz[c] & 3] : K(0);
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         store(t, in, c, res[c]);
   return true;
}

/* STORE: each written channel stored if aligned and its word in bounds. */
static bool
mem_store(struct tr *t, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->dst[0].reg;
   unsigned b;
   if (!resource(t, in, r, &b))
      return false;
   val off = src(t, in, 0, 0), size = mem_size(t, r, b);
   val v[4];
   for (unsigned c = 0; c < 4; c++)
      v[c] = src(t, in, 1, c);
   val al = icmp(t, "eq", ibin(t, "and", off, K(3)), K(0));
   for (unsigned c = 0; c < 4; c++) {
      if (!(in->dst[0].mask & (1u << c)))
         continue;
      val at = ibin(t, "add", off, K(4 * c));
      /* at + 4 <= size, without wrapping: off <= size - 4 - 4c */
      val fits = icmp(t, "uge", size, K(4 * c + 4));
      val le = icmp(t, "ule", off, ibin(t, "sub", size, K(4 * c + 4)));
      val ok = emit(t, "and i1 %s, %s", V(al), V(emit(t, "and i1 %s, %s", V(fits), V(le))));
      unsigned st = new_block(t), next = new_block(t);
      emit0(t, "br i1 %s, label %%b%u, label %%b%u", V(ok), st, next);
      blk(t)->term = true;
      unsigned from = t->cb;
      t->cb = st;
      val p = mem_ptr(t, r, b, at);
      emit0(t, "store i32 %s, i32 %s* %s, align 4", V(v[c]), space(r), V(p));
      br(t, next);
      (void)from;
      t->cb = next; /* no register changed: no phis */
   }
   return true;
}

/* RESQ: a buffer's bytes or the shared memory's in .x (the other
 * channels are undefined: 0). */
static bool
resq(struct tr *t, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->src[0].reg;
   unsigned b;
   if (r->file != TGSI_FILE_BUFFER && r->file != TGSI_FILE_MEMORY)
      return fail(t, in, "RESQ of %s not translated", tgsi_file_names[r->file]);
   if (!resource(t, in, r, &b))
      return false;
   val size = mem_size(t, r, b);
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         store(t, in, c, c == 0 ? size : K(0));
   return true;
}

/* ---- textures ----------------------------------------------------------- */

/* Declares an intrinsic (the declaration text) once. */
static void
declare_fn(struct tr *t, const char *decl)
{
   if (!t->decls.s || !strstr(t->decls.s, decl))
      strbuf_printf(&t->decls, "%s\n", decl);
}

/* The units and targets textures are sampled with, as the compiler's
 * program directives say them (cmd_compile.c): an SVIEW declaration's
 * target, else the first texture instruction's. Each unit's resource
 * descriptor is 8 inreg arguments, first in the SGPRs; the emulator's
 * MIMG reads the unit from the first word (emu/README.md), the sampler
 * descriptor is not read (zeros). */
static bool
declare_textures(struct tr *t)
{
   const struct tgsi_shader *s = t->s;
   for (unsigned i = 0; i < 32; i++)
      t->target[i] = -1;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_SVIEW)
         for (uint32_t k = s->decls[i].first; k <= s->decls[i].last && k < 32; k++)
            t->target[k] = (int)s->decls[i].target;
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (!(tgsi_op_info[in->op].flags & TGSI_OPF_TEX))
         continue;
      for (unsigned k = 0; k < in->nsrc; k++) {
         const struct tgsi_reg *r = &in->src[k].reg;
         if (r->file == TGSI_FILE_SAMP && !r->indirect && r->index >= 0 && r->index < 32 &&
             t->target[r->index] < 0)
            t->target[r->index] = (int)in->tex_target;
      }
   }
   for (unsigned u = 0; u < 32; u++) {
      if (t->target[u] < 0)
         continue;
      directive(t, ".texture %u %s", u, tgsi_texture_names[t->target[u]]);
      for (unsigned w = 0; w < 8; w++) {
         if (t->nsgpr >= MAX_SGPR_ARGS)
            return fail(t, NULL, "more than %u SGPRs of texture descriptors not translated",
                        MAX_SGPR_ARGS);
         new_arg(t, 's', ".value 0x%x", w ? 0u : u);
         t->rsrc[u][w] = ARG_ID(t->nargs - 1);
      }
   }
   return true;
}

/* <8 x i32> of unit u's descriptor. */
static val
rsrc_of(struct tr *t, unsigned u)
{
   val v = K(0);
   for (unsigned w = 0; w < 8; w++)
      v = emit(t, "insertelement <8 x i32> %s, i32 %s, i32 %u", w ? V(v) : "undef",
               V(t->rsrc[u][w]), w);
   return v;
}

static bool
tex_unit(struct tr *t, const struct tgsi_insn *in, unsigned si, unsigned *u)
{
   const struct tgsi_reg *r = &in->src[si].reg;
   if ((r->file != TGSI_FILE_SAMP && r->file != TGSI_FILE_SVIEW) || r->indirect || r->index < 0 ||
       r->index >= 32 || t->target[r->index] < 0)
      return fail(t, in, "%s: a texture operand other than SAMP[n] not translated",
                  tgsi_op_info[in->op].name);
   *u = (unsigned)r->index;
   return true;
}

/* The MIMG address the gfx9 model reads (emu/README.md): [bias] [depth
 * reference], then a body of three registers (the spatial coordinates,
 * the array layer, zeros), then [level]. The 2darray intrinsics give
 * three-register bodies for 1-D and 2-D targets (the layer of a 1-D
 * array in t, the other unused ones 0); 3-D targets use 3d. */
static unsigned
tex_body(struct tr *t, const struct tgsi_insn *in, enum tgsi_texture tg, val proj, bool fl, val *v)
{
   unsigned nsp = tgsi_texture_spatial_coords(tg), n = 0;
   for (unsigned k = 0; k < nsp && k < 3; k++) {
      v[n] = src(t, in, 0, k);
      if (proj)
         v[n] = fbin(t, "fdiv", "", v[n], proj);
      n++;
   }
   if (tgsi_texture_is_array(tg))
      v[n++] = src(t, in, 0, nsp);
   while (n < 3)
      v[n++] = fl ? FK(0.0f) : K(0);
   return n;
}

/* Stores the four result words (i32 bits of a <4 x float>). */
static void
tex_result(struct tr *t, const struct tgsi_insn *in, val vec)
{
   val r[4];
   for (unsigned c = 0; c < 4; c++)
      r[c] = i(t, emit(t, "extractelement <4 x float> %s, i32 %u", V(vec), c));
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         store(t, in, c, r[c]);
}

/* Refuses what the gfx9 model cannot run or the translator does not do. */
static bool
tex_target_ok(struct tr *t, const struct tgsi_insn *in, enum tgsi_texture tg)
{
   const char *name = tgsi_op_info[in->op].name;
   if (tg == TGSI_TEX_T_CUBE || tg == TGSI_TEX_T_SHADOWCUBE || tg == TGSI_TEX_T_CUBE_ARRAY ||
       tg == TGSI_TEX_T_SHADOWCUBE_ARRAY)
      return fail(t, in,
                  "%s: cube maps not translated (llc's v_cubeid/v_cubesc/v_cubetc/v_cubema "
                  "are not in the gfx9 model)",
                  name);
   if (tg == TGSI_TEX_T_BUFFER || tg == TGSI_TEX_T_2D_MSAA || tg == TGSI_TEX_T_2D_ARRAY_MSAA)
      return fail(t, in, "%s: %s textures not translated", name, tgsi_texture_names[tg]);
   if (in->noffsets)
      return fail(t, in, "%s: texel offsets not translated", name);
   return true;
}

/* TEX, TXP, TXB, TXL, TEX_LZ: coordinates src0, sampler src1; TXP divides
 * the coordinates and the reference by src0.w exactly, TXB/TXL take
 * src0.w. The interpreter's implicit level is 0 (no derivatives): TEX is
 * image_sample in a fragment shader (llc puts it in whole quad mode),
 * image_sample_lz elsewhere. */
static bool
tex_sample(struct tr *t, const struct tgsi_insn *in)
{
   enum tgsi_opcode op = in->op;
   enum tgsi_texture tg = in->tex_target;
   unsigned u = 0;
   if (!tex_unit(t, in, 1, &u) || !tex_target_ok(t, in, tg))
      return false;
   val proj = op == TGSI_OP_TXP ? src(t, in, 0, 3) : 0;
   val pre[2], body[3];
   unsigned np = 0;
   if (op == TGSI_OP_TXB)
      pre[np++] = src(t, in, 0, 3);
   if (tgsi_texture_is_shadow(tg)) {
      unsigned rc = tgsi_texture_shadow_ref(tg);
      if (rc > 3)
         return fail(t, in, "%s: a shadow reference in src1 not translated", tgsi_op_info[op].name);
      val ref = src(t, in, 0, rc);
      pre[np++] = proj ? fbin(t, "fdiv", "", ref, proj) : ref;
   }
   tex_body(t, in, tg, proj, true, body);
   const char *lod = op == TGSI_OP_TXB                ? ".b"
                     : op == TGSI_OP_TXL              ? ".l"
                     : op == TGSI_OP_TEX_LZ           ? ".lz"
                     : t->s->stage != TGSI_STAGE_FRAG ? ".lz"
                                                      : "";
   const char *dim = tg == TGSI_TEX_T_3D ? "3d" : "2darray";
   const char *c = tgsi_texture_is_shadow(tg) ? ".c" : "";
   struct strbuf a = {0}, ty = {0};
   for (unsigned k = 0; k < np; k++) {
      strbuf_printf(&a, "float %s, ", V(f(t, pre[k])));
      strbuf_printf(&ty, "float, ");
   }
   for (unsigned k = 0; k < 3; k++) {
      strbuf_printf(&a, "float %s, ", V(f(t, body[k])));
      strbuf_printf(&ty, "float, ");
   }
   if (op == TGSI_OP_TXL) {
      strbuf_printf(&a, "float %s, ", V(f(t, src(t, in, 0, 3))));
      strbuf_printf(&ty, "float, ");
   }
   char *name = xasprintf("@llvm.amdgcn.image.sample%s%s.%s.v4f32.f32", c, lod, dim);
   char *decl =
       xasprintf("declare <4 x float> %s(i32, %s<8 x i32>, <4 x i32>, i1, i32, i32)", name, ty.s);
   declare_fn(t, decl);
   val rs = rsrc_of(t, u);
   val r = emit(t,
                "call <4 x float> %s(i32 15, %s<8 x i32> %s, <4 x i32> zeroinitializer, i1 %s, "
                "i32 0, i32 0)",
                name, a.s, V(rs),
                tg == TGSI_TEX_T_RECT || tg == TGSI_TEX_T_SHADOWRECT ? "true" : "false");
   free(name);
   free(decl);
   free(a.s);
   free(ty.s);
   tex_result(t, in, r);
   return true;
}

/* TXF, TXF_LZ: integer coordinates, the level in src0.w (image_load_mip). */
static bool
tex_fetch(struct tr *t, const struct tgsi_insn *in)
{
   enum tgsi_texture tg = in->tex_target;
   unsigned u = 0;
   if (!tex_unit(t, in, 1, &u) || !tex_target_ok(t, in, tg))
      return false;
   val body[3];
   tex_body(t, in, tg, 0, false, body);
   bool mip = in->op == TGSI_OP_TXF;
   val lod = mip ? src(t, in, 0, 3) : 0;
   const char *dim = tg == TGSI_TEX_T_3D ? "3d" : "2darray";
   char *name = xasprintf("@llvm.amdgcn.image.load%s.%s.v4f32.i32", mip ? ".mip" : "", dim);
   char *decl = xasprintf("declare <4 x float> %s(i32, i32, i32, i32, %s<8 x i32>, i32, i32)", name,
                          mip ? "i32, " : "");
   declare_fn(t, decl);
   val rs = rsrc_of(t, u);
   char *lv = mip ? xasprintf("i32 %s, ", V(lod)) : xstrdup("");
   val r = emit(t,
                "call <4 x float> %s(i32 15, i32 %s, i32 %s, i32 %s, %s<8 x i32> %s, i32 0, "
                "i32 0)",
                name, V(body[0]), V(body[1]), V(body[2]), lv, V(rs));
   free(lv);
   free(name);
   free(decl);
   tex_result(t, in, r);
   return true;
}

/* TXQ: width, height, depth or layers, levels of level src0.x. */
static bool
tex_query(struct tr *t, const struct tgsi_insn *in)
{
   unsigned u = 0;
   if (!tex_unit(t, in, 1, &u) || !tex_target_ok(t, in, in->tex_target))
      return false;
   declare_fn(t, "declare <4 x float> @llvm.amdgcn.image.getresinfo.2d.v4f32.i32(i32, i32, "
                 "<8 x i32>, i32, i32)");
   val lod = src(t, in, 0, 0), rs = rsrc_of(t, u);
   val r = emit(t,
                "call <4 x float> @llvm.amdgcn.image.getresinfo.2d.v4f32.i32(i32 15, i32 %s, "
                "<8 x i32> %s, i32 0, i32 0)",
                V(lod), V(rs));
   tex_result(t, in, r);
   return true;
}

/* ---- control flow ------------------------------------------------------- */

static struct frame *
push(struct tr *t, enum frame_kind k)
{
   if (t->depth >= ARRAY_SIZE(t->fr)) {
      fail(t, NULL, "control flow nested too deeply");
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
   t->cb = new_block(t);
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
      if (!in->ndst || !is_var_file(in->dst[0].reg.file))
         continue;
      const struct tgsi_reg *r = &in->dst[0].reg;
      unsigned lo = (unsigned)(r->index < 0 ? 0 : r->index), hi = lo;
      if (r->indirect)
         ind_range(t, r, &lo, &hi);
      for (unsigned x = lo; x <= hi && x < t->count[r->file]; x++)
         for (unsigned c = 0; c < 4; c++)
            if (in->dst[0].mask & (1u << c))
               w[var_of(t, r->file, x, c)] = true;
   }
}

static val
cond_of(struct tr *t, const struct tgsi_insn *in)
{
   val x = src(t, in, 0, 0);
   if (in->op == TGSI_OP_UIF)
      return icmp(t, "ne", x, K(0));
   return fcmp(t, "une", x, K(0)); /* -0 false, NaN true */
}

static bool translate_range(struct tr *t, unsigned a, unsigned b);

static bool
do_if(struct tr *t, const struct tgsi_insn *in)
{
   val c = cond_of(t, in);
   struct frame *fr = push(t, FR_IF);
   if (!fr)
      return false;
   unsigned then = new_block(t);
   fr->has_else = in->target >= 0 && t->s->insns[in->target].op == TGSI_OP_ELSE;
   fr->end = new_block(t);
   fr->other = fr->has_else ? new_block(t) : fr->end;
   fr->entry = snap(t);
   fr->entry_blk = t->cb;
   if (!fr->has_else) {
      struct edge e = {snap(t), t->cb};
      VEC_PUSH(fr->in.v, fr->in.n, fr->in.cap, e);
   }
   emit0(t, "br i1 %s, label %%b%u, label %%b%u", V(c), then, fr->other);
   blk(t)->term = true;
   t->cb = then;
   return true;
}

static bool
do_else(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_IF)
      return fail(t, in, "ELSE without IF");
   add_edge(t, &fr->in);
   br(t, fr->end);
   t->cb = fr->other;
   memcpy(t->cur, fr->entry, sizeof(val) * t->nvars);
   return true;
}

static bool
do_endif(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_IF)
      return fail(t, in, "ENDIF without IF");
   add_edge(t, &fr->in);
   br(t, fr->end);
   join(t, fr->end, &fr->in);
   free(fr->entry);
   t->depth--;
   return true;
}

static bool
do_bgnloop(struct tr *t, const struct tgsi_insn *in, unsigned pc)
{
   struct frame *fr = push(t, FR_LOOP);
   if (!fr)
      return false;
   if (in->target < 0)
      return fail(t, in, "BGNLOOP without ENDLOOP");
   fr->other = new_block(t);
   fr->end = new_block(t);
   unsigned pre = t->cb;
   br(t, fr->other);
   t->cb = fr->other;
   bool *w = xcalloc(t->nvars ? t->nvars : 1, sizeof(bool));
   written(t, pc + 1, (unsigned)in->target, w);
   for (unsigned v = 0; v < t->nvars; v++) {
      if (!w[v])
         continue;
      struct phi p = {.var = v, .res = t->nid++};
      phi_add(&p, t->cur[v], pre);
      VEC_PUSH(blk(t)->phis, blk(t)->nphis, blk(t)->phis_cap, p);
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
   if (blk(t)->term)
      return;
   for (unsigned k = 0; k < h->nphis; k++) {
      struct phi *p = &h->phis[k];
      phi_add(p, t->cur[p->var], t->cb);
   }
   br(t, fr->other);
}

static bool
do_endloop(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_LOOP)
      return fail(t, in, "ENDLOOP without BGNLOOP");
   back_edge(t, fr);
   join(t, fr->end, &fr->in);
   t->depth--;
   return true;
}

static bool
do_brk(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = innermost(t, false);
   if (!fr)
      return fail(t, in, "BRK outside a loop or switch");
   if (!blk(t)->term) {
      add_edge(t, &fr->in);
      br(t, fr->end);
   }
   dead_block(t);
   return true;
}

static bool
do_cont(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = innermost(t, true);
   if (!fr)
      return fail(t, in, "CONT outside a loop");
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
static bool
do_switch(struct tr *t, const struct tgsi_insn *in, unsigned pc)
{
   if (in->target < 0)
      return fail(t, in, "SWITCH without ENDSWITCH");
   val selv = src(t, in, 0, 0);
   struct frame *fr = push(t, FR_SWITCH);
   if (!fr)
      return false;
   fr->first = pc;
   fr->end = new_block(t);
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
         last = new_block(t);
      fr->cases[k - pc] = last;
      if (x->op == TGSI_OP_DEFAULT) {
         dflt = last;
         sw_edge(fr, last);
         continue;
      }
      if (x->src[0].reg.file != TGSI_FILE_IMM || x->src[0].reg.indirect || x->src[0].neg)
         return fail(t, x, "CASE with a non-immediate value not translated");
      uint32_t cv = (uint32_t)fetch_chan(t, x, &x->src[0].reg, x->src[0].swz[0] & 3);
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
   fr->entry = snap(t);
   fr->entry_blk = t->cb;
   if (!dflt) {
      struct edge e = {snap(t), t->cb};
      VEC_PUSH(fr->in.v, fr->in.n, fr->in.cap, e);
   }
   emit0(t, "switch i32 %s, label %%b%u [%s ]", V(selv), dflt ? dflt : fr->end, sw.s ? sw.s : "");
   free(sw.s);
   blk(t)->term = true;
   dead_block(t);
   return true;
}

static bool
do_case(struct tr *t, const struct tgsi_insn *in, unsigned pc)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_SWITCH)
      return fail(t, in, "%s outside a SWITCH", tgsi_op_info[in->op].name);
   unsigned b = fr->cases[pc - fr->first];
   if (b == t->cb)
      return true; /* a label after a label: the same block */
   struct edges e = {0};
   if (!blk(t)->term) {
      add_edge(t, &e); /* fall-through */
      br(t, b);
   }
   unsigned cnt = 0;
   for (unsigned k = 0; k < fr->ne; k++)
      if (fr->eb[k] == b)
         cnt = fr->ec[k];
   for (unsigned k = 0; k < cnt; k++) {
      struct edge x = {snap(t), fr->entry_blk};
      memcpy(x.state, fr->entry, sizeof(val) * t->nvars);
      VEC_PUSH(e.v, e.n, e.cap, x);
   }
   join(t, b, &e);
   return true;
}

static bool
do_endswitch(struct tr *t, const struct tgsi_insn *in)
{
   struct frame *fr = t->depth ? &t->fr[t->depth - 1] : NULL;
   if (!fr || fr->kind != FR_SWITCH)
      return fail(t, in, "ENDSWITCH without SWITCH");
   if (!blk(t)->term) {
      add_edge(t, &fr->in);
      br(t, fr->end);
   }
   join(t, fr->end, &fr->in);
   free(fr->entry);
   free(fr->cases);
   free(fr->eb);
   free(fr->ec);
   t->depth--;
   return true;
}

static bool
do_ret(struct tr *t)
{
   for (unsigned k = t->depth; k-- > 0;)
      if (t->fr[k].kind == FR_SUB) {
         if (!blk(t)->term) {
            add_edge(t, &t->fr[k].in);
            br(t, t->fr[k].end);
         }
         dead_block(t);
         return true;
      }
   if (!blk(t)->term) {
      add_edge(t, &t->exits);
      br(t, t->exit);
   }
   dead_block(t);
   return true;
}

static bool
do_cal(struct tr *t, const struct tgsi_insn *in)
{
   if (in->target < 0)
      return fail(t, in, "CAL without BGNSUB");
   if (t->inline_depth >= MAX_INLINE)
      return fail(t, in, "subroutine calls nested more than %u deep not translated", MAX_INLINE);
   unsigned a = (unsigned)in->target + 1, b = a;
   while (b < t->s->ninsns && t->s->insns[b].op != TGSI_OP_ENDSUB)
      b++;
   struct frame *fr = push(t, FR_SUB);
   if (!fr)
      return false;
   fr->end = new_block(t);
   unsigned save_depth = t->depth;
   t->inline_depth++;
   bool ok = translate_range(t, a, b);
   t->inline_depth--;
   if (!ok)
      return false;
   if (t->depth != save_depth)
      return fail(t, in, "unbalanced control flow in a subroutine");
   fr = &t->fr[t->depth - 1];
   if (!blk(t)->term) {
      add_edge(t, &fr->in);
      br(t, fr->end);
   }
   join(t, fr->end, &fr->in);
   t->depth--;
   return true;
}

static bool
do_kill(struct tr *t, const struct tgsi_insn *in)
{
   if (t->s->stage != TGSI_STAGE_FRAG)
      return fail(t, in, "%s outside a fragment shader", tgsi_op_info[in->op].name);
   use(t, IN_KILL);
   if (in->op == TGSI_OP_KILL) {
      emit0(t, "call void @llvm.amdgcn.kill(i1 false)");
      return true;
   }
   val any = K(0);
   bool first = true;
   for (unsigned c = 0; c < 4; c++) {
      val lt = fcmp(t, "olt", src(t, in, 0, c), K(0));
      any = first ? lt : emit(t, "or i1 %s, %s", V(any), V(lt));
      first = false;
   }
   val keep = emit(t, "xor i1 %s, true", V(any));
   emit0(t, "call void @llvm.amdgcn.kill(i1 %s)", V(keep));
   return true;
}

static bool
insn(struct tr *t, const struct tgsi_insn *in, unsigned pc)
{
   switch (in->op) {
   case TGSI_OP_NOP:
      return true;
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
      return do_if(t, in);
   case TGSI_OP_ELSE:
      return do_else(t, in);
   case TGSI_OP_ENDIF:
      return do_endif(t, in);
   case TGSI_OP_BGNLOOP:
      return do_bgnloop(t, in, pc);
   case TGSI_OP_ENDLOOP:
      return do_endloop(t, in);
   case TGSI_OP_BRK:
      return do_brk(t, in);
   case TGSI_OP_CONT:
      return do_cont(t, in);
   case TGSI_OP_SWITCH:
      return do_switch(t, in, pc);
   case TGSI_OP_CASE:
   case TGSI_OP_DEFAULT:
      return do_case(t, in, pc);
   case TGSI_OP_ENDSWITCH:
      return do_endswitch(t, in);
   case TGSI_OP_RET:
      return do_ret(t);
   case TGSI_OP_CAL:
      return do_cal(t, in);
   case TGSI_OP_KILL:
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
      return do_kill(t, in);
   case TGSI_OP_BARRIER:
      use(t, IN_BARRIER);
      emit0(t, "fence syncscope(\"workgroup\") release");
      emit0(t, "call void @llvm.amdgcn.s.barrier()");
      emit0(t, "fence syncscope(\"workgroup\") acquire");
      return true;
   case TGSI_OP_MEMBAR:
      emit0(t, "fence syncscope(\"workgroup\") acq_rel");
      return true;
   case TGSI_OP_RESQ:
      return resq(t, in);
   case TGSI_OP_LOAD:
      return mem_load(t, in);
   case TGSI_OP_STORE:
      return mem_store(t, in);
   case TGSI_OP_TEX:
   case TGSI_OP_TXP:
   case TGSI_OP_TXB:
   case TGSI_OP_TXL:
   case TGSI_OP_TEX_LZ:
      return tex_sample(t, in);
   case TGSI_OP_TXF:
   case TGSI_OP_TXF_LZ:
      return tex_fetch(t, in);
   case TGSI_OP_TXQ:
      return tex_query(t, in);
   default:
      break;
   }
   const struct tgsi_op_info *oi = &tgsi_op_info[in->op];
   if (is_64bit(in->op))
      return fail(t, in, "%s: 64-bit values not translated", oi->name);
   if (oi->flags & (TGSI_OPF_TEX | TGSI_OPF_OTHR))
      return fail(t, in, "%s: textures, images and special ops not translated", oi->name);
   if (in->op == TGSI_OP_DDX || in->op == TGSI_OP_DDY || in->op == TGSI_OP_DDX_FINE ||
       in->op == TGSI_OP_DDY_FINE)
      return fail(t, in, "%s: derivatives (DPP quad swizzles) not translated", oi->name);
   if (!alu(t, in))
      return fail(t, in, "%s not translated", oi->name);
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
      return tgsi_interp_supports(op);
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      return false;
   default:
      return !is_64bit(op) && !(oi->flags & (TGSI_OPF_TEX | TGSI_OPF_OTHR)) &&
             tgsi_interp_supports(op);
   }
}

static bool
translate_range(struct tr *t, unsigned a, unsigned b)
{
   for (unsigned pc = a; pc < b && !t->failed; pc++) {
      const struct tgsi_insn *in = &t->s->insns[pc];
      if (in->op == TGSI_OP_END)
         return do_ret(t);
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
      if (is_var_file((enum tgsi_file)f))
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
         return fail(t, NULL, "per-vertex inputs not translated");
      for (uint32_t r = d->first; r <= d->last; r++)
         for (unsigned c = 0; c < 4; c++) {
            new_arg(t, 'v', ".input IN[%u].%c", r, "xyzw"[c]);
            t->in_arg[4 * r + c] = ARG_ID(t->nargs - 1);
         }
   }
   for (unsigned k = 0; k < s->ndecls; k++) {
      const struct tgsi_decl *d = &s->decls[k];
      if (d->file != TGSI_FILE_SV)
         continue;
      if (!d->has_semantic)
         return fail(t, NULL, "a system value without a semantic");
      for (uint32_t r = d->first; r <= d->last; r++)
         for (unsigned c = 0; c < 4; c++) {
            new_arg(t, uniform_sv(d->semantic) ? 's' : 'v', ".sysval %s.%c",
                    tgsi_semantic_names[d->semantic], "xyzw"[c]);
            t->sv_arg[4 * r + c] = ARG_ID(t->nargs - 1);
         }
   }
   for (unsigned k = 0; k < s->nprops; k++) {
      const struct tgsi_prop *p = &s->props[k];
      (void)p;
   }
   return declare_textures(t);
}

static void
print_phis(struct tr *t, struct strbuf *o, struct block *b)
{
   for (unsigned k = 0; k < b->nphis; k++) {
      struct phi *p = &b->phis[k];
      strbuf_printf(o, "  %s = phi i32", V(p->res));
      for (unsigned j = 0; j < p->n; j++)
         strbuf_printf(o, "%s [ %s, %%b%u ]", j ? "," : "", V(p->v[j]), p->blk[j]);
      strbuf_printf(o, "\n");
      free(p->v);
      free(p->blk);
   }
   free(b->phis);
   (void)t;
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
   unsigned nout = 0;
   for (unsigned k = 0; k < s->ndecls; k++)
      if (s->decls[k].file == TGSI_FILE_OUT)
         nout = MAX2(nout, s->decls[k].last + 1);
   if (s->stage == TGSI_STAGE_COMP)
      nout = 0;
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
   struct strbuf rt = {0};
   if (!nout)
      strbuf_printf(&rt, "void");
   else {
      strbuf_printf(&rt, "{");
      for (unsigned k = 0; k < 4 * nout; k++)
         strbuf_printf(&rt, "%sfloat", k ? ", " : " ");
      strbuf_printf(&rt, " }");
   }
   strbuf_printf(&o, "define %s %s @main(", cc, rt.s);
   for (unsigned k = 0; k < t->nargs; k++)
      strbuf_printf(&o, "%si32 %s%%a%u", k ? ", " : "", t->args[k].kind == 's' ? "inreg " : "", k);
   strbuf_printf(&o, ") #0 {\n");
   strbuf_printf(&o, "entry:\n");
   for (unsigned k = 0; k < t->nargs; k++)
      strbuf_printf(&o, "  %%v%u = bitcast i32 %%a%u to i32\n", 0x80000000u + k, k);
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
   free(rt.s);
   return o.s;
}

/* The exit block: return every output channel as a float. */
static void
exit_block(struct tr *t)
{
   join(t, t->exit, &t->exits);
   const struct tgsi_shader *s = t->s;
   unsigned nout = 0;
   for (unsigned k = 0; k < s->ndecls; k++)
      if (s->decls[k].file == TGSI_FILE_OUT)
         nout = MAX2(nout, s->decls[k].last + 1);
   if (s->stage == TGSI_STAGE_COMP || !nout) {
      emit0(t, "ret void");
      blk(t)->term = true;
      return;
   }
   struct strbuf ty = {0};
   strbuf_printf(&ty, "{");
   for (unsigned k = 0; k < 4 * nout; k++)
      strbuf_printf(&ty, "%sfloat", k ? ", " : " ");
   strbuf_printf(&ty, " }");
   char prev[24] = "undef";
   for (unsigned r = 0; r < nout; r++)
      for (unsigned c = 0; c < 4; c++) {
         val x = f(t, r < t->count[TGSI_FILE_OUT] ? t->cur[var_of(t, TGSI_FILE_OUT, r, c)] : K(0));
         val agg = emit(t, "insertvalue %s %s, float %s, %u", ty.s, prev, V(x), 4 * r + c);
         snprintf(prev, sizeof(prev), "%s", V(agg));
      }
   emit0(t, "ret %s %s", ty.s, prev);
   blk(t)->term = true;
   free(ty.s);
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
   directive(t, ".block %u %u %u", bs[0], bs[1], bs[2]);
}

char *
llvm_from_tgsi(const struct tgsi_shader *s, struct diag_list *d)
{
   struct tr t = {.s = s, .d = d, .nid = 1};
   char *out = NULL;
   if (s->stage != TGSI_STAGE_FRAG && s->stage != TGSI_STAGE_VERT && s->stage != TGSI_STAGE_COMP) {
      fail(&t, NULL, "%s shaders not translated (amdgpu_ps, amdgpu_vs and amdgpu_cs only)",
           tgsi_stage_names[s->stage]);
      return NULL;
   }
   if (!declare(&t))
      goto done;
   stage_directives(&t);
   t.cb = new_block(&t);
   t.exit = new_block(&t);
   unsigned end = 0;
   while (end < s->ninsns && s->insns[end].op != TGSI_OP_END)
      end++;
   if (translate_range(&t, 0, end) && t.depth == 0) {
      if (!blk(&t)->term) {
         add_edge(&t, &t.exits);
         br(&t, t.exit);
      }
      exit_block(&t);
      if (!t.failed)
         out = finish(&t);
   } else if (!t.failed) {
      fail(&t, NULL, "unbalanced control flow");
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
   return out;
}
