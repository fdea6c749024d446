/*
 * Mesa's tgsi_sanity.c rules on a parsed shader, and the structured
 * control flow that gives every IF/ELSE/loop/switch/CAL its target.
 *
 * Declared registers are kept as sorted ranges keyed by (file, kind, dim):
 * 1-D, 2-D with a fixed first index (CONST[1][0..3]) or per-vertex (GS and
 * tessellation inputs, TCS outputs: every vertex below the implied count,
 * as Mesa registers them). Each operand is one binary search, so huge
 * shaders stay O(n log n). Mesa matches dimensionality exactly; we accept
 * CONST[i] for a declared CONST[0][i] (and the reverse) with a warning,
 * because real captures do it. Diagnostics are sorted by position before
 * they are handed back, so the first error is the first in the text.
 */
#include "compiler/tgsi/tgsi.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_ERRORS  100
#define MAX_NESTING 64

enum { K_1D, K_2D, K_PV };

struct range_ent {
   uint8_t file, kind;
   uint32_t dim, first, last;
   unsigned decl;
};

struct sctx {
   struct tgsi_shader *s;
   const char *text;
   size_t len;
   const char **lines; /* start of each line, built on the first message */
   unsigned nlines;
   struct diag_list out;
   unsigned nerrors;
   struct range_ent *ents;
   unsigned nents;
   bool *decl_used, *imm_used;
   bool file_declared[TGSI_FILE_COUNT];
   bool file_ind_used[TGSI_FILE_COUNT];
   bool warned_const_dim; /* the 1-D/2-D CONST warning is given once */
};

/* ------------------------------------------------------------------ */
/* Messages                                                             */

static const char *
line_start(struct sctx *c, int line)
{
   if (!c->text || line <= 0)
      return NULL;
   if (!c->lines) {
      unsigned cap = 0;
      VEC_PUSH(c->lines, c->nlines, cap, c->text);
      for (size_t i = 0; i < c->len; i++)
         if (c->text[i] == '\n')
            VEC_PUSH(c->lines, c->nlines, cap, c->text + i + 1);
   }
   return (unsigned)line <= c->nlines ? c->lines[line - 1] : NULL;
}

static DC_PRINTF(4, 5) void report(struct sctx *c, enum diag_severity sev, struct tgsi_loc loc,
                                   const char *fmt, ...)
{
   if (sev == DIAG_ERROR && ++c->nerrors > MAX_ERRORS)
      return;
   va_list ap;
   va_start(ap, fmt);
   diag_vadd(&c->out, sev, c->s->name, loc.line, loc.col, line_start(c, loc.line), fmt, ap);
   va_end(ap);
}

/* The position just after the last byte. */
static struct tgsi_loc
end_loc(struct sctx *c)
{
   if (!c->text)
      return (struct tgsi_loc){0, 0};
   struct tgsi_loc l = {1, 1};
   for (size_t i = 0; i < c->len; i++) {
      l.col++;
      if (c->text[i] == '\n')
         l.line++, l.col = 1;
   }
   return l;
}

struct diag_key {
   long line;
   int col;
   unsigned i;
};

static int
cmp_diag_key(const void *pa, const void *pb)
{
   const struct diag_key *a = pa, *b = pb;
   if (a->line != b->line)
      return a->line < b->line ? -1 : 1;
   if (a->col != b->col)
      return a->col < b->col ? -1 : 1;
   return a->i < b->i ? -1 : a->i > b->i; /* stable: keep the order of the checks */
}

/* Moves the collected messages, sorted by position, to the caller's list;
 * unpositioned ones go last. */
static void
flush(struct sctx *c, struct diag_list *dst)
{
   if (c->nerrors > MAX_ERRORS)
      diag_add(&c->out, DIAG_NOTE, c->s->name, 0, 0, NULL, "%u more errors not shown",
               c->nerrors - MAX_ERRORS);
   if (!dst) { /* the caller wants the verdict only */
      diag_clear(&c->out);
      return;
   }
   unsigned n = c->out.n;
   struct diag *v = c->out.v;
   struct diag_key *keys = xmalloc((n ? n : 1) * sizeof(*keys));
   for (unsigned i = 0; i < n; i++)
      keys[i] = (struct diag_key){v[i].line ? v[i].line : (long)INT32_MAX + 1, v[i].col, i};
   qsort(keys, n, sizeof(*keys), cmp_diag_key);
   for (unsigned i = 0; i < n; i++) {
      const struct diag *d = &v[keys[i].i];
      VEC_PUSH(dst->v, dst->n, dst->cap, *d);
      if (d->sev == DIAG_ERROR)
         dst->nerrors++;
      else if (d->sev == DIAG_WARNING)
         dst->nwarnings++;
   }
   free(keys);
   free(v);
   memset(&c->out, 0, sizeof(c->out));
}

