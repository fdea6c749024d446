/*
 * The pass manager: the pipeline of generic passes, pass selection
 * (--passes, --disable-pass, --print-after), validation after every pass in
 * DIFFCOMP_VALIDATE builds (sampled on large shaders in release builds:
 * validate_now), and the transformation counter behind
 * --opt-bisect-limit.
 *
 * Every optional change a pass makes is one transformation and asks
 * opt_transform first; past the limit the answer is no, and the pass must
 * leave the shader valid and correct without making that change. Work
 * correctness needs (hazard insertion, register allocation) is never a
 * transformation. An injected fault's firing is one too (opt_fault_fires,
 * below): the faulty deviation, whose refusal is the correct code, asked
 * once per instance and answered the same when asked again. With
 * bisect_firings only the firings count: limit 0 is then the fault-free
 * compile with every optional change made. With bisecting on, each
 * transformation done is logged as
 *   BISECT: pass NAME transformation N (what)
 * and the first one refused as "... not done (limit L)". With dump_at = N
 * the IR is logged once, after the pass in which transformation N was done
 * or refused ("IR at transformation N (after PASS):"), so that runs with
 * limits N-1 and N show the IR without and with it. The library never
 * prints: the log and the print-after dumps go to ctx->log.
 */
#include "compiler/ir/ir.h"

#include <stdio.h>
#include <stdlib.h>

/* An instance of a fault asked about: its text and the answer. */
struct opt_fault_seen {
   char *what; /* NULL: a free slot */
   uint64_t hash;
   bool fires;
};

const struct opt_pass opt_passes[] = {
    {"lower_int64", opt_lower_int64},
    {"copyprop", opt_copyprop},
    {"constfold", opt_constfold},
    {"algebraic", opt_algebraic},
    {"cse", opt_cse},
    {"dce", opt_dce},
    {"fuse", opt_fuse},
    {"arrays", opt_arrays},
    {"images", opt_images},
    {"atomics", opt_atomics},
    /* backend (see the backend section of ir.h) */
    {"jumps", opt_jumps},
    {"fp64", opt_fp64},
    {"expand", opt_expand},
    {"isel", opt_isel},
    {"sdwa", opt_sdwa},
    {"sched", opt_sched},
    {"ra", opt_ra},
    {"legalize", opt_legalize},
    {"hazard", opt_hazard},
    {NULL, NULL},
};

void
opt_ctx_init(struct opt_ctx *ctx, const struct opt_options *opts, struct diag_list *diags)
{
   memset(ctx, 0, sizeof(*ctx));
   if (opts)
      ctx->opts = *opts;
   ctx->diags = diags;
}

void
opt_ctx_fini(struct opt_ctx *ctx)
{
   free(ctx->log);
   ctx->log = NULL;
   ctx->log_len = ctx->log_cap = 0;
   for (size_t i = 0; i < ctx->fault_seen_cap; i++)
      free(ctx->fault_seen[i].what);
   free(ctx->fault_seen);
   ctx->fault_seen = NULL;
   ctx->fault_seen_n = ctx->fault_seen_cap = 0;
   for (size_t i = 0; i < ctx->cons_seen_cap; i++)
      free(ctx->cons_seen[i].what);
   free(ctx->cons_seen);
   ctx->cons_seen = NULL;
   ctx->cons_seen_n = ctx->cons_seen_cap = 0;
   opt_verify_fini(ctx);
   free(ctx->controls);
   ctx->controls = NULL;
   ctx->ncontrols = 0;
   isa_check_memo_free(ctx->check_memo);
   ctx->check_memo = NULL;
   free(ctx->forms_memo);
   ctx->forms_memo = NULL;
}

/* The passes whose transformations replace a value by an equal one
 * (opt_replace right after the counter's yes): each is verified. */
