/*
 * The golden TGSI interpreter: runs a parsed shader over every lane of an
 * env with the meaning written down in tgsi_semantics.md.
 *
 * Execution model. Lanes run in batches (default 256 lanes, always whole
 * quads, subgroups of 32 or 64 and compute workgroups). Within a batch every
 * instruction is executed for all lanes at once, structure-of-arrays, and
 * its results are stored only to the lanes of the execution mask, as
 * tgsi_exec does: exec = cond & loop & cont & switch & func & alive. An
 * IF/ELSE whose mask is empty jumps to its ELSE/ENDIF; a loop repeats while
 * any lane is active. Control-flow targets are recomputed here from the
 * nesting (labels in captures are unreliable); only CAL uses its label.
 *
 * Registers. Every register channel is a "slot": n values and n flag words
 * (enum env_flag, bit 0 = undefined). TEMP/OUT/ADDR start undefined; IMM
 * and directly addressed CONST slots are broadcast once; IN and SV slots
 * point into the env. Operands are resolved to slots once per run.
 *
 * Undefined values propagate through data flow (the flags of a result are
 * the union of its operands' flags) and through control flow: every
 * structured region (IF..ENDIF, loop, switch, subroutine, main) knows the
 * slots, memories, kills and emits it may write. A lane whose path through
 * a region is decided by an undefined value (an undefined or denormal IF
 * condition, switch selector or case value, or a BRK/CONT/RET inside such
 * a region) gets everything the region may write marked undefined when the
 * region ends, whether or not it executed those writes.
 *
 * Deviations from tgsi_exec, each to match what compilers implement: BRK
 * in a switch leaves only the lanes that execute it (tgsi_exec clears the
 * whole switch mask); DEFAULT works in any position; KILL removes the lane
 * from execution; an indirect destination is addressed per lane (tgsi_exec
 * uses the quad's first active lane's address for all four).
 */
#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"

/* GCC's -O2 vectorizes only loops of known trip count; the per-lane loops
 * here are the interpreter's hot path, so ask for the dynamic cost model. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>

#define FOR for (unsigned i = 0; i < n; i++)

#define TI_DEFAULT_BATCH 256
#define TI_SLOT_ZERO     0 /* values 0, defined */
#define TI_SLOT_UNDEF    1 /* values 0, undefined */
#define TI_NO_SLOT       UINT32_MAX

#define STATUS_NAME_(n, d) #n,
const char *const tgsi_interp_status_names[TGSI_INTERP_STATUS_COUNT] = {
    TGSI_INTERP_STATUSES(STATUS_NAME_)};
#undef STATUS_NAME_

/* ------------------------------------------------------------------ */
/* What runs                                                            */

bool
tgsi_interp_supports(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_CLOCK:         /* nondeterministic */
   case TGSI_OP_INTERP_OFFSET: /* inputs are per-lane values, not planes */
   case TGSI_OP_IMG2HND:       /* bindless handles */
   case TGSI_OP_SAMP2HND:
      return false;
   default:
      return (unsigned)op < TGSI_OP_COUNT;
   }
}

static const char *
unsupported_reason(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_CLOCK:
      return "it reads a clock, which is nondeterministic";
   case TGSI_OP_INTERP_OFFSET:
      return "inputs are given per lane, so interpolation at an offset has no meaning";
   default:
      return "bindless handles are not modelled";
   }
}

static bool
is_int_type(uint8_t t)
{
   return t == TGSI_TYPE_I || t == TGSI_TYPE_U || t == TGSI_TYPE_I64 || t == TGSI_TYPE_U64;
}

/* The fetch type of source si of op: what '-' means for it. */
uint8_t
tgsi_interp_src_type(enum tgsi_opcode op, unsigned si)
{
   switch (op) {
   case TGSI_OP_UCMP:
      return si == 0 ? TGSI_TYPE_U : TGSI_TYPE_F;
   case TGSI_OP_DLDEXP:
   case TGSI_OP_U64SHL:
   case TGSI_OP_I64SHR:
   case TGSI_OP_U64SHR:
      return si == 1 ? TGSI_TYPE_I : tgsi_op_info[op].type;
   case TGSI_OP_LOAD:
   case TGSI_OP_STORE:
   case TGSI_OP_RESQ:
      return TGSI_TYPE_U;
   case TGSI_OP_ATOMFADD:
      return si == 2 ? TGSI_TYPE_F : TGSI_TYPE_U;
   case TGSI_OP_ATOMIMIN:
   case TGSI_OP_ATOMIMAX:
      return si == 2 ? TGSI_TYPE_I : TGSI_TYPE_U;
   case TGSI_OP_TXF:
   case TGSI_OP_TXF_LZ:
   case TGSI_OP_TXQ:
   case TGSI_OP_SAMPLE_I:
   case TGSI_OP_SAMPLE_I_MS:
   case TGSI_OP_SVIEWINFO:
      return TGSI_TYPE_I;
   case TGSI_OP_TG4:
      return si == 1 ? TGSI_TYPE_U : TGSI_TYPE_F;
   case TGSI_OP_INTERP_SAMPLE:
      return si == 1 ? TGSI_TYPE_I : TGSI_TYPE_F;
   default:
      return tgsi_op_info[op].type == TGSI_TYPE_N ? TGSI_TYPE_F : tgsi_op_info[op].type;
   }
}

static bool
is_resource_file(enum tgsi_file f)
{
   return f == TGSI_FILE_SAMP || f == TGSI_FILE_SVIEW || f == TGSI_FILE_BUFFER ||
          f == TGSI_FILE_IMAGE || f == TGSI_FILE_MEMORY;
}

/* Legal TGSI that rarely means what it says; the run goes on. */
static void
warn_insn(const struct tgsi_shader *s, const struct tgsi_insn *in, struct diag_list *d)
{
   const struct tgsi_src *r = &in->src[0];
   bool bytes = r->reg.file == TGSI_FILE_BUFFER || r->reg.file == TGSI_FILE_MEMORY;
   if (in->op == TGSI_OP_RESQ && bytes && (in->dst[0].mask & 0xe))
      diag_add(d, DIAG_WARNING, s->name, in->loc.line, in->loc.col, NULL,
               "RESQ of a %s gives its size in .x only; .yzw of the destination are undefined",
               tgsi_file_names[r->reg.file]);
   bool identity = r->swz[0] == 0 && r->swz[1] == 1 && r->swz[2] == 2 && r->swz[3] == 3;
   if (in->op == TGSI_OP_LOAD && bytes && identity && !(in->dst[0].mask & 1))
      diag_add(d, DIAG_WARNING, s->name, in->loc.line, in->loc.col, NULL,
               "LOAD writes the word at address + 4c to channel c, so this one skips the word "
               "at the address; swizzle the %s (e.g. .xxxx) to load it into another channel",
               tgsi_file_names[r->reg.file]);
}

static enum tgsi_interp_status
check_insn(const struct tgsi_shader *s, const struct tgsi_insn *in, struct diag_list *d)
{
   const char *name = tgsi_op_info[in->op].name;
   if (!tgsi_interp_supports(in->op)) {
      diag_add(d, DIAG_ERROR, s->name, in->loc.line, in->loc.col, NULL,
               "the interpreter refuses %s: %s", name, unsupported_reason(in->op));
      return TGSI_INTERP_UNSUPPORTED;
   }
   for (unsigned k = 0; k < in->nsrc; k++) {
      const struct tgsi_src *src = &in->src[k];
      if (src->abs && is_int_type(tgsi_interp_src_type(in->op, k)) &&
          !is_resource_file(src->reg.file)) {
         diag_add(d, DIAG_ERROR, s->name, in->loc.line, in->loc.col, NULL,
                  "|x| on integer operand %u of %s has no defined meaning", k + 1, name);
         return TGSI_INTERP_UNSUPPORTED;
      }
      if (src->reg.file == TGSI_FILE_HWATOMIC || src->reg.file == TGSI_FILE_CONSTBUF) {
         diag_add(d, DIAG_ERROR, s->name, in->loc.line, in->loc.col, NULL,
                  "the interpreter does not model the %s file", tgsi_file_names[src->reg.file]);
         return TGSI_INTERP_UNSUPPORTED;
      }
   }
   if (in->op == TGSI_OP_FBFETCH && s->stage != TGSI_STAGE_FRAG) {
      diag_add(d, DIAG_ERROR, s->name, in->loc.line, in->loc.col, NULL,
               "FBFETCH outside a fragment shader");
      return TGSI_INTERP_INVALID;
   }
   if (in->op == TGSI_OP_FBFETCH &&
       (in->src[0].reg.file != TGSI_FILE_OUT || in->src[0].reg.indirect)) {
      diag_add(d, DIAG_ERROR, s->name, in->loc.line, in->loc.col, NULL,
               "FBFETCH reads an output register named directly (OUT[i])");
      return TGSI_INTERP_UNSUPPORTED;
   }
   bool gs_op = in->op == TGSI_OP_EMIT || in->op == TGSI_OP_ENDPRIM;
   if (gs_op && s->stage != TGSI_STAGE_GEOM) {
      diag_add(d, DIAG_ERROR, s->name, in->loc.line, in->loc.col, NULL,
               "%s outside a geometry shader", name);
      return TGSI_INTERP_INVALID;
   }
   if (in->nsrc && in->ndst)
      warn_insn(s, in, d);
   return TGSI_INTERP_OK;
}

enum tgsi_interp_status
tgsi_interp_check(const struct tgsi_shader *s, struct diag_list *d)
{
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *dc = &s->decls[i];
      bool bad_mem = dc->file == TGSI_FILE_MEMORY &&
                     ((dc->has_mem_type && dc->mem_type != TGSI_MEMTYPE_SHARED) ||
                      s->stage != TGSI_STAGE_COMP);
      if (bad_mem || dc->file == TGSI_FILE_HWATOMIC || dc->file == TGSI_FILE_CONSTBUF) {
         diag_add(d, DIAG_ERROR, s->name, dc->loc.line, dc->loc.col, NULL,
                  bad_mem ? "the interpreter models only SHARED memory in compute shaders"
                          : "the interpreter does not model the %s file",
                  tgsi_file_names[dc->file]);
         return TGSI_INTERP_UNSUPPORTED;
      }
   }
   for (unsigned i = 0; i < s->ninsns; i++) {
      enum tgsi_interp_status st = check_insn(s, &s->insns[i], d);
      if (st != TGSI_INTERP_OK)
         return st;
   }
   return TGSI_INTERP_OK;
}

