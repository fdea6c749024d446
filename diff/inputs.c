/*
 * Random inputs for a shader, from a seed: every declared input, system
 * value, constant, texture, buffer and image, biased toward special values.
 *
 * Streams. Lane L draws from its own xoshiro stream seeded with
 * hash64(seed, L), so a lane's inputs do not depend on the number of
 * invocations; constants, textures, buffers and images draw from one
 * stream seeded with hash64(seed, "uniform"). Slots are generated in a fixed
 * order: inputs by vertex, register, channel; constants by buffer, slot,
 * channel.
 *
 * Kinds. Each input or constant channel gets the kind of its first use in
 * the shader, by the fetch type of the instruction reading it: float,
 * integer, or one half of a double or 64-bit integer (a channel pair);
 * a copy into a TEMP (MOV, UCMP's values) passes on the kind of the TEMP's
 * first typed read. Unused channels are float.
 *
 * Draws. Lanes are split into draws of DIFF_DRAW_LANES (64) lanes (whole
 * workgroups in compute, at most ENV_MAX_DRAWS), each with its own
 * constants from the stream hash64(seed, "uniform" - 1 - draw), so a
 * special constant touches one draw, not the run.
 *
 * Profiles. Each lane (its inputs) and each draw (its constants) takes a
 * profile, in percent per lane / per draw:
 *
 *   profile    rate     floats                        integers
 *   realistic  55 / 60  30% colour [0,1), 25% [-1,1],  50% [0,16), 25%
 *                       25% position [-100,100), 20%   [-4,16], 25% index
 *                       integer [-4,8]; a quarter of   [0,8)
 *                       float registers unit vectors
 *   int bounds 15 / 15  edge%: conversion edges        70%: the list, 2^k-1..
 *                       (+-2^31, 2^32, 2^24+1, +-0.5)  2^k+1, negatives,
 *                                                      >= 2^31, shift counts
 *   specials   15 / 10  edge%: the float list          realistic
 *   meeting    15 / 15  edge%: +-0, edge%: NaN (or 1)  15%: 0
 *
 * with the rest realistic; edge% = 200 / (values of the lane or draw),
 * clamped to 4..40, so a non-realistic lane or draw holds about two edge
 * values (one special poisons a lane as surely as ten). Reuse (equal
 * operands): 5% realistic, 10% int bounds and specials, 50% meeting (half
 * the previous lane's value of the channel, else one this lane already got;
 * a reused zero flips its sign half the time in meeting lanes). 64-bit
 * kinds: doubles small with extra bits, 40% (edge%) double specials in
 * special lanes, edge% double boundaries (double_bound: DBL_MAX and
 * within 2^-20 of it, 2^1023, the smallest normal, subnormals, 2^k and
 * its neighbours, conversion edges) in int-bound lanes; int64 small, in
 * int-bound lanes 45% the int64 list, 25% random. Buffer words: each
 * word's (or double's) profile at the per-lane rates, of the kind the
 * shader reads it as (buffer_kinds: a LOAD's channel takes the kind of its
 * first typed read, by the word's position in a group of four), integers
 * where no read decides; image words: integers.
 * DIFF_INPUTS_REAL_CONSTANTS makes every draw realistic, and sane
 * constants other than levels and zeros at least 1 (a loop's step of 0
 * never ends it).
 *
 * Specials are equally likely within their list:
 *   float   +0 -0 1 -1 0.5 2 +Inf -Inf, NaN 0x7fc00000, -NaN 0xffc00000,
 *           signalling NaN 0x7f800001, denormals 0x00000001 0x80000001
 *           0x007fffff, FLT_MIN 0x00800000, FLT_MAX, -FLT_MAX, 2^24, 1e30,
 *           0.49999997
 *   int     0 1 -1 INT_MIN INT_MAX INT_MIN+1 INT_MAX-1 31 32 33 63 64
 *           0xfffffffe 0x10000 0xffff
 *   double  +-0 +-1 2 0.5 +-Inf NaN -NaN, signalling NaN, denormals 1 -1
 *           (bits 0x8000000000000001: a high word of 0x80000000) and the
 *           largest, DBL_MIN, +-DBL_MAX, 2^53 (the float list's shapes)
 *   int64   0 1 -1 INT64_MIN INT64_MAX 2^32 2^32-1 63 64
 *
 * Sane values. Inputs that steer control flow or addresses are drawn from a
 * small range instead, so lanes do not spend their time out of bounds or in
 * endless loops. A channel is sane if the shader uses it, directly or
 * through TEMP arithmetic (a backward closure over the instructions that
 * write the TEMP channels involved), as:
 *   - the source of ARL/ARR/UARL, a SWITCH selector, an image coordinate,
 *     the condition of an IF/UIF in a loop whose branches BRK or CONT, or
 *     the integer coordinates of TXF/SAMPLE_I: integer in [0, 8)
 *   - a TXF level (w) or TXQ/SVIEWINFO level: integer in [0, 2)
 *   - a LOAD/STORE/atomic byte offset: 4 * [0, 16)
 *   - a READ_INVOC lane index: [0, 32)
 *   - an EMIT/ENDPRIM stream or INTERP_SAMPLE sample: 0
 * (the smallest range wins), encoded as float or integer by kind. A buffer
 * whose LOAD results are sane holds integers in [0, 8).
 *
 * System values follow the lane layout: VERTEXID = lane, INSTANCEID =
 * (lane / 16) % 4, PRIM_ID = lane (fragment: lane / 4), FS POSITION =
 * pixel centres of 2x2 quads in rows of 256 pixels (z uniform [0, 1), w =
 * 1), FACE = +1 or -1 per quad, one sample (SAMPLEID 0, SAMPLEPOS 0.5,
 * SAMPLEMASK 1), compute THREAD_ID/BLOCK_ID/BLOCK_SIZE/GRID_SIZE from a
 * grid of (lanes / block, 1, 1) workgroups, subgroups of 32 lanes (64 when
 * the target's wave is: diff_gen_inputs_ex's subgroup).
 *
 * Textures: every SAMP/SVIEW, target from the declaration or the first
 * instruction using it; width and height from {4, 8, 16, 64, 256, 512}
 * (3D: {4, 8, 16} per side; array layers 1-4, cube arrays 1-2 cubes;
 * cubes square); in fragment shaders, with probability 3/4, 2-D textures
 * are at least as large as the framebuffer of the lane layout; 1..full
 * mip levels, a random seed. Buffers: with probability 3/4 16 bytes per
 * lane (at least 256, at most 4 MiB), else 64 or 256 bytes, of words of the
 * kind the shader reads them as. Images: 4, 8 or 16 texels per side
 * (compute, with probability 3/4, drawn once for all of a run's images: at
 * least the dispatch's global size, so a kernel indexing several images by
 * the invocation id stays in bounds in all of them), integer-kind words.
 */
#include "diff/diff.h"

#include <math.h>
#include <stdlib.h>

enum gen_kind { GK_FLOAT, GK_INT, GK_D_LO, GK_D_HI, GK_L_LO, GK_L_HI, GK_NONE };

/* Sane ranges, smallest first; GS_NONE: not sane. */
enum gen_sane { GS_NONE, GS_ZERO, GS_LOD, GS_INDEX, GS_OFFSET, GS_LANE };

struct chan_use {
   uint8_t kind; /* enum gen_kind, GK_NONE until first use */
   uint8_t sane; /* enum gen_sane */
};

/* Nested blocks close_sane_flow follows (an IF and its ELSE, a SWITCH and
 * its CASE count one each); deeper shaders take the flow-insensitive way. */
#define PLAN_MAX_NESTING 256

/* A sane use of a TEMP channel whose writers are still to be found. */
struct sane_use {
   uint32_t at, reg;
   uint8_t chan, sane;
};

struct plan {
   const struct tgsi_shader *s;
   uint32_t nin, nconst[ENV_MAX_CBUFS], ntemp;
   struct chan_use *in, *cnst[ENV_MAX_CBUFS], *temp;
   bool buf_small[ENV_MAX_BUFFERS];
   /* Per buffer, the kind of the words at position 0..3 of an aligned
    * group of four, from how LOADs' results are read (buffer_kinds). */
   uint8_t buf_kind[ENV_MAX_BUFFERS][4];
   bool changed;
   /* Flow-sensitive closure (close_sane_flow); flow false: the
    * flow-insensitive one over whole TEMP channels (subroutines). */
   bool flow;
   int32_t *parent;       /* innermost enclosing block opener (IF, ELSE, CASE...), -1 */
   int32_t *loop_end;     /* BGNLOOP: its ENDLOOP */
   uint32_t *wr_first;    /* per TEMP channel (reg * 4 + chan): its writers in wr, */
   uint32_t *wr;          /* in program order, from wr_first[k] to wr_first[k + 1] */
   uint8_t *done;         /* per instruction and channel: the best level closed, 0 none */
   uint8_t *seen;         /* per instruction, TEMP source and channel: the best level queued */
   struct sane_use *work; /* queue */
   size_t nwork, work_cap;
};