static bool
rewrite_pass(const char *pass)
{
   static const char *const names[] = {"copyprop", "constfold", "algebraic", "cse",
                                       "fuse",     "expand",    "sdwa"};
   for (unsigned i = 0; pass && i < ARRAY_SIZE(names); i++)
      if (!strcmp(pass, names[i]))
         return true;
   return false;
}

/* Keeps the values of a format's %u, %d and %s (the texts copied) for
 * opt_verify_what; false when the format has anything else or does not
 * fit, and the text is then made now. */
static bool
note_args(struct opt_ctx *ctx, const char *fmt, va_list ap)
{
   unsigned n = 0, used = 0;
   for (const char *p = fmt; *p; p++) {
      if (*p != '%')
         continue;
      p++;
      if (*p == '%')
         continue;
      if ((*p != 'u' && *p != 'd' && *p != 's') || n == ARRAY_SIZE(ctx->verify_args))
         return false;
      if (*p == 's') {
         const char *t = va_arg(ap, const char *);
         size_t len = strlen(t);
         if (used + len + 1 > sizeof(ctx->verify_strs))
            return false;
         memcpy(ctx->verify_strs + used, t, len + 1);
         ctx->verify_args[n++] = used;
         used += (unsigned)len + 1;
      } else {
         ctx->verify_args[n++] = *p == 'u' ? va_arg(ap, unsigned) : (uint32_t)va_arg(ap, int);
      }
   }
   return true;
}

/* A transformation was agreed: remember it for the verification of the
 * replacement that follows. Its text is needed only in a failure's
 * message: the format and its values are kept, and opt_verify_what makes
 * the text (a vsnprintf per transformation cost 5% of a compile). */
static void
verify_note(struct opt_ctx *ctx, const char *fmt, va_list ap)
{
   if (ctx->opts.no_verify)
      return;
   va_list aq;
   va_copy(aq, ap);
   ctx->verify_fmt = note_args(ctx, fmt, aq) ? fmt : NULL;
   va_end(aq);
   if (!ctx->verify_fmt)
      vsnprintf(ctx->verify_what, sizeof(ctx->verify_what), fmt, ap);
   ctx->verify_first_new = ctx->sh ? ctx->sh->nvalues : 0;
   ctx->verify_pending = rewrite_pass(ctx->pass);
}

const char *
opt_verify_what(struct opt_ctx *ctx)
{
   const char *fmt = ctx->verify_fmt;
   if (!fmt)
      return ctx->verify_what;
   char *out = ctx->verify_what;
   size_t cap = sizeof(ctx->verify_what), n = 0;
   unsigned k = 0;
   for (const char *p = fmt; *p && n + 1 < cap; p++) {
      char num[16];
      const char *t = num;
      if (*p != '%' || p[1] == '%') {
         out[n++] = *p;
         p += *p == '%';
         continue;
      }
      p++;
      if (*p == 's')
         t = ctx->verify_strs + ctx->verify_args[k++];
      else if (*p == 'u')
         snprintf(num, sizeof(num), "%u", (unsigned)ctx->verify_args[k++]);
      else
         snprintf(num, sizeof(num), "%d", (int)ctx->verify_args[k++]);
      while (*t && n + 1 < cap)
         out[n++] = *t++;
   }
   out[n] = 0;
   ctx->verify_fmt = NULL;
   return out;
}

static void
log_append(struct opt_ctx *ctx, const char *s)
{
   size_t n = strlen(s);
   VEC_RESERVE(ctx->log, ctx->log_cap, ctx->log_len + n + 1);
   memcpy(ctx->log + ctx->log_len, s, n + 1);
   ctx->log_len += n;
}

void
opt_log(struct opt_ctx *ctx, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *s = xvasprintf(fmt, ap);
   va_end(ap);
   log_append(ctx, s);
   free(s);
}