/* ------------------------------------------------------------------ */
/* Preparation: register files and operands                             */

static void
grow_count(uint32_t *count, int64_t idx)
{
   if (idx >= 0 && idx < (1 << 20) && (uint32_t)idx + 1 > *count)
      *count = (uint32_t)idx + 1;
}

uint32_t
tgsi_interp_prop(const struct tgsi_shader *s, enum tgsi_property prop, uint32_t dflt)
{
   for (unsigned i = 0; i < s->nprops; i++)
      if (s->props[i].prop == prop)
         return s->props[i].value;
   return dflt;
}

static uint32_t
prim_vertices(uint32_t prim)
{
   switch (prim) {
   case TGSI_PRIM_POINTS:
      return 1;
   case TGSI_PRIM_LINES:
   case TGSI_PRIM_LINE_STRIP:
   case TGSI_PRIM_LINE_LOOP:
      return 2;
   case TGSI_PRIM_LINES_ADJACENCY:
   case TGSI_PRIM_LINE_STRIP_ADJACENCY:
      return 4;
   case TGSI_PRIM_TRIANGLES_ADJACENCY:
   case TGSI_PRIM_TRIANGLE_STRIP_ADJACENCY:
      return 6;
   default:
      return 3;
   }
}

uint32_t
tgsi_interp_subgroup(const struct env *e)
{
   return e->subgroup_size == 64 ? 64 : ENV_SUBGROUP_SIZE;
}

/* Input vertices per lane: the GS input primitive; 4 for tessellation
 * stages (per-vertex reads beyond that are out of range); 1 otherwise. */
uint32_t
tgsi_interp_in_vertices(const struct tgsi_shader *s)
{
   if (s->stage == TGSI_STAGE_GEOM)
      return prim_vertices(tgsi_interp_prop(s, TGSI_PROP_GS_INPUT_PRIMITIVE, TGSI_PRIM_TRIANGLES));
   if (s->stage == TGSI_STAGE_TESS_CTRL || s->stage == TGSI_STAGE_TESS_EVAL)
      return 4;
   return 1;
}

static void
scan_reg(struct tgsi_interp_prog *p, const struct tgsi_reg *r)
{
   if (r->indirect || (unsigned)r->file >= TGSI_FILE_COUNT)
      return;
   grow_count(&p->file_count[r->file], r->index);
}

/* Sizes of the register files from declarations and direct uses. */
static void
size_files(struct tgsi_interp_prog *p, const struct tgsi_shader *s)
{
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if ((unsigned)d->file < TGSI_FILE_COUNT && d->file != TGSI_FILE_CONST)
         grow_count(&p->file_count[d->file], d->last);
      if (d->file == TGSI_FILE_SV && d->has_semantic)
         for (uint32_t k = d->first; k <= d->last && k < 256; k++)
            p->sv_sem[k] = (int32_t)d->semantic;
      if (d->file == TGSI_FILE_SVIEW)
         for (uint32_t k = d->first; k <= d->last && k < 32; k++) {
            p->sview_target[k] = d->target;
            p->sview_ret[k] = d->ret[0];
         }
      if (d->file == TGSI_FILE_MEMORY)
         p->uses_shared = true;
   }
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      for (unsigned k = 0; k < in->nsrc; k++)
         scan_reg(p, &in->src[k].reg);
      if (in->ndst)
         scan_reg(p, &in->dst[0].reg);
   }
   p->file_count[TGSI_FILE_IMM] = s->nimms;
   /* the framebuffer colours FBFETCH reads are inputs after the named ones */
   p->file_count[TGSI_FILE_IN] = MAX2(p->file_count[TGSI_FILE_IN], tgsi_input_count(s));
   p->nin = p->file_count[TGSI_FILE_IN];
   p->nout = p->file_count[TGSI_FILE_OUT];
   p->in_vertices = tgsi_interp_in_vertices(s);
   p->out_vertices = 1;
   if (s->stage == TGSI_STAGE_TESS_CTRL)
      p->out_vertices = MAX2(1u, MIN2(32u, tgsi_interp_prop(s, TGSI_PROP_TCS_VERTICES_OUT, 1)));
   if (s->stage == TGSI_STAGE_GEOM)
      p->gs_max_vertices = MIN2(1024u, tgsi_interp_prop(s, TGSI_PROP_GS_MAX_OUTPUT_VERTICES, 1));
}

static uint32_t
const_slot(struct tgsi_interp_prog *p, uint32_t buf, uint32_t idx, unsigned chan)
{
   uint32_t key = buf << 16 | (idx & 0xffff);
   uint32_t n = p->file_count[TGSI_FILE_CONST];
   for (uint32_t r = 0; r < n; r++)
      if (p->const_key[r] == key)
         return p->file_base[TGSI_FILE_CONST] + r * 4 + chan;
   return TI_SLOT_UNDEF;
}

static void
collect_consts(struct tgsi_interp_prog *p, const struct tgsi_shader *s)
{
   uint32_t n = 0, cap = 0;
   p->const_key = NULL;
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      for (unsigned k = 0; k < in->nsrc; k++) {
         const struct tgsi_reg *r = &in->src[k].reg;
         if (r->file != TGSI_FILE_CONST || r->indirect || r->dim_indirect || r->index < 0 ||
             r->index > 0xffff || (r->has_dim && (r->dim < 0 || r->dim >= ENV_MAX_CBUFS)))
            continue;
         uint32_t key = (uint32_t)(r->has_dim ? r->dim : 0) << 16 | (uint32_t)r->index;
         bool seen = false;
         for (uint32_t j = 0; j < n && !seen; j++)
            seen = p->const_key[j] == key;
         if (!seen)
            VEC_PUSH(p->const_key, n, cap, key);
      }
   }
   p->file_count[TGSI_FILE_CONST] = n;
   p->const_chans = xcalloc(n + 1, 1); /* set by resolve_src */
}

/* Slots: zero, undef, then TEMP OUT ADDR IMM CONST (batch storage), then
 * IN and SV (pointers into the env). */
static void
layout_slots(struct tgsi_interp_prog *p)
{
   static const enum tgsi_file stored[] = {TGSI_FILE_TEMP, TGSI_FILE_OUT, TGSI_FILE_ADDR,
                                           TGSI_FILE_IMM, TGSI_FILE_CONST};
   uint32_t next = 2;
   for (unsigned k = 0; k < ARRAY_SIZE(stored); k++) {
      enum tgsi_file f = stored[k];
      uint32_t verts = f == TGSI_FILE_OUT ? p->out_vertices : 1;
      p->file_base[f] = next;
      next += p->file_count[f] * 4 * verts;
   }
   p->nstore = next;
   p->file_base[TGSI_FILE_IN] = next;
   next += p->nin * 4 * p->in_vertices;
   p->file_base[TGSI_FILE_SV] = next;
   next += p->file_count[TGSI_FILE_SV] * 4;
   p->nslots = next;
}

/* Vertices of a per-vertex file, 1 for the others. */
static uint32_t
file_vertices(const struct tgsi_interp_prog *p, enum tgsi_file f)
{
   return f == TGSI_FILE_IN ? p->in_vertices : f == TGSI_FILE_OUT ? p->out_vertices : 1;
}

static bool
has_slots(enum tgsi_file f)
{
   return f == TGSI_FILE_TEMP || f == TGSI_FILE_OUT || f == TGSI_FILE_ADDR || f == TGSI_FILE_IMM ||
          f == TGSI_FILE_IN || f == TGSI_FILE_SV;
}

/* Slot of FILE[vertex][index].chan, or TI_SLOT_UNDEF out of range. */
static uint32_t
reg_slot(const struct tgsi_interp_prog *p, enum tgsi_file f, int64_t vertex, int64_t index,
         unsigned chan)
{
   uint32_t count = p->file_count[f], verts = file_vertices(p, f);
   if (f == TGSI_FILE_IN)
      count = p->nin;
   if (!has_slots(f) || index < 0 || index >= count || vertex < 0 || vertex >= verts)
      return TI_SLOT_UNDEF;
   return p->file_base[f] + (uint32_t)((vertex * count + index) * 4 + chan);
}

static uint32_t
addr_slot(const struct tgsi_interp_prog *p, const struct tgsi_ind *ind)
{
   return reg_slot(p, ind->file, 0, ind->index, ind->comp & 3);
}

/* The registers an indirect TEMP access may reach: with an array id, that
 * array's declared range (TGSI's ARRAY(n) says the address stays inside
 * it, and compilers that keep each array apart -- opt's IR, a driver
 * allocating it in scratch -- read something else or nothing outside it),
 * else the whole file. */
static void
array_range(const struct tgsi_interp_prog *p, const struct tgsi_reg *r, uint32_t *first,
            uint32_t *count)
{
   *first = 0;
   *count = p->file_count[TGSI_FILE_TEMP];
   if (r->file != TGSI_FILE_TEMP || !r->indirect || !r->array_id)
      return;
   for (unsigned i = 0; i < p->s->ndecls; i++) {
      const struct tgsi_decl *d = &p->s->decls[i];
      if (d->file == TGSI_FILE_TEMP && d->array_id == r->array_id && d->first <= d->last &&
          d->last < *count) {
         *first = d->first;
         *count = d->last - d->first + 1;
         return;
      }
   }
}

