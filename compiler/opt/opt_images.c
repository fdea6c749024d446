/*
 * Image lowering: image loads, stores and atomics become word accesses at
 * the texel's address, which is how both models reach images (they have
 * no typed image instructions): the emulator lays image i out at
 * EMU_ADDR_IMAGE(i), texels of 16 bytes in x, then y, then layer order,
 * with the sizes in the constant file (EMU_BIND_SIZE).
 *
 *   off = ((z * height + y) * width + x) << 4
 *   off = x <u width ? (y <u height ? (z <u depth ? off : -B) : -B) : -B
 *         (B = EMU_ADDR_IMAGE(i); a test per present coordinate)
 *
 * and the accesses are buffer accesses of buffer IR_IMAGE_RES + i, whose
 * base is EMU_ADDR_IMAGE(i): word c of the texel at off + 4 * c. Outside
 * the image the address is 0, where there is no memory: a load reads 0
 * and a store or atomic does nothing, as the interpreter's out-of-bounds
 * rule and the reference compiler's (ref_image_address) have it. A
 * coordinate the target has not is 0 and needs no test (every bound
 * image has a width, height and depth of at least 1). 1-D arrays take the
 * layer from .y, 2-D arrays and cubes from .z, as the interpreter does.
 *
 * The sizes are load_const reads of buffer IR_SIZE_BUF + TGSI_FILE_IMAGE
 * (the backend's name for EMU_BIND_SIZE), so the address arithmetic is
 * plain IR that constant folding, CSE and instruction selection see; an
 * image load and a store at the same coordinates share it. Image indices
 * past the emulator's images are left for selection to refuse. A backend
 * pass: required, not an optional improvement, so no bisect counting.
 */
#include "compiler/ir/ir.h"
#include "emu/emu.h"

#include <stdlib.h>

_Static_assert(EMU_ADDR_BUFFER(IR_IMAGE_RES + 3) == EMU_ADDR_IMAGE(3),
               "image i is buffer IR_IMAGE_RES + i");

static struct ir_instr *
image_size(struct ir_shader *sh, struct ir_instr *pos, unsigned comp)
{
   struct ir_instr *s = opt_build_before(sh, pos, IR_OP_LOAD_CONST, 0, NULL);
   s->buf = IR_SIZE_BUF + TGSI_FILE_IMAGE;
   s->slot = pos->res;
   s->comp = (int32_t)comp;
   return s;
}

/* A cube's face counts as a layer, as an array's index does. */
static bool
layered(int32_t t)
{
   return tgsi_texture_is_array((enum tgsi_texture)t) || t == TGSI_TEX_T_CUBE;
}

/* The texel's byte offset in buffer IR_IMAGE_RES + res (see above); the
 * coordinates are the first sources of pos. */
static struct ir_instr *
texel_offset(struct ir_shader *sh, struct ir_instr *pos)
{
   int32_t t = pos->target;
   unsigned dims = t == TGSI_TEX_T_3D                                                         ? 3
                   : t == TGSI_TEX_T_1D || t == TGSI_TEX_T_1D_ARRAY || t == TGSI_TEX_T_BUFFER ? 1
                                                                                              : 2;
   struct ir_instr *co[3] = {pos->src[0], NULL, NULL};
   if (dims >= 2)
      co[1] = pos->src[1];
   if (dims == 3)
      co[2] = pos->src[2];
   else if (layered(t))
      co[2] = pos->src[dims];
   struct ir_instr *size[3] = {NULL, NULL, NULL}, *row = NULL;
   for (unsigned k = 0; k < 3; k++)
      if (co[k])
         size[k] = image_size(sh, pos, k);
   if (co[2]) {
      struct ir_instr *h = size[1] ? size[1] : image_size(sh, pos, 1);
      row = opt_build2_before(sh, pos, IR_OP_IMUL, co[2], h);
      if (co[1])
         row = opt_build2_before(sh, pos, IR_OP_IADD, row, co[1]);
   } else {
      row = co[1];
   }
   struct ir_instr *lin = co[0];
   if (row)
      lin = opt_build2_before(sh, pos, IR_OP_IADD,
                              opt_build2_before(sh, pos, IR_OP_IMUL, row, size[0]), co[0]);
   struct ir_instr *off = opt_build2_before(sh, pos, IR_OP_ISHL, lin, opt_imm_before(sh, pos, 4));
   struct ir_instr *none = opt_imm_before(sh, pos, 0u - EMU_ADDR_IMAGE((uint32_t)pos->res));
   /* a select per test, each reading its compare directly (no and of
    * booleans: a select tests a compare, or a predicate on sm50) */
   for (unsigned k = 3; k-- > 0;) {
      if (!co[k])
         continue;
      struct ir_instr *v[3] = {opt_build2_before(sh, pos, IR_OP_ULT, co[k], size[k]), off, none};
      off = opt_build_before(sh, pos, IR_OP_BCSEL, 3, v);
   }
   return off;
}