/* "TEMP[3]", "CONST[1][4]", "IN[ADDR[0].x+2][1]" for messages. */
static void
fmt_index(char *buf, size_t size, bool ind, const struct tgsi_ind *i, int32_t index)
{
   if (!ind)
      snprintf(buf, size, "[%d]", index);
   else
      snprintf(buf, size, "[%s[%u].%c%+d]", tgsi_file_names[i->file % TGSI_FILE_COUNT], i->index,
               "xyzw"[i->comp & 3], index);
}

static const char *
fmt_reg(char *buf, size_t size, const struct tgsi_reg *r)
{
   char a[48] = "", b[48];
   if (r->has_dim)
      fmt_index(a, sizeof(a), r->dim_indirect, &r->dim_ind, r->dim);
   fmt_index(b, sizeof(b), r->indirect, &r->ind, r->index);
   snprintf(buf, size, "%s%s%s", tgsi_file_names[r->file], a, b);
   return buf;
}

static const char *
fmt_decl(char *buf, size_t size, const struct tgsi_decl *d)
{
   char a[24] = "", b[32];
   if (d->has_dim)
      snprintf(a, sizeof(a), "[%u]", d->dim);
   if (d->first == d->last)
      snprintf(b, sizeof(b), "[%u]", d->first);
   else
      snprintf(b, sizeof(b), "[%u..%u]", d->first, d->last);
   snprintf(buf, size, "%s%s%s", tgsi_file_names[d->file], a, b);
   return buf;
}

/* ------------------------------------------------------------------ */
/* Declared registers                                                   */

static bool
decl_is_per_vertex(const struct tgsi_shader *s, const struct tgsi_decl *d)
{
   bool patch =
       d->has_semantic && (d->semantic == TGSI_SEM_PATCH || d->semantic == TGSI_SEM_TESSOUTER ||
                           d->semantic == TGSI_SEM_TESSINNER);
   return tgsi_file_has_vertex_dim(s->stage, d->file) && !patch;
}

/* Vertices a per-vertex register of this file has, 0 if not known. */
static unsigned
vertex_count(const struct tgsi_shader *s, enum tgsi_file file)
{
   if (s->stage == TGSI_STAGE_TESS_CTRL && file == TGSI_FILE_OUT) {
      unsigned n = 0;
      for (unsigned i = 0; i < s->nprops; i++)
         if (s->props[i].prop == TGSI_PROP_TCS_VERTICES_OUT)
            n = s->props[i].value;
      return n;
   }
   return tgsi_implied_vertices(s);
}

static int
cmp_key(const struct range_ent *e, unsigned file, unsigned kind, uint32_t dim, uint32_t first)
{
   if (e->file != file)
      return e->file < file ? -1 : 1;
   if (e->kind != kind)
      return e->kind < kind ? -1 : 1;
   if (e->dim != dim)
      return e->dim < dim ? -1 : 1;
   if (e->first != first)
      return e->first < first ? -1 : 1;
   return 0;
}

static int
cmp_ent(const void *pa, const void *pb)
{
   const struct range_ent *a = pa, *b = pb;
   int r = cmp_key(a, b->file, b->kind, b->dim, b->first);
   if (r)
      return r;
   return a->decl < b->decl ? -1 : a->decl > b->decl;
}

/* The declaration covering (file, kind, dim, index), or -1. */
static int
find_decl(const struct sctx *c, unsigned file, unsigned kind, int64_t dim, int64_t index)
{
   if (dim < 0 || index < 0 || dim > UINT32_MAX || index > UINT32_MAX)
      return -1;
   unsigned lo = 0, hi = c->nents; /* first entry with key > (.., index) */
   while (lo < hi) {
      unsigned mid = lo + (hi - lo) / 2;
      if (cmp_key(&c->ents[mid], file, kind, (uint32_t)dim, (uint32_t)index) <= 0)
         lo = mid + 1;
      else
         hi = mid;
   }
   if (!lo)
      return -1;
   const struct range_ent *e = &c->ents[lo - 1];
   if (e->file != file || e->kind != kind || e->dim != dim || e->last < index)
      return -1;
   return (int)e->decl;
}