static struct chan_use *
use_of(struct plan *p, enum tgsi_file f, int64_t dim, int64_t idx, unsigned chan)
{
   if (idx < 0 || chan > 3)
      return NULL;
   if (f == TGSI_FILE_IN && idx < p->nin)
      return &p->in[idx * 4 + chan];
   if (f == TGSI_FILE_TEMP && idx < p->ntemp)
      return &p->temp[idx * 4 + chan];
   if (f == TGSI_FILE_CONST && dim >= 0 && dim < ENV_MAX_CBUFS && idx < p->nconst[dim])
      return &p->cnst[dim][idx * 4 + chan];
   return NULL;
}

static void
set_sane(struct plan *p, struct chan_use *u, enum gen_sane s)
{
   if (u && s != GS_NONE && (u->sane == GS_NONE || s < u->sane)) {
      u->sane = (uint8_t)s;
      p->changed = true;
   }
}

static struct chan_use *
src_use(struct plan *p, const struct tgsi_src *src, unsigned c)
{
   const struct tgsi_reg *r = &src->reg;
   if (r->indirect || r->dim_indirect)
      return NULL;
   return use_of(p, r->file, r->has_dim ? r->dim : 0, r->index, src->swz[c] & 3);
}

static enum gen_kind read_kind(const struct tgsi_shader *s, uint32_t at, int32_t reg, unsigned c);

/* Kinds from the fetch types of the reads, first use wins. A copy into a
 * TEMP (MOV, UCMP's values) carries no type of its own: the channel takes
 * the kind of the copy's first typed read, so a constant count that a
 * UCMP picks and a loop takes down by UADD is drawn as an integer. */
static void
record_kinds(struct plan *p, const struct tgsi_shader *s, uint32_t at)
{
   const struct tgsi_insn *in = &s->insns[at];
   const struct tgsi_reg *d = &in->dst[0].reg;
   bool copy = in->ndst && d->file == TGSI_FILE_TEMP && !d->indirect &&
               (in->op == TGSI_OP_MOV || in->op == TGSI_OP_UCMP) && !in->sat;
   for (unsigned k = 0; k < in->nsrc; k++) {
      uint8_t t = tgsi_interp_src_type(in->op, k);
      for (unsigned c = 0; c < 4; c++) {
         struct chan_use *u = src_use(p, &in->src[k], c);
         if (!u || u->kind != GK_NONE)
            continue;
         if (copy && (k > 0 || in->op == TGSI_OP_MOV) && (in->dst[0].mask & (1u << c)) &&
             !in->src[k].neg && !in->src[k].abs) {
            enum gen_kind rk = read_kind(s, at, d->index, c);
            if (rk != GK_NONE) {
               u->kind = (uint8_t)rk;
               continue;
            }
         }
         switch (t) {
         case TGSI_TYPE_D:
            u->kind = c & 1 ? GK_D_HI : GK_D_LO;
            break;
         case TGSI_TYPE_I64:
         case TGSI_TYPE_U64:
            u->kind = c & 1 ? GK_L_HI : GK_L_LO;
            break;
         case TGSI_TYPE_I:
         case TGSI_TYPE_U:
            u->kind = GK_INT;
            break;
         default:
            u->kind = GK_FLOAT;
            break;
         }
      }
   }
}

/* Source k of instruction at is used in a sane role on the channels of
 * chmask: an input or constant is sane; a TEMP channel makes the writers
 * that reach this use sane (queued for close_sane_flow). */
static void
sane_src_at(struct plan *p, uint32_t at, unsigned k, unsigned chmask, enum gen_sane s)
{
   const struct tgsi_src *src = &p->s->insns[at].src[k];
   const struct tgsi_reg *r = &src->reg;
   for (unsigned c = 0; c < 4; c++) {
      if (!(chmask & (1u << c)))
         continue;
      struct chan_use *u = src_use(p, src, c);
      if (!p->flow || r->file != TGSI_FILE_TEMP || !u) {
         set_sane(p, u, s);
         continue;
      }
      unsigned ch = src->swz[c] & 3;
      uint8_t *seen = &p->seen[(size_t)at * 16 + k * 4 + ch];
      if (*seen && *seen <= s)
         continue;
      *seen = (uint8_t)s;
      set_sane(p, u, s);
      VEC_RESERVE(p->work, p->work_cap, p->nwork + 1);
      p->work[p->nwork++] = (struct sane_use){at, (uint32_t)r->index, (uint8_t)ch, (uint8_t)s};
   }
}

static void
sane_src(struct plan *p, const struct tgsi_insn *in, unsigned k, unsigned chmask, enum gen_sane s)
{
   sane_src_at(p, (uint32_t)(in - p->s->insns), k, chmask, s);
}

/* Whether the IF at index i (inside a loop) has a BRK or CONT in its
 * branches, outside any inner loop. */
static bool
if_controls_loop(const struct tgsi_shader *s, unsigned i)
{
   int depth = 0, loops = 0;
   for (unsigned j = i + 1; j < s->ninsns; j++) {
      enum tgsi_opcode op = s->insns[j].op;
      depth += (op == TGSI_OP_IF || op == TGSI_OP_UIF) - (op == TGSI_OP_ENDIF);
      loops += (op == TGSI_OP_BGNLOOP) - (op == TGSI_OP_ENDLOOP);
      if (depth < 0)
         return false;
      if (loops == 0 && (op == TGSI_OP_BRK || op == TGSI_OP_CONT))
         return true;
   }
   return false;
}

/* Direct uses that make values sane. */
static void
seed_sane(struct plan *p)
{
   const struct tgsi_shader *s = p->s;
   int loops = 0;
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      loops += (in->op == TGSI_OP_BGNLOOP) - (in->op == TGSI_OP_ENDLOOP);
      unsigned m = in->ndst ? in->dst[0].mask : 0xf;
      switch (in->op) {
      case TGSI_OP_ARL:
      case TGSI_OP_ARR:
      case TGSI_OP_UARL:
         sane_src(p, in, 0, m, GS_INDEX);
         break;
      case TGSI_OP_IF:
      case TGSI_OP_UIF:
         if (loops > 0 && if_controls_loop(s, i))
            sane_src(p, in, 0, 1, GS_INDEX);
         break;
      case TGSI_OP_SWITCH:
         sane_src(p, in, 0, 1, GS_INDEX);
         break;
      case TGSI_OP_LOAD:
      case TGSI_OP_STORE: {
         unsigned a = in->op == TGSI_OP_LOAD ? 1 : 0;
         enum tgsi_file f = in->op == TGSI_OP_LOAD ? in->src[0].reg.file : in->dst[0].reg.file;
         sane_src(p, in, a, f == TGSI_FILE_IMAGE ? 7 : 1,
                  f == TGSI_FILE_IMAGE ? GS_INDEX : GS_OFFSET);
         break;
      }
      case TGSI_OP_TXF:
      case TGSI_OP_TXF_LZ:
      case TGSI_OP_SAMPLE_I:
      case TGSI_OP_SAMPLE_I_MS:
         sane_src(p, in, 0, 7, GS_INDEX);
         sane_src(p, in, 0, 8, GS_LOD);
         break;
      case TGSI_OP_TXQ:
      case TGSI_OP_SVIEWINFO:
         sane_src(p, in, 0, 1, GS_LOD);
         break;
      case TGSI_OP_READ_INVOC:
         sane_src(p, in, 1, 1, GS_LANE);
         break;
      case TGSI_OP_EMIT:
      case TGSI_OP_ENDPRIM:
         sane_src(p, in, 0, 1, GS_ZERO);
         break;
      case TGSI_OP_INTERP_SAMPLE:
         sane_src(p, in, 1, 1, GS_ZERO);
         break;
      default:
         if (tgsi_op_info[in->op].flags & TGSI_OPF_MEM && in->op != TGSI_OP_RESQ && in->nsrc >= 2) {
            bool img = in->src[0].reg.file == TGSI_FILE_IMAGE;
            sane_src(p, in, 1, img ? 7 : 1, img ? GS_INDEX : GS_OFFSET);
         }
         break;
      }
   }
}

