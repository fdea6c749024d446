/*
 * ref_compile(): the reference compiler's driver. It fixes the home of
 * every TGSI register, writes the bindings that tell the emulator where
 * inputs, constants, immediates and outputs live, walks the instructions
 * (structured control flow here, everything else through the target's
 * expansion) and hands the linear program to ref_hazard.c.
 *
 * Register homes (vec4 units, scalar index = 4 * register + channel):
 * IN (every vertex of a per-vertex input), SV, OUT, TEMP, ADDR, in this
 * order from register 0, each file as large as its declarations and
 * direct uses (the golden interpreter's rule); the rest of the full file
 * is scratch. The constant file holds each constant buffer, sized the same
 * way (the rule diff/inputs.c sizes the buffers by, so an in-range index is
 * exactly an in-buffer one), then the immediates.
 *
 * Control flow, on models whose lanes reconverge at the lowest program
 * counter (a3xx; stack models use ref_cf_stack.c). Constructs become
 * branches whose targets are never earlier than the branch except a loop's
 * back edge:
 *   IF/UIF c   br (c false) ELSE;  ...;  jump ENDIF;  ELSE: ...;  ENDIF:
 *   BGNLOOP    TOP: ...;  CONT: jump TOP;  EXIT:      (BRK -> EXIT, CONT -> CONT)
 *   SWITCH s   one compare-and-branch per CASE in order, then a jump to
 *              DEFAULT (or EXIT); the case bodies follow in text order, so
 *              fall-through is straight-line code; BRK -> EXIT
 *   CAL        the subroutine body is inlined (fresh labels each time);
 *              RET jumps past it (in main: to the epilogue)
 * Branches are per lane. The program is correct for an executor that runs,
 * at every step, the active lanes with the lowest program counter (the
 * usual reconvergence rule for structured code): lanes that branch forward
 * wait at the target until the others arrive, and a back edge is taken by
 * all lanes still in the loop together.
 */
#include "compiler/ref/ref.h"

#include <stdarg.h>
#include <stdlib.h>

static const struct ref_target *const targets[] = {&ref_target_a3xx, &ref_target_sm50,
                                                   &ref_target_gfx9, &ref_target_agx};

static void
vdiag(struct ref_ctx *c, const char *fmt, va_list ap)
{
   char *msg = xvasprintf(fmt, ap);
   if (c->cur)
      diag_add(c->d, DIAG_ERROR, c->s->name, c->cur->loc.line, c->cur->loc.col, NULL, "%s: %s",
               tgsi_op_info[c->cur->op].name, msg);
   else
      diag_add(c->d, DIAG_ERROR, c->s->name, 0, 0, NULL, "%s", msg);
   free(msg);
}

enum compile_status
ref_unsupported(struct ref_ctx *c, const char *fmt, ...)
{
   if (c->status != COMPILE_OK)
      return c->status;
   va_list ap;
   va_start(ap, fmt);
   vdiag(c, fmt, ap);
   va_end(ap);
   c->status = COMPILE_UNSUPPORTED;
   return c->status;
}

enum compile_status
ref_error(struct ref_ctx *c, const char *fmt, ...)
{
   if (c->status == COMPILE_ERROR)
      return c->status;
   va_list ap;
   va_start(ap, fmt);
   vdiag(c, fmt, ap);
   va_end(ap);
   c->status = COMPILE_ERROR;
   return c->status;
}

/* ------------------------------------------------------------------ */
/* Register homes and bindings                                          */

static void
grow(unsigned *n, int64_t idx)
{
   if (idx >= 0 && idx < 65536 && (unsigned)idx + 1 > *n)
      *n = (unsigned)idx + 1;
}

static void
size_files(struct ref_ctx *c)
{
   const struct tgsi_shader *s = c->s;
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if (d->file == TGSI_FILE_CONST)
         grow(&c->ccount[d->has_dim ? d->dim % 16 : 0], MIN2(d->last, 4095u));
      else
         grow(&c->count[d->file], d->last);
   }
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      for (unsigned k = 0; k <= in->nsrc; k++) {
         const struct tgsi_reg *r = k < in->nsrc ? &in->src[k].reg : &in->dst[0].reg;
         if ((k == in->nsrc && !in->ndst) || r->indirect)
            continue;
         if (r->file == TGSI_FILE_CONST) {
            if (!r->has_dim || (r->dim >= 0 && r->dim < 16))
               grow(&c->ccount[r->has_dim ? r->dim : 0], MIN2(r->index, 4095));
         } else {
            grow(&c->count[r->file], r->index);
         }
      }
   }
   /* the framebuffer colours FBFETCH reads are inputs after the named ones */
   c->count[TGSI_FILE_IN] = MAX2(c->count[TGSI_FILE_IN], tgsi_input_count(s));
   for (unsigned f = 0; f < TGSI_FILE_COUNT; f++)
      c->vertices[f] = 1;
   c->vertices[TGSI_FILE_IN] = tgsi_interp_in_vertices(s);
}