static void
resolve_src(struct tgsi_interp_prog *p, struct tgsi_interp_src *d, const struct tgsi_src *s,
            uint8_t type)
{
   const struct tgsi_reg *r = &s->reg;
   d->file = r->file;
   d->index = r->index;
   memcpy(d->swz, s->swz, 4);
   d->type = type;
   d->neg = s->neg;
   d->abs = s->abs;
   d->indirect = r->indirect;
   d->dim_indirect = r->has_dim && r->dim_indirect;
   d->dim = r->has_dim ? r->dim : 0;
   d->addr_slot = r->indirect ? addr_slot(p, &r->ind) : TI_SLOT_ZERO;
   d->dimaddr_slot = d->dim_indirect ? addr_slot(p, &r->dim_ind) : TI_SLOT_ZERO;
   array_range(p, r, &d->arr_first, &d->arr_count);
   /* a register's four channels are consecutive slots: the register is
    * looked up once */
   uint32_t x;
   if (r->file == TGSI_FILE_CONST)
      x = r->dim < 0 ? TI_SLOT_UNDEF : const_slot(p, (uint32_t)d->dim, (uint32_t)r->index, 0);
   else if (r->file == TGSI_FILE_NULL)
      x = TI_SLOT_ZERO;
   else
      x = reg_slot(p, r->file, d->dim, r->index, 0);
   bool reg = x != TI_SLOT_UNDEF && x != TI_SLOT_ZERO;
   for (unsigned c = 0; c < 4; c++)
      d->slot[c] = reg ? x + (s->swz[c] & 3u) : x;
   /* fill_consts fills the channels read alone (an indirect read takes
    * the env's words, not the slots) */
   if (r->file == TGSI_FILE_CONST && reg)
      for (unsigned c = 0; c < 4; c++)
         p->const_chans[(x - p->file_base[TGSI_FILE_CONST]) / 4] |=
             (uint8_t)(1u << (s->swz[c] & 3));
}

static void
resolve_dst(struct tgsi_interp_prog *p, struct tgsi_interp_dst *d, const struct tgsi_dst *s)
{
   const struct tgsi_reg *r = &s->reg;
   d->file = r->file;
   d->index = r->index;
   d->mask = s->mask;
   d->indirect = r->indirect;
   d->dim_indirect = r->has_dim && r->dim_indirect;
   d->dim = r->has_dim ? r->dim : 0;
   d->addr_slot = r->indirect ? addr_slot(p, &r->ind) : TI_SLOT_ZERO;
   d->dimaddr_slot = d->dim_indirect ? addr_slot(p, &r->dim_ind) : TI_SLOT_ZERO;
   array_range(p, r, &d->arr_first, &d->arr_count);
   bool writable =
       r->file == TGSI_FILE_TEMP || r->file == TGSI_FILE_OUT || r->file == TGSI_FILE_ADDR;
   uint32_t x = writable ? reg_slot(p, r->file, d->dim, r->index, 0) : TI_NO_SLOT;
   bool reg = x != TI_NO_SLOT && x != TI_SLOT_UNDEF;
   for (unsigned c = 0; c < 4; c++)
      d->slot[c] = reg ? x + c : x;
}

static void
resolve_insn(struct tgsi_interp_prog *p, struct tgsi_interp_insn *ti, const struct tgsi_insn *in)
{
   /* set here in full (the array is allocated unset: ~400 bytes an
    * instruction) */
   *ti = (struct tgsi_interp_insn){
       .in = in, .op = in->op, .nsrc = in->nsrc, .jump = -1, .region = -1};
   for (unsigned k = 0; k < in->nsrc && k < TGSI_MAX_SRC; k++)
      resolve_src(p, &ti->src[k], &in->src[k], tgsi_interp_src_type(in->op, k));
   if (in->op == TGSI_OP_FBFETCH) { /* a copy of the pixel's colour, an input */
      struct tgsi_src fb = in->src[0];
      fb.reg.file = TGSI_FILE_IN;
      fb.reg.index = (int32_t)tgsi_fbfetch_input(p->s, (uint32_t)in->src[0].reg.index);
      fb.reg.has_dim = false;
      resolve_src(p, &ti->src[0], &fb, TGSI_TYPE_F);
      ti->op = TGSI_OP_MOV;
   }
   if (in->ndst)
      resolve_dst(p, &ti->dst, &in->dst[0]);
   else
      ti->dst.file = TGSI_FILE_NULL;
   if (in->noffsets) {
      struct tgsi_src off = {.reg = in->offsets[0].reg};
      memcpy(off.swz, in->offsets[0].swz, 3);
      off.swz[3] = TGSI_SWZ_X;
      resolve_src(p, &ti->texoff, &off, TGSI_TYPE_I);
      ti->has_texoff = true;
   }
}

/* ------------------------------------------------------------------ */
/* Preparation: control structure and regions                           */

struct cf_entry {
   enum tgsi_opcode op;
   int32_t at;    /* the opening instruction */
   int32_t inner; /* IF: its ELSE, if any */
};

static bool
prep_error(const struct tgsi_shader *s, struct diag_list *d, const struct tgsi_insn *in,
           const char *fmt, const char *what)
{
   diag_add(d, DIAG_ERROR, s->name, in ? in->loc.line : 0, in ? in->loc.col : 0, NULL, fmt, what);
   return false;
}

static int32_t
new_region(struct tgsi_interp_prog *p)
{
   p->regions = xrealloc(p->regions, (p->nregions + 1) * sizeof(*p->regions));
   memset(&p->regions[p->nregions], 0, sizeof(*p->regions));
   return (int32_t)p->nregions++;
}

static bool
find_switch_cases(struct tgsi_interp_prog *p, int32_t sw, int32_t end)
{
   int32_t *cases = xmalloc((size_t)(end - sw + 1) * sizeof(int32_t));
   unsigned n = 0;
   int depth = 0;
   for (int32_t i = sw + 1; i < end; i++) {
      enum tgsi_opcode op = p->insns[i].op;
      if (op == TGSI_OP_SWITCH)
         depth++;
      else if (op == TGSI_OP_ENDSWITCH)
         depth--;
      else if (op == TGSI_OP_CASE && depth == 0)
         cases[n++] = i;
   }
   cases[n] = -1;
   p->insns[sw].cases = cases;
   return true;
}

/* Pairs the structured instructions; returns false on malformed nesting. */
static bool
match_structure(struct tgsi_interp_prog *p, const struct tgsi_shader *s, struct diag_list *d)
{
   struct cf_entry st[TGSI_INTERP_MAX_DEPTH];
   unsigned top = 0;
   p->main_region = -1;
   for (unsigned i = 0; i < p->ninsns; i++) {
      struct tgsi_interp_insn *ti = &p->insns[i];
      const struct tgsi_insn *in = ti->in;
      enum tgsi_opcode op = ti->op;
      bool opens = op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_BGNLOOP ||
                   op == TGSI_OP_SWITCH || op == TGSI_OP_BGNSUB;
      if (opens) {
         if (top == TGSI_INTERP_MAX_DEPTH)
            return prep_error(s, d, in, "control flow nested deeper than %s levels", "64");
         st[top++] = (struct cf_entry){op == TGSI_OP_UIF ? TGSI_OP_IF : op, (int32_t)i, -1};
         ti->region = new_region(p);
         continue;
      }
      struct cf_entry *e = top ? &st[top - 1] : NULL;
      switch (op) {
      case TGSI_OP_ELSE:
         if (!e || e->op != TGSI_OP_IF || e->inner >= 0)
            return prep_error(s, d, in, "%s without a matching IF", "ELSE");
         p->insns[e->at].jump = (int32_t)i;
         e->inner = (int32_t)i;
         break;
      case TGSI_OP_ENDIF:
         if (!e || e->op != TGSI_OP_IF)
            return prep_error(s, d, in, "%s without a matching IF", "ENDIF");
         p->insns[e->inner >= 0 ? e->inner : e->at].jump = (int32_t)i;
         top--;
         break;
      case TGSI_OP_ENDLOOP:
         if (!e || e->op != TGSI_OP_BGNLOOP)
            return prep_error(s, d, in, "%s without a matching BGNLOOP", "ENDLOOP");
         p->insns[e->at].jump = (int32_t)i;
         ti->jump = e->at;
         top--;
         break;
      case TGSI_OP_ENDSWITCH:
         if (!e || e->op != TGSI_OP_SWITCH)
            return prep_error(s, d, in, "%s without a matching SWITCH", "ENDSWITCH");
         p->insns[e->at].jump = (int32_t)i;
         find_switch_cases(p, e->at, (int32_t)i);
         top--;
         break;
      case TGSI_OP_CASE:
      case TGSI_OP_DEFAULT:
         if (!e || e->op != TGSI_OP_SWITCH)
            return prep_error(s, d, in, "%s outside a SWITCH", tgsi_op_info[op].name);
         break;
      case TGSI_OP_ENDSUB:
         if (!e || e->op != TGSI_OP_BGNSUB)
            return prep_error(s, d, in, "%s without a matching BGNSUB", "ENDSUB");
         p->insns[e->at].jump = (int32_t)i;
         top--;
         break;
      case TGSI_OP_BRK:
      case TGSI_OP_CONT: {
         bool ok = false;
         for (unsigned k = top; k-- > 0 && st[k].op != TGSI_OP_BGNSUB && !ok;)
            ok = st[k].op == TGSI_OP_BGNLOOP || (op == TGSI_OP_BRK && st[k].op == TGSI_OP_SWITCH);
         if (!ok)
            return prep_error(s, d, in, "%s outside a loop", tgsi_op_info[op].name);
         break;
      }
      case TGSI_OP_END:
         if (top)
            return prep_error(s, d, in, "%s inside a control-flow construct", "END");
         if (p->main_region < 0) {
            p->main_region = new_region(p);
            ti->jump = 0;
         }
         break;
      default:
         break;
      }
   }
   if (top)
      return prep_error(s, d, p->insns[st[top - 1].at].in, "%s is never closed",
                        tgsi_op_info[st[top - 1].op].name);
   if (p->main_region < 0)
      return prep_error(s, d, NULL, "the shader has no %s", "END");
   return true;
}