/* The sources of instruction w, which writes a sane TEMP channel c: what
 * computes a sane value is sane (not through texture results and other
 * ops whose result is no function of the operands' values; a LOAD's
 * buffer then holds small words). */
static void
sane_writer(struct plan *p, uint32_t w, unsigned c, enum gen_sane sane)
{
   const struct tgsi_insn *in = &p->s->insns[w];
   const struct tgsi_op_info *oi = &tgsi_op_info[in->op];
   if (in->op == TGSI_OP_LOAD) {
      const struct tgsi_reg *r = &in->src[0].reg;
      if (r->file == TGSI_FILE_BUFFER && r->index >= 0 && r->index < ENV_MAX_BUFFERS)
         p->buf_small[r->index] = true;
      return;
   }
   if (oi->flags & (TGSI_OPF_OTHR | TGSI_OPF_TEX))
      return;
   unsigned cm = oi->flags & TGSI_OPF_REPL ? 0xf : 1u << c;
   for (unsigned k = 0; k < in->nsrc; k++)
      sane_src_at(p, w, k, cm, sane);
}

/* Backward closure, flow-insensitive: a sane TEMP channel makes every
 * instruction that writes it sane (shaders with subroutines). */
static void
close_sane(struct plan *p)
{
   const struct tgsi_shader *s = p->s;
   unsigned rounds = 0;
   do {
      p->changed = false;
      for (unsigned i = 0; i < s->ninsns; i++) {
         const struct tgsi_insn *in = &s->insns[i];
         if (!in->ndst || in->dst[0].reg.file != TGSI_FILE_TEMP || in->dst[0].reg.indirect)
            continue;
         for (unsigned c = 0; c < 4; c++) {
            struct chan_use *d = use_of(p, TGSI_FILE_TEMP, 0, in->dst[0].reg.index, c);
            if ((in->dst[0].mask & (1u << c)) && d && d->sane != GS_NONE)
               sane_writer(p, i, c, (enum gen_sane)d->sane);
         }
      }
   } while (p->changed && ++rounds < 64);
}

/* Whether w's block encloses (or is) the block of instruction i: then w,
 * before i, runs on every path to i (structured control flow). */
static bool
encloses(const struct plan *p, uint32_t w, uint32_t i)
{
   for (int32_t b = p->parent[i];; b = p->parent[b]) {
      if (b == p->parent[w])
         return true;
      if (b < 0)
         return false;
   }
}

static void
close_writer(struct plan *p, uint32_t w, unsigned c, enum gen_sane sane)
{
   uint8_t *d = &p->done[(size_t)w * 4 + c];
   if (*d && *d <= sane)
      return;
   *d = (uint8_t)sane;
   sane_writer(p, w, c, sane);
}

/* The writers of TEMP[u.reg].chan that reach instruction u.at: back from
 * it to the first writer that runs on every path to it, and, in each loop
 * around it that this writer is not in, every writer after it in the loop
 * (the back edge). */
static void
close_use(struct plan *p, struct sane_use u)
{
   const struct tgsi_shader *s = p->s;
   size_t ch = (size_t)u.reg * 4 + u.chan;
   uint32_t lo = p->wr_first[ch], hi = p->wr_first[ch + 1], first = lo, end = hi;
   while (first < end) { /* the first writer at or after the use */
      uint32_t mid = first + (end - first) / 2;
      if (p->wr[mid] < u.at)
         first = mid + 1;
      else
         end = mid;
   }
   int64_t kill = -1;
   for (uint32_t k = first; k-- > lo;) {
      uint32_t w = p->wr[k];
      close_writer(p, w, u.chan, (enum gen_sane)u.sane);
      if (encloses(p, w, u.at)) {
         kill = w;
         break;
      }
   }
   /* the loops around the use that the killing writer is not in; the
    * outermost reaches furthest */
   int32_t last = -1;
   for (int32_t b = p->parent[u.at]; b >= 0; b = p->parent[b])
      if (s->insns[b].op == TGSI_OP_BGNLOOP && kill < b)
         last = p->loop_end[b];
   for (uint32_t k = first; k < hi && (int64_t)p->wr[k] < last; k++)
      close_writer(p, p->wr[k], u.chan, (enum gen_sane)u.sane);
}

/* The writers of every TEMP channel, in program order. */
static void
make_writers(struct plan *p)
{
   const struct tgsi_shader *s = p->s;
   size_t n = (size_t)p->ntemp * 4;
   p->wr_first = xcalloc(n + 2, sizeof(*p->wr_first));
   for (int pass = 0; pass < 2; pass++) {
      size_t total = 0;
      for (uint32_t j = 0; j < s->ninsns; j++) {
         const struct tgsi_insn *in = &s->insns[j];
         if (!in->ndst || in->dst[0].reg.file != TGSI_FILE_TEMP || in->dst[0].reg.indirect ||
             in->dst[0].reg.index < 0 || in->dst[0].reg.index >= (int64_t)p->ntemp)
            continue;
         for (unsigned c = 0; c < 4; c++) {
            if (!(in->dst[0].mask & (1u << c)))
               continue;
            size_t k = (size_t)in->dst[0].reg.index * 4 + c;
            if (pass == 0)
               p->wr_first[k + 1]++;
            else
               p->wr[p->wr_first[k + 1]++] = j;
            total++;
         }
      }
      if (pass == 0) {
         for (size_t k = 1; k <= n; k++)
            p->wr_first[k] += p->wr_first[k - 1];
         p->wr = xcalloc(total + 1, sizeof(*p->wr));
         /* pass 1 fills from wr_first[k + 1], which it moves to the end of
          * channel k's range: start from the beginnings, shifted by one */
         memmove(p->wr_first + 1, p->wr_first, n * sizeof(*p->wr_first));
         p->wr_first[0] = 0;
      }
   }
}

/* Blocks: each instruction's innermost enclosing opener (IF/UIF, then its
 * ELSE; BGNLOOP; SWITCH, then each CASE/DEFAULT). False for subroutines
 * or nesting the parser would not leave (the flow-insensitive closure). */
static bool
make_blocks(struct plan *p)
{
   const struct tgsi_shader *s = p->s;
   int32_t st[PLAN_MAX_NESTING];
   int top = 0;
   p->parent = xcalloc(s->ninsns + 1, sizeof(*p->parent));
   p->loop_end = xcalloc(s->ninsns + 1, sizeof(*p->loop_end));
   for (uint32_t j = 0; j < s->ninsns; j++) {
      enum tgsi_opcode op = s->insns[j].op;
      bool is_case = op == TGSI_OP_CASE || op == TGSI_OP_DEFAULT;
      enum tgsi_opcode top_op = top ? s->insns[st[top - 1]].op : TGSI_OP_NOP;
      bool in_case = top_op == TGSI_OP_CASE || top_op == TGSI_OP_DEFAULT;
      if (op == TGSI_OP_BGNSUB || op == TGSI_OP_CAL || op == TGSI_OP_ENDSUB)
         return false;
      if ((is_case || op == TGSI_OP_ENDSWITCH) && in_case)
         top--; /* a CASE's block ends at the next CASE or the ENDSWITCH */
      if (op == TGSI_OP_ELSE || op == TGSI_OP_ENDIF || op == TGSI_OP_ENDLOOP ||
          op == TGSI_OP_ENDSWITCH) {
         if (!top)
            return false;
         if (op == TGSI_OP_ENDLOOP)
            p->loop_end[st[top - 1]] = (int32_t)j;
         top--;
      }
      p->parent[j] = top ? st[top - 1] : -1;
      if (op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_ELSE || op == TGSI_OP_BGNLOOP ||
          op == TGSI_OP_SWITCH || is_case) {
         if (top >= PLAN_MAX_NESTING)
            return false;
         st[top++] = (int32_t)j;
      }
   }
   return top == 0;
}

/* Backward closure, flow-sensitive: a sane use of a TEMP channel makes
 * sane the writers that reach it (close_use), and so on through their
 * sources. A scratch register that carries an index at one point and a
 * converted integer uniform at another then leaves the uniform free to
 * take boundary values (the flow-insensitive closure made nearly every
 * integer uniform of a generated shader sane). */