/* Every kind of optional transformation: "pass: what" with the format's
 * %u/%d as N and %s as S, or the rule's own text (algebraic), and the
 * --opt mode without which no compile makes it (NULL: any mode). Written
 * once here for `check --coverage`, which lists the kinds a run did not
 * exercise; a kind missing here is listed as exercised but unlisted. */
const struct opt_transform_kind opt_transform_kinds[] = {
    {"algebraic: --x -> x", NULL},
    {"algebraic: c ? x : x -> x", NULL},
    {"algebraic: constant condition", NULL},
    {"algebraic: fma(1.0, b, c) -> b + c", NULL},
    {"algebraic: fma(a, 1.0, c) -> a + c", NULL},
    {"algebraic: fma(a, b, -0.0) -> a * b", NULL},
    {"algebraic: min/max(x, x) -> x", NULL},
    {"algebraic: op(op x) -> x", NULL},
    {"algebraic: sat(sat x) -> sat x", NULL},
    {"algebraic: shift by 0 (mod 32) -> x", NULL},
    {"algebraic: x != x, x < x -> 0", NULL},
    {"algebraic: x & 0 -> 0", NULL},
    {"algebraic: x & x -> x", NULL},
    {"algebraic: x & ~0 -> x", NULL},
    {"algebraic: x * -1.0 -> -x", NULL},
    {"algebraic: x * 0 -> 0", NULL},
    {"algebraic: x * 0.0 -> 0.0 (inexact)", "inexact"},
    {"algebraic: x * 1 -> x", NULL},
    {"algebraic: x * 1.0 -> x", NULL},
    {"algebraic: x + -0.0 -> x", NULL},
    {"algebraic: x + -x -> 0.0 (inexact)", "inexact"},
    {"algebraic: x + 0 -> x", NULL},
    {"algebraic: x + 0.0 -> x (inexact)", "inexact"},
    {"algebraic: x - 0 -> x", NULL},
    {"algebraic: x - x -> 0", NULL},
    {"algebraic: x / 1 -> x", NULL},
    {"algebraic: x / 1.0 -> x", NULL},
    {"algebraic: x == x, x >= x -> ~0", NULL},
    {"algebraic: x ^ 0 -> x", NULL},
    {"algebraic: x ^ x -> 0", NULL},
    {"algebraic: x | 0 -> x", NULL},
    {"algebraic: x | x -> x", NULL},
    {"algebraic: x | ~0 -> ~0", NULL},
    {"algebraic: |-x| or ||x|| -> |x|", NULL},
    {"cmpsel: N removed (no read left)", NULL},
    {"cmpsel: S at N: the signed-zero select dropped (a nonzero constant operand)", NULL},
    {"cmpsel: if N tests compare N", NULL},
    {"cmpsel: select N fused with compare N", NULL},
    {"constfold: %N = S -> S", NULL},
    {"copyprop: %N = S -> %N", NULL},
    {"cse: %N = S -> %N", NULL},
    {"dce: remove dead %N = S", NULL},
    {"expand: fmad %N as ffma (one rounding: inexact)", "fuse-ffma"},
    {"fuse: %N = fadd(%N = fmul, %N) -> S", NULL},
    {"half: N values placed againS", NULL},
    {"hazard: fold N nops into %N", NULL},
    {"isel: ballot of the predicate of mask %N", NULL},
    {"isel: branch on compare %N directly", NULL},
    {"isel: fold +N into the offset of %N", NULL},
    {"isel: fold the modifier of %N into %N", NULL},
    {"isel: keep compare %N as the test of its selects", NULL},
    {"isel: read_invoc %N of uniform lane %N by readlane", NULL},
    {"isel: reuse %N as the base address of %N", NULL},
    {"isel: reuse scalar %N for %N", NULL},
    {"isel: reuse window offset %N at %N", NULL},
    {"isel: saturate %N in place of %N", NULL},
    {"isel: test %N as accumulated predicates", NULL},
    {"lanes: derivative N as simd_shuffle_xor", NULL},
    {"lanes: vote N without the active-lane ballot", NULL},
    {"legalize: swap the operands of %N", NULL},
    {"ra: coalesce %N into rN", NULL},
    {"ra: coalesce phi %N into rN", NULL},
    {"sched: schedule block @N", NULL},
    {"sdwa: fold the S of %N into %N", NULL},
    {"sdwa: merge %N | %N into %N preserving %N", NULL},
    {"sdwa: write %N into S of %N", NULL},
    {"wait: slot N after N moved to its first reader", NULL},
    {NULL, NULL},
};