/* CAL targets: the label is the index of a BGNSUB. */
static bool
match_calls(struct tgsi_interp_prog *p, const struct tgsi_shader *s, struct diag_list *d)
{
   for (unsigned i = 0; i < p->ninsns; i++) {
      struct tgsi_interp_insn *ti = &p->insns[i];
      if (ti->op != TGSI_OP_CAL)
         continue;
      int64_t t = ti->in->label;
      if (!(t >= 0 && t < p->ninsns && p->insns[t].op == TGSI_OP_BGNSUB) && ti->in->target >= 0 &&
          ti->in->target < (int32_t)p->ninsns && p->insns[ti->in->target].op == TGSI_OP_BGNSUB)
         t = ti->in->target;
      if (t < 0 || t >= p->ninsns || p->insns[t].op != TGSI_OP_BGNSUB) {
         diag_add(d, DIAG_ERROR, s->name, ti->in->loc.line, ti->in->loc.col, NULL,
                  "CAL target %u is not a BGNSUB", (unsigned)ti->in->label);
         return false;
      }
      ti->jump = (int32_t)t;
   }
   return true;
}

struct region_build {
   uint8_t *bits;  /* nslots bits per region */
   uint8_t *state; /* per region: 0 new, 1 in progress, 2 done */
   uint32_t words;
};

static void
mark_slot(uint8_t *bits, uint32_t slot)
{
   bits[slot >> 3] |= (uint8_t)(1u << (slot & 7));
}

static void
mark_file(const struct tgsi_interp_prog *p, uint8_t *bits, enum tgsi_file f)
{
   uint32_t count = (f == TGSI_FILE_IN ? p->nin : p->file_count[f]) * 4 * file_vertices(p, f);
   for (uint32_t k = 0; k < count; k++)
      mark_slot(bits, p->file_base[f] + k);
}

/* What instruction ti writes, into region r. */
static void
insn_writes(const struct tgsi_interp_prog *p, const struct tgsi_interp_insn *ti, uint8_t *bits,
            struct tgsi_interp_region *r)
{
   const struct tgsi_interp_dst *d = &ti->dst;
   if (d->file == TGSI_FILE_TEMP || d->file == TGSI_FILE_OUT || d->file == TGSI_FILE_ADDR) {
      if (d->indirect || d->dim_indirect) {
         mark_file(p, bits, d->file);
      } else {
         for (unsigned c = 0; c < 4; c++)
            if ((d->mask & (1u << c)) && d->slot[c] != TI_NO_SLOT && d->slot[c] > TI_SLOT_UNDEF)
               mark_slot(bits, d->slot[c]);
      }
   }
   bool store = ti->op == TGSI_OP_STORE;
   bool atom = (ti->op >= TGSI_OP_ATOMUADD && ti->op <= TGSI_OP_ATOMIMAX) ||
               ti->op == TGSI_OP_ATOMFADD || ti->op == TGSI_OP_ATOMINC_WRAP ||
               ti->op == TGSI_OP_ATOMDEC_WRAP;
   if (store || atom) {
      const struct tgsi_reg *res = store ? &ti->in->dst[0].reg : &ti->in->src[0].reg;
      uint32_t bit = res->indirect || res->index < 0 || res->index >= 32 ? ~0u : 1u << res->index;
      if (res->file == TGSI_FILE_BUFFER)
         r->bufs |= bit;
      else if (res->file == TGSI_FILE_IMAGE)
         r->imgs |= bit;
      else if (res->file == TGSI_FILE_MEMORY)
         r->flags |= TGSI_INTERP_RF_SHARED;
   }
   switch (ti->op) {
   case TGSI_OP_KILL:
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
   case TGSI_OP_DEMOTE:
      r->flags |= TGSI_INTERP_RF_KILL;
      break;
   case TGSI_OP_EMIT:
   case TGSI_OP_ENDPRIM:
      r->flags |= TGSI_INTERP_RF_EMIT;
      mark_file(p, bits, TGSI_FILE_OUT);
      break;
   default:
      break;
   }
}

static bool build_region(struct tgsi_interp_prog *p, struct region_build *rb, int32_t reg,
                         int32_t from, int32_t to, enum tgsi_opcode kind);

/* Adds subroutine sub's region (built on demand) into region reg. */
static bool
add_call(struct tgsi_interp_prog *p, struct region_build *rb, int32_t reg, int32_t sub)
{
   int32_t sr = p->insns[sub].region;
   if (rb->state[sr] == 1)
      return false; /* recursion */
   if (rb->state[sr] == 0 && !build_region(p, rb, sr, sub, p->insns[sub].jump, TGSI_OP_BGNSUB))
      return false;
   uint8_t *dst = rb->bits + (size_t)reg * rb->words, *src = rb->bits + (size_t)sr * rb->words;
   for (uint32_t k = 0; k < rb->words; k++)
      dst[k] |= src[k];
   struct tgsi_interp_region *r = &p->regions[reg], *s = &p->regions[sr];
   r->flags |= s->flags & ~(TGSI_INTERP_RF_BRK | TGSI_INTERP_RF_CONT | TGSI_INTERP_RF_RET);
   r->bufs |= s->bufs;
   r->imgs |= s->imgs;
   return true;
}

/* Region reg spans instructions [from, to] and was opened by kind. */
static bool
build_region(struct tgsi_interp_prog *p, struct region_build *rb, int32_t reg, int32_t from,
             int32_t to, enum tgsi_opcode kind)
{
   rb->state[reg] = 1;
   struct tgsi_interp_region *r = &p->regions[reg];
   uint8_t *bits = rb->bits + (size_t)reg * rb->words;
   int loops = 0, switches = 0;
   for (int32_t i = from; i <= to; i++) {
      const struct tgsi_interp_insn *ti = &p->insns[i];
      if (i > from && ti->op == TGSI_OP_BGNSUB && kind != TGSI_OP_BGNSUB)
         break; /* main ends before the subroutines */
      insn_writes(p, ti, bits, r);
      loops += (ti->op == TGSI_OP_BGNLOOP) - (ti->op == TGSI_OP_ENDLOOP);
      switches += (ti->op == TGSI_OP_SWITCH) - (ti->op == TGSI_OP_ENDSWITCH);
      bool inner_loop = loops > (kind == TGSI_OP_BGNLOOP);
      bool inner_sw = switches > (kind == TGSI_OP_SWITCH);
      if (ti->op == TGSI_OP_BRK && kind == TGSI_OP_IF && !inner_loop && !inner_sw)
         r->flags |= TGSI_INTERP_RF_BRK;
      if (ti->op == TGSI_OP_CONT && (kind == TGSI_OP_IF || kind == TGSI_OP_SWITCH) && !inner_loop)
         r->flags |= TGSI_INTERP_RF_CONT;
      if (ti->op == TGSI_OP_RET)
         r->flags |= TGSI_INTERP_RF_RET;
      if (ti->op == TGSI_OP_CAL && !add_call(p, rb, reg, ti->jump))
         return false;
      if (ti->op == TGSI_OP_END && kind == TGSI_OP_BGNSUB)
         break;
   }
   rb->state[reg] = 2;
   return true;
}

static void
region_to_list(struct tgsi_interp_prog *p, struct region_build *rb, int32_t reg)
{
   struct tgsi_interp_region *r = &p->regions[reg];
   const uint8_t *bits = rb->bits + (size_t)reg * rb->words;
   unsigned cap = 0;
   for (uint32_t s = 0; s < p->nslots; s++)
      if (bits[s >> 3] & (1u << (s & 7)))
         VEC_PUSH(r->slots, r->nslots, cap, s);
}

static bool
build_regions(struct tgsi_interp_prog *p, const struct tgsi_shader *s, struct diag_list *d)
{
   struct region_build rb;
   rb.words = (p->nslots + 7) / 8;
   rb.bits = xcalloc((size_t)p->nregions * rb.words + 1, 1);
   rb.state = xcalloc(p->nregions + 1, 1);
   bool ok = true;
   int32_t end = -1;
   for (unsigned i = 0; i < p->ninsns && ok; i++) {
      const struct tgsi_interp_insn *ti = &p->insns[i];
      if (ti->op == TGSI_OP_END && end < 0)
         end = (int32_t)i;
      if (ti->region < 0 || rb.state[ti->region])
         continue;
      enum tgsi_opcode kind = ti->op == TGSI_OP_UIF ? TGSI_OP_IF : ti->op;
      int32_t last = ti->jump;
      if (p->insns[last].op == TGSI_OP_ELSE)
         last = p->insns[last].jump;
      ok = build_region(p, &rb, ti->region, (int32_t)i, last, kind);
   }
   if (ok)
      ok = build_region(p, &rb, p->main_region, 0, end, TGSI_OP_BGNSUB);
   if (!ok)
      prep_error(s, d, NULL, "%s", "recursive subroutine calls");
   for (unsigned r = 0; r < p->nregions && ok; r++)
      region_to_list(p, &rb, (int32_t)r);
   free(rb.bits);
   free(rb.state);
   return ok;
}

static void
prog_free(struct tgsi_interp_prog *p)
{
   for (unsigned i = 0; i < p->ninsns; i++)
      free(p->insns[i].cases);
   for (unsigned r = 0; r < p->nregions; r++)
      free(p->regions[r].slots);
   free(p->regions);
   free(p->insns);
   free(p->const_key);
   free(p->const_chans);
}