static void
close_sane_flow(struct plan *p)
{
   for (size_t k = 0; k < p->nwork; k++)
      close_use(p, p->work[k]);
}

static void
grow(uint32_t *n, int64_t idx)
{
   if (idx >= 0 && idx < (1 << 16) && (uint32_t)idx + 1 > *n)
      *n = (uint32_t)idx + 1;
}

static void
plan_sizes(struct plan *p)
{
   const struct tgsi_shader *s = p->s;
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if (d->file == TGSI_FILE_IN)
         grow(&p->nin, d->last);
      else if (d->file == TGSI_FILE_TEMP)
         grow(&p->ntemp, d->last);
      else if (d->file == TGSI_FILE_CONST) {
         uint32_t b = d->has_dim ? d->dim : 0;
         if (b < ENV_MAX_CBUFS)
            grow(&p->nconst[b], MIN2(d->last, ENV_MAX_CBUF_SLOTS - 1u));
      }
   }
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      for (unsigned k = 0; k < in->nsrc; k++) {
         const struct tgsi_reg *r = &in->src[k].reg;
         if (r->indirect)
            continue;
         if (r->file == TGSI_FILE_IN)
            grow(&p->nin, r->index);
         else if (r->file == TGSI_FILE_TEMP)
            grow(&p->ntemp, r->index);
         else if (r->file == TGSI_FILE_CONST &&
                  (!r->has_dim || (r->dim >= 0 && r->dim < ENV_MAX_CBUFS)))
            grow(&p->nconst[r->has_dim ? r->dim : 0], MIN2(r->index, ENV_MAX_CBUF_SLOTS - 1));
      }
   }
   p->nin = MAX2(p->nin, tgsi_input_count(s)); /* FBFETCH's colours: inputs after these */
   p->in = xcalloc((size_t)p->nin * 4 + 1, sizeof(*p->in));
   p->temp = xcalloc((size_t)p->ntemp * 4 + 1, sizeof(*p->temp));
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
      p->cnst[b] = xcalloc((size_t)p->nconst[b] * 4 + 1, sizeof(*p->cnst[b]));
   for (uint32_t k = 0; k < p->nin * 4; k++)
      p->in[k].kind = GK_NONE;
   for (uint32_t k = 0; k < p->ntemp * 4; k++)
      p->temp[k].kind = GK_NONE;
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
      for (uint32_t k = 0; k < p->nconst[b] * 4; k++)
         p->cnst[b][k].kind = GK_NONE;
}

static void
plan_free(struct plan *p)
{
   free(p->in);
   free(p->temp);
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
      free(p->cnst[b]);
}

/* The kind of TEMP channel reg.c as the first typed read after
 * instruction at takes it (program order, up to the channel's next write);
 * moves, loads and stores carry no type, so they are passed over. */
static enum gen_kind
read_kind(const struct tgsi_shader *s, uint32_t at, int32_t reg, unsigned c)
{
   for (uint32_t j = at + 1; j < s->ninsns; j++) {
      const struct tgsi_insn *in = &s->insns[j];
      const struct tgsi_op_info *oi = &tgsi_op_info[in->op];
      bool typed = oi->type != TGSI_TYPE_N && !(oi->flags & TGSI_OPF_MEM);
      for (unsigned k = 0; typed && k < in->nsrc; k++) {
         const struct tgsi_reg *r = &in->src[k].reg;
         if (r->file != TGSI_FILE_TEMP || r->indirect || r->index != reg)
            continue;
         for (unsigned cc = 0; cc < 4; cc++) {
            if ((in->src[k].swz[cc] & 3) != c)
               continue;
            switch (tgsi_interp_src_type(in->op, k)) {
            case TGSI_TYPE_D:
               return cc & 1 ? GK_D_HI : GK_D_LO;
            case TGSI_TYPE_I64:
            case TGSI_TYPE_U64:
               return cc & 1 ? GK_L_HI : GK_L_LO;
            case TGSI_TYPE_I:
            case TGSI_TYPE_U:
               return GK_INT;
            default:
               return GK_FLOAT;
            }
         }
      }
      const struct tgsi_reg *d = &in->dst[0].reg;
      if (in->ndst && d->file == TGSI_FILE_TEMP && !d->indirect && d->index == reg &&
          (in->dst[0].mask & (1u << c)))
         return GK_NONE;
   }
   return GK_NONE;
}

/* Buffer word kinds: a LOAD's channel c reads the word at its swizzle's
 * position, and takes the kind of its first typed read; the first LOAD
 * that decides a position wins. */
static void
buffer_kinds(struct plan *p)
{
   const struct tgsi_shader *s = p->s;
   memset(p->buf_kind, GK_NONE, sizeof(p->buf_kind));
   for (uint32_t i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      const struct tgsi_reg *r = &in->src[0].reg, *d = &in->dst[0].reg;
      if (in->op != TGSI_OP_LOAD || r->file != TGSI_FILE_BUFFER || r->indirect || r->index < 0 ||
          r->index >= ENV_MAX_BUFFERS || !in->ndst || d->file != TGSI_FILE_TEMP || d->indirect)
         continue;
      for (unsigned c = 0; c < 4; c++) {
         uint8_t *k = &p->buf_kind[r->index][in->src[0].swz[c] & 3];
         if ((in->dst[0].mask & (1u << c)) && *k == GK_NONE)
            *k = (uint8_t)read_kind(s, i, d->index, c);
      }
   }
}

static void
make_plan(struct plan *p, const struct tgsi_shader *s)
{
   memset(p, 0, sizeof(*p));
   p->s = s;
   plan_sizes(p);
   for (unsigned i = 0; i < s->ninsns; i++)
      record_kinds(p, s, i);
   buffer_kinds(p);
   p->flow = make_blocks(p);
   if (p->flow) {
      make_writers(p);
      p->done = xcalloc((size_t)s->ninsns * 4 + 1, 1);
      p->seen = xcalloc((size_t)s->ninsns * 16 + 1, 1);
   }
   seed_sane(p);
   if (p->flow)
      close_sane_flow(p);
   else
      close_sane(p);
   free(p->parent);
   free(p->loop_end);
   free(p->wr_first);
   free(p->wr);
   p->wr_first = p->wr = NULL;
   free(p->done);
   free(p->seen);
   free(p->work);
   p->parent = p->loop_end = NULL;
   p->done = p->seen = NULL;
   p->work = NULL;
}

/* ------------------------------------------------------------------ */
/* Values                                                               */

static const uint32_t float_specials[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x7f800000,
    0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x00000001, 0x80000001, 0x007fffff,
    0x00800000, 0x7f7fffff, 0xff7fffff, 0x4b800000, 0x7149f2ca, 0x3effffff,
};

static const uint32_t int_specials[] = {
    0,  1,  0xffffffffu, 0x80000000u, 0x7fffffffu, 0x80000001u, 0x7ffffffeu, 31,
    32, 33, 63,          64,          0xfffffffeu, 0x10000u,    0xffffu,
};

static const uint64_t double_specials[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000000ull,
    0x0000000000000001ull, 0x0010000000000000ull, 0x7fefffffffffffffull, 0x4340000000000000ull,
    0x3fe0000000000000ull, 0x4000000000000000ull, 0x7ff0000000000001ull, 0x8000000000000001ull,
    0x000fffffffffffffull, 0xffefffffffffffffull,
};

static const uint64_t int64_specials[] = {
    0,  1,  ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x100000000ull, 0xffffffffull,
    63, 64,
};

/* Input profiles (see the head of this file). */
enum gen_profile { GP_REAL, GP_IBOUND, GP_FSPECIAL, GP_MEET, GP_COUNT };

/* Rates in percent, per lane (inputs) and per draw (constants). */
static const uint8_t lane_rates[GP_COUNT] = {55, 15, 15, 15};
static const uint8_t draw_rates[GP_COUNT] = {60, 15, 10, 15};

static enum gen_profile
pick_profile(struct rng *r, const uint8_t *rates)
{
   uint32_t x = rng_below(r, 100), acc = 0;
   for (unsigned p = 0; p < GP_COUNT; p++)
      if (x < (acc += rates[p]))
         return (enum gen_profile)p;
   return GP_REAL;
}

/* Per-lane (or per-draw) generation state: values so far by kind, for
 * reuse. */
struct lane_gen {
   struct rng r;
   enum gen_profile prof;
   unsigned edge;        /* percent of a non-REAL profile's float values that are edge values */
   bool nonzero;         /* sane indices and offsets from 1 (a loop's step): the realistic retry */
   uint64_t pool[2][32]; /* 32-bit kinds (float, int) and 64-bit kinds */
   unsigned npool[2];
};