/* The resources whose sizes the code may read (ref_size): a slot per
 * shader view, buffer, image and memory, at most REF_MAX_SIZES. */
static unsigned
size_slots(const struct tgsi_shader *s)
{
   unsigned n = 0;
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if ((d->file == TGSI_FILE_BUFFER || d->file == TGSI_FILE_IMAGE ||
           d->file == TGSI_FILE_MEMORY || d->file == TGSI_FILE_SVIEW) &&
          d->last >= d->first)
         n += MIN2(d->last - d->first + 1, (uint32_t)REF_MAX_SIZES);
   }
   return MIN2(n, (unsigned)REF_MAX_SIZES);
}

/* Constants that do not fit the constant file (consts_in_mem targets):
 * the immediates first, then the resource sizes, then the constant
 * buffers; the buffer slots from c->nconst on are read from memory by
 * load_const (c->cmem). Returns the slots the file must hold. */
static unsigned
consts_to_memory(struct ref_ctx *c)
{
   c->imm_base = 0;
   c->size_base = c->s->nimms;
   unsigned next = c->size_base + size_slots(c->s);
   if (next * 4 > c->nconst)
      return next;
   for (unsigned b = 0; b < 16; b++) {
      c->cbase[b] = next;
      next += c->ccount[b];
   }
   c->cmem = true;
   return c->nconst / 4;
}

static bool
place_homes(struct ref_ctx *c)
{
   static const enum tgsi_file order[] = {TGSI_FILE_IN, TGSI_FILE_SV, TGSI_FILE_OUT, TGSI_FILE_TEMP,
                                          TGSI_FILE_ADDR};
   unsigned next = c->reserved; /* registers the target keeps (agx r0l, r1) */
   for (unsigned k = 0; k < ARRAY_SIZE(order); k++) {
      enum tgsi_file f = order[k];
      c->base[f] = next;
      next += c->count[f] * c->vertices[f];
   }
   /* TEMP placed by liveness (ref_homes.c) when the fixed homes overflow
    * the file (a consts_in_gpr model goes compact instead, ref_open), or
    * on the second attempt (compact, live_homes) */
   bool overflow = next * 4 > c->ngpr && !c->t->consts_in_gpr;
   if ((overflow || c->compact || c->live_homes) && c->count[TGSI_FILE_TEMP]) {
      unsigned t = c->base[TGSI_FILE_TEMP], fixed = next - c->count[TGSI_FILE_TEMP];
      unsigned room = c->ngpr > fixed * 4 ? c->ngpr - fixed * 4 : 0;
      unsigned used = ref_temp_homes(c, t * 4, room);
      unsigned end = t + (used + 3) / 4 + c->count[TGSI_FILE_ADDR];
      if (used <= room && end * 4 <= c->ngpr) {
         c->base[TGSI_FILE_ADDR] = t + (used + 3) / 4;
         next = end;
      } else { /* the fixed homes, refused below */
         free(c->temp_home);
         c->temp_home = NULL;
      }
   }
   if (next * 4 > c->ngpr) {
      c->regs_short = true;
      ref_unsupported(c, "the TGSI registers need %u scalar registers, the model has %u", next * 4,
                      c->ngpr);
      return false;
   }
   c->homes_top = next * 4;
   c->scratch_lo = c->scratch_next = next * 4;
   c->scratch_top = c->ngpr;
   c->max_reg = c->phys_next = next * 4;
   if (c->t->place_scratch) { /* virtual numbers, placed after each instruction */
      c->scratch_lo = c->scratch_next = REF_VBASE;
      c->scratch_top = REF_VTOP;
   }
   unsigned cnext = 0;
   if (c->compact) { /* immediates as literals, resource sizes in registers, the buffers */
      c->imm_base = 0;
      c->size_base = c->s->nimms;
      c->creg_from = c->s->nimms * 4;
      cnext = c->s->nimms + MAX2(size_slots(c->s), 4u); /* the fixed layout's room */
      c->cmem_from = cnext * 4;
   }
   for (unsigned b = 0; b < 16; b++) {
      c->cbase[b] = cnext;
      cnext += c->ccount[b];
   }
   if (!c->compact) {
      c->imm_base = cnext;
      cnext += c->s->nimms;
      c->size_base = cnext;
   }
   if (c->t->consts_in_gpr) { /* after the homes, with room for 4 resource sizes */
      c->creg = next * 4;
      c->nconst = (cnext + 4) * 4;
      c->scratch_lo = c->scratch_next = c->max_reg =
          c->creg + (c->cmem_from ? c->cmem_from : c->nconst) - c->creg_from;
      if (c->scratch_lo > c->ngpr) {
         c->regs_short = true;
         ref_unsupported(c, "TGSI registers and constants need %u registers, the model has %u",
                         c->scratch_lo, c->ngpr);
         return false;
      }
   }
   if (cnext * 4 > c->nconst && c->t->consts_in_mem)
      cnext = consts_to_memory(c);
   if (cnext * 4 > c->nconst) {
      ref_unsupported(c, "constants and immediates need %u constant slots, the model has %u",
                      cnext * 4, c->nconst);
      return false;
   }
   return true;
}