/* One transformation of its kind (coverage). */
static void
cover_transform(const struct opt_ctx *ctx, const char *fmt)
{
   if (ctx->rule) {
      cover_hit("transform", "%s: %s", ctx->pass ? ctx->pass : "?", ctx->rule);
      return;
   }
   char buf[160];
   size_t n = 0;
   for (const char *p = fmt; *p && n + 2 < sizeof(buf); p++) {
      if (p[0] == '%' && p[1] == '%') {
         buf[n++] = '%';
         p++;
      } else if (p[0] == '%' && (p[1] == 'u' || p[1] == 'd' || p[1] == 's')) {
         buf[n++] = p[1] == 's' ? 'S' : 'N';
         p++;
      } else {
         buf[n++] = *p;
      }
   }
   buf[n] = 0;
   /* a pass whose formats name it already (agx: "cmpsel: ...") */
   const char *pass = ctx->pass ? ctx->pass : "?";
   size_t pn = strlen(pass);
   if (!strncmp(buf, pass, pn) && !strncmp(buf + pn, ": ", 2)) {
      cover_hit("transform", "%s", buf);
      return;
   }
   cover_hit("transform", "%s: %s", pass, buf);
}

enum isa_err
opt_check_insn(struct opt_ctx *ctx, const struct isa_model *m, const struct isa_insn *in)
{
   if (!ctx)
      return isa_check_insn(m, in, NULL);
   if (!ctx->check_memo)
      ctx->check_memo = isa_check_memo_new();
   return isa_check_insn_memo(ctx->check_memo, m, in);
}

bool
opt_transform(struct opt_ctx *ctx, const char *fmt, ...)
{
   const struct opt_options *o = &ctx->opts;
   if (!ctx->firing && opt_cons_refuses(ctx)) {
      ctx->verify_class = OPT_VERIFY_EXACT; /* the class was this one's */
      return false;                         /* a conservative stage makes no optional change */
   }
   if (o->bisect_firings && !ctx->firing)
      return true; /* only the fault firings count */
   bool limited = o->bisect && o->bisect_limit >= 0;
   if (limited && ctx->ntransforms >= o->bisect_limit) {
      if (!ctx->limit_hit) {
         va_list ap;
         va_start(ap, fmt);
         char *what = xvasprintf(fmt, ap);
         va_end(ap);
         opt_log(ctx, "BISECT: pass %s transformation %lld (%s) not done (limit %lld)\n",
                 ctx->pass ? ctx->pass : "?", ctx->ntransforms + 1, what, o->bisect_limit);
         free(what);
      }
      ctx->limit_hit = true;
      ctx->verify_class = OPT_VERIFY_EXACT;
      return false;
   }
   ctx->ntransforms++;
   if (!ctx->firing) {
      va_list ap;
      va_start(ap, fmt);
      verify_note(ctx, fmt, ap);
      va_end(ap);
   }
   if (cover_on && !ctx->firing)
      cover_transform(ctx, fmt);
   if (o->bisect) {
      va_list ap;
      va_start(ap, fmt);
      char *what = xvasprintf(fmt, ap);
      va_end(ap);
      opt_log(ctx, "BISECT: pass %s transformation %lld (%s)\n", ctx->pass ? ctx->pass : "?",
              ctx->ntransforms, what);
      free(what);
   }
   return true;
}

