/*
 * Texture, memory, helper and subgroup opcodes, one TGSI text case each:
 * the expected result is either the texel the documented sampler rule
 * selects (env_texel, itself pinned in emu/tests/test_env.c) or literal
 * bits. All lanes get the same inputs unless the case says otherwise.
 */
#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"
#include "util/test.h"

#include <stdlib.h>

/* Units: 0 = 2D FLOAT 8x4 with 3 levels, 1 = SHADOW2D 4x4, 2 = 2D_ARRAY
 * 4x4x3 UINT, 3 = CUBE_ARRAY 4x4 x2 cubes, 4 = 2D_MSAA 4x4. */
static struct env *
make_env(enum tgsi_stage stage, uint32_t lanes)
{
   struct env *e = env_new(stage, lanes);
   env_alloc_inputs(e, 2, 1);
   static const struct env_texture t[] = {
       {.target = TGSI_TEX_T_2D,
        .ret = TGSI_RET_FLOAT,
        .width = 8,
        .height = 4,
        .depth = 1,
        .levels = 3,
        .seed = 11},
       {.target = TGSI_TEX_T_SHADOW2D,
        .ret = TGSI_RET_FLOAT,
        .width = 4,
        .height = 4,
        .depth = 1,
        .levels = 1,
        .seed = 12},
       {.target = TGSI_TEX_T_2D_ARRAY,
        .ret = TGSI_RET_UINT,
        .width = 4,
        .height = 4,
        .depth = 3,
        .levels = 1,
        .seed = 13},
       {.target = TGSI_TEX_T_SHADOWCUBE_ARRAY,
        .ret = TGSI_RET_FLOAT,
        .width = 4,
        .height = 4,
        .depth = 2,
        .levels = 1,
        .seed = 14},
       {.target = TGSI_TEX_T_2D_MSAA,
        .ret = TGSI_RET_FLOAT,
        .width = 4,
        .height = 4,
        .depth = 1,
        .levels = 1,
        .seed = 15},
   };
   for (unsigned u = 0; u < ARRAY_SIZE(t); u++)
      CHECK(env_set_texture(e, u, &t[u]));
   return e;
}

#define HDR                                                                                        \
   "FRAG\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0]\nDCL SAMP[0..4]\n"                                      \
   "DCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], SHADOW2D, FLOAT\nDCL SVIEW[2], 2D_ARRAY, UINT\n"        \
   "DCL SVIEW[3], SHADOWCUBEARRAY, FLOAT\nDCL SVIEW[4], 2D_MSAA, FLOAT\nDCL TEMP[0]\n"             \
   "IMM[0] FLT32 {1.0, 0.4, 2.0, 0.0}\nIMM[1] INT32 {1, -1, 2, 0}\n"

enum expect_kind { EX_TEXEL, EX_BITS };

struct tex_case {
   const char *name, *body;
   float in0[4], in1[4]; /* float inputs, or integer bits when as_int */
   bool as_int;
   enum expect_kind kind;
   unsigned unit, x, y, z, level; /* EX_TEXEL */
   const char *swz;               /* EX_TEXEL: result channel c = texel[swz[c]] */
   uint32_t bits[4];              /* EX_BITS */
};