int
ref_home(struct ref_ctx *c, const struct tgsi_reg *r, unsigned chan)
{
   enum tgsi_file f = r->file;
   if (f != TGSI_FILE_IN && f != TGSI_FILE_OUT && f != TGSI_FILE_TEMP && f != TGSI_FILE_ADDR &&
       f != TGSI_FILE_SV)
      return -1;
   int64_t v = r->has_dim && c->vertices[f] > 1 ? r->dim : 0;
   if (r->index < 0 || (unsigned)r->index >= c->count[f] || v < 0 || v >= c->vertices[f])
      return -1;
   if (f == TGSI_FILE_TEMP && c->temp_home)
      return (int)c->temp_home[(unsigned)r->index * 4 + chan];
   return (int)((c->base[f] + (unsigned)v * c->count[f] + (unsigned)r->index) * 4 + chan);
}

int
ref_const_slot(struct ref_ctx *c, const struct tgsi_reg *r, unsigned chan)
{
   if (r->file == TGSI_FILE_IMM)
      return r->index >= 0 && (unsigned)r->index < c->s->nimms
                 ? (int)((c->imm_base + (unsigned)r->index) * 4 + chan)
                 : -1;
   if (r->file != TGSI_FILE_CONST)
      return -1;
   int64_t b = r->has_dim ? r->dim : 0;
   if (b < 0 || b >= 16 || r->index < 0 || (unsigned)r->index >= c->ccount[b])
      return -1;
   return (int)((c->cbase[b] + (unsigned)r->index) * 4 + chan);
}

int
ref_const_reg(const struct ref_ctx *c, unsigned slot)
{
   if (slot < c->creg_from || (c->cmem_from && slot >= c->cmem_from))
      return -1;
   return (int)(c->creg + slot - c->creg_from);
}

unsigned
ref_size(struct ref_ctx *c, enum tgsi_file file, unsigned index, unsigned chan)
{
   unsigned k = 0;
   while (k < c->nsizes && (c->sizes[k].file != file || c->sizes[k].index != index))
      k++;
   if (k == c->nsizes) {
      unsigned top = c->cmem        ? c->cbase[0]      /* consts_in_mem: sizes below the buffers */
                     : c->cmem_from ? c->cmem_from / 4 /* compact: sizes below the buffers */
                                    : c->nconst / 4;
      if (k == REF_MAX_SIZES || c->size_base + k + 1 > top) {
         ref_unsupported(c, "no constant slot left for a resource size");
         return c->t->load_const(c, 0);
      }
      c->sizes[k].file = (uint8_t)file;
      c->sizes[k].index = (uint16_t)index;
      c->nsizes++;
   }
   return c->t->load_const(c, (c->size_base + k) * 4 + (chan & 3));
}

static void
bind(struct emu_program *p, enum emu_bind_kind kind, unsigned file, unsigned index,
     unsigned tgsi_index, unsigned chan)
{
   struct emu_binding b = {.kind = (uint8_t)kind,
                           .chan = (uint8_t)chan,
                           .file = (uint8_t)file,
                           .tgsi_index = (uint16_t)tgsi_index,
                           .index = (uint16_t)index};
   emu_program_bind(p, &b);
}

static int
sv_semantic(const struct tgsi_shader *s, unsigned index)
{
   const struct tgsi_decl *d = tgsi_find_decl(s, TGSI_FILE_SV, index);
   return d && d->has_semantic ? (int)d->semantic : -1;
}