static float
uniform01(struct rng *r)
{
   return (float)((double)rng_u32(r) / 4294967296.0);
}

static float
uniform_in(struct rng *r, float lo, float hi)
{
   return lo + (hi - lo) * uniform01(r);
}

static int32_t
small_int(struct rng *r, int lo, int hi)
{
   return lo + (int32_t)rng_below(r, (uint32_t)(hi - lo + 1));
}

/* Realistic finite values: colours, unit-vector components, positions,
 * small integers. */
static uint32_t
real_float(struct rng *r)
{
   uint32_t x = rng_below(r, 100);
   return x < 30   ? fui(uniform01(r))
          : x < 55 ? fui(uniform_in(r, -1.0f, 1.0f))
          : x < 80 ? fui(uniform_in(r, -100.0f, 100.0f))
                   : fui((float)small_int(r, -4, 8));
}

static uint32_t
real_int(struct rng *r)
{
   uint32_t x = rng_below(r, 100);
   return x < 50   ? (uint32_t)small_int(r, 0, 15)
          : x < 75 ? (uint32_t)small_int(r, -4, 16)
                   : rng_below(r, 8);
}

/* Integer boundaries: the list, powers of two and their neighbours,
 * negative values, values >= 2^31. */
static uint32_t
bound_int(struct rng *r)
{
   uint32_t x = rng_below(r, 100), k = rng_below(r, 32);
   return x < 40   ? int_specials[rng_below(r, ARRAY_SIZE(int_specials))]
          : x < 60 ? (1u << k) + (uint32_t)small_int(r, -1, 1)
          : x < 75 ? (uint32_t) - (int32_t)(1u + rng_below(r, 1000))
          : x < 90 ? 0x80000000u | rng_u32(r)
                   : (uint32_t)small_int(r, 0, 40); /* shift counts */
}

/* Floats at the edges of integer conversions and rounding. */
static const uint32_t float_bounds[] = {
    0x4f000000, 0xcf000000, 0x4f800000, 0x4b800001, 0x3f000000, 0xbf000000,
    0x3fc00000, 0xbfc00000, 0x4b7fffff, 0x5f000000, 0xdf000000, 0x3effffff,
};

/* A value of kind float/int (32 bits), before reuse. */
static uint32_t
draw32(struct lane_gen *g, bool is_float)
{
   struct rng *r = &g->r;
   uint32_t x = rng_below(r, 100);
   switch (g->prof) {
   case GP_IBOUND:
      if (is_float)
         return x < g->edge ? float_bounds[rng_below(r, ARRAY_SIZE(float_bounds))] : real_float(r);
      return x < 70 ? bound_int(r) : real_int(r);
   case GP_FSPECIAL:
      if (is_float)
         return x < g->edge ? float_specials[rng_below(r, ARRAY_SIZE(float_specials))]
                            : real_float(r);
      return real_int(r);
   case GP_MEET: /* zeros of both signs and NaN beside numbers; reuse does the rest */
      if (is_float)
         return x < g->edge       ? (rng_below(r, 2) ? 0x80000000u : 0)
                : x < 2 * g->edge ? (rng_below(r, 3) ? 0x7fc00000u : 0x3f800000u)
                                  : real_float(r);
      return x < 15 ? 0 : real_int(r);
   default:
      return is_float ? real_float(r) : real_int(r);
   }
}

/* Doubles at the edges of a double lowering's tests (the int-bounds
 * profile's doubles, as float_bounds are its floats): DBL_MAX and the
 * values within 2^-20 of it (a high word of 0x7fefffff), 2^1023 and its
 * neighbours, the smallest normal and the largest subnormals around it,
 * other subnormals, a power of two 2^k or one ulp either side of it, and
 * the integers where conversions round or wrap (2^31, 2^32, 2^53 + 1);
 * either sign. */
static uint64_t
double_bound(struct rng *r)
{
   static const uint64_t conv[] = {0x41e0000000000000ull, 0x41f0000000000000ull,
                                   0x4340000000000001ull, 0x433fffffffffffffull};
   uint64_t sign = (uint64_t)rng_below(r, 2) << 63, v;
   switch (rng_below(r, 6)) {
   case 0: /* DBL_MAX and below it: the top binade's last 2^32 ulps */
      v = 0x7fefffff00000000ull | (rng_below(r, 2) ? 0xffffffffull : rng_u32(r));
      break;
   case 1: /* 2^1023 and one or two ulps either side */
      v = 0x7fe0000000000000ull + (uint64_t)(int64_t)small_int(r, -2, 2);
      break;
   case 2: /* the smallest normal, the largest subnormals */
      v = 0x0010000000000000ull + (uint64_t)(int64_t)small_int(r, -2, 2);
      break;
   case 3: /* a subnormal */
      v = ((uint64_t)rng_below(r, 0x100000u) << 32 | rng_u32(r)) & 0x000fffffffffffffull;
      break;
   case 4: { /* 2^k, or one ulp below or above it */
      uint64_t e = 1 + rng_below(r, 2046);
      v = (e << 52) + (uint64_t)(int64_t)small_int(r, -1, 1);
      break;
   }
   default:
      v = conv[rng_below(r, ARRAY_SIZE(conv))];
      break;
   }
   return sign | v;
}

static uint64_t
draw64(struct lane_gen *g, bool is_double)
{
   struct rng *r = &g->r;
   uint32_t x = rng_below(r, 100);
   bool edge = g->prof == (is_double ? GP_FSPECIAL : GP_IBOUND);
   if (is_double) {
      if (edge && x < g->edge)
         return double_specials[rng_below(r, ARRAY_SIZE(double_specials))];
      if (g->prof == GP_IBOUND && x < g->edge)
         return double_bound(r);
      if (g->prof == GP_MEET && x < g->edge)
         return rng_below(r, 2) ? 0x8000000000000000ull : 0;
      if (x < 78) {
         double coarse = (double)uniform_in(r, -4.0f, 4.0f);
         return dui(coarse + (double)rng_u32(r) / 1e12);
      }
      return dui((double)small_int(r, -4, 8));
   }
   if (edge)
      return x < 45   ? int64_specials[rng_below(r, ARRAY_SIZE(int64_specials))]
             : x < 70 ? rng_next(r)
                      : (uint64_t)(int64_t)small_int(r, -4, 16);
   return (uint64_t)(int64_t)small_int(r, -4, 16);
}

/* A special value in a lane or draw of many values poisons it as surely
 * as many do: about two edge values per lane or draw, 4-40% of them. */
static unsigned
edge_pct(uint32_t nvals)
{
   return MIN2(40u, MAX2(4u, 200u / MAX2(nvals, 1u)));
}

/* Reuse probability (percent) by profile: pairs that meet come from
 * reuse (equal operands), so GP_MEET reuses most. */
static unsigned
reuse_pct(enum gen_profile p)
{
   return p == GP_MEET ? 50 : p == GP_REAL ? 5 : 10;
}

static uint64_t
sane_value(struct rng *r, enum gen_sane s)
{
   switch (s) {
   case GS_LOD:
      return rng_below(r, 2);
   case GS_INDEX:
      return rng_below(r, 8);
   case GS_OFFSET:
      return 4 * rng_below(r, 16);
   case GS_LANE:
      return rng_below(r, 32);
   default:
      return 0;
   }
}

/* One value for a channel of kind k; prev is this channel's value in the
 * previous lane (have_prev false for lane 0). */
static uint64_t
gen_value(struct lane_gen *g, enum gen_kind k, enum gen_sane s, uint64_t prev, bool have_prev)
{
   bool wide = k != GK_FLOAT && k != GK_INT && k != GK_NONE;
   bool is_float = k == GK_FLOAT || k == GK_NONE || k == GK_D_LO;
   if (s != GS_NONE) {
      uint64_t v = sane_value(&g->r, s);
      if (g->nonzero && !v && s != GS_ZERO && s != GS_LOD)
         v = 1;
      if (k == GK_FLOAT || k == GK_NONE)
         return fui((float)v);
      if (k == GK_D_LO)
         return dui((double)v);
      return v;
   }
   unsigned pi = wide ? 1 : 0;
   if (rng_below(&g->r, 100) < reuse_pct(g->prof)) {
      uint64_t v = prev;
      bool have = have_prev && rng_below(&g->r, 2);
      if (!have && g->npool[pi]) {
         v = g->pool[pi][rng_below(&g->r, g->npool[pi])];
         have = true;
      }
      /* a meeting pair of zeros: (-0, +0) as often as (0, 0) */
      if (have && g->prof == GP_MEET && is_float && !wide && !(v & 0x7fffffffu) &&
          rng_below(&g->r, 2))
         v ^= 0x80000000u;
      if (have)
         return v;
   }
   uint64_t v = wide ? draw64(g, k == GK_D_LO) : draw32(g, is_float);
   if (g->npool[pi] < 32)
      g->pool[pi][g->npool[pi]++] = v;
   return v;
}