static void DC_PRINTF(2, 3) verify_text(struct opt_ctx *ctx, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   verify_note(ctx, fmt, ap);
   va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Fault firings                                                        */

/* The slot of what in the open-addressed table, or the free one it goes in. */
static struct opt_fault_seen *
table_slot(struct opt_fault_seen *tab, size_t cap, const char *what, uint64_t h)
{
   size_t mask = cap - 1;
   for (size_t i = h & mask;; i = (i + 1) & mask) {
      struct opt_fault_seen *e = &tab[i];
      if (!e->what || (e->hash == h && !strcmp(e->what, what)))
         return e;
   }
}

static void
table_grow(struct opt_fault_seen **tab, size_t *cap)
{
   struct opt_fault_seen *old = *tab;
   size_t n = *cap;
   *cap = n ? 2 * n : 64;
   *tab = xcalloc(*cap, sizeof(*old));
   for (size_t i = 0; i < n; i++)
      if (old[i].what)
         *table_slot(*tab, *cap, old[i].what, old[i].hash) = old[i];
   free(old);
}

static struct opt_fault_seen *
seen_slot(struct opt_ctx *ctx, const char *what, uint64_t h)
{
   return table_slot(ctx->fault_seen, ctx->fault_seen_cap, what, h);
}

static void
seen_grow(struct opt_ctx *ctx)
{
   table_grow(&ctx->fault_seen, &ctx->fault_seen_cap);
}

/* The answer kept for a conservative item (conservative.c asks once):
 * *fresh when `what` was not asked before (its answer is then to be set);
 * `what` is owned by the table from now on. */
bool *
opt_cons_seen(struct opt_ctx *ctx, char *what, bool *fresh)
{
   uint64_t h = hash64(what, strlen(what), 0xcbf29ce484222325ull);
   if (2 * (ctx->cons_seen_n + 1) > ctx->cons_seen_cap)
      table_grow(&ctx->cons_seen, &ctx->cons_seen_cap);
   struct opt_fault_seen *e = table_slot(ctx->cons_seen, ctx->cons_seen_cap, what, h);
   *fresh = !e->what;
   if (*fresh) {
      *e = (struct opt_fault_seen){what, h, false};
      ctx->cons_seen_n++;
   } else {
      free(what);
   }
   return &e->fires;
}

/*
 * A firing is one transformation. Without bisecting every firing happens
 * and nothing is counted. With it, the first ask about an instance asks
 * opt_transform and the answer is kept: a fixed point that visits the
 * instruction again, emit recomputing the control words, or a legalization
 * trial undone and redone see the same answer, so the instance is one
 * transformation, either made or not.
 */
static bool
fires_v(struct opt_ctx *ctx, enum opt_fault f, const char *fmt, va_list ap)
{
   /* Hidden, a firing looks like the code it imitates: in a mandatory
    * stage that is uncounted work, in an optional pass (a CSE merge, a
    * fold) one ordinary transformation, told without the fault's name. */
   bool hide = ctx->opts.hide_firings;
   if (!ctx->opts.bisect || (hide && (!ctx->pass || opt_stage_find(ctx->pass) >= 0)))
      return true;
   char *inst = xvasprintf(fmt, ap);
   char *what = hide ? xstrdup(inst) : xasprintf("fault %s: %s", opt_fault_info[f].name, inst);
   free(inst);
   uint64_t h = hash64(what, strlen(what), 0xcbf29ce484222325ull);
   if (2 * (ctx->fault_seen_n + 1) > ctx->fault_seen_cap)
      seen_grow(ctx);
   struct opt_fault_seen *e = seen_slot(ctx, what, h);
   if (e->what) {
      free(what);
      return e->fires;
   }
   ctx->firing = true;
   *e = (struct opt_fault_seen){what, h, opt_transform(ctx, "%s", what)};
   ctx->firing = false;
   ctx->fault_seen_n++;
   return e->fires;
}

bool
opt_fault_fires(struct opt_ctx *ctx, enum opt_fault f, const char *fmt, ...)
{
   if (!opt_fault(ctx, f)) {
      ctx->verify_class = OPT_VERIFY_EXACT; /* the class was this one's */
      return false;
   }
   va_list ap;
   va_start(ap, fmt);
   bool r = fires_v(ctx, f, fmt, ap);
   va_end(ap);
   if (!r)
      ctx->verify_class = OPT_VERIFY_EXACT;
   if (r) {
      char *inst;
      va_start(ap, fmt);
      inst = xvasprintf(fmt, ap);
      va_end(ap);
      verify_text(ctx, "fault %s: %s", opt_fault_info[f].name, inst);
      free(inst);
   }
   return r;
}

bool
opt_fault_fires_sh(const struct ir_shader *sh, enum opt_fault f, const char *fmt, ...)
{
   if (!opt_fault_sh(sh, f))
      return false;
   if (!sh->fault_ctx)
      return true;
   va_list ap;
   va_start(ap, fmt);
   bool r = fires_v(sh->fault_ctx, f, fmt, ap);
   va_end(ap);
   return r;
}

/* Inexact rewrites may touch a value only if it is neither precise nor
 * reaches an invariant output. */
bool
opt_inexact_ok(const struct ir_instr *in)
{
   return !(in->flags & (IR_VF_PRECISE | IR_VF_INVARIANT));
}

bool
opt_is_imm(const struct ir_instr *in, uint32_t bits)
{
   return in->op == IR_OP_IMM && in->type == IR_TYPE_32 && (uint32_t)in->imm == bits;
}

/* Every use of old now reads rep, and old goes. */
void
opt_replace(struct ir_shader *sh, struct ir_instr *old, struct ir_instr *rep)
{
   struct opt_ctx *ctx = sh->fault_ctx;
   if (ctx && ctx->verify_pending) {
      ctx->verify_pending = false;
      opt_verify_replace(ctx, old, rep, ctx->verify_class);
      ctx->verify_class = OPT_VERIFY_EXACT;
   }
   ir_replace_uses(sh, old, rep);
   ir_instr_remove(old);
}

/* A new instruction computing op on srcs, placed before pos with pos's
 * flags and source line. */
struct ir_instr *
opt_build_before(struct ir_shader *sh, struct ir_instr *pos, enum ir_op op, unsigned nsrc,
                 struct ir_instr *const *srcs)
{
   struct ir_instr *in = ir_instr_create(sh, op, nsrc);
   for (unsigned i = 0; i < nsrc; i++)
      ir_set_src(in, i, srcs[i]);
   in->type = ir_result_type(in);
   in->flags = pos->flags;
   in->line = pos->line;
   ir_insert_before(pos, in);
   return in;
}

struct ir_instr *
opt_build2_before(struct ir_shader *sh, struct ir_instr *pos, enum ir_op op, struct ir_instr *a,
                  struct ir_instr *b)
{
   struct ir_instr *v[2] = {a, b};
   return opt_build_before(sh, pos, op, 2, v);
}

struct ir_instr *
opt_imm_before(struct ir_shader *sh, struct ir_instr *pos, uint32_t bits)
{
   struct ir_instr *in = opt_build_before(sh, pos, IR_OP_IMM, 0, NULL);
   in->imm = bits;
   in->type = IR_TYPE_32;
   in->flags = 0;
   return in;
}

/* ------------------------------------------------------------------ */
/* Running passes                                                       */

/* Is name in the comma-separated list? "all" matches every name. */
static bool
list_has(const char *list, const char *name)
{
   if (!list)
      return false;
   size_t n = strlen(name);
   for (const char *p = list; *p;) {
      size_t k = strcspn(p, ",");
      if ((k == n && !strncmp(p, name, n)) || (k == 3 && !strncmp(p, "all", 3)))
         return true;
      p += k;
      if (*p == ',')
         p++;
   }
   return false;
}

static const struct opt_pass *
find_pass(const char *name, size_t len)
{
   for (const struct opt_pass *p = opt_passes; p->name; p++)
      if (strlen(p->name) == len && !strncmp(p->name, name, len))
         return p;
   return NULL;
}

static bool
is_agx_pass(const char *name, size_t len)
{
   for (const char *const *q = opt_agx_passes; *q; q++)
      if (strlen(*q) == len && !strncmp(*q, name, len))
         return true;
   return false;
}

static bool
check_names(struct diag_list *diags, const char *list, const char *what, bool allow_all)
{
   if (!list)
      return true;
   for (const char *p = list; *p;) {
      size_t k = strcspn(p, ",");
      if (!find_pass(p, k) && !(allow_all && k == 3 && !strncmp(p, "all", 3)) &&
          !(!strcmp(what, "--disable-pass") && is_agx_pass(p, k))) {
         char names[256] = "";
         for (const struct opt_pass *q = opt_passes; q->name; q++)
            snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
                     q == opt_passes ? "" : ", ", q->name);
         diag_add(diags, DIAG_ERROR, "options", 0, 0, NULL, "%s: unknown pass '%.*s' (passes: %s)",
                  what, (int)k, p, names);
         return false;
      }
      p += k;
      if (*p == ',')
         p++;
   }
   return true;
}