static void
build_decl_index(struct sctx *c)
{
   struct tgsi_shader *s = c->s;
   c->ents = xmalloc((s->ndecls ? s->ndecls : 1) * sizeof(*c->ents));
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if (d->file >= TGSI_FILE_COUNT || d->first > d->last) {
         report(c, DIAG_ERROR, d->loc, "invalid declaration");
         continue;
      }
      unsigned kind = decl_is_per_vertex(s, d) ? K_PV : d->has_dim ? K_2D : K_1D;
      c->ents[c->nents++] = (struct range_ent){
          (uint8_t)d->file, (uint8_t)kind, kind == K_2D ? d->dim : 0, d->first, d->last, i};
      c->file_declared[d->file] = true;
   }
   qsort(c->ents, c->nents, sizeof(*c->ents), cmp_ent);
   /* Overlaps are neighbours once sorted; report at the later declaration. */
   for (unsigned i = 1; i < c->nents; i++) {
      const struct range_ent *a = &c->ents[i - 1], *b = &c->ents[i];
      if (a->file != b->file || a->kind != b->kind || a->dim != b->dim || b->first > a->last)
         continue;
      const struct tgsi_decl *da = &s->decls[a->decl], *db = &s->decls[b->decl];
      const struct tgsi_decl *later = a->decl > b->decl ? da : db;
      const struct tgsi_decl *earlier = a->decl > b->decl ? db : da;
      char buf[64], dim[16] = "";
      if (b->kind == K_2D)
         snprintf(dim, sizeof(dim), "[%u]", b->dim);
      report(c, DIAG_ERROR, later->loc, "%s%s[%u] is declared twice (also by %s at line %d)",
             tgsi_file_names[b->file], dim, b->first, fmt_decl(buf, sizeof(buf), earlier),
             earlier->loc.line);
   }
}

/* ------------------------------------------------------------------ */
/* Operands                                                             */

static void
check_address(struct sctx *c, const struct tgsi_ind *ind, struct tgsi_loc loc)
{
   int d = ind->file < TGSI_FILE_COUNT ? find_decl(c, ind->file, K_1D, 0, ind->index) : -1;
   if (d < 0) {
      report(c, DIAG_ERROR, loc, "address register %s[%u] is not declared",
             tgsi_file_names[ind->file % TGSI_FILE_COUNT], ind->index);
      return;
   }
   c->decl_used[d] = true;
}

/* A per-vertex reference IN[v][i]: the vertex must be below the count. */
static void
check_vertex(struct sctx *c, const struct tgsi_reg *r)
{
   if (r->dim_indirect)
      return;
   unsigned n = vertex_count(c->s, r->file);
   char buf[96];
   if (!n)
      report(c, DIAG_ERROR, r->loc, "%s: the vertex count is unknown (set %s first)",
             fmt_reg(buf, sizeof(buf), r),
             c->s->stage == TGSI_STAGE_GEOM ? "PROPERTY GS_INPUT_PRIMITIVE"
                                            : "PROPERTY TCS_VERTICES_OUT");
   else if (r->dim < 0 || (unsigned)r->dim >= n)
      report(c, DIAG_ERROR, r->loc, "%s: vertex index %d is out of range (%u vertices)",
             fmt_reg(buf, sizeof(buf), r), r->dim, n);
}

static void
warn_const_dim(struct sctx *c, const struct tgsi_reg *r, const char *declared)
{
   char buf[96];
   if (c->warned_const_dim)
      return;
   c->warned_const_dim = true;
   report(c, DIAG_WARNING, r->loc,
          "%s is declared as %s; mixing 1-D and 2-D constants is accepted here but Mesa "
          "rejects it (reported once per shader)",
          fmt_reg(buf, sizeof(buf), r), declared);
}