static enum tgsi_interp_status
prepare(struct tgsi_interp_prog *p, const struct tgsi_shader *s, struct diag_list *d)
{
   memset(p, 0, sizeof(*p));
   p->s = s;
   for (unsigned k = 0; k < ARRAY_SIZE(p->sv_sem); k++)
      p->sv_sem[k] = -1;
   for (unsigned k = 0; k < 32; k++) {
      p->sview_target[k] = TGSI_TEX_T_UNKNOWN;
      p->sview_ret[k] = TGSI_RET_FLOAT;
   }
   enum tgsi_interp_status st = tgsi_interp_check(s, d);
   if (st != TGSI_INTERP_OK)
      return st;
   size_files(p, s);
   collect_consts(p, s);
   layout_slots(p);
   p->ninsns = s->ninsns;
   p->insns = xmalloc((s->ninsns + 1) * sizeof(*p->insns));
   memset(&p->insns[s->ninsns], 0, sizeof(*p->insns)); /* the others: resolve_insn */
   for (unsigned i = 0; i < s->ninsns; i++)
      resolve_insn(p, &p->insns[i], &s->insns[i]);
   if (!match_structure(p, s, d) || !match_calls(p, s, d) || !build_regions(p, s, d))
      return TGSI_INTERP_INVALID;
   return TGSI_INTERP_OK;
}

/* ------------------------------------------------------------------ */
/* Batches                                                              */

/* The batch's lane arrays, carved from one block: a run at 1024 lanes
 * made some 70 zeroed allocations of a few hundred words each. Zeroed
 * here are the lane arrays and the slots batch_begin does not reset
 * (zero, undef, IMM and CONST: their flags stay 0). */
struct batch_mem {
   uint32_t *block, *next;
   uint32_t stride; /* words per lane array */
};

static uint32_t *
lanes_array(struct batch_mem *bm)
{
   uint32_t *a = bm->next;
   bm->next += bm->stride;
   return a;
}

#define TI_LANE_ARRAYS (15 + 8 + 8 * TGSI_MAX_SRC + 8)

static void
batch_alloc(struct tgsi_interp_batch *b, struct batch_mem *bm, uint32_t cap)
{
   const struct tgsi_interp_prog *p = b->p;
   /* the slots' pointers, one block: the stored slots' are set below,
    * IN and SV's by batch_begin, and they own no storage */
   size_t ns = p->nslots + 1;
   b->val = xmalloc(4 * ns * sizeof(*b->val));
   b->flg = b->val + ns;
   b->own_v = b->flg + ns;
   b->own_f = b->own_v + ns;
   for (size_t k = p->nstore; k < ns; k++)
      b->val[k] = b->flg[k] = b->own_v[k] = b->own_f[k] = NULL;
   /* 16 words apart, so that each array starts 64-byte aligned */
   bm->stride = (cap + 1 + 15) & ~15u;
   size_t stride = bm->stride, temps = p->file_base[TGSI_FILE_IMM];
   bm->block = xmalloc((stride * (2 * p->nstore + TI_LANE_ARRAYS) + 16) * 4);
   bm->next = (uint32_t *)(((uintptr_t)bm->block + 63) & ~(uintptr_t)63);
   b->store_v = bm->next;
   b->store_f = bm->next + stride * p->nstore;
   bm->next = b->store_f + stride * p->nstore;
   /* the zero and undefined slots (the values of IMM and CONST are
    * filled in by fill_constants and fill_consts; their flags, never
    * written, are the zero array's) */
   for (unsigned k = 0; k < 2; k++) {
      memset(b->store_v + k * stride, 0, (cap + 1) * 4);
      memset(b->store_f + k * stride, 0, (cap + 1) * 4);
   }
   /* Zeroed: the zero array alone. batch_begin sets the masks and lane
    * facts for the lanes it runs; scratch arrays are written before they
    * are read, tgsi_interp_fetch writes the operand temporaries (tmp_v,
    * tmp_f) in full before it hands them out, and an instruction writes
    * its results in every lane that commit stores (the result arrays
    * trade places with registers' storage, which starts unset). */
   memset(bm->next, 0, (cap + 1) * 4);
   b->stride = bm->stride;
   for (uint32_t k = 0; k < p->nstore; k++) {
      b->val[k] = b->own_v[k] = b->store_v + (size_t)k * bm->stride;
      b->flg[k] = b->own_f[k] = b->store_f + (size_t)k * bm->stride;
   }
   b->zero = lanes_array(bm);
   for (uint32_t k = temps; k < p->nstore; k++)
      b->flg[k] = b->zero;
   for (unsigned c = 0; c < 4; c++) {
      b->res_v[c] = lanes_array(bm);
      b->res_f[c] = lanes_array(bm);
   }
   uint32_t **arrays[] = {&b->cond,     &b->loop,    &b->cont,    &b->sw,         &b->func,
                          &b->alive,    &b->demoted, &b->exec,    &b->main_taint, &b->main_steer,
                          &b->sg_first, &b->sg_end,  &b->gs_prim, &b->draw_start};
   for (unsigned k = 0; k < ARRAY_SIZE(arrays); k++)
      *arrays[k] = lanes_array(bm);
   for (unsigned k = 0; k < ARRAY_SIZE(b->scratch); k++)
      b->scratch[k] = lanes_array(bm);
   for (unsigned c = 0; c < 4; c++)
      for (unsigned s = 0; s < TGSI_MAX_SRC; s++) {
         b->tmp_v[s][c] = lanes_array(bm);
         b->tmp_f[s][c] = lanes_array(bm);
      }
   assert(bm->next <= bm->block + (size_t)bm->stride * (2 * p->nstore + TI_LANE_ARRAYS) + 16);
   /* the frames' masks are allocated by push_frame */
}

static void
batch_free(struct tgsi_interp_batch *b, struct batch_mem *bm)
{
   for (unsigned d = 0; d < b->nframes; d++)
      for (unsigned k = 0; k < TGSI_INTERP_FM_COUNT; k++)
         free(b->frames[d].m[k]);
   free(bm->block);
   free(b->val); /* and flg, own_v, own_f */
}

/* Values that never change during a run: zero/undef slots, IMM. */
static void
fill_constants(struct tgsi_interp_batch *b, uint32_t cap)
{
   const struct tgsi_interp_prog *p = b->p;
   for (uint32_t i = 0; i < cap; i++)
      b->flg[TI_SLOT_UNDEF][i] = ENV_F_UNDEF;
   for (uint32_t r = 0; r < p->file_count[TGSI_FILE_IMM]; r++)
      for (unsigned c = 0; c < 4; c++) {
         uint32_t *v = b->val[p->file_base[TGSI_FILE_IMM] + r * 4 + c];
         uint32_t x = p->s->imms[r].u[c]; /* a local: v may alias imms */
         for (uint32_t i = 0; i < cap; i++)
            v[i] = x;
      }
}

/* Four lanes' draws as one word. */
static inline uint64_t
four_draws(const uint16_t *ld)
{
   uint64_t w;
   memcpy(&w, ld, 8);
   return w;
}

/* The batch's runs of lanes of one draw (draw_start), found when first
 * asked (by CONST: a walk over the lanes that a shader without constants
 * does not need). */
static void
find_draw_runs(struct tgsi_interp_batch *b)
{
   if (b->ndraw_runs)
      return;
   uint32_t *start = b->draw_start, nruns = 0, n = b->n;
   const uint16_t *ld = b->env->lane_draw ? b->env->lane_draw + b->base : NULL;
   for (uint32_t i = 0; i < n;) {
      start[nruns++] = i;
      if (!ld) /* every lane is draw 0 */
         break;
      /* the run's lanes four at a time (a lane at a time was some 13
       * instructions a lane), then one by one */
      uint16_t d = ld[i++];
      uint64_t four = d * 0x0001000100010001ull;
      while (i + 4 <= n && four_draws(ld + i) == four)
         i += 4;
      while (i < n && ld[i] == d)
         i++;
   }
   start[nruns] = n;
   b->ndraw_runs = nruns;
   b->draw = nruns == 1 ? env_draw(b->env, b->base) : UINT32_MAX;
}

/* CONST of the batch's lanes (from base): each lane's draw's. Lanes come
 * in runs of one draw (draw_start): each value is read once per run and
 * filled in. */
DC_LANES
static void
fill_consts(struct tgsi_interp_batch *b, uint32_t base)
{
   const struct tgsi_interp_prog *p = b->p;
   if (!p->file_count[TGSI_FILE_CONST])
      return;
   find_draw_runs(b);
   const uint32_t *start = b->draw_start;
   uint32_t nruns = b->ndraw_runs;
   for (uint32_t r = 0; r < p->file_count[TGSI_FILE_CONST]; r++) {
      uint32_t key = p->const_key[r];
      for (unsigned c = 0; c < 4; c++) {
         if (!(p->const_chans[r] & (1u << c)))
            continue; /* never read: its lanes stay unset */
         uint32_t *v = b->val[p->file_base[TGSI_FILE_CONST] + r * 4 + c];
         for (uint32_t k = 0; k < nruns; k++) {
            uint32_t x =
                env_const(b->env, key >> 16, key & 0xffff, c, env_draw(b->env, base + start[k]));
            /* bounds in locals: v may alias start, so GCC reloaded the end per lane */
            uint32_t from = start[k], to = start[k + 1];
            for (uint32_t i = from; i < to; i++)
               v[i] = x;
         }
      }
   }
}