/* Fills the channels of one register (4 channel slots of kinds/sanity)
 * for one lane; 64-bit kinds fill a LO/HI pair from one draw. */
static void
gen_reg(struct lane_gen *g, const struct chan_use *use, uint32_t *out, const uint32_t *prev)
{
   for (unsigned c = 0; c < 4; c++) {
      enum gen_kind k = (enum gen_kind)use[c].kind;
      if (k == GK_D_HI || k == GK_L_HI)
         continue; /* filled with its LO half */
      uint64_t pv = prev ? prev[c] : 0;
      bool wide = k == GK_D_LO || k == GK_L_LO;
      if (wide && c < 3)
         pv |= prev ? (uint64_t)prev[c + 1] << 32 : 0;
      uint64_t v = gen_value(g, k, (enum gen_sane)use[c].sane, pv, prev != NULL);
      out[c] = (uint32_t)v;
      if (wide && c < 3)
         out[c + 1] = (uint32_t)(v >> 32);
   }
   for (unsigned c = 0; c < 4; c++) /* a HI without its LO: draw alone */
      if ((use[c].kind == GK_D_HI || use[c].kind == GK_L_HI) &&
          (c == 0 || (use[c - 1].kind != GK_D_LO && use[c - 1].kind != GK_L_LO)))
         out[c] =
             (uint32_t)(gen_value(g, (enum gen_kind)(use[c].kind - 1), GS_NONE, 0, false) >> 32);
   /* Realistic registers are unit vectors a quarter of the time (normals,
    * directions): xyz of length 1, w 0 or 1. */
   bool vec = g->prof == GP_REAL;
   for (unsigned c = 0; c < 3; c++)
      vec &= (use[c].kind == GK_FLOAT || use[c].kind == GK_NONE) && use[c].sane == GS_NONE;
   if (vec && rng_below(&g->r, 4) == 0) {
      float v[3], len = 0;
      for (unsigned c = 0; c < 3; c++) {
         v[c] = uniform_in(&g->r, -1.0f, 1.0f);
         len += v[c] * v[c];
      }
      len = sqrtf(len);
      for (unsigned c = 0; c < 3 && len > 1e-3f; c++)
         out[c] = fui(v[c] / len);
      if ((use[3].kind == GK_FLOAT || use[3].kind == GK_NONE) && use[3].sane == GS_NONE)
         out[3] = fui((float)rng_below(&g->r, 2));
   }
}

static uint64_t
stream_seed(uint64_t seed, uint64_t what)
{
   uint64_t k[2] = {seed, what};
   return hash64(k, sizeof(k), 0x64696666696e7075ull);
}

#define UNIFORM_STREAM 0xffffffffffffffffull

static uint32_t wg_lanes(const struct env *e);

static void
gen_lane_inputs(struct env *e, const struct plan *p, uint64_t seed)
{
   uint32_t out[4], prev[4];
   for (uint32_t l = 0; l < e->nlanes; l++) {
      struct lane_gen g = {0};
      rng_seed(&g.r, stream_seed(seed, l));
      g.prof = pick_profile(&g.r, lane_rates);
      g.edge = edge_pct(e->in_vertices * p->nin * 4);
      for (uint32_t v = 0; v < e->in_vertices; v++)
         for (uint32_t r = 0; r < p->nin; r++) {
            for (unsigned c = 0; c < 4 && l; c++)
               prev[c] = env_in(e, v, r, c)[l - 1];
            gen_reg(&g, &p->in[r * 4], out, l ? prev : NULL);
            for (unsigned c = 0; c < 4; c++)
               env_in(e, v, r, c)[l] = out[c];
         }
   }
}

/* Each draw's constants from its own stream and profile (realistic in
 * every draw when `real`). */
static void
gen_constants(struct env *e, const struct plan *p, uint64_t seed, bool real)
{
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
      if (p->nconst[b])
         env_set_cbuf(e, b, p->nconst[b]);
   for (uint32_t d = 0; d < e->ndraws; d++) {
      struct lane_gen g = {0};
      rng_seed(&g.r, stream_seed(seed, UNIFORM_STREAM - 1 - d));
      g.prof = pick_profile(&g.r, draw_rates);
      if (real)
         g.prof = GP_REAL;
      g.nonzero = real;
      uint32_t nvals = 0;
      for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
         nvals += 4 * p->nconst[b];
      g.edge = edge_pct(nvals);
      for (unsigned b = 0; b < ENV_MAX_CBUFS; b++) {
         uint32_t *cb = env_cbuf(e, b, d);
         for (uint32_t slot = 0; cb && slot < p->nconst[b]; slot++)
            gen_reg(&g, &p->cnst[b][slot * 4], cb + slot * 4, slot ? cb + (slot - 1) * 4 : NULL);
      }
   }
}

/* Lanes per draw: DIFF_DRAW_LANES, or whole workgroups, and at most
 * ENV_MAX_DRAWS draws. */
static uint32_t
draw_lanes(const struct env *e)
{
   uint32_t wg = e->stage == TGSI_STAGE_COMP ? wg_lanes(e) : 4;
   uint32_t n = MAX2((uint32_t)DIFF_DRAW_LANES, (e->nlanes + ENV_MAX_DRAWS - 1) / ENV_MAX_DRAWS);
   return (n + wg - 1) / wg * wg;
}

static void
gen_draws(struct env *e)
{
   uint32_t dl = draw_lanes(e), n = (e->nlanes + dl - 1) / dl;
   if (n <= 1)
      return;
   uint16_t *ld = xmalloc((size_t)e->nlanes * sizeof(*ld));
   for (uint32_t l = 0; l < e->nlanes; l++)
      ld[l] = (uint16_t)(l / dl);
   env_set_draws(e, n, ld);
   free(ld);
}

/* ------------------------------------------------------------------ */
/* System values                                                        */

static uint32_t
wg_lanes(const struct env *e)
{
   return e->block_size[0] * e->block_size[1] * e->block_size[2];
}

static void
sv_compute(struct env *e, enum tgsi_semantic sem, uint32_t l, uint32_t v[4])
{
   uint32_t b = wg_lanes(e), local = l % b, wg = l / b;
   switch (sem) {
   case TGSI_SEM_THREAD_ID:
      v[0] = local % e->block_size[0];
      v[1] = local / e->block_size[0] % e->block_size[1];
      v[2] = local / (e->block_size[0] * e->block_size[1]);
      break;
   case TGSI_SEM_BLOCK_ID:
      v[0] = wg;
      break;
   case TGSI_SEM_BLOCK_SIZE:
      memcpy(v, e->block_size, 12);
      break;
   case TGSI_SEM_GRID_SIZE:
      memcpy(v, e->grid_size, 12);
      break;
   default:
      break;
   }
}