static void
write_bindings(struct ref_ctx *c, struct emu_program *p)
{
   for (unsigned v = 0; v < c->vertices[TGSI_FILE_IN] && !c->inputs_loaded; v++)
      for (unsigned i = 0; i < c->count[TGSI_FILE_IN]; i++)
         for (unsigned ch = 0; ch < 4; ch++) {
            struct emu_binding b = {
                .kind = EMU_BIND_INPUT,
                .chan = (uint8_t)ch,
                .file = (uint8_t)c->gpr,
                .tgsi_index = (uint16_t)i,
                .vertex = (uint16_t)v,
                .index =
                    (uint16_t)((c->base[TGSI_FILE_IN] + v * c->count[TGSI_FILE_IN] + i) * 4 + ch)};
            emu_program_bind(p, &b);
         }
   for (unsigned i = 0; i < c->count[TGSI_FILE_SV]; i++) {
      int sem = sv_semantic(c->s, i);
      for (unsigned ch = 0; ch < 4 && sem >= 0; ch++)
         bind(p, EMU_BIND_SYSVAL, (unsigned)c->gpr, (c->base[TGSI_FILE_SV] + i) * 4 + ch,
              (unsigned)sem, ch);
   }
   for (unsigned b = 0; b < 16 && !c->cmem_from;
        b++) /* compact: the buffers are read from memory */
      for (unsigned i = 0; i < c->ccount[b] && (c->cbase[b] + i) * 4 < c->nconst; i++)
         for (unsigned ch = 0; ch < 4; ch++) {
            struct emu_binding e = {.kind = EMU_BIND_CONST,
                                    .chan = (uint8_t)ch,
                                    .file = (uint8_t)c->cfile,
                                    .buffer = (uint8_t)b,
                                    .tgsi_index = (uint16_t)i,
                                    .index = (uint16_t)(c->creg + (c->cbase[b] + i) * 4 + ch)};
            emu_program_bind(p, &e);
         }
   for (unsigned i = 0; i < c->s->nimms; i++)
      for (unsigned ch = 0; ch < 4; ch++) {
         int r = ref_const_reg(c, (c->imm_base + i) * 4 + ch); /* compact: none, literals */
         struct emu_binding e = {.kind = EMU_BIND_VALUE,
                                 .chan = (uint8_t)ch,
                                 .file = (uint8_t)c->cfile,
                                 .tgsi_index = (uint16_t)i,
                                 .index = (uint16_t)r,
                                 .value = c->s->imms[i].u[ch]};
         if (r >= 0)
            emu_program_bind(p, &e);
      }
   /* Geometry and tessellation control outputs are stored as written. */
   bool stored = c->s->stage == TGSI_STAGE_GEOM || c->s->stage == TGSI_STAGE_TESS_CTRL;
   for (unsigned i = 0; i < c->count[TGSI_FILE_OUT] && !stored; i++)
      for (unsigned ch = 0; ch < 4; ch++)
         bind(p, EMU_BIND_OUTPUT, (unsigned)c->gpr, (c->base[TGSI_FILE_OUT] + i) * 4 + ch, i, ch);
   for (unsigned k = 0; k < c->nsizes; k++)
      for (unsigned ch = 0; ch < 4; ch++) {
         struct emu_binding e = {.kind = EMU_BIND_SIZE,
                                 .chan = (uint8_t)ch,
                                 .file = (uint8_t)c->cfile,
                                 .buffer = c->sizes[k].file,
                                 .tgsi_index = c->sizes[k].index,
                                 .index = (uint16_t)ref_const_reg(c, (c->size_base + k) * 4 + ch)};
         emu_program_bind(p, &e);
      }
}

/* ------------------------------------------------------------------ */
/* Control flow                                                         */

struct ref_cf *
ref_push_cf(struct ref_ctx *c, enum ref_cf_kind kind)
{
   if (c->ncf == REF_MAX_CF) {
      ref_unsupported(c, "control flow nested deeper than %d levels", REF_MAX_CF);
      return NULL;
   }
   struct ref_cf *f = &c->cf[c->ncf++];
   memset(f, 0, sizeof(*f));
   f->kind = kind;
   return f;
}

static struct ref_cf *
top_cf(struct ref_ctx *c, enum ref_cf_kind kind)
{
   if (!c->ncf || c->cf[c->ncf - 1].kind != kind) {
      ref_error(c, "unbalanced control flow");
      return NULL;
   }
   return &c->cf[c->ncf - 1];
}

/* Innermost loop (or, for BRK, loop or switch) not beyond a call; NULL
 * when there is none (then BRK/CONT do nothing, as in the interpreter). */