static const struct tex_case cases[] = {
    /* Implicit LOD is level 0; 0.3 * 8 = 2.4 -> 2, 0.6 * 4 = 2.4 -> 2. */
    {"TEX",
     "TEX OUT[0], IN[0], SAMP[0], 2D",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_TEXEL,
     0,
     2,
     2,
     0,
     0,
     "xyzw",
     {0}},
    {"TXP",
     "TXP OUT[0], IN[0], SAMP[0], 2D",
     {0.6f, 1.2f, 0, 2.0f},
     {0},
     false,
     EX_TEXEL,
     0,
     2,
     2,
     0,
     0,
     "xyzw",
     {0}},
    /* lod = bias 1.2: floor(1.7) = 1, level 1 is 4x2: (1, 1). */
    {"TXB",
     "TXB OUT[0], IN[0], SAMP[0], 2D",
     {0.3f, 0.6f, 0, 1.2f},
     {0},
     false,
     EX_TEXEL,
     0,
     1,
     1,
     0,
     1,
     "xyzw",
     {0}},
    /* lod 2.6 -> 3 -> clamped to level 2 (2x1). */
    {"TXL",
     "TXL OUT[0], IN[0], SAMP[0], 2D",
     {0.3f, 0.6f, 0, 2.6f},
     {0},
     false,
     EX_TEXEL,
     0,
     0,
     0,
     0,
     2,
     "xyzw",
     {0}},
    {"TEX_LZ",
     "TEX_LZ OUT[0], IN[0], SAMP[0], 2D",
     {0.99f, 0.1f, 0, 5},
     {0},
     false,
     EX_TEXEL,
     0,
     7,
     0,
     0,
     0,
     "xyzw",
     {0}},
    /* ddx = ddy = (0.25, 0): 2 texels of 8, lod 1, level 1 (4x2): (2, 1). */
    {"TXD",
     "TXD OUT[0], IN[0], IN[1], IN[1], SAMP[0], 2D",
     {0.5f, 0.5f, 0, 0},
     {0.25f, 0, 0, 0},
     false,
     EX_TEXEL,
     0,
     2,
     1,
     0,
     1,
     "xyzw",
     {0}},
    {"TXB2",
     "TXB2 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], 2D",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_TEXEL,
     0,
     1,
     1,
     0,
     1,
     "xyzw",
     {0}},
    {"TXL2",
     "TXL2 OUT[0], IN[0], IMM[0].yyyy, SAMP[0], 2D",
     {0.3f, 0.6f, 0, 9},
     {0},
     false,
     EX_TEXEL,
     0,
     2,
     2,
     0,
     0,
     "xyzw",
     {0}},
    /* Gather of component 2: i0 = floor(8 * 0.3 - 0.5) = 1, j0 = floor(4 * 0.6 - 0.5) = 1. */
    {"TG4",
     "TG4 OUT[0], IN[0], IMM[1].zzzz, SAMP[0], 2D",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {0}},
    {"TXF", "TXF OUT[0], IN[0], SAMP[0], 2D", {0}, {0}, true, EX_TEXEL, 0, 3, 1, 0, 1, "xyzw", {0}},
    {"TXF offset",
     "TXF OUT[0], IN[0], SAMP[0], 2D, IMM[1].yww",
     {0},
     {0},
     true,
     EX_TEXEL,
     0,
     2,
     1,
     0,
     1,
     "xyzw",
     {0}},
    {"TXF_LZ",
     "TXF_LZ OUT[0], IN[0], SAMP[0], 2D",
     {0},
     {0},
     true,
     EX_TEXEL,
     0,
     3,
     1,
     0,
     0,
     "xyzw",
     {0}},
    {"TXQ",
     "TXQ OUT[0], IMM[1].xxxx, SAMP[0], 2D",
     {0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {4, 2, 0, 3}},
    {"TXQ array",
     "TXQ OUT[0], IMM[1].wwww, SAMP[2], 2D_ARRAY",
     {0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {4, 4, 3, 1}},
    {"TXQS",
     "TXQS OUT[0], SAMP[4], 2D_MSAA",
     {0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {1, 0, 0, 0}},
    {"LODQ",
     "LODQ OUT[0], IN[0], SAMP[0], 2D",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {0, 0, 0, 0}},
    {"SAMPLE",
     "SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_TEXEL,
     0,
     2,
     2,
     0,
     0,
     "xyzw",
     {0}},
    {"SAMPLE swizzle",
     "SAMPLE OUT[0], IN[0], SVIEW[0].wzyx, SAMP[0]",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_TEXEL,
     0,
     2,
     2,
     0,
     0,
     "wzyx",
     {0}},
    {"SAMPLE_L",
     "SAMPLE_L OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xxxx",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_TEXEL,
     0,
     1,
     1,
     0,
     1,
     "xyzw",
     {0}},
    {"SAMPLE_B",
     "SAMPLE_B OUT[0], IN[0], SVIEW[0], SAMP[0], IMM[0].zzzz",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_TEXEL,
     0,
     0,
     0,
     0,
     2,
     "xyzw",
     {0}},
    /* ddx = ddy = (0, 1): 4 texels of 4 along t, lod 2, level 2 (2x1). */
    {"SAMPLE_D",
     "SAMPLE_D OUT[0], IN[0], SVIEW[0], SAMP[0], IN[1], IN[1]",
     {0.3f, 0.6f, 0, 0},
     {0, 1, 0, 0},
     false,
     EX_TEXEL,
     0,
     0,
     0,
     0,
     2,
     "xyzw",
     {0}},
    {"SAMPLE_I",
     "SAMPLE_I OUT[0], IN[0], SVIEW[2].yxzw",
     {0},
     {0},
     true,
     EX_TEXEL,
     2,
     3,
     1,
     2,
     0,
     "yxzw",
     {0}},
    {"SAMPLE_I_MS",
     "SAMPLE_I_MS OUT[0], IN[0], SVIEW[4], IMM[1].xxxx",
     {0},
     {0},
     true,
     EX_TEXEL,
     4,
     3,
     1,
     0,
     0,
     "xyzw",
     {0}},
    {"GATHER4",
     "GATHER4 OUT[0], IN[0], SVIEW[0].xyzw, SAMP[0]",
     {0.3f, 0.6f, 0, 0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {0}},
    {"SVIEWINFO",
     "SVIEWINFO OUT[0], IMM[1].zzzz, SVIEW[0]",
     {0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {2, 1, 0, 3}},
    {"SAMPLE_POS",
     "SAMPLE_POS OUT[0].xy, SVIEW[4], IMM[1].zzzz",
     {0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {0x3f000000, 0x3f000000, 0, 0}},
    {"SAMPLE_INFO",
     "SAMPLE_INFO OUT[0], SVIEW[4].yxzw, IMM[1].xxxx",
     {0},
     {0},
     false,
     EX_BITS,
     0,
     0,
     0,
     0,
     0,
     NULL,
     {0, 1, 0, 0}},
};

/* Integer coordinates for the TXF-style cases: (3, 1, 2, the level). */
static void
set_inputs(struct env *e, const struct tex_case *c)
{
   for (uint32_t l = 0; l < e->nlanes; l++)
      for (unsigned k = 0; k < 4; k++) {
         uint32_t iv = k == 0 ? 3 : k == 1 ? 1 : k == 2 ? 2 : c->level;
         env_in(e, 0, 0, k)[l] = c->as_int ? iv : fui(c->in0[k]);
         env_in(e, 0, 1, k)[l] = fui(c->in1[k]);
      }
}

static void
expected_bits(struct env *e, const struct tex_case *c, uint32_t want[4])
{
   if (c->kind == EX_TEXEL) {
      uint32_t t[4];
      unsigned level = c->level;
      if (!strcmp(c->name, "TXF_LZ") || !strcmp(c->name, "SAMPLE_I") ||
          !strcmp(c->name, "SAMPLE_I_MS"))
         level = 0;
      env_texel(e, c->unit, c->x, c->y, c->z, level, t);
      for (unsigned k = 0; k < 4; k++)
         want[k] = t[(strchr("xyzw", c->swz[k]) - "xyzw")];
      return;
   }
   memcpy(want, c->bits, 16);
   if (!strcmp(c->name, "TG4") || !strcmp(c->name, "GATHER4")) {
      unsigned comp = c->name[0] == 'T' ? 2 : 0;
      static const unsigned dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
      for (unsigned k = 0; k < 4; k++) {
         uint32_t t[4];
         env_texel(e, 0, 1 + dx[k], 1 + dy[k], 0, 0, t);
         want[k] = t[comp];
      }
   }
}

static struct tgsi_shader *
parse(const char *body)
{
   char *text = xasprintf(HDR "%s\nEND\n", body);
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), "case.tgsi", NULL, &d);
   if (!s)
      for (unsigned i = 0; i < d.n; i++)
         fprintf(stderr, "%s: %s\n", body, d.v[i].msg);
   diag_clear(&d);
   free(text);
   return s;
}

static void
test_texture_cases(void)
{
   for (unsigned k = 0; k < ARRAY_SIZE(cases); k++) {
      const struct tex_case *c = &cases[k];
      struct tgsi_shader *s = parse(c->body);
      CHECKF(s, "%s: does not parse", c->name);
      if (!s)
         continue;
      struct env *e = make_env(TGSI_STAGE_FRAG, 4);
      set_inputs(e, c);
      struct diag_list d = {0};
      enum tgsi_interp_status st = tgsi_interp_run(s, e, NULL, &d);
      CHECKF(st == TGSI_INTERP_OK, "%s: %s", c->name, d.n ? d.v[0].msg : "");
      uint32_t want[4];
      expected_bits(e, c, want);
      unsigned mask = strstr(c->body, "OUT[0].xy,") ? 3 : 15;
      for (unsigned ch = 0; ch < 4 && st == TGSI_INTERP_OK; ch++) {
         if (!(mask & (1u << ch)))
            continue;
         size_t o = env_out_index(e, 0, 0, ch);
         CHECKF(e->out[o] == want[ch], "%s: channel %c = 0x%08x, expected 0x%08x", c->name,
                "xyzw"[ch], e -> out[o], want[ch]);
         CHECKF(!(e->out_flags[o] & ENV_F_UNDEF), "%s: channel %c undefined", c->name, "xyzw"[ch]);
      }
      diag_clear(&d);
      env_free(e);
      tgsi_shader_free(s);
   }
}

/* A SHADOWCUBE_ARRAY lookup takes its reference from TEX2's src1.x. */
static void
test_tex2_shadow_cube_array(void)
{
   struct tgsi_shader *s = parse("TEX2 OUT[0], IN[0], IN[1].xxxx, SAMP[3], SHADOWCUBEARRAY");
   struct env *e = make_env(TGSI_STAGE_FRAG, 4);
   uint32_t t[4];
   env_texel(e, 3, 1, 3, 6 + 5, 0, t); /* -Z face of cube 1, s = 0.25, t = 0.75 */
   float in0[4] = {0.5f, -0.5f, -1.0f, 1.0f};
   float ref[4] = {uif(t[0]), uif(t[0]) + 0.5f, uif(0x7fc00000), -1.0f};
   for (uint32_t l = 0; l < 4; l++) {
      for (unsigned k = 0; k < 4; k++)
         env_in(e, 0, 0, k)[l] = fui(in0[k]);
      env_in(e, 0, 1, 0)[l] = fui(ref[l]);
   }
   CHECK(s && tgsi_interp_run(s, e, NULL, NULL) == TGSI_INTERP_OK);
   uint32_t want[4] = {0x3f800000, 0, 0, 0x3f800000};
   for (uint32_t l = 0; l < 4; l++)
      CHECKF(e->out[env_out_index(e, 0, 0, 0) + l] == want[l], "lane %u", l);
   CHECK(e->out[env_out_index(e, 0, 0, 3) + 1] == 0x3f800000);
   env_free(e);
   tgsi_shader_free(s);
}

static struct env *
run_text(const char *text, enum tgsi_stage stage, uint32_t lanes, void (*setup)(struct env *))
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), "mem.tgsi", NULL, &d);
   CHECKF(s, "%s", d.n ? d.v[0].msg : "");
   struct env *e = env_new(stage, lanes);
   env_alloc_inputs(e, 1, 1);
   if (setup)
      setup(e);
   if (s)
      CHECKF(tgsi_interp_run(s, e, NULL, &d) == TGSI_INTERP_OK, "%s", d.n ? d.v[0].msg : "");
   diag_clear(&d);
   tgsi_shader_free(s);
   return e;
}

static uint32_t
out_bits(const struct env *e, uint32_t reg, unsigned c, uint32_t lane)
{
   return e->out[env_out_index(e, 0, reg, c) + lane];
}

static bool
out_def(const struct env *e, uint32_t reg, unsigned c, uint32_t lane)
{
   return !(e->out_flags[env_out_index(e, 0, reg, c) + lane] & ENV_F_UNDEF);
}

static void
setup_mem(struct env *e)
{
   env_set_buffer(e, 0, 32);
   for (uint32_t w = 0; w < 8; w++)
      memcpy(e->buf[0].data + 4 * w, &(uint32_t){10 + w}, 4);
   env_set_image(e, 0, TGSI_TEX_T_2D, 4, 2, 1);
}

/* One lane: every atomic's return value is defined; LOAD swizzles by the
 * resource operand; RESQ; image STORE/LOAD round trip; OOB image store. */
static void
test_memory_ops(void)
{
   struct env *e = run_text(
       "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nDCL BUFFER[0]\nDCL IMAGE[0], 2D, "
       "PIPE_FORMAT_R32G32B32A32_UINT, WR\nDCL OUT[0..3]\nDCL TEMP[0]\n"
       "IMM[0] UINT32 {4, 8, 12, 99}\nIMM[1] UINT32 {3, 1, 0, 0}\nIMM[2] UINT32 {4, 0, 0, 0}\n"
       "LOAD OUT[0], BUFFER[0].wzyx, IMM[0].yyyy\n"
       "ATOMCAS OUT[1].x, BUFFER[0], IMM[0].xxxx, IMM[0].xxxx, IMM[0].wwww\n"
       "ATOMCAS OUT[1].y, BUFFER[0], IMM[0].xxxx, IMM[0].xxxx, IMM[0].wwww\n"
       "ATOMIMAX OUT[1].z, BUFFER[0], IMM[0].xxxx, IMM[0].zzzz\n"
       "ATOMXOR OUT[1].w, BUFFER[0], IMM[0].xxxx, IMM[0].xxxx\n"
       "RESQ OUT[2].x, BUFFER[0]\nRESQ OUT[2].yzw, IMAGE[0]\n"
       "STORE IMAGE[0], IMM[1].xyyy, IMM[0], 2D, PIPE_FORMAT_R32G32B32A32_UINT\n"
       "STORE IMAGE[0], IMM[2].xyyy, IMM[0], 2D, PIPE_FORMAT_R32G32B32A32_UINT\n"
       "LOAD OUT[3], IMAGE[0], IMM[1].xyyy, 2D, PIPE_FORMAT_R32G32B32A32_UINT\nEND\n",
       TGSI_STAGE_COMP, 1, setup_mem);
   /* words 2..5 = 12, 13, 14, 15 read from byte 8, swizzled wzyx */
   CHECK(out_bits(e, 0, 0, 0) == 15 && out_bits(e, 0, 3, 0) == 12 && out_def(e, 0, 0, 0));
   CHECK(out_bits(e, 1, 0, 0) == 11); /* CAS(11 == 4?) fails: returns 11 */
   CHECK(out_bits(e, 1, 1, 0) == 11);
   CHECK(out_bits(e, 1, 2, 0) == 11); /* IMAX(11, 12) -> 12 */
   CHECK(out_bits(e, 1, 3, 0) == 12); /* XOR with 4 -> 8 */
   uint32_t w1;
   memcpy(&w1, e->buf[0].data + 4, 4);
   CHECK(w1 == 8 && out_def(e, 1, 3, 0));
   CHECK(out_bits(e, 2, 0, 0) == 32 && out_def(e, 2, 0, 0));
   CHECK(out_bits(e, 2, 1, 0) == 2 && out_bits(e, 2, 2, 0) == 0 && out_bits(e, 2, 3, 0) == 0);
   CHECK(out_bits(e, 3, 0, 0) == 4 && out_bits(e, 3, 3, 0) == 99 && out_def(e, 3, 3, 0));
   CHECK(e->events[ENV_EV_IMAGE_OOB] == 1); /* x = 4 is outside a 4-wide image */
   env_free(e);
}

/* LOAD flags each word on its own; RESQ on a buffer writes undefined
 * values to the channels other than .x; an atomic's returned value is
 * defined when no other lane of the instruction hits its word. */
static void
setup_words(struct env *e)
{
   setup_mem(e);
   memset(e->buf[0].undef + 4, 1, 4); /* word 1 undefined */
   e->block_size[0] = 4;
   uint32_t *tid = env_sv(e, TGSI_SEM_THREAD_ID);
   for (uint32_t l = 0; l < 4; l++)
      tid[l] = l;
}

static void
test_memory_words(void)
{
   struct env *e =
       run_text("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\n"
                "DCL OUT[0..3]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 4, 16, 7}\n"
                "LOAD OUT[0].xy, BUFFER[0], IMM[0].xxxx\n"
                "LOAD OUT[0].z, BUFFER[0].xxxx, IMM[0].xxxx\n"
                "LOAD OUT[0].w, BUFFER[0].yyyy, IMM[0].xxxx\n"
                "MOV OUT[1], IMM[0].wwww\nRESQ OUT[1].xy, BUFFER[0]\n"
                "UMAD TEMP[0].x, SV[0].xxxx, IMM[0].yyyy, IMM[0].zzzz\n"
                "ATOMUADD OUT[2].x, BUFFER[0], TEMP[0].xxxx, IMM[0].yyyy\n"
                "ATOMUADD OUT[2].y, BUFFER[0], IMM[0].zzzz, IMM[0].yyyy\nEND\n",
                TGSI_STAGE_COMP, 4, setup_words);
   for (uint32_t l = 0; l < 4; l++) {
      CHECK(out_bits(e, 0, 0, l) == 10 && out_def(e, 0, 0, l));
      CHECK(!out_def(e, 0, 1, l));
      CHECK(out_bits(e, 0, 2, l) == 10 && out_def(e, 0, 2, l));
      CHECK(!out_def(e, 0, 3, l));
      CHECK(out_bits(e, 1, 0, l) == 32 && out_def(e, 1, 0, l));
      CHECK(!out_def(e, 1, 1, l));
      CHECK(out_bits(e, 1, 2, l) == 7 && out_def(e, 1, 2, l)); /* not written */
      /* Words 4..7, one lane each, held 14..17; then all four lanes add to
       * word 4 in one instruction. */
      CHECKF(out_def(e, 2, 0, l), "lane %u", l);
      CHECK(!out_def(e, 2, 1, l));
   }
   CHECK(out_bits(e, 2, 0, 0) == 14 && out_bits(e, 2, 0, 3) == 17);
   uint32_t w4;
   memcpy(&w4, e->buf[0].data + 16, 4);
   CHECK(w4 == 14 + 4 + 16 && !e->buf[0].undef[16]);
   env_free(e);
}

/* An atomic's new word takes the classes of the operands it depends on:
 * a CAS's compare value (whether it swaps), an integer atomic's operand.
 * Here that operand is a negated NaN, whose sign is not fixed, read as
 * integer bits; a target that negates by a float add gets other bits, so
 * the word cannot be compared bit for bit. */
static void
test_atomic_operand_classes(void)
{
   struct env *e = run_text("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nDCL BUFFER[0]\nDCL OUT[0]\n"
                            "DCL TEMP[0]\nIMM[0] UINT32 {0, 4, 8, 2143289344}\n"
                            "IMM[1] UINT32 {10, 1, 0, 0}\n"
                            "MOV TEMP[0].x, -IMM[0].wwww\n"
                            "ATOMCAS OUT[0].x, BUFFER[0], IMM[0].xxxx, TEMP[0].xxxx, IMM[1].yyyy\n"
                            "ATOMUADD OUT[0].y, BUFFER[0], IMM[0].yyyy, TEMP[0].xxxx\n"
                            "ATOMUADD OUT[0].z, BUFFER[0], IMM[0].zzzz, IMM[1].yyyy\nEND\n",
                            TGSI_STAGE_COMP, 1, setup_mem);
   uint32_t w[3];
   memcpy(w, e->buf[0].data, sizeof(w));
   CHECK(w[0] == 10 && w[1] == 11 + 0xffc00000u && w[2] == 13); /* no swap; sums */
   CHECKF(env_mem_class(&e->buf[0], 0) & ENV_F_NANBITS, "%#x", env_mem_class(&e->buf[0], 0));
   CHECKF(env_mem_class(&e->buf[0], 1) & ENV_F_NANBITS, "%#x", env_mem_class(&e->buf[0], 1));
   CHECK(env_mem_class(&e->buf[0], 2) == 0);
   env_free(e);
}

/* LOAD beyond the buffer's end or at an unaligned offset reads zeros,
 * undefined, and counts the event once per lane. */
static void
test_memory_load_edges(void)
{
   struct env *e =
       run_text("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\n"
                "DCL OUT[0..1]\nDCL TEMP[0]\nIMM[0] UINT32 {4, 24, 2, 0}\n"
                "UMAD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].yyyy\n"
                "UMAD TEMP[0].y, SV[0].xxxx, IMM[0].xxxx, IMM[0].zzzz\n"
                "LOAD OUT[0].xy, BUFFER[0], TEMP[0].xxxx\n"
                "LOAD OUT[1].x, BUFFER[0], TEMP[0].yyyy\nEND\n",
                TGSI_STAGE_COMP, 4, setup_words);
   CHECK(out_bits(e, 0, 0, 0) == 16 && out_def(e, 0, 0, 0));
   CHECK(out_bits(e, 0, 1, 0) == 17 && out_def(e, 0, 1, 0));
   for (uint32_t l = 1; l < 4; l++) /* 28 + 8 and beyond: past 32 bytes */
      CHECK(out_bits(e, 0, 0, l) == 0 && !out_def(e, 0, 0, l) && !out_def(e, 0, 1, l));
   for (uint32_t l = 0; l < 4; l++)
      CHECK(out_bits(e, 1, 0, l) == 0 && !out_def(e, 1, 0, l));
   CHECK(e->events[ENV_EV_BUFFER_OOB] == 3 && e->events[ENV_EV_MISALIGNED] == 4);
   env_free(e);
}

/* A LOAD in place (aligned, within the buffer) of a word another lane
 * stored: undefined for the lanes of the writer's workgroup until a
 * BARRIER, and for the other workgroup's after it too; the writer reads
 * its own store, and a word nobody stored stays defined. Lanes 0..3 are
 * workgroup 0, 4..7 workgroup 1; lane 0 stores. */
static void
setup_race(struct env *e)
{
   setup_mem(e);
   e->block_size[0] = 4;
   e->grid_size[0] = 2;
   uint32_t *tid = env_sv(e, TGSI_SEM_THREAD_ID), *bid = env_sv(e, TGSI_SEM_BLOCK_ID);
   for (uint32_t l = 0; l < 8; l++) {
      tid[l] = l % 4;
      bid[l] = l / 4;
   }
}

static void
test_memory_load_race(void)
{
   struct env *e = run_text("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\n"
                            "DCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL OUT[0]\nDCL TEMP[0]\n"
                            "IMM[0] UINT32 {0, 4, 7, 0}\n"
                            "UMAD TEMP[0].y, SV[1].xxxx, IMM[0].yyyy, SV[0].xxxx\n"
                            "USEQ TEMP[0].x, TEMP[0].yyyy, IMM[0].xxxx\n"
                            "UIF TEMP[0].xxxx\nSTORE BUFFER[0].x, IMM[0].xxxx, IMM[0].zzzz\nENDIF\n"
                            "LOAD OUT[0].x, BUFFER[0], IMM[0].xxxx\n"
                            "LOAD OUT[0].y, BUFFER[0].xxxx, IMM[0].yyyy\nBARRIER\n"
                            "LOAD OUT[0].z, BUFFER[0].xxxx, IMM[0].xxxx\nEND\n",
                            TGSI_STAGE_COMP, 8, setup_race);
   for (uint32_t l = 0; l < 8; l++) {
      CHECKF(out_bits(e, 0, 0, l) == 7 && out_def(e, 0, 0, l) == (l == 0), "lane %u", l);
      CHECKF(out_bits(e, 0, 1, l) == 11 && out_def(e, 0, 1, l), "lane %u", l);
      CHECKF(out_bits(e, 0, 2, l) == 7 && out_def(e, 0, 2, l) == (l < 4), "lane %u", l);
   }
   env_free(e);
}

/* The histogram pattern of captures/cs_histogram_atomics.tgsi, two 16x16
 * workgroups: the first 64 invocations zero 64 shared bins, BARRIER, every
 * invocation adds 1 to bin (index & 7), BARRIER, the first 64 read their
 * bin back. The counts are defined whatever the batch size; reading .z of
 * the bin (the word two further on) is undefined past the zeroed bins. */
#define HISTOGRAM                                                                                  \
   "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 16\nPROPERTY CS_FIXED_BLOCK_HEIGHT 16\n"                   \
   "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0..2]\nDCL MEMORY[0], SHARED\n"          \
   "DCL TEMP[0..4]\nIMM[0] UINT32 {16, 64, 2, 0}\nIMM[1] UINT32 {1, 7, 256, 1024}\n"               \
   "UMAD TEMP[0].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx\n"                                         \
   "USLT TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy\nSHL TEMP[0].z, TEMP[0].xxxx, IMM[0].zzzz\n"         \
   "UIF TEMP[0].yyyy\nSTORE MEMORY[0].x, TEMP[0].zzzz, IMM[0].wwww\nENDIF\nBARRIER\n"              \
   "AND TEMP[1].x, TEMP[0].xxxx, IMM[1].yyyy\nSHL TEMP[1].y, TEMP[1].xxxx, IMM[0].zzzz\n"          \
   "ATOMUADD TEMP[2].x, MEMORY[0], TEMP[1].yyyy, IMM[1].xxxx\nBARRIER\n"                           \
   "UMAD TEMP[4].x, SV[1].xxxx, IMM[1].wwww, TEMP[0].zzzz\n"                                       \
   "STORE BUFFER[2].x, TEMP[4].xxxx, TEMP[2].xxxx\n"                                               \
   "UIF TEMP[0].yyyy\nLOAD TEMP[3].y, MEMORY[0].xxxx, TEMP[0].zzzz\n"                              \
   "LOAD TEMP[3].z, MEMORY[0], TEMP[0].zzzz\n"                                                     \
   "UMAD TEMP[4].y, SV[1].xxxx, IMM[1].zzzz, TEMP[0].zzzz\n"                                       \
   "STORE BUFFER[0].x, TEMP[4].yyyy, TEMP[3].yyyy\nSTORE BUFFER[1].x, TEMP[4].yyyy, "              \
   "TEMP[3].zzzz\n"                                                                                \
   "ENDIF\nEND\n"

static struct env *
histogram_env(void)
{
   struct env *e = env_new(TGSI_STAGE_COMP, 512);
   e->block_size[0] = e->block_size[1] = 16;
   e->grid_size[0] = 2;
   uint32_t *tid = env_sv(e, TGSI_SEM_THREAD_ID), *bid = env_sv(e, TGSI_SEM_BLOCK_ID);
   for (uint32_t l = 0; l < 512; l++) {
      tid[l] = l % 16;
      tid[512 + l] = l / 16 % 16;
      bid[l] = l / 256;
   }
   for (unsigned k = 0; k < 3; k++)
      env_set_buffer(e, k, 2048);
   return e;
}

static void
test_shared_histogram(void)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(HISTOGRAM, strlen(HISTOGRAM), "hist.tgsi", NULL, &d);
   CHECKF(s, "%s", d.n ? d.v[0].msg : "");
   struct env *e[2] = {NULL, NULL};
   for (unsigned k = 0; k < 2 && s; k++) {
      e[k] = histogram_env();
      struct tgsi_interp_opts o = {.batch = k ? 512 : 256};
      CHECK(tgsi_interp_run(s, e[k], &o, &d) == TGSI_INTERP_OK);
   }
   for (unsigned k = 0; k < 2 && s; k++) {
      for (uint32_t w = 0; w < 512; w++) {
         /* Buffers 0 and 1: 64 words per workgroup; buffer 2: 256. */
         uint32_t local = w % 64, got;
         memcpy(&got, e[k]->buf[0].data + 4 * w, 4);
         if (w < 128) {
            CHECKF(got == (local < 8 ? 32u : 0u) && !e[k]->buf[0].undef[4 * w],
                   "batch %u word %u = %u", k, w, got);
            CHECKF((local < 62) == !e[k]->buf[1].undef[4 * w], "batch %u word %u", k, w);
         }
         /* 32 lanes of each workgroup add to one bin: the old values they
          * get back depend on their order. */
         CHECKF(e[k]->buf[2].undef[4 * w], "batch %u word %u", k, w);
      }
   }
   for (unsigned k = 0; k < 2 && s; k++) {
      for (unsigned u = 0; u < 3; u++) {
         CHECK(!memcmp(e[0]->buf[u].data, e[k]->buf[u].data, 2048));
         CHECK(!memcmp(e[0]->buf[u].undef, e[k]->buf[u].undef, 2048));
      }
   }
   env_free(e[0]);
   env_free(e[1]);
   diag_clear(&d);
   tgsi_shader_free(s);
}