/* Deterministic system values of lane l (see the head of this file). */
static void
sv_value(struct env *e, enum tgsi_semantic sem, uint32_t l, struct rng *r, uint32_t v[4])
{
   bool fs = e->stage == TGSI_STAGE_FRAG;
   uint32_t q = l / 4, i = l % 4, local = e->stage == TGSI_STAGE_COMP ? l % wg_lanes(e) : l;
   uint32_t sg = local % e->subgroup_size;
   memset(v, 0, 16);
   switch (sem) {
   case TGSI_SEM_VERTEXID:
   case TGSI_SEM_VERTEXID_NOBASE:
      v[0] = l;
      break;
   case TGSI_SEM_INSTANCEID:
      v[0] = (l / 16) % 4;
      break;
   case TGSI_SEM_PRIM_ID:
      v[0] = fs ? q : l;
      break;
   case TGSI_SEM_POSITION:
      v[0] = fui((float)(2 * (q % 128) + (i & 1)) + 0.5f);
      v[1] = fui((float)(2 * (q / 128) + (i >> 1)) + 0.5f);
      v[2] = fui((float)rng_below(r, 1u << 24) / 16777216.0f);
      v[3] = fui(1.0f);
      break;
   case TGSI_SEM_FACE:
      v[0] = (stream_seed(q, 0xface) & 1) ? fui(1.0f) : fui(-1.0f);
      break;
   case TGSI_SEM_SAMPLEPOS:
      v[0] = v[1] = fui(0.5f);
      break;
   case TGSI_SEM_SAMPLEMASK:
      v[0] = 1;
      break;
   case TGSI_SEM_SUBGROUP_SIZE:
      v[0] = e->subgroup_size;
      break;
   case TGSI_SEM_SUBGROUP_INVOCATION:
      v[0] = sg;
      break;
   case TGSI_SEM_SUBGROUP_EQ_MASK:
   case TGSI_SEM_SUBGROUP_GE_MASK:
   case TGSI_SEM_SUBGROUP_GT_MASK:
   case TGSI_SEM_SUBGROUP_LE_MASK:
   case TGSI_SEM_SUBGROUP_LT_MASK: { /* 64-bit masks: x the low word, y the high */
      uint64_t eq = 1ull << sg,
               all = e->subgroup_size >= 64 ? ~0ull : (1ull << e->subgroup_size) - 1;
      uint64_t m = sem == TGSI_SEM_SUBGROUP_EQ_MASK   ? eq
                   : sem == TGSI_SEM_SUBGROUP_GE_MASK ? ~(eq - 1)
                   : sem == TGSI_SEM_SUBGROUP_GT_MASK ? ~(eq - 1) << 1
                   : sem == TGSI_SEM_SUBGROUP_LE_MASK ? (eq - 1) | eq
                                                      : eq - 1;
      m &= all;
      v[0] = (uint32_t)m;
      v[1] = (uint32_t)(m >> 32);
      break;
   }
   case TGSI_SEM_WORK_DIM:
      v[0] = 3;
      break;
   case TGSI_SEM_VERTICESIN:
      v[0] = e->in_vertices;
      break;
   case TGSI_SEM_TESSCOORD:
      v[0] = fui((float)rng_below(r, 65) / 64.0f);
      v[1] = fui((float)rng_below(r, 65) / 64.0f);
      break;
   case TGSI_SEM_TESSOUTER:
   case TGSI_SEM_TESSINNER:
      for (unsigned c = 0; c < 4; c++)
         v[c] = fui((float)(1 + rng_below(r, 8)));
      break;
   case TGSI_SEM_INVOCATIONID:
      v[0] = e->stage == TGSI_STAGE_TESS_CTRL ? l % e->out_vertices : 0;
      break;
   default:
      sv_compute(e, sem, l, v);
      break;
   }
}

/* Fragment inputs with a system semantic (gl_FragCoord as IN[n],
 * POSITION; FACE; ...) hold the same values as the system value would. */
static bool
input_is_system(enum tgsi_semantic sem)
{
   return sem == TGSI_SEM_POSITION || sem == TGSI_SEM_FACE || sem == TGSI_SEM_PRIM_ID ||
          sem == TGSI_SEM_SAMPLEID || sem == TGSI_SEM_SAMPLEPOS || sem == TGSI_SEM_SAMPLEMASK ||
          sem == TGSI_SEM_LAYER || sem == TGSI_SEM_VIEWPORT_INDEX;
}

static void
gen_fs_system_inputs(struct env *e, const struct tgsi_shader *s, uint64_t seed)
{
   for (unsigned k = 0; k < s->ndecls && s->stage == TGSI_STAGE_FRAG; k++) {
      const struct tgsi_decl *d = &s->decls[k];
      if (d->file != TGSI_FILE_IN || !d->has_semantic || !input_is_system(d->semantic))
         continue;
      for (uint32_t r = d->first; r <= d->last && r < e->nin; r++) {
         struct rng rr;
         uint32_t v[4];
         rng_seed(&rr, stream_seed(seed, 0x5600000000ull + d->semantic));
         for (uint32_t l = 0; l < e->nlanes; l++) {
            sv_value(e, d->semantic, l, &rr, v);
            for (unsigned c = 0; c < 4; c++)
               env_in(e, 0, r, c)[l] = v[c];
         }
      }
   }
}

static void
gen_system_values(struct env *e, const struct tgsi_shader *s, uint64_t seed)
{
   gen_fs_system_inputs(e, s, seed);
   for (unsigned k = 0; k < s->ndecls; k++) {
      const struct tgsi_decl *d = &s->decls[k];
      if (d->file != TGSI_FILE_SV || !d->has_semantic || e->sv[d->semantic])
         continue;
      uint32_t *sv = env_sv(e, d->semantic), v[4];
      struct rng r;
      rng_seed(&r, stream_seed(seed, 0x5600000000ull + d->semantic));
      for (uint32_t l = 0; l < e->nlanes; l++) {
         sv_value(e, d->semantic, l, &r, v);
         for (unsigned c = 0; c < 4; c++)
            sv[(size_t)c * e->nlanes + l] = v[c];
      }
   }
}

/* ------------------------------------------------------------------ */
/* Textures, buffers, images                                            */

static enum tgsi_texture
unit_target(const struct tgsi_shader *s, unsigned unit, enum tgsi_return_type *ret)
{
   *ret = TGSI_RET_FLOAT;
   for (unsigned k = 0; k < s->ndecls; k++) {
      const struct tgsi_decl *d = &s->decls[k];
      if (d->file == TGSI_FILE_SVIEW && unit >= d->first && unit <= d->last) {
         *ret = d->ret[0];
         return d->target;
      }
   }
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (!(tgsi_op_info[in->op].flags & TGSI_OPF_TEX))
         continue;
      for (unsigned k = 0; k < in->nsrc; k++)
         if (in->src[k].reg.file == TGSI_FILE_SAMP && in->src[k].reg.index == (int32_t)unit)
            return in->tex_target;
   }
   return TGSI_TEX_T_2D;
}

static uint32_t
pick(struct rng *r, const uint32_t *v, unsigned n)
{
   return v[rng_below(r, n)];
}

static void
gen_texture(struct env *e, const struct tgsi_shader *s, unsigned unit, struct rng *r)
{
   /* Texels cost nothing, so sizes up to 512 let fetches addressed by
    * pixel position stay in range; small sizes exercise the clamping. */
   static const uint32_t sizes[] = {4, 8, 16, 64, 256, 512};
   static const uint32_t small[] = {4, 8, 16};
   struct env_texture t = {.depth = 1};
   t.target = unit_target(s, unit, &t.ret);
   if (t.target == TGSI_TEX_T_UNKNOWN)
      t.target = TGSI_TEX_T_2D;
   bool is3d = t.target == TGSI_TEX_T_3D;
   t.width = is3d ? pick(r, small, 3) : pick(r, sizes, ARRAY_SIZE(sizes));
   t.height = is3d ? pick(r, small, 3) : pick(r, sizes, ARRAY_SIZE(sizes));
   switch (t.target) {
   case TGSI_TEX_T_BUFFER:
   case TGSI_TEX_T_1D:
   case TGSI_TEX_T_SHADOW1D:
      t.height = 1;
      break;
   case TGSI_TEX_T_1D_ARRAY:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
      t.height = 1;
      t.depth = 1 + rng_below(r, 4);
      break;
   case TGSI_TEX_T_3D:
      t.depth = pick(r, small, 3);
      break;
   case TGSI_TEX_T_2D_ARRAY:
   case TGSI_TEX_T_SHADOW2D_ARRAY:
   case TGSI_TEX_T_2D_ARRAY_MSAA:
      t.depth = 1 + rng_below(r, 4);
      break;
   case TGSI_TEX_T_CUBE_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE_ARRAY:
      t.depth = 1 + rng_below(r, 2);
      t.height = t.width;
      break;
   case TGSI_TEX_T_CUBE:
   case TGSI_TEX_T_SHADOWCUBE:
      t.height = t.width;
      break;
   default:
      break;
   }
   /* Fragment shaders often fetch by pixel position (G-buffers, MSAA
    * resolves): three times in four a 2-D texture covers the framebuffer
    * of the lane layout (256 pixels wide, 2 rows per 128 quads). */
   bool flat2d = tgsi_texture_spatial_coords(t.target) == 2 && t.target != TGSI_TEX_T_CUBE &&
                 t.target != TGSI_TEX_T_SHADOWCUBE;
   if (e->stage == TGSI_STAGE_FRAG && flat2d && rng_below(r, 4)) {
      uint32_t rows = 2 * ((e->nlanes / 4 + 127) / 128);
      t.width = MAX2(t.width, 256u);
      t.height = MIN2(MAX2(t.height, rows), (uint32_t)ENV_MAX_TEX_SIZE);
   }
   uint32_t maxl = env_tex_levels(t.width, t.height, t.depth, t.target);
   t.levels = 1 + rng_below(r, maxl);
   t.seed = rng_next(r);
   env_set_texture(e, unit, &t);
}