static struct ref_cf *
find_cf(struct ref_ctx *c, bool brk)
{
   for (unsigned k = c->ncf; k-- > 0;) {
      struct ref_cf *f = &c->cf[k];
      if (f->kind == REF_CF_CALL)
         return NULL;
      if (f->kind == REF_CF_LOOP || (brk && f->kind == REF_CF_SWITCH))
         return f;
   }
   return NULL;
}

/* SWITCH: the selector is copied to a register that outlives the
 * instruction; labels are made for this switch's own CASE/DEFAULT lines
 * (not those of nested switches), then the dispatch is emitted. */
static void
cf_switch(struct ref_ctx *c, int32_t pc)
{
   const struct tgsi_insn *in = &c->s->insns[pc];
   unsigned sel_now = ref_fetch(c, in, 0, 0);
   struct ref_cf *f = ref_push_cf(c, REF_CF_SWITCH);
   if (!f)
      return;
   f->first = pc;
   f->l_exit = ref_label(c);
   f->sel = ref_tmp_persistent(c);
   c->t->copy(c, f->sel, sel_now);
   f->case_label = xmalloc(sizeof(int) * c->s->ninsns);
   int depth = 0, l_default = -1;
   int32_t end = in->target >= 0 ? in->target : (int32_t)c->s->ninsns;
   for (int32_t k = 0; k < (int32_t)c->s->ninsns; k++)
      f->case_label[k] = -1;
   for (int32_t k = pc + 1; k < end; k++) {
      enum tgsi_opcode op = c->s->insns[k].op;
      if (op == TGSI_OP_SWITCH)
         depth++;
      else if (op == TGSI_OP_ENDSWITCH)
         depth--;
      else if (depth == 0 && (op == TGSI_OP_CASE || op == TGSI_OP_DEFAULT)) {
         f->case_label[k] = ref_label(c);
         if (op == TGSI_OP_DEFAULT)
            l_default = f->case_label[k];
      }
   }
   /* The first matching CASE wins; lanes matching none go to DEFAULT
    * wherever it is (the interpreter's rule). Case values are read here. */
   for (int32_t k = pc + 1; k < end; k++) {
      if (f->case_label[k] < 0 || c->s->insns[k].op != TGSI_OP_CASE)
         continue;
      c->cur = &c->s->insns[k];
      c->scratch_next = c->scratch_lo;
      unsigned v = ref_fetch(c, &c->s->insns[k], 0, 0);
      c->t->branch(c, REF_TEST_INT_EQ, f->sel, v, true, f->case_label[k]);
   }
   c->cur = in;
   c->t->jump(c, l_default >= 0 ? l_default : f->l_exit);
}

static void
cf_endswitch(struct ref_ctx *c)
{
   struct ref_cf *f = top_cf(c, REF_CF_SWITCH);
   if (!f)
      return;
   ref_place(c, f->l_exit);
   ref_tmp_release_persistent(c, f->sel);
   free(f->case_label);
   c->ncf--;
}

static void
cf_case(struct ref_ctx *c, int32_t pc)
{
   struct ref_cf *f = top_cf(c, REF_CF_SWITCH);
   if (f && f->case_label[pc] >= 0)
      ref_place(c, f->case_label[pc]);
}

static void
cf_if(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned v = ref_fetch(c, in, 0, 0);
   struct ref_cf *f = ref_push_cf(c, REF_CF_IF);
   if (!f)
      return;
   f->l_else = ref_label(c);
   f->l_end = ref_label(c);
   c->t->branch(c, in->op == TGSI_OP_UIF ? REF_TEST_INT_NZ : REF_TEST_FLOAT_NZ, v, v, false,
                f->l_else);
}

static void
cf_else(struct ref_ctx *c)
{
   struct ref_cf *f = top_cf(c, REF_CF_IF);
   if (!f)
      return;
   c->t->jump(c, f->l_end);
   ref_place(c, f->l_else);
   f->else_placed = true;
}

static void
cf_endif(struct ref_ctx *c)
{
   struct ref_cf *f = top_cf(c, REF_CF_IF);
   if (!f)
      return;
   if (!f->else_placed)
      ref_place(c, f->l_else);
   ref_place(c, f->l_end);
   c->ncf--;
}

static void
cf_loop(struct ref_ctx *c)
{
   struct ref_cf *f = ref_push_cf(c, REF_CF_LOOP);
   if (!f)
      return;
   f->l_top = ref_label(c);
   f->l_cont = ref_label(c);
   f->l_exit = ref_label(c);
   ref_place(c, f->l_top);
}