/* Lanes [base, base + n): registers, masks, and env pointers. */
DC_LANES
static void
batch_begin(struct tgsi_interp_batch *b, uint32_t base, uint32_t n)
{
   const struct tgsi_interp_prog *p = b->p;
   struct env *e = b->env;
   b->base = base;
   b->n = n;
   b->ndraw_runs = 0; /* found on first use: find_draw_runs */
   fill_consts(b, base);
   /* TEMP, OUT and ADDR start undefined: they read the undefined slot
    * until their first write (own_slot) */
   for (uint32_t k = p->file_base[TGSI_FILE_TEMP]; k < p->file_base[TGSI_FILE_IMM]; k++) {
      b->val[k] = b->val[TI_SLOT_UNDEF];
      b->flg[k] = b->flg[TI_SLOT_UNDEF];
   }
   for (uint32_t v = 0; v < p->in_vertices; v++)
      for (uint32_t r = 0; r < p->nin; r++)
         for (unsigned c = 0; c < 4; c++) {
            uint32_t slot = p->file_base[TGSI_FILE_IN] + (v * p->nin + r) * 4 + c;
            bool have = v < e->in_vertices && r < e->nin;
            b->val[slot] = have ? env_in(e, v, r, c) + base : b->val[TI_SLOT_UNDEF];
            b->flg[slot] = have ? b->zero : b->flg[TI_SLOT_UNDEF];
         }
   for (uint32_t k = 0; k < p->file_count[TGSI_FILE_SV]; k++)
      for (unsigned c = 0; c < 4; c++) {
         uint32_t slot = p->file_base[TGSI_FILE_SV] + k * 4 + c;
         int32_t sem = p->sv_sem[k];
         bool have = sem >= 0 && e->sv[sem];
         b->val[slot] = have ? e->sv[sem] + (size_t)c * e->nlanes + base : b->val[TI_SLOT_UNDEF];
         b->flg[slot] = have ? b->zero : b->flg[TI_SLOT_UNDEF];
      }
   uint32_t *masks[] = {b->cond, b->loop, b->cont, b->sw, b->func, b->alive};
   for (unsigned k = 0; k < ARRAY_SIZE(masks); k++)
      memset(masks[k], 0xff, (size_t)n * 4);
   memset(b->demoted, 0, (size_t)n * 4);
   memset(b->main_taint, 0, (size_t)n * 4);
   memset(b->main_steer, 0, (size_t)n * 4);
   memset(b->gs_prim, 0, (size_t)n * 4);
   b->depth = 0;
   b->exec_dirty = true;
   b->steps = 0;
   b->sg_ready = false;
   tgsi_interp_res_begin(b);
}

/* Subgroups: env.subgroup_size (32 or 64) consecutive lanes of a
 * workgroup (the whole dispatch outside compute). Batches start on
 * workgroup and subgroup bounds. Computed for a batch when a subgroup
 * operation first asks. */
void
tgsi_interp_subgroups(struct tgsi_interp_batch *b)
{
   if (b->sg_ready)
      return;
   uint32_t n = b->n, base = b->base;
   uint32_t wgl = b->wg_lanes, sgs = tgsi_interp_subgroup(b->env);
   for (uint32_t i = 0; i < n; i++) {
      uint32_t g = base + i, local = wgl ? g % wgl : g;
      uint32_t first = g - local % sgs;
      uint32_t end = first + sgs;
      if (wgl)
         end = MIN2(end, g - local + wgl);
      b->sg_first[i] = first - base;
      b->sg_end[i] = MIN2(end - base, n);
   }
   b->sg_ready = true;
}

DC_LANES
static void
batch_end(struct tgsi_interp_batch *b)
{
   const struct tgsi_interp_prog *p = b->p;
   struct env *e = b->env;
   uint32_t n = b->n, base = b->base;
   /* UNDEF where the lane's outputs mean nothing. Byte stores may alias
    * anything: restrict lets the loop vectorize. */
   uint32_t *restrict dead = b->scratch[0];
   uint8_t *restrict killed = e->killed + base;
   const uint8_t *restrict kill_undef = e->kill_undef + base;
   const uint32_t *restrict alive = b->alive, *restrict demoted = b->demoted;
   for (uint32_t i = 0; i < n; i++) {
      uint8_t k = (uint8_t)((alive[i] == 0) | (demoted[i] != 0));
      killed[i] = k;
      dead[i] = (uint32_t)((kill_undef[i] != 0) | k) * ENV_F_UNDEF;
   }
   for (uint32_t v = 0; v < p->out_vertices; v++)
      for (uint32_t r = 0; r < p->nout; r++)
         for (unsigned c = 0; c < 4; c++) {
            uint32_t slot = p->file_base[TGSI_FILE_OUT] + (v * p->nout + r) * 4 + c;
            size_t o = env_out_index(e, v, r, c) + base;
            memcpy(e->out + o, b->val[slot], (size_t)n * 4);
            if (e->out_err)
               for (uint32_t i = 0; i < n; i++)
                  e->out_err[o + i] = env_err_bits(b->flg[slot][i]);
            /* A discarded lane's outputs mean nothing. */
            for (uint32_t i = 0; i < n; i++)
               e->out_flags[o + i] = (uint16_t)(b->flg[slot][i] | dead[i]);
         }
   tgsi_interp_res_end(b);
}

bool
tgsi_interp_error(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, const char *fmt,
                  ...)
{
   va_list ap;
   va_start(ap, fmt);
   const struct tgsi_loc *loc = ti ? &ti->in->loc : NULL;
   diag_vadd(b->diags, DIAG_ERROR, b->p->s->name, loc ? loc->line : 0, loc ? loc->col : 0, NULL,
             fmt, ap);
   va_end(ap);
   if (!b->failed)
      b->status = TGSI_INTERP_INVALID;
   b->failed = true;
   return false;
}

/* ------------------------------------------------------------------ */
/* Operands                                                             */

DC_LANES
void
tgsi_interp_update_exec(struct tgsi_interp_batch *b)
{
   unsigned n = b->n;
   uint32_t *e = b->exec, acc = 0, all = ~0u;
   FOR
   {
      e[i] = b->cond[i] & b->loop[i] & b->cont[i] & b->sw[i] & b->func[i] & b->alive[i];
      acc |= e[i];
      all &= e[i];
   }
   b->any_exec = acc != 0;
   b->all_exec = all == ~0u;
   b->exec_dirty = false;
}

/* Register-file geometry for indirect access. */
static void
file_geometry(const struct tgsi_interp_prog *p, enum tgsi_file f, uint32_t *count, uint32_t *verts)
{
   *count = f == TGSI_FILE_IN ? p->nin : p->file_count[f];
   *verts = file_vertices(p, f);
}

/* An indirect CONST source of a directly named buffer: each lane's draw's
 * words read directly, the same values, flags and events as env_const per
 * lane (a slot out of range or a draw beyond ndraws reads 0 and counts
 * CONST_OOB). False if the buffer is unbound. */
DC_LANES
static bool
gather_const(struct tgsi_interp_batch *b, const struct tgsi_interp_src *s, unsigned ch,
             uint32_t *restrict ov, uint32_t *restrict of)
{
   struct env *e = b->env;
   if (s->dim < 0 || s->dim >= ENV_MAX_CBUFS || !e->cbuf[s->dim])
      return false;
   unsigned n = b->n;
   const uint32_t *av = b->val[s->addr_slot], *af = b->flg[s->addr_slot];
   int64_t slots = e->cbuf_slots[s->dim];
   uint32_t oob = 0;
   /* Slot index + x is in range for the addresses x (int32) in [lo, hi):
    * one unsigned compare, x - lo < hi - lo, on 32-bit words (the bounds
    * clamped to int32 first; the range is then below 2^32). In range, the
    * 32-bit sum index + x is the slot itself (below ENV_MAX_CBUF_SLOTS). */
   int64_t lo = MAX2(-(int64_t)s->index, (int64_t)INT32_MIN);
   int64_t hi = MIN2(slots - s->index, (int64_t)INT32_MAX + 1);
   uint32_t xlo = (uint32_t)lo, range = hi > lo ? (uint32_t)(hi - lo) : 0;
   uint32_t index = (uint32_t)s->index, chan = ch & 3;
   FOR
   {
      uint32_t fl = af[i];
      of[i] = fl | (fl & ENV_F_INEXACT ? ENV_F_BITS : 0);
   }
   /* run by run of the batch's lanes of one draw (the inputs' draws are
    * 64 lanes: a batch has several) */
   find_draw_runs(b);
   for (uint32_t k = 0; k < b->ndraw_runs; k++) {
      uint32_t from = b->draw_start[k], to = b->draw_start[k + 1];
      uint32_t draw = env_draw(e, b->base + from);
      if (draw >= e->ndraws) {
         memset(ov + from, 0, (size_t)(to - from) * 4);
         oob += to - from;
         continue;
      }
      if (!range) { /* no address is in range */
         memset(ov + from, 0, (size_t)(to - from) * 4);
         oob += to - from;
         continue;
      }
      const uint32_t *cb = env_cbuf(e, (unsigned)s->dim, draw);
      /* every lane loads (slot 0 for one out of range, then 0): the loop
       * vectorizes with 32-bit lanes and an unmasked gather */
      for (uint32_t i = from; i < to; i++) {
         uint32_t x = av[i];
         uint32_t ok = 0u - (uint32_t)(x - xlo < range); /* all ones in range */
         ov[i] = cb[((index + x) * 4 & ok) + chan] & ok;
         oob += ok + 1; /* 0 in range, else 1 */
      }
   }
   env_count(e, ENV_EV_CONST_OOB, oob);
   return true;
}

/* Per-lane gather of an indirectly addressed source channel. */
DC_LANES
static void
gather(struct tgsi_interp_batch *b, const struct tgsi_interp_src *s, unsigned ch, uint32_t *ov,
       uint32_t *of)
{
   const struct tgsi_interp_prog *p = b->p;
   unsigned n = b->n;
   const uint32_t *av = b->val[s->addr_slot], *af = b->flg[s->addr_slot];
   const uint32_t *dv = b->val[s->dimaddr_slot], *df = b->flg[s->dimaddr_slot];
   uint32_t count, verts;
   file_geometry(p, s->file, &count, &verts);
   enum env_event ev =
       s->file == TGSI_FILE_IN || s->file == TGSI_FILE_SV ? ENV_EV_INPUT_OOB : ENV_EV_REG_OOB;
   if (s->file == TGSI_FILE_CONST && !s->dim_indirect && s->indirect &&
       gather_const(b, s, ch, ov, of))
      return;
   FOR
   {
      int64_t idx = (int64_t)s->index + (s->indirect ? (int32_t)av[i] : 0);
      int64_t dim = (int64_t)s->dim + (s->dim_indirect ? (int32_t)dv[i] : 0);
      uint32_t fl = (s->indirect ? af[i] : 0) | (s->dim_indirect ? df[i] : 0);
      /* an address from a value known within a tolerance names any register */
      fl |= fl & ENV_F_INEXACT ? ENV_F_BITS : 0;
      if (s->file == TGSI_FILE_CONST) {
         bool ok = dim >= 0 && dim < ENV_MAX_CBUFS;
         ov[i] = ok ? env_const(b->env, (unsigned)dim, idx, ch, env_draw(b->env, b->base + i)) : 0;
         if (!ok)
            env_count(b->env, ENV_EV_CONST_OOB, 1);
         of[i] = fl;
      } else if (has_slots(s->file) && idx >= 0 && idx < count && dim >= 0 && dim < verts &&
                 (s->file != TGSI_FILE_TEMP || (uint64_t)(idx - s->arr_first) < s->arr_count)) {
         uint32_t slot = p->file_base[s->file] + (uint32_t)((dim * count + idx) * 4 + ch);
         ov[i] = b->val[slot][i];
         of[i] = b->flg[slot][i] | fl;
      } else {
         env_count(b->env, ev, 1);
         ov[i] = 0;
         of[i] = fl | ENV_F_UNDEF;
      }
   }
}