/* Words of a buffer or image, each word's (or double's) profile at the
 * per-lane rates: of the kind the shader reads them as (kind: per position
 * in a group of four; a position no LOAD decides takes that of the other
 * position of its pair, else integer), integers without one (images). */
static void
fill_words(struct env_mem *m, struct lane_gen *g, bool small, const uint8_t *kind)
{
   g->edge = 40;
   uint32_t n = m->size / 4;
   for (uint32_t w = 0; w < n; w++) {
      enum gen_kind k = GK_INT;
      if (kind)
         k = kind[w & 3] != GK_NONE         ? (enum gen_kind)kind[w & 3]
             : kind[w & 1] != GK_NONE       ? (enum gen_kind)kind[w & 1]
             : kind[(w & 3) ^ 2] != GK_NONE ? (enum gen_kind)kind[(w & 3) ^ 2]
                                            : GK_INT;
      g->prof = pick_profile(&g->r, lane_rates);
      uint64_t v;
      if (small)
         v = rng_below(&g->r, 8);
      else if (k == GK_D_HI || k == GK_L_HI)
         v = gen_value(g, (enum gen_kind)(k - 1), GS_NONE, 0, false) >> 32;
      else
         v = gen_value(g, k, GS_NONE, 0, false);
      uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
      memcpy(m->data + 4 * w, &lo, 4);
      if (!small && (k == GK_D_LO || k == GK_L_LO) && w + 1 < n)
         memcpy(m->data + 4 * ++w, &hi, 4);
   }
}

static void
gen_resources(struct env *e, const struct tgsi_shader *s, const struct plan *p, struct lane_gen *g)
{
   bool unit_used[ENV_MAX_TEXTURES] = {false};
   int cover = -1; /* drawn at the first image */
   for (unsigned k = 0; k < s->ndecls; k++) {
      const struct tgsi_decl *d = &s->decls[k];
      for (uint32_t i = d->first; i <= d->last && i < 64; i++) {
         if ((d->file == TGSI_FILE_SAMP || d->file == TGSI_FILE_SVIEW) && i < ENV_MAX_TEXTURES)
            unit_used[i] = true;
         if (d->file == TGSI_FILE_BUFFER && i < ENV_MAX_BUFFERS && !e->buf[i].data) {
            /* Mostly 16 bytes per lane (addresses usually follow the
             * invocation index), sometimes small. */
            static const uint32_t sizes[] = {64, 256};
            uint32_t big = MIN2(MAX2(16 * e->nlanes, 256u), ENV_MAX_MEM_BYTES / 4);
            env_set_buffer(e, i, rng_below(&g->r, 4) ? big : pick(&g->r, sizes, 2));
            fill_words(&e->buf[i], g, p->buf_small[i], p->buf_kind[i]);
         }
         if (d->file == TGSI_FILE_IMAGE && i < ENV_MAX_IMAGES && !e->img[i].bound) {
            static const uint32_t sizes[] = {4, 8, 16};
            enum tgsi_texture t = d->target;
            uint32_t w = pick(&g->r, sizes, 3), h = pick(&g->r, sizes, 3), dd = 1;
            if (cover < 0)
               cover = s->stage == TGSI_STAGE_COMP && rng_below(&g->r, 4);
            if (cover) {
               /* Cover the dispatch: coordinates usually follow the
                * global invocation id. */
               w = MIN2(MAX2(w, e->block_size[0] * e->grid_size[0]), 8192u);
               h = MIN2(MAX2(h, e->block_size[1] * e->grid_size[1]), 65536u / w);
            }
            unsigned coords = tgsi_texture_coord_count(t);
            if (t == TGSI_TEX_T_1D || t == TGSI_TEX_T_BUFFER || t == TGSI_TEX_T_1D_ARRAY)
               h = 1;
            if (t == TGSI_TEX_T_1D_ARRAY || coords >= 3)
               dd = t == TGSI_TEX_T_CUBE         ? 6
                    : t == TGSI_TEX_T_CUBE_ARRAY ? 12
                                                 : 1 + rng_below(&g->r, 4);
            if (t == TGSI_TEX_T_CUBE || t == TGSI_TEX_T_CUBE_ARRAY)
               h = w;
            env_set_image(e, i, t, w, h, dd);
            fill_words(&e->img[i].mem, g, false, NULL);
         }
      }
   }
   for (unsigned u = 0; u < ENV_MAX_TEXTURES; u++)
      if (unit_used[u])
         gen_texture(e, s, u, &g->r);
}

static uint32_t
block_dim(const struct tgsi_shader *s, enum tgsi_property prop, uint32_t dflt)
{
   uint32_t v = tgsi_interp_prop(s, prop, dflt);
   return v ? v : 1;
}

struct env *
diff_gen_inputs(const struct tgsi_shader *s, uint64_t seed, uint32_t nlanes,
                struct diag_list *diags)
{
   return diff_gen_inputs_ex(s, seed, nlanes, 0, ENV_SUBGROUP_SIZE, diags);
}

struct env *
diff_gen_inputs_ex(const struct tgsi_shader *s, uint64_t seed, uint32_t nlanes, unsigned flags,
                   uint32_t subgroup, struct diag_list *diags)
{
   uint32_t block[3] = {1, 1, 1};
   if (s->stage == TGSI_STAGE_COMP) {
      bool fixed = tgsi_interp_prop(s, TGSI_PROP_CS_FIXED_BLOCK_WIDTH, 0) != 0;
      block[0] = block_dim(s, TGSI_PROP_CS_FIXED_BLOCK_WIDTH, DIFF_DEFAULT_BLOCK_X);
      block[1] = block_dim(s, TGSI_PROP_CS_FIXED_BLOCK_HEIGHT, fixed ? 1 : DIFF_DEFAULT_BLOCK_Y);
      block[2] = block_dim(s, TGSI_PROP_CS_FIXED_BLOCK_DEPTH, 1);
      uint64_t b = (uint64_t)block[0] * block[1] * block[2];
      if (b > 65536) {
         diag_add(diags, DIAG_ERROR, s->name, 0, 0, NULL,
                  "workgroup of %llu invocations is too large", (unsigned long long)b);
         return NULL;
      }
      nlanes = (uint32_t)((nlanes + b - 1) / b * b);
   }
   if (nlanes == 0 || nlanes > ENV_MAX_LANES) {
      diag_add(diags, DIAG_ERROR, s->name, 0, 0, NULL, "%u invocations: the limit is %u", nlanes,
               ENV_MAX_LANES);
      return NULL;
   }
   struct plan p;
   make_plan(&p, s);
   struct env *e = env_new(s->stage, nlanes);
   e->seed = seed;
   e->subgroup_size = subgroup == 64 ? 64 : ENV_SUBGROUP_SIZE;
   memcpy(e->block_size, block, sizeof(block));
   e->grid_size[0] = nlanes / (block[0] * block[1] * block[2]);
   if (s->stage == TGSI_STAGE_TESS_CTRL)
      e->out_vertices = MAX2(1u, MIN2(32u, tgsi_interp_prop(s, TGSI_PROP_TCS_VERTICES_OUT, 1)));
   if (!env_alloc_inputs(e, p.nin, tgsi_interp_in_vertices(s))) {
      diag_add(diags, DIAG_ERROR, s->name, 0, 0, NULL,
               "the inputs of %u invocations do not fit in memory", nlanes);
      env_free(e);
      plan_free(&p);
      return NULL;
   }
   gen_lane_inputs(e, &p, seed);
   /* Constants reach every lane of a draw: a special one poisons one
    * draw, not the run. */
   gen_draws(e);
   gen_constants(e, &p, seed, flags & DIFF_INPUTS_REAL_CONSTANTS);
   gen_system_values(e, s, seed);
   struct lane_gen g = {0};
   rng_seed(&g.r, stream_seed(seed, UNIFORM_STREAM));
   gen_resources(e, s, &p, &g);
   plan_free(&p);
   return e;
}