static void
cf_endloop(struct ref_ctx *c)
{
   struct ref_cf *f = top_cf(c, REF_CF_LOOP);
   if (!f)
      return;
   ref_place(c, f->l_cont);
   c->t->jump(c, f->l_top);
   ref_place(c, f->l_exit);
   c->ncf--;
}

bool
ref_call_body(struct ref_ctx *c, const struct tgsi_insn *in, int32_t *first, int32_t *end)
{
   int32_t sub = in->target;
   if (sub < 0 || c->s->insns[sub].op != TGSI_OP_BGNSUB) {
      ref_error(c, "CAL without a BGNSUB");
      return false;
   }
   if (c->inline_depth >= REF_MAX_INLINE) {
      ref_unsupported(c, "subroutine calls nested deeper than %d (recursion?)", REF_MAX_INLINE);
      return false;
   }
   *first = sub + 1;
   *end = sub + 1;
   while (*end < (int32_t)c->s->ninsns && c->s->insns[*end].op != TGSI_OP_ENDSUB)
      (*end)++;
   return true;
}

void
ref_inline_body(struct ref_ctx *c, const struct tgsi_insn *in, int32_t first, int32_t end)
{
   c->inline_depth++;
   ref_compile_range(c, first, end);
   c->inline_depth--;
   c->cur = in;
}

/* CAL: the subroutine body is compiled in place; RET jumps to its end. */
static void
cf_call(struct ref_ctx *c, const struct tgsi_insn *in)
{
   int32_t first, end;
   if (!ref_call_body(c, in, &first, &end))
      return;
   struct ref_cf *f = ref_push_cf(c, REF_CF_CALL);
   if (!f)
      return;
   f->l_exit = ref_label(c);
   int l_ret = f->l_exit;
   unsigned depth = c->ncf;
   ref_inline_body(c, in, first, end);
   if (c->status == COMPILE_OK && c->ncf != depth)
      ref_error(c, "unbalanced control flow in the subroutine");
   ref_place(c, l_ret);
   c->ncf = depth - 1;
}

/* RET: leaves the innermost call, or main. */
static void
cf_ret(struct ref_ctx *c)
{
   for (unsigned k = c->ncf; k-- > 0;)
      if (c->cf[k].kind == REF_CF_CALL) {
         c->t->jump(c, c->cf[k].l_exit);
         return;
      }
   c->t->jump(c, c->l_epilogue);
}

static void
compile_one(struct ref_ctx *c, int32_t pc)
{
   const struct tgsi_insn *in = &c->s->insns[pc];
   struct ref_cf *f;
   if (c->exec_flow) {
      if (in->op == TGSI_OP_NOP || in->op == TGSI_OP_BGNSUB || in->op == TGSI_OP_ENDSUB ||
          ref_exec_cf(c, pc))
         return;
      ref_insn(c, in);
      return;
   }
   if (c->stack_flow) {
      if (in->op == TGSI_OP_NOP || in->op == TGSI_OP_BGNSUB || in->op == TGSI_OP_ENDSUB ||
          ref_stack_cf(c, pc))
         return;
      ref_stack_statement(c);
      ref_insn(c, in);
      return;
   }
   switch (in->op) {
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
      cf_if(c, in);
      break;
   case TGSI_OP_ELSE:
      cf_else(c);
      break;
   case TGSI_OP_ENDIF:
      cf_endif(c);
      break;
   case TGSI_OP_BGNLOOP:
      cf_loop(c);
      break;
   case TGSI_OP_ENDLOOP:
      cf_endloop(c);
      break;
   case TGSI_OP_BRK:
      if ((f = find_cf(c, true)))
         c->t->jump(c, f->l_exit);
      break;
   case TGSI_OP_CONT:
      if ((f = find_cf(c, false)))
         c->t->jump(c, f->l_cont);
      break;
   case TGSI_OP_SWITCH:
      cf_switch(c, pc);
      break;
   case TGSI_OP_CASE:
   case TGSI_OP_DEFAULT:
      cf_case(c, pc);
      break;
   case TGSI_OP_ENDSWITCH:
      cf_endswitch(c);
      break;
   case TGSI_OP_CAL:
      cf_call(c, in);
      break;
   case TGSI_OP_RET:
      cf_ret(c);
      break;
   case TGSI_OP_NOP:
   case TGSI_OP_BGNSUB:
   case TGSI_OP_ENDSUB:
      break;
   default:
      ref_insn(c, in);
      break;
   }
}