bool
opt_check_names(const struct opt_options *o, struct diag_list *diags)
{
   return check_names(diags, o->passes, "--passes", false) &&
          check_names(diags, o->disable, "--disable-pass", false) &&
          check_names(diags, o->print_after, "--print-after", true);
}

/*
 * Validation after a pass. DIFFCOMP_VALIDATE debug builds and
 * opts.validate validate after every pass. DIFFCOMP_VALIDATE release
 * builds (NDEBUG) do so too on shaders of up to VALIDATE_BUDGET values;
 * on larger ones, after every ceil(values / VALIDATE_BUDGET)-th pass and
 * after the last (opt_validate_rest), so that validation costs about
 * passes x VALIDATE_BUDGET instead of passes x values; a failure then
 * names the passes since the last validation. The schedule depends only
 * on the shader, so it is deterministic.
 */
#define VALIDATE_BUDGET 8192

static bool
validating(const struct opt_ctx *ctx)
{
#ifdef DIFFCOMP_VALIDATE
   (void)ctx;
   return true;
#else
   return ctx->opts.validate;
#endif
}

static bool
validate_now(const struct ir_shader *sh, struct opt_ctx *ctx)
{
#if defined(NDEBUG)
   if (!ctx->opts.validate) {
      ctx->validate_credit += VALIDATE_BUDGET;
      return ctx->validate_credit >= sh->nvalues;
   }
#endif
   (void)sh;
   (void)ctx;
   return true;
}