/* A branch on an undefined value around a shared STORE makes the shared
 * memory of the branching lane's workgroup undefined, not the other
 * workgroups' of the batch. Lanes 0..3 are workgroup 0, 4..7 workgroup 1;
 * only lane 1 branches on an undefined value. */
static void
setup_groups(struct env *e)
{
   e->block_size[0] = 4;
   uint32_t *tid = env_sv(e, TGSI_SEM_THREAD_ID);
   for (uint32_t l = 0; l < 8; l++) {
      tid[l] = l % 4;
      env_in(e, 0, 0, 0)[l] = l == 1;
   }
}

static void
test_shared_taint_per_group(void)
{
   struct env *e =
       run_text("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\nDCL IN[0]\n"
                "DCL MEMORY[0], SHARED\nDCL OUT[0]\nDCL TEMP[0..1]\nIMM[0] UINT32 {4, 7, 0, 0}\n"
                "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
                "STORE MEMORY[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
                "UCMP TEMP[0].y, IN[0].xxxx, TEMP[1].xxxx, IMM[0].zzzz\n"
                "UIF TEMP[0].yyyy\nSTORE MEMORY[0].x, IMM[0].xxxx, IMM[0].zzzz\nENDIF\nBARRIER\n"
                "LOAD OUT[0].x, MEMORY[0], TEMP[0].xxxx\nEND\n",
                TGSI_STAGE_COMP, 8, setup_groups);
   for (uint32_t l = 0; l < 8; l++) {
      CHECKF(out_bits(e, 0, 0, l) == 7, "lane %u", l);
      CHECKF(out_def(e, 0, 0, l) == (l >= 4), "lane %u", l);
   }
   env_free(e);
}