static struct ir_instr *
word(struct ir_shader *sh, struct ir_instr *pos, struct ir_instr *off, unsigned c)
{
   return c ? opt_build2_before(sh, pos, IR_OP_IADD, off, opt_imm_before(sh, pos, 4 * c)) : off;
}

/* An image_load's extracts become loads of their words. */
static void
lower_load(struct ir_shader *sh, struct ir_instr *in, struct ir_instr *off)
{
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *e = sh->values[i];
      if (!e || e->removed || e->op != IR_OP_EXTRACT || e->src[0] != in)
         continue;
      struct ir_instr *a = word(sh, e, off, (unsigned)(e->comp & 3));
      struct ir_instr *l = opt_build_before(sh, e, IR_OP_LOAD_BUFFER, 1, &a);
      l->res = IR_IMAGE_RES + in->res;
      opt_replace(sh, e, l);
   }
}

/* A texel is stored whole: four words. */
static void
lower_store(struct ir_shader *sh, struct ir_instr *in, struct ir_instr *off, unsigned ncoord)
{
   for (unsigned c = 0; c < 4; c++) {
      struct ir_instr *v[2] = {word(sh, in, off, c), in->src[ncoord + c]};
      struct ir_instr *s = opt_build_before(sh, in, IR_OP_STORE_BUFFER, 2, v);
      s->res = IR_IMAGE_RES + in->res;
   }
}

/* An image atomic becomes a buffer atomic at the texel's first word. */
static void
lower_atomic(struct ir_instr *in, struct ir_instr *off, unsigned ncoord)
{
   unsigned n = in->nsrc - ncoord;
   for (unsigned k = 0; k < n; k++)
      ir_set_src(in, 1 + k, in->src[ncoord + k]);
   ir_set_src(in, 0, off);
   ir_instr_set_nsrc(in, n + 1);
   in->space = IR_SPACE_buffer;
   in->target = IR_NONE;
   in->res = IR_IMAGE_RES + in->res;
}

static unsigned
coord_count(int32_t t)
{
   bool ms = t == TGSI_TEX_T_2D_MSAA || t == TGSI_TEX_T_2D_ARRAY_MSAA;
   return tgsi_texture_coord_count(t) + (ms ? 1u : 0u);
}

bool
opt_images(struct ir_shader *sh, struct opt_ctx *ctx)
{
   (void)ctx;
   bool progress = false;
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *in = order[i];
      bool image = in->op == IR_OP_IMAGE_LOAD || in->op == IR_OP_IMAGE_STORE ||
                   (in->op == IR_OP_ATOMIC && in->space == IR_SPACE_image);
      if (!image || in->res < 0 || in->res >= ENV_MAX_IMAGES)
         continue;
      struct ir_instr *off = texel_offset(sh, in);
      unsigned nc = coord_count(in->target);
      if (in->op == IR_OP_IMAGE_LOAD) {
         lower_load(sh, in, off);
         ir_instr_remove(in);
      } else if (in->op == IR_OP_IMAGE_STORE) {
         lower_store(sh, in, off, nc);
         ir_instr_remove(in);
      } else {
         lower_atomic(in, off, nc);
      }
      progress = true;
   }
   free(order);
   return progress;
}