bool
opt_validate_rest(struct ir_shader *sh, struct opt_ctx *ctx)
{
   if (!ctx->unvalidated)
      return !ctx->failed;
   char *after = ctx->unvalidated == 1
                     ? xasprintf("pass '%s'", ctx->unvalidated_to)
                     : xasprintf("passes '%s' to '%s' (%u passes, validation sampled)",
                                 ctx->unvalidated_from, ctx->unvalidated_to, ctx->unvalidated);
   if (!ir_validate_after(sh, after, ctx->diags))
      ctx->failed = true;
   free(after);
   ctx->unvalidated = 0;
   ctx->validate_credit = 0;
   return !ctx->failed;
}

/* Whether the compile was refused ("unsupported": RA out of registers,
 * an op the target lacks): the refusing pass leaves its IR unfinished by
 * design, so validating it would only add an internal-looking error. */
static bool
refused(const struct opt_ctx *ctx)
{
   const struct diag_list *d = ctx->diags;
   for (unsigned i = 0; d && i < d->n; i++)
      if (d->v[i].sev == DIAG_ERROR && !strncmp(d->v[i].msg, "unsupported", 11))
         return true;
   return false;
}

bool
opt_run_pass(struct ir_shader *sh, struct opt_ctx *ctx, const struct opt_pass *p)
{
   if (ctx->failed || list_has(ctx->opts.disable, p->name))
      return false;
   ctx->pass = p->name;
   ctx->sh = sh;
   ctx->verify_pending = false;
   free(ctx->controls); /* of the IR before this pass */
   ctx->controls = NULL;
   ctx->ncontrols = 0;
   bool progress = p->fn(sh, ctx);
   ctx->verify_pending = false;
   if (progress) /* what it removed: no later walk over values reads it */
      ir_sweep(sh);
   if (ctx->failed && refused(ctx))
      ctx->unvalidated = 0;
   else if (validating(ctx)) {
      if (!ctx->unvalidated++)
         ctx->unvalidated_from = p->name;
      ctx->unvalidated_to = p->name;
      if (validate_now(sh, ctx) || ctx->failed) /* a failing pass's IR too */
         opt_validate_rest(sh, ctx);
   }
   if (list_has(ctx->opts.print_after, p->name)) {
      char *t = ir_print(sh);
      opt_log(ctx, "IR after %s:\n%s", p->name, t);
      free(t);
   }
   long long at = ctx->opts.bisect ? ctx->opts.dump_at : 0;
   if (at > 0 && (ctx->ntransforms >= at || (ctx->limit_hit && ctx->ntransforms + 1 == at))) {
      char *t = ir_print(sh);
      opt_log(ctx, "IR at transformation %lld (after %s):\n%s", at, p->name, t);
      free(t);
      ctx->opts.dump_at = 0; /* once */
   }
   ctx->pass = NULL;
   return progress;
}