/* Legal but suspicious memory operands get a warning from the check (the
 * corpus must have none: test_captures): RESQ of a buffer into .yzw, and
 * a LOAD that skips the word at its address. */
static void
test_memory_warnings(void)
{
   static const struct {
      const char *insn;
      bool warns;
   } cases[] = {
       {"RESQ TEMP[0].y, BUFFER[0]", true},
       {"RESQ TEMP[0].x, BUFFER[0]", false},
       {"RESQ TEMP[0].xy, IMAGE[0]", false},
       {"LOAD TEMP[0].y, MEMORY[0], TEMP[1].xxxx", true},
       {"LOAD TEMP[0].yz, BUFFER[0], TEMP[1].xxxx", true},
       {"LOAD TEMP[0].y, MEMORY[0].xxxx, TEMP[1].xxxx", false},
       {"LOAD TEMP[0].xy, BUFFER[0], TEMP[1].xxxx", false},
       {"LOAD TEMP[0].y, IMAGE[0], TEMP[1].xyyy, 2D, PIPE_FORMAT_R32G32B32A32_UINT", false},
   };
   for (unsigned k = 0; k < ARRAY_SIZE(cases); k++) {
      char *text = xasprintf("COMP\nDCL BUFFER[0]\nDCL MEMORY[0], SHARED\n"
                             "DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_UINT\nDCL TEMP[0..1]\n"
                             "MOV TEMP[1], TEMP[0]\n%s\nEND\n",
                             cases[k].insn);
      struct diag_list d = {0};
      struct tgsi_shader *s = tgsi_parse(text, strlen(text), "w.tgsi", NULL, &d);
      CHECKF(s, "%s", cases[k].insn);
      diag_clear(&d);
      if (s) {
         CHECK(tgsi_interp_check(s, &d) == TGSI_INTERP_OK);
         bool warned = false;
         for (unsigned i = 0; i < d.n; i++)
            warned |= d.v[i].sev == DIAG_WARNING && d.v[i].line == 7;
         CHECKF(warned == cases[k].warns, "%s: %s", cases[k].insn, warned ? "warns" : "no warning");
      }
      diag_clear(&d);
      tgsi_shader_free(s);
      free(text);
   }
}