void
ref_compile_range(struct ref_ctx *c, int32_t first, int32_t last)
{
   for (int32_t pc = first; pc < last && c->status == COMPILE_OK; pc++) {
      c->cur = &c->s->insns[pc];
      c->cur_index = pc;
      c->scratch_next = c->scratch_lo;
      compile_one(c, pc);
      ref_scratch_place(c);
   }
}

/* ------------------------------------------------------------------ */
/* Entry point                                                          */

static int
file_of_kind(const struct isa_model *m, enum isa_file_kind kind, unsigned *count)
{
   for (unsigned f = 0; f < isa_file_count(m); f++) {
      struct isa_file_info fi;
      isa_file_info(m, f, &fi);
      if (fi.kind == kind) {
         if (count)
            *count = fi.count;
         return (int)f;
      }
   }
   return -1;
}

static bool
has_sem(const struct isa_model *m, enum isa_sem sem)
{
   for (unsigned op = 0; op < isa_op_count(m); op++) {
      struct isa_op_info oi;
      isa_op_info(m, op, &oi);
      if (oi.sem == sem)
         return true;
   }
   return false;
}

/* Geometry and tessellation stages need the hardware's (the model's
 * features); geometry shaders need its vertex emit, tessellation control
 * shaders its attribute store: their outputs are written as they are
 * computed (per emitted vertex, per output vertex). A tessellation control
 * shader writes its outputs through stores only, so reading one back is
 * refused. */
static bool
stage_supported(struct ref_ctx *c)
{
   enum tgsi_stage st = c->s->stage;
   const char *name = isa_model_name(c->m);
   bool tess = st == TGSI_STAGE_TESS_CTRL || st == TGSI_STAGE_TESS_EVAL;
   if (st == TGSI_STAGE_GEOM && !isa_has_feature(c->m, ISA_FEATURE_GEOMETRY)) {
      ref_unsupported(c, "the %s hardware has no geometry-shader stage", name);
      return false;
   }
   if (tess && !isa_has_feature(c->m, ISA_FEATURE_TESSELLATION)) {
      ref_unsupported(c, "the %s hardware has no tessellation stages", name);
      return false;
   }
   if ((st == TGSI_STAGE_GEOM && !has_sem(c->m, ISA_SEM_EMIT) && !has_sem(c->m, ISA_SEM_GS_MSG)) ||
       (st == TGSI_STAGE_TESS_CTRL && !c->t->store_output)) {
      ref_unsupported(c, "the %s model has no %s", name,
                      st == TGSI_STAGE_GEOM ? "vertex emit" : "attribute store");
      return false;
   }
   for (unsigned i = 0; i < c->s->ninsns && st == TGSI_STAGE_TESS_CTRL; i++)
      for (unsigned k = 0; k < c->s->insns[i].nsrc; k++)
         if (c->s->insns[i].src[k].reg.file == TGSI_FILE_OUT) {
            c->cur = &c->s->insns[i];
            ref_unsupported(c, "reading an output of a tessellation control shader");
            c->cur = NULL;
            return false;
         }
   return true;
}

static bool
setup(struct ref_ctx *c)
{
   const char *name = isa_model_name(c->m);
   for (unsigned k = 0; k < ARRAY_SIZE(targets) && !c->t; k++)
      if (!strcmp(targets[k]->model, name))
         c->t = targets[k];
   if (!c->t) {
      ref_unsupported(c, "the reference compiler has no expansion for model %s", name);
      return false;
   }
   c->gpr = file_of_kind(c->m, ISA_FILE_FULL, &c->ngpr);
   c->cfile = file_of_kind(c->m, ISA_FILE_CONST, &c->nconst);
   if (c->cfile < 0 && c->t->consts_in_gpr) /* gfx9: every value in VGPRs */
      c->cfile = c->gpr;
   if (c->cfile < 0) /* constants in uniform registers (agx u0..u255) */
      c->cfile = file_of_kind(c->m, ISA_FILE_UNIFORM, &c->nconst);
   c->pfile = file_of_kind(c->m, ISA_FILE_PREDICATE, NULL);
   c->half_file = -1;
   for (unsigned f = 0; f < isa_file_count(c->m); f++) {
      struct isa_file_info fi;
      isa_file_info(c->m, f, &fi);
      if (fi.kind == ISA_FILE_HALF && fi.half_of == c->gpr)
         c->half_file = (int)f;
   }
   c->afile = file_of_kind(c->m, ISA_FILE_ADDRESS, NULL);
   if (c->gpr < 0 || c->cfile < 0) {
      ref_error(c, "model %s lacks a full or a constant register file", name);
      return false;
   }
   if (c->t->place_scratch && c->ngpr > REF_VBASE) {
      ref_error(c, "model %s has more than %u full registers", name, REF_VBASE);
      return false;
   }
   if (!stage_supported(c))
      return false;
   for (unsigned op = 0; op < isa_op_count(c->m); op++) {
      struct isa_op_info oi;
      isa_op_info(c->m, op, &oi);
      c->stack_flow |= oi.sem == ISA_SEM_SSY;
      c->exec_flow |= oi.sem == ISA_SEM_EXEC_IF;
   }
   size_files(c);
   return c->t->init(c) && place_homes(c);
}