/* The declaration a direct reference uses, or -1 after reporting. */
static int
resolve(struct sctx *c, const struct tgsi_reg *r)
{
   char buf[96], alt[96];
   int d;
   if (!r->has_dim) {
      if ((d = find_decl(c, r->file, K_1D, 0, r->index)) >= 0)
         return d;
      if (r->file == TGSI_FILE_CONST && (d = find_decl(c, r->file, K_2D, 0, r->index)) >= 0) {
         snprintf(alt, sizeof(alt), "CONST[0][%d]", r->index);
         warn_const_dim(c, r, alt);
         return d;
      }
      if (find_decl(c, r->file, K_PV, 0, r->index) >= 0) {
         report(c, DIAG_ERROR, r->loc,
                "%s is a per-vertex register: give the vertex too, as in %s[0][%d]",
                fmt_reg(buf, sizeof(buf), r), tgsi_file_names[r->file], r->index);
         return -1;
      }
   } else {
      if ((d = find_decl(c, r->file, K_2D, r->dim, r->index)) >= 0)
         return d;
      if ((d = find_decl(c, r->file, K_PV, 0, r->index)) >= 0) {
         check_vertex(c, r);
         return d;
      }
      if (r->file == TGSI_FILE_CONST && r->dim == 0 && !r->dim_indirect &&
          (d = find_decl(c, r->file, K_1D, 0, r->index)) >= 0) {
         snprintf(alt, sizeof(alt), "CONST[%d]", r->index);
         warn_const_dim(c, r, alt);
         return d;
      }
   }
   report(c, DIAG_ERROR, r->loc, "%s is not declared", fmt_reg(buf, sizeof(buf), r));
   return -1;
}

static void
check_reg(struct sctx *c, const struct tgsi_reg *r, bool is_dst)
{
   char buf[96];
   if (r->file >= TGSI_FILE_COUNT) {
      report(c, DIAG_ERROR, r->loc, "invalid register file");
      return;
   }
   if (r->indirect)
      check_address(c, &r->ind, r->loc);
   if (r->has_dim && r->dim_indirect)
      check_address(c, &r->dim_ind, r->loc);
   if (r->file == TGSI_FILE_IMM) {
      if (r->has_dim)
         report(c, DIAG_ERROR, r->loc, "immediates have one dimension: %s",
                fmt_reg(buf, sizeof(buf), r));
      else if (r->indirect && c->s->nimms)
         c->file_ind_used[TGSI_FILE_IMM] = true;
      else if (r->indirect || r->index < 0 || (unsigned)r->index >= c->s->nimms)
         report(c, DIAG_ERROR, r->loc, "%s is not declared (%u immediates)",
                fmt_reg(buf, sizeof(buf), r), c->s->nimms);
      else
         c->imm_used[r->index] = true;
      return;
   }
   /* Mesa: an indirect source needs some register of its file; an
    * indirect destination is checked at its offset, like a direct one. */
   if (r->indirect && !is_dst) {
      if (!c->file_declared[r->file])
         report(c, DIAG_ERROR, r->loc, "%s: no %s register is declared",
                fmt_reg(buf, sizeof(buf), r), tgsi_file_names[r->file]);
      c->file_ind_used[r->file] = true;
      return;
   }
   int d = resolve(c, r);
   if (d >= 0)
      c->decl_used[d] = true;
}

static void
check_insn(struct sctx *c, const struct tgsi_insn *in, int *first_end)
{
   if ((unsigned)in->op >= TGSI_OP_COUNT) {
      report(c, DIAG_ERROR, in->loc, "invalid opcode %d", (int)in->op);
      return;
   }
   const struct tgsi_op_info *info = &tgsi_op_info[in->op];
   if (in->ndst != info->ndst || in->nsrc != info->nsrc) {
      report(c, DIAG_ERROR, in->loc, "%s takes %u destination(s) and %u source(s), not %u and %u",
             info->name, info->ndst, info->nsrc, in->ndst, in->nsrc);
      return;
   }
   if (in->op == TGSI_OP_END) {
      if (*first_end >= 0)
         report(c, DIAG_ERROR, in->loc, "more than one END (the first is at line %d)",
                c->s->insns[*first_end].loc.line);
      else
         *first_end = (int)(in - c->s->insns);
   }
   for (unsigned i = 0; i < in->ndst; i++) {
      if (!(in->dst[i].mask & TGSI_MASK_XYZW))
         report(c, DIAG_ERROR, in->dst[i].reg.loc.line ? in->dst[i].reg.loc : in->loc,
                "empty write mask");
      check_reg(c, &in->dst[i].reg, true);
   }
   for (unsigned i = 0; i < in->nsrc; i++) {
      const struct tgsi_reg *r = &in->src[i].reg;
      check_reg(c, r, false);
      /* TEX-style opcodes name only SAMP[i]; the view SVIEW[i] is implied
       * (ureg declares both), so it counts as used. */
      if ((info->flags & TGSI_OPF_TEX) && r->file == TGSI_FILE_SAMP && !r->indirect &&
          !r->has_dim) {
         int d = find_decl(c, TGSI_FILE_SVIEW, K_1D, 0, r->index);
         if (d >= 0)
            c->decl_used[d] = true;
      }
   }
   for (unsigned i = 0; i < in->noffsets && i < TGSI_MAX_OFFSETS; i++)
      check_reg(c, &in->offsets[i].reg, false);
}