static void
setup_helpers(struct env *e)
{
   for (uint32_t l = 0; l < 8; l++) {
      env_in(e, 0, 0, 0)[l] = 5;                          /* equal in the subgroup */
      env_in(e, 0, 0, 1)[l] = fui(l == 2 ? -1.0f : 1.0f); /* demote lane 2 */
   }
}

/* DEMOTE keeps the lane running as a helper (READ_HELPER ~0, derivatives
 * still defined) but its outputs are discarded; INTERP_* read the input. */
static void
test_helpers_votes(void)
{
   struct env *e = run_text(
       "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0..1]\nDCL TEMP[0]\n"
       "VOTE_EQ OUT[0].x, IN[0].xxxx\nVOTE_EQ OUT[0].w, IN[0].yyyy\n"
       "FSLT TEMP[0].x, IN[0].yyyy, IN[0].zzzz\nUIF TEMP[0].xxxx\nDEMOTE\nENDIF\n"
       "READ_HELPER OUT[0].y\nDDX_FINE OUT[0].z, IN[0].yyyy\n"
       "INTERP_CENTROID OUT[1].x, IN[0].yyyy\nINTERP_SAMPLE OUT[1].y, IN[0].yyyy, IN[0].zzzz\n"
       "END\n",
       TGSI_STAGE_FRAG, 8, setup_helpers);
   CHECK(out_bits(e, 0, 0, 0) == ~0u && out_bits(e, 0, 0, 5) == ~0u);
   CHECK(out_bits(e, 0, 3, 0) == 0 && out_def(e, 0, 3, 7));
   CHECK(out_bits(e, 0, 1, 2) == ~0u && out_bits(e, 0, 1, 3) == 0);
   CHECK(e->killed[2] && !e->killed[3]);
   CHECK(out_def(e, 0, 2, 0) && uif(out_bits(e, 0, 2, 2)) == 2.0f); /* BR - BL = 1 - -1 */
   CHECK(uif(out_bits(e, 0, 2, 0)) == 0.0f && uif(out_bits(e, 1, 0, 3)) == 1.0f);
   CHECK(out_def(e, 1, 1, 3)); /* sample 0 (IN.z is 0) */
   env_free(e);
}

int
main(void)
{
   test_texture_cases();
   test_tex2_shadow_cube_array();
   test_memory_ops();
   test_memory_words();
   test_atomic_operand_classes();
   test_memory_load_edges();
   test_memory_load_race();
   test_shared_histogram();
   test_shared_taint_per_group();
   test_memory_warnings();
   test_helpers_votes();
   return test_done();
}