/* Index of END in main, or the instruction count. */
static int32_t
main_end(const struct tgsi_shader *s)
{
   for (unsigned i = 0; i < s->ninsns; i++)
      if (s->insns[i].op == TGSI_OP_END || s->insns[i].op == TGSI_OP_BGNSUB)
         return (int32_t)i;
   return (int32_t)s->ninsns;
}

static void
release(struct ref_ctx *c)
{
   for (unsigned k = 0; k < c->ncf; k++)
      if (c->cf[k].kind == REF_CF_SWITCH)
         free(c->cf[k].case_label);
   c->ncf = 0;
   free(c->items);
   free(c->labels);
   free(c->temp_home);
   c->items = NULL;
   c->labels = NULL;
   c->temp_home = NULL;
}

static void
open_once(struct ref_ctx *c, const struct tgsi_shader *s, const struct isa_model *m,
          struct diag_list *d, bool compact, bool live_homes)
{
   memset(c, 0, sizeof(*c));
   c->s = s;
   c->m = m;
   c->d = d;
   c->cur_index = -1;
   c->demote_reg = -1;
   c->gs_handle = -1;
   c->compact = compact;
   c->live_homes = live_homes;
   if (!setup(c))
      return;
   c->l_epilogue = ref_label(c);
   ref_demote_begin(c);
   if (c->t->begin)
      c->t->begin(c);
   if (c->stack_flow)
      ref_stack_begin(c);
   if (c->exec_flow)
      ref_exec_begin(c);
   ref_compile_range(c, 0, main_end(s));
   if (c->stack_flow)
      ref_stack_end(c);
   c->cur = NULL;
   c->cur_index = -1;
   if (c->status == COMPILE_OK && c->ncf)
      ref_error(c, "control flow left open at END");
   ref_place(c, c->l_epilogue);
   ref_demote_end(c);
   c->t->end(c);
   ref_scratch_place(c);
}

/* A shader refused for want of registers is compiled once more: in the
 * compact layout on a consts_in_gpr model, with TEMPs homed by liveness
 * on any other whose fixed homes fit (and left too few registers for the
 * values of some instruction). One that compiles keeps the fixed layout,
 * byte for byte. */
void
ref_open(struct ref_ctx *c, const struct tgsi_shader *s, const struct isa_model *m,
         struct diag_list *d)
{
   unsigned mark = d ? d->n : 0;
   open_once(c, s, m, d, false, false);
   if (c->status != COMPILE_UNSUPPORTED || !c->regs_short || !c->t)
      return;
   bool compact = c->t->consts_in_gpr;
   bool live_homes = !compact && c->homes_top && !c->temp_home && c->count[TGSI_FILE_TEMP];
   if (compact || live_homes) {
      release(c);
      diag_truncate(d, mark);
      open_once(c, s, m, d, compact, live_homes);
   }
}

enum compile_status
ref_close(struct ref_ctx *c, struct emu_program *out, struct compile_stats *stats)
{
   const struct tgsi_shader *s = c->s;
   if (stats) /* every caller's figures start from zero (opt's agx path too) */
      memset(stats, 0, sizeof(*stats));
   if (c->status == COMPILE_OK) {
      out->model = c->m;
      out->stage = s->stage;
      if (s->stage == TGSI_STAGE_GEOM) /* the interpreter's limit */
         out->gs_max_vertices =
             MIN2(1024u, tgsi_interp_prop(s, TGSI_PROP_GS_MAX_OUTPUT_VERTICES, 1));
      write_bindings(c, out);
      ref_finish(c, out, stats);
   }
   if (c->status != COMPILE_OK)
      emu_program_free(out);
   release(c);
   return c->status;
}

enum compile_status
ref_compile(const struct tgsi_shader *s, const struct isa_model *m, struct emu_program *out,
            struct compile_stats *stats, struct diag_list *d)
{
   struct ref_ctx c;
   memset(out, 0, sizeof(*out));
   ref_open(&c, s, m, d);
   return ref_close(&c, out, stats);
}