/* The flags of values fetched as integers: BITS added where the bits are
 * not fixed -- an inexact float (ENV_F_INEXACT: within a tolerance, its
 * bits read by AND, USHR, UIF or as an address can come out anything), a
 * NaN an operation made (implementations differ in its sign and payload),
 * or a zero whose sign MIN/MAX left open; for the last two also NANBITS:
 * no model fixes those bits, so ref and opt may differ there too. A value with a bound (a fused
 * program's may lie within it: tgsi_interp_bound.c) has bits anywhere in
 * that interval: its integer view is unbounded.
 * Returns f itself when no lane needs it (the common case), else tf. */
DC_LANES
static const uint32_t *
int_view_flags(unsigned n, const uint32_t *v, const uint32_t *f, uint32_t *tf)
{
   const uint32_t err = ENV_ERR_MASK, unbounded = 0x7f80u << ENV_ERR_SHIFT;
   uint32_t any = 0;
   FOR any |= f[i];
   if (!(any & (ENV_F_INEXACT | ENV_F_NAN | ENV_F_ZSIGN | err)))
      return f;
   /* branch-free, so the loop vectorizes */
   FOR
   {
      uint32_t open = (uint32_t)((f[i] & ENV_F_NAN) != 0) | ((uint32_t)((f[i] & ENV_F_ZSIGN) != 0) &
                                                             (uint32_t)((v[i] & 0x7fffffffu) == 0));
      uint32_t bits = (uint32_t)((f[i] & ENV_F_INEXACT) != 0) | open;
      uint32_t wide = 0u - (uint32_t)((f[i] & err) != 0);
      tf[i] = ((f[i] & ~(err & wide)) | (unbounded & wide)) | (ENV_F_BITS & (0u - bits)) |
              (ENV_F_NANBITS & (0u - open));
   }
   return tf;
}

DC_LANES
void
tgsi_interp_fetch(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned si,
                  unsigned c, const uint32_t **pv, const uint32_t **pf)
{
   const struct tgsi_interp_src *s = si < TGSI_MAX_SRC ? &ti->src[si] : &ti->texoff;
   unsigned n = b->n;
   uint32_t *tv = b->tmp_v[si % TGSI_MAX_SRC][c], *tf = b->tmp_f[si % TGSI_MAX_SRC][c];
   const uint32_t *v, *f;
   if (s->indirect || s->dim_indirect) {
      gather(b, s, s->swz[c] & 3, tv, tf);
      v = tv;
      f = tf;
   } else {
      v = b->val[s->slot[c]];
      f = b->flg[s->slot[c]];
   }
   bool wide = s->type == TGSI_TYPE_D || s->type == TGSI_TYPE_I64 || s->type == TGSI_TYPE_U64;
   /* UCMP's operands and STORE's data are copied, not read as integers */
   bool copied = si >= 1 && (ti->op == TGSI_OP_UCMP || ti->op == TGSI_OP_STORE);
   /* the zero array (IMM, CONST, IN, SV) has no flag to view */
   if (s->type != TGSI_TYPE_F && s->type != TGSI_TYPE_D && !copied && f != b->zero)
      f = int_view_flags(n, v, f, tf);
   if (!wide && (s->neg || s->abs)) {
      if (s->type == TGSI_TYPE_F) {
         /* a NaN's sign after a modifier is not fixed: negation may flip
          * it or compute 0 - x, which gives the canonical NaN */
         uint32_t andm = s->abs ? 0x7fffffffu : ~0u, xorm = s->neg ? 0x80000000u : 0;
         FOR
         {
            tf[i] = f[i] | ((v[i] & 0x7fffffffu) > 0x7f800000u ? ENV_F_NAN : 0);
            tv[i] = (v[i] & andm) ^ xorm;
         }
         f = tf;
      } else {
         FOR tv[i] = 0u - v[i];
      }
      v = tv;
   }
   *pv = v;
   *pf = f;
}

DC_LANES
static void
saturate(unsigned n, uint32_t *v)
{
   FOR
   {
      float x = uif(v[i]);
      v[i] = x > 0.0f ? (x < 1.0f ? v[i] : 0x3f800000u) : 0;
   }
}

/* The lanes of the execution mask e take v and f. */
DC_LANES
static void
blend(unsigned n, uint32_t *d, uint32_t *df, const uint32_t *v, const uint32_t *f,
      const uint32_t *e)
{
   FOR
   {
      uint32_t m = e[i];
      d[i] = (v[i] & m) | (d[i] & ~m);
      df[i] = (f[i] & m) | (df[i] & ~m);
   }
}

/* A TEMP, OUT or ADDR slot still reading the undefined slot gets its own
 * storage before its first write: undefined zeros in each lane, unless
 * the write covers every lane (fill false). Writes that only add
 * ENV_F_UNDEF (region taint, EMIT) leave the undefined slot as it is and
 * need no storage. */
static inline void
own_slot(struct tgsi_interp_batch *b, uint32_t slot, bool fill)
{
   if (b->val[slot] != b->val[TI_SLOT_UNDEF])
      return;
   uint32_t *v = b->own_v[slot], *f = b->own_f[slot];
   if (fill) {
      memset(v, 0, (size_t)b->n * 4);
      memcpy(f, b->flg[TI_SLOT_UNDEF], (size_t)b->n * 4);
   }
   b->val[slot] = v;
   b->flg[slot] = f;
}

/* Marks every slot of a register file undefined for one lane. */
static void
taint_file_lane(struct tgsi_interp_batch *b, enum tgsi_file f, uint32_t i)
{
   const struct tgsi_interp_prog *p = b->p;
   uint32_t count, verts;
   file_geometry(p, f, &count, &verts);
   for (uint32_t k = 0; k < count * verts * 4; k++)
      b->flg[p->file_base[f] + k][i] |= ENV_F_UNDEF;
}

/* Indirect destination: each lane writes where its own address points,
 * as compilers index (tgsi_exec uses the quad's first active lane's
 * address for all four). A lane whose address is undefined or out of
 * range may write anywhere in the file: it gets the whole file undefined. */
DC_LANES
static void
commit_indirect(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned mask)
{
   const struct tgsi_interp_prog *p = b->p;
   const struct tgsi_interp_dst *d = &ti->dst;
   const uint32_t *av = b->val[d->addr_slot], *af = b->flg[d->addr_slot];
   const uint32_t *dv = b->val[d->dimaddr_slot], *df = b->flg[d->dimaddr_slot];
   uint32_t count, verts;
   file_geometry(p, d->file, &count, &verts);
   for (uint32_t k = 0; k < count * verts * 4; k++)
      own_slot(b, p->file_base[d->file] + k, true);
   for (uint32_t i = 0; i < b->n; i++) {
      if (!b->exec[i])
         continue;
      int64_t idx = (int64_t)d->index + (d->indirect ? (int32_t)av[i] : 0);
      int64_t dim = (int64_t)d->dim + (d->dim_indirect ? (int32_t)dv[i] : 0);
      bool ok = idx >= 0 && idx < count && dim >= 0 && dim < verts &&
                (d->file != TGSI_FILE_TEMP || (uint64_t)(idx - d->arr_first) < d->arr_count);
      /* an address from a value known within a tolerance names any register */
      const uint32_t unsure = ENV_F_UNDEF | ENV_F_BITS | ENV_F_INEXACT;
      bool undef = (d->indirect && (af[i] & unsure)) || (d->dim_indirect && (df[i] & unsure));
      if (!ok)
         env_count(b->env, ENV_EV_REG_OOB, 1);
      if (!ok || undef) {
         taint_file_lane(b, d->file, i);
         continue;
      }
      for (unsigned c = 0; c < 4; c++) {
         if (!(mask & (1u << c)))
            continue;
         uint32_t slot = p->file_base[d->file] + (uint32_t)((dim * count + idx) * 4 + c);
         b->val[slot][i] = b->res_v[c][i];
         b->flg[slot][i] = b->res_f[c][i];
      }
   }
}

/* Stores the computed channels of mask to the destination, for the lanes
 * of the execution mask, saturating first if asked. */
static void
commit(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned mask)
{
   const struct tgsi_interp_dst *d = &ti->dst;
   if (d->file != TGSI_FILE_TEMP && d->file != TGSI_FILE_OUT && d->file != TGSI_FILE_ADDR)
      return;
   if (ti->in->sat)
      for (unsigned c = 0; c < 4; c++)
         if (mask & (1u << c))
            saturate(b->n, b->res_v[c]);
   if (d->indirect || d->dim_indirect) {
      commit_indirect(b, ti, mask);
      return;
   }
   for (unsigned c = 0; c < 4; c++) {
      uint32_t slot = d->slot[c];
      if (!(mask & (1u << c)) || slot == TI_NO_SLOT || slot < 2)
         continue;
      if (b->all_exec) {
         /* every lane takes the result: the result's arrays become the
          * slot's storage, and the slot's old storage the result's */
         uint32_t *v = b->own_v[slot], *f = b->own_f[slot];
         b->val[slot] = b->own_v[slot] = b->res_v[c];
         b->flg[slot] = b->own_f[slot] = b->res_f[c];
         b->res_v[c] = v;
         b->res_f[c] = f;
         continue;
      }
      own_slot(b, slot, true);
      blend(b->n, b->val[slot], b->flg[slot], b->res_v[c], b->res_f[c], b->exec);
   }
}