static void
check_unused(struct sctx *c)
{
   const struct tgsi_shader *s = c->s;
   char buf[64];
   for (unsigned i = 0; i < s->ndecls; i++)
      if (!c->decl_used[i] && s->decls[i].file < TGSI_FILE_COUNT &&
          !c->file_ind_used[s->decls[i].file])
         report(c, DIAG_WARNING, s->decls[i].loc, "%s is declared but never used",
                fmt_decl(buf, sizeof(buf), &s->decls[i]));
   for (unsigned i = 0; i < s->nimms; i++)
      if (!c->imm_used[i] && !c->file_ind_used[TGSI_FILE_IMM])
         report(c, DIAG_WARNING, s->imms[i].loc, "IMM[%u] is declared but never used", i);
}

/* ------------------------------------------------------------------ */
/* Control flow                                                         */

enum blk { B_IF, B_ELSE, B_LOOP, B_SWITCH, B_SUB };

static const char *const blk_open[] = {"IF", "ELSE", "BGNLOOP", "SWITCH", "BGNSUB"};
static const char *const blk_close[] = {"ENDIF", "ENDIF", "ENDLOOP", "ENDSWITCH", "ENDSUB"};

struct frame {
   enum blk kind;
   unsigned insn;
};

/* Whether a BRK (want_loop false) or CONT (true) has a target inside the
 * current subroutine. */
static bool
in_breakable(const struct frame *st, unsigned depth, bool want_loop)
{
   for (unsigned i = depth; i-- > 0;) {
      if (st[i].kind == B_SUB)
         return false;
      if (st[i].kind == B_LOOP || (!want_loop && st[i].kind == B_SWITCH))
         return true;
   }
   return false;
}

/* Closes the innermost block with the opcode at insn i; false on a mismatch. */
static bool
close_block(struct sctx *c, struct frame *st, unsigned *depth, unsigned i, enum blk want)
{
   struct tgsi_insn *in = &c->s->insns[i];
   const char *name = tgsi_op_info[in->op].name;
   bool ok = *depth > 0 &&
             (st[*depth - 1].kind == want || (want == B_IF && st[*depth - 1].kind == B_ELSE));
   if (!ok) {
      if (!*depth) {
         report(c, DIAG_ERROR, in->loc, "%s without a matching %s", name, blk_open[want]);
      } else {
         const struct frame *f = &st[*depth - 1];
         report(c, DIAG_ERROR, in->loc, "%s does not close the %s at line %d (expected %s)", name,
                tgsi_op_info[c->s->insns[f->insn].op].name, c->s->insns[f->insn].loc.line,
                blk_close[f->kind]);
      }
      return false;
   }
   /* IF (no ELSE) and ELSE -> ENDIF, SWITCH -> ENDSWITCH, BGNLOOP <-> ENDLOOP. */
   const struct frame *f = &st[--*depth];
   if (f->kind != B_SUB)
      c->s->insns[f->insn].target = (int32_t)i;
   if (f->kind == B_LOOP)
      in->target = (int32_t)f->insn;
   return true;
}