static bool
run(struct ir_shader *sh, struct opt_ctx *ctx, const char *name)
{
   const struct opt_pass *p = find_pass(name, strlen(name));
   return p && opt_run_pass(sh, ctx, p);
}

/* The pipeline, top to bottom. TEMP arrays become values first, so the
 * clean-ups see their selects. The exact clean-ups repeat until none of
 * them changes anything (capped, so a pass pair that undoes each other
 * cannot hang the compiler); fusion runs once at the end, after the
 * algebraic rules have seen the separate mul and add. */
static void
pipeline(struct ir_shader *sh, struct opt_ctx *ctx)
{
   ir_mark_invariant(sh);
   run(sh, ctx, "arrays");
   for (int round = 0; round < 16 && !ctx->failed; round++) {
      bool progress = false;
      progress |= run(sh, ctx, "copyprop");
      progress |= run(sh, ctx, "constfold");
      progress |= run(sh, ctx, "algebraic");
      progress |= run(sh, ctx, "cse");
      progress |= run(sh, ctx, "dce");
      if (!progress)
         break;
   }
   run(sh, ctx, "fuse");
   run(sh, ctx, "dce");
}

bool
opt_run(struct ir_shader *sh, struct opt_ctx *ctx)
{
   const struct opt_options *o = &ctx->opts;
   sh->faults = o->faults; /* for the code no opt_ctx reaches */
   sh->fault_ctx = ctx;
   if (!opt_check_names(o, ctx->diags))
      return false;
   /* first, with --passes too: no target has 64-bit integer instructions,
    * and the generic passes then clean up what it builds */
   run(sh, ctx, "lower_int64");
   if (o->passes) {
      ir_mark_invariant(sh);
      for (const char *p = o->passes; *p && !ctx->failed;) {
         size_t k = strcspn(p, ",");
         opt_run_pass(sh, ctx, find_pass(p, k));
         p += k;
         if (*p == ',')
            p++;
      }
   } else {
      pipeline(sh, ctx);
   }
   return opt_validate_rest(sh, ctx);
}