/* ------------------------------------------------------------------ */
/* Running                                                              */

/* The ops made of float adds and multiplies, which --opt inexact's x + 0
 * -> x and x * 0 -> 0 may rewrite: a zero result may come out with the
 * other sign (-0 + 0 is +0, x stays -0; -2 * 0 is -0, the fold +0). */
static bool
zero_sign_open(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_ADD:
   case TGSI_OP_SUB:
   case TGSI_OP_MUL:
   case TGSI_OP_MAD:
   case TGSI_OP_FMA:
   case TGSI_OP_LRP:
   case TGSI_OP_DP2:
   case TGSI_OP_DP3:
   case TGSI_OP_DP4:
   case TGSI_OP_DPH:
   case TGSI_OP_XPD:
   case TGSI_OP_DST:
      return true;
   default:
      return false;
   }
}

/* ZSIGN on the zero results of such an op, as on MIN/MAX's: ref/opt
 * takes either sign, an integer view of one is open (int_view_flags) and
 * a division by one is undefined. */
DC_LANES
static void
open_zero_signs(struct tgsi_interp_batch *b, unsigned mask)
{
   unsigned n = b->n;
   for (unsigned c = 0; c < 4; c++) {
      if (!(mask & (1u << c)))
         continue;
      const uint32_t *v = b->res_v[c];
      uint32_t *f = b->res_f[c];
      FOR f[i] |= (uint32_t)((v[i] & 0x7fffffffu) == 0) * ENV_F_ZSIGN;
   }
}

static int32_t
step(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, int32_t pc)
{
   if (b->exec_dirty)
      tgsi_interp_update_exec(b);
   if (tgsi_interp_is_cf(ti->op))
      return tgsi_interp_exec_cf(b, ti, pc);
   if (!b->any_exec)
      return pc + 1;
   int mask = tgsi_interp_exec_res(b, ti);
   if (mask < 0)
      mask = tgsi_interp_exec_wide(b, ti);
   if (mask < 0)
      mask = tgsi_interp_exec_alu(b, ti);
   if (mask < 0) {
      tgsi_interp_error(b, ti, "the interpreter has no implementation of %s",
                        tgsi_op_info[ti->op].name);
      return -1;
   }
   if (b->zsign_open && zero_sign_open(ti->op))
      open_zero_signs(b, (unsigned)mask);
   commit(b, ti, (unsigned)mask);
   return pc + 1;
}

static void
run_batch(struct tgsi_interp_batch *b)
{
   int32_t pc = 0;
   const struct tgsi_interp_prog *p = b->p;
   while (pc >= 0 && pc < (int32_t)p->ninsns && !b->failed) {
      b->steps += b->n;
      if (b->steps > b->limit) {
         tgsi_interp_error(b, &p->insns[pc],
                           "step budget exhausted (%llu lane-instructions for lanes %u..%u): "
                           "runaway loop?",
                           (unsigned long long)b->limit, b->base, b->base + b->n - 1);
         b->status = TGSI_INTERP_BUDGET;
         return;
      }
      pc = step(b, &p->insns[pc], pc);
   }
}

/* Checks the env against the prepared shader; sizes outputs. */
static enum tgsi_interp_status
fit_env(const struct tgsi_interp_prog *p, struct env *e, struct diag_list *d, uint32_t *wg)
{
   const char *name = p->s->name;
   for (uint32_t k = 0; k < p->file_count[TGSI_FILE_SV]; k++) {
      int32_t sem = p->sv_sem[k];
      if (sem < 0 || !e->sv[sem]) {
         diag_add(d, DIAG_ERROR, name, 0, 0, NULL, "SV[%u] (%s) is not provided by the inputs", k,
                  sem < 0 ? "no semantic" : tgsi_semantic_names[sem]);
         return TGSI_INTERP_ENV;
      }
   }
   *wg = 0;
   if (p->s->stage == TGSI_STAGE_COMP) {
      uint64_t w = (uint64_t)e->block_size[0] * e->block_size[1] * e->block_size[2];
      if (w == 0 || w > 65536 || e->nlanes % w) {
         diag_add(d, DIAG_ERROR, name, 0, 0, NULL,
                  "%u invocations are not a whole number of %llu-lane workgroups", e->nlanes,
                  (unsigned long long)w);
         return TGSI_INTERP_ENV;
      }
      *wg = (uint32_t)w;
   }
   /* Outputs unset: every batch writes its lanes' (batch_end), and
    * tgsi_interp_run resets the lanes no batch ran */
   bool outs = env_alloc_outputs_unset(e, p->nout, p->out_vertices);
   if (outs && p->s->stage == TGSI_STAGE_GEOM && !env_alloc_gs(e, p->gs_max_vertices)) {
      env_reset_outputs(e);
      outs = false;
   }
   if (!outs) {
      diag_add(d, DIAG_ERROR, name, 0, 0, NULL, "the outputs of %u invocations do not fit",
               e->nlanes);
      return TGSI_INTERP_ENV;
   }
   return TGSI_INTERP_OK;
}

static uint32_t
batch_lanes(const struct tgsi_interp_opts *o, uint32_t wg, const struct env *e)
{
   uint32_t nlanes = e->nlanes;
   uint32_t want = o && o->batch ? o->batch : TI_DEFAULT_BATCH;
   uint32_t unit = wg ? wg : tgsi_interp_subgroup(e);
   uint32_t b = MAX2(1u, want / unit) * unit;
   return MIN2(b, nlanes);
}

/* Whether the program has SIN, COS or SCS, whose bound in revolutions
 * (tgsi_interp_bound.c) the comparison needs whatever the options. */
static bool
has_trig(const struct tgsi_interp_prog *p)
{
   for (unsigned i = 0; i < p->ninsns; i++) {
      enum tgsi_opcode op = p->insns[i].op;
      if (op == TGSI_OP_SIN || op == TGSI_OP_COS || op == TGSI_OP_SCS)
         return true;
   }
   return false;
}

uint64_t
tgsi_interp_default_steps(const struct tgsi_shader *s, uint32_t nlanes)
{
   uint64_t per_lane =
       MAX2((uint64_t)s->ninsns * TGSI_INTERP_STEPS_PER_INSN, (uint64_t)TGSI_INTERP_MIN_LANE_STEPS);
   return MIN2(per_lane * MAX2(nlanes, 1u), TGSI_INTERP_MAX_DEFAULT_STEPS);
}

enum tgsi_interp_status
tgsi_interp_run(const struct tgsi_shader *s, struct env *env, const struct tgsi_interp_opts *opts,
                struct diag_list *diags)
{
   struct tgsi_interp_prog p;
   enum tgsi_interp_status st = prepare(&p, s, diags);
   uint32_t wg = 0;
   if (st == TGSI_INTERP_OK)
      st = fit_env(&p, env, diags, &wg);
   if (st != TGSI_INTERP_OK) {
      prog_free(&p);
      return st;
   }
   struct tgsi_interp_batch b;
   struct batch_mem bm = {0};
   memset(&b, 0, offsetof(struct tgsi_interp_batch, frames));
   uint64_t epoch = 0, total = 0;
   b.p = &p;
   b.env = env;
   b.diags = diags;
   b.epoch = &epoch;
   b.wg_lanes = wg;
   uint32_t cap = batch_lanes(opts, wg, env);
   b.cap = cap;
   uint64_t budget =
       opts && opts->max_steps ? opts->max_steps : tgsi_interp_default_steps(s, env->nlanes);
   b.bound_fuse = opts && opts->fuse_bounds;
   /* the steer taint (tgsi_interp_cf.c): which conditions an allowed
    * transform may flip, and what their decisions' writes then carry */
   if (b.bound_fuse) { /* not CANCEL: tgsi_interp_cf.c */
      b.steer_cond |= ENV_F_EDGE | ENV_F_NAN;
      b.steer_mark |= ENV_F_EDGE;
   }
   if (opts && opts->inexact) {
      b.steer_cond |= ENV_F_NAN;
      b.steer_mark |= ENV_F_NAN;
      b.zsign_open = true;
   }
   if (b.bound_fuse || has_trig(&p)) {
      b.bounds = true;
      free(env->out_err);
      env->out_err =
          xcalloc((size_t)env->nout * env->out_vertices * 4 * env->nlanes + 1, sizeof(uint16_t));
      if (env->gs_count) {
         free(env->gs_err);
         env->gs_err = xcalloc((size_t)env->nlanes * env->gs_max_vertices * env->nout * 4 + 1,
                               sizeof(uint16_t));
      }
   }
   /* Memory the caller may have written since an earlier run. */
   for (unsigned k = 0; k < ENV_MAX_BUFFERS; k++)
      env->buf[k].all_undef = false;
   for (unsigned k = 0; k < ENV_MAX_IMAGES; k++)
      env->img[k].mem.all_undef = false;
   batch_alloc(&b, &bm, cap);
   fill_constants(&b, cap);
   uint32_t done = 0; /* lanes whose outputs batch_end wrote */
   for (uint32_t base = 0; base < env->nlanes && !b.failed; base += cap) {
      uint32_t n = MIN2(cap, env->nlanes - base);
      batch_begin(&b, base, n);
      /* The budget is shared in proportion to the lanes of each batch. */
      b.limit = budget / env->nlanes * n + (budget % env->nlanes) * n / env->nlanes;
      run_batch(&b);
      total += b.steps;
      batch_end(&b);
      done = base + n;
   }
   env_reset_output_lanes(env, done, env->nlanes);
   if (opts && opts->steps_out)
      *opts->steps_out = total;
   tgsi_interp_res_free(&b);
   batch_free(&b, &bm);
   prog_free(&p);
   return b.failed ? b.status : TGSI_INTERP_OK;
}