/* One instruction's effect on the block stack; false stops the walk. */
static bool
flow_step(struct sctx *c, struct frame *st, unsigned *depth, unsigned i)
{
   struct tgsi_insn *in = &c->s->insns[i];
   const char *name = tgsi_op_info[in->op].name;
   enum blk push;
   switch (in->op) {
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
      push = B_IF;
      break;
   case TGSI_OP_BGNLOOP:
      push = B_LOOP;
      break;
   case TGSI_OP_SWITCH:
      push = B_SWITCH;
      break;
   case TGSI_OP_BGNSUB:
      if (*depth) {
         report(c, DIAG_ERROR, in->loc, "BGNSUB inside a %s block (line %d)",
                tgsi_op_info[c->s->insns[st[*depth - 1].insn].op].name,
                c->s->insns[st[*depth - 1].insn].loc.line);
         return false;
      }
      push = B_SUB;
      break;
   case TGSI_OP_ELSE:
      if (!*depth || st[*depth - 1].kind != B_IF) {
         report(c, DIAG_ERROR, in->loc, "ELSE without a matching IF");
         return false;
      }
      c->s->insns[st[*depth - 1].insn].target = (int32_t)i;
      st[*depth - 1] = (struct frame){B_ELSE, i};
      return true;
   case TGSI_OP_ENDIF:
      return close_block(c, st, depth, i, B_IF);
   case TGSI_OP_ENDLOOP:
      return close_block(c, st, depth, i, B_LOOP);
   case TGSI_OP_ENDSWITCH:
      return close_block(c, st, depth, i, B_SWITCH);
   case TGSI_OP_ENDSUB:
      return close_block(c, st, depth, i, B_SUB);
   case TGSI_OP_CASE:
   case TGSI_OP_DEFAULT:
      if (!*depth || st[*depth - 1].kind != B_SWITCH) {
         report(c, DIAG_ERROR, in->loc, "%s outside of a SWITCH", name);
         return false;
      }
      return true;
   case TGSI_OP_BRK:
   case TGSI_OP_CONT:
      if (!in_breakable(st, *depth, in->op == TGSI_OP_CONT)) {
         report(c, DIAG_ERROR, in->loc, "%s outside of a loop%s", name,
                in->op == TGSI_OP_BRK ? " or switch" : "");
         return false;
      }
      return true;
   default:
      return true;
   }
   if (*depth == MAX_NESTING) {
      report(c, DIAG_ERROR, in->loc, "control flow is nested deeper than %d levels", MAX_NESTING);
      return false;
   }
   st[(*depth)++] = (struct frame){push, i};
   return true;
}

static void
resolve_flow(struct sctx *c)
{
   struct tgsi_shader *s = c->s;
   struct frame st[MAX_NESTING];
   unsigned depth = 0;
   bool ok = true;
   for (unsigned i = 0; i < s->ninsns; i++)
      s->insns[i].target = -1;
   for (unsigned i = 0; i < s->ninsns && ok; i++)
      if ((unsigned)s->insns[i].op < TGSI_OP_COUNT)
         ok = flow_step(c, st, &depth, i);
   if (ok && depth) {
      const struct tgsi_insn *open = &s->insns[st[depth - 1].insn];
      report(c, DIAG_ERROR, open->loc, "%s without a matching %s", tgsi_op_info[open->op].name,
             blk_close[st[depth - 1].kind]);
   }
   for (unsigned i = 0; i < s->ninsns; i++) {
      struct tgsi_insn *in = &s->insns[i];
      if (in->op != TGSI_OP_CAL)
         continue;
      if (!in->has_label)
         report(c, DIAG_ERROR, in->loc, "CAL without a target label");
      else if (in->label >= s->ninsns)
         report(c, DIAG_ERROR, in->loc, "CAL :%u is past the last instruction (%u)", in->label,
                s->ninsns - 1);
      else if (s->insns[in->label].op != TGSI_OP_BGNSUB)
         report(c, DIAG_ERROR, in->loc, "CAL :%u must name a BGNSUB, but instruction %u is %s",
                in->label, in->label, tgsi_op_info[s->insns[in->label].op].name);
      else
         in->target = (int32_t)in->label;
   }
}

/* ------------------------------------------------------------------ */

bool
tgsi_sanity_check(struct tgsi_shader *s, const char *text, size_t len, struct diag_list *diags)
{
   struct sctx c;
   memset(&c, 0, sizeof(c));
   c.s = s;
   c.text = text;
   c.len = len;
   c.decl_used = xcalloc(s->ndecls + 1, sizeof(bool));
   c.imm_used = xcalloc(s->nimms + 1, sizeof(bool));
   for (unsigned i = 0; i < s->nimms; i++)
      if (s->imms[i].type > TGSI_IMM_INT32)
         report(&c, DIAG_ERROR, s->imms[i].loc,
                "IMM[%u]: %s immediates are not supported (Mesa's sanity check accepts only "
                "FLT32, UINT32 and INT32)",
                i,
                (unsigned)s->imms[i].type < TGSI_IMM_COUNT ? tgsi_imm_type_names[s->imms[i].type]
                                                           : "invalid");
   build_decl_index(&c);
   int first_end = -1;
   for (unsigned i = 0; i < s->ninsns; i++)
      check_insn(&c, &s->insns[i], &first_end);
   if (first_end < 0)
      report(&c, DIAG_ERROR, end_loc(&c), "no END instruction");
   check_unused(&c);
   resolve_flow(&c);
   bool ok = c.nerrors == 0;
   flush(&c, diags);
   free(c.lines);
   free(c.ents);
   free(c.decl_used);
   free(c.imm_used);
   return ok;
}
