/*
 * The TGSI parser, sanity rules, printer and equality, case by case:
 * accepted text -> the AST fields it must produce, rejected text -> the
 * message and position, and the control-flow targets derived from nesting.
 * (Whole-file fixtures, round trips and fuzzing are in test_fixtures.c and
 * test_fuzz.c.)
 */
#include "compiler/tgsi/tgsi.h"
#include "util/test.h"

#include <stdio.h>
#include <stdlib.h>

#define OPC(n) TGSI_OP_##n
#define F(f)   TGSI_FILE_##f
#define R(f, i)                                                                                    \
   {                                                                                               \
      .file = F(f), .index = (i)                                                                   \
   }
#define R2(f, d, i)                                                                                \
   {                                                                                               \
      .file = F(f), .has_dim = true, .dim = (d), .index = (i)                                      \
   }
#define IND(f, i, c)                                                                               \
   {                                                                                               \
      F(f), i, c                                                                                   \
   }
#define RI(f, ind_, off)                                                                           \
   {                                                                                               \
      .file = F(f), .indirect = true, .ind = ind_, .index = (off)                                  \
   }
#define DST(r, m)                                                                                  \
   {                                                                                               \
      .reg = r, .mask = (m)                                                                        \
   }
#define SRC(r)                                                                                     \
   {                                                                                               \
      .reg = r, .swz = { 0, 1, 2, 3 }                                                              \
   }
#define SWZ(r, a, b, c, d)                                                                         \
   {                                                                                               \
      .reg = r, .swz = { a, b, c, d }                                                              \
   }
#define SRCM(r, n, ab)                                                                             \
   {                                                                                               \
      .reg = r, .swz = {0, 1, 2, 3}, .neg = (n), .abs = (ab)                                       \
   }
#define SX 0
#define SY 1
#define SZ 2
#define SW 3

static const struct tgsi_parse_opts no_opts,
    current_opts = {.dialect_line = true}, legacy_opts = {.legacy = true},
    no_detect_opts = {.no_detect = true}, hex_opts = {.hex_bits = true};

static struct tgsi_shader *
parse_str(const char *text, const struct tgsi_parse_opts *o, struct diag_list *d)
{
   return tgsi_parse(text, strlen(text), "t.tgsi", o, d);
}

/* Parses text, expects failure with the first error at line:col holding msg. */
static void
expect_error(const char *text, const struct tgsi_parse_opts *o, int line, int col, const char *msg)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = parse_str(text, o, &d);
   const struct diag *e = NULL;
   for (unsigned i = 0; i < d.n && !e; i++)
      if (d.v[i].sev == DIAG_ERROR)
         e = &d.v[i];
   CHECKF(!s && e, "accepted: %s", text);
   if (e)
      CHECKF(e->line == line && e->col == col && strstr(e->msg, msg),
             "got %d:%d: %s\n  want %d:%d: ...%s...\n  in: %s", e->line, e->col, e->msg, line, col,
             msg, text);
   tgsi_shader_free(s);
   diag_clear(&d);
}

/* Parses text that must be accepted; returns the shader (caller frees). */
static struct tgsi_shader *
expect_ok(const char *text, const struct tgsi_parse_opts *o)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = parse_str(text, o, &d);
   CHECKF(s != NULL, "rejected: %s\n  %s", text, diag_first_error(&d) ? diag_first_error(&d) : "");
   diag_clear(&d);
   return s;
}

/* print(s) parses back equal and prints identically. */
static void
check_round_trip(const struct tgsi_shader *s, const struct tgsi_parse_opts *o)
{
   char *p1 = tgsi_print(s);
   struct diag_list d = {0};
   struct tgsi_shader *s2 = tgsi_parse(p1, strlen(p1), "print", o, &d);
   CHECKF(s2 && tgsi_shader_equal(s, s2), "round trip differs:\n%s%s", p1,
          diag_first_error(&d) ? diag_first_error(&d) : "");
   if (s2) {
      char *p2 = tgsi_print(s2);
      CHECKF(!strcmp(p1, p2), "second print differs:\n%s---\n%s", p1, p2);
      free(p2);
   }
   tgsi_shader_free(s2);
   diag_clear(&d);
   free(p1);
}

/* ------------------------------------------------------------------ */
/* Instructions                                                         */

static const char frag_prelude[] = "FRAG\n"
                                   "DCL IN[0..3]\n"
                                   "DCL OUT[0..1]\n"
                                   "DCL TEMP[0..7]\n"
                                   "DCL TEMP[8..11], ARRAY(1)\n"
                                   "DCL ADDR[0..1]\n"
                                   "DCL CONST[0..7]\n"
                                   "DCL CONST[1][0..7]\n"
                                   "DCL SAMP[0..1]\n"
                                   "DCL SVIEW[0], 2D, FLOAT\n"
                                   "DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR\n"
                                   "DCL BUFFER[0]\n"
                                   "DCL MEMORY[0], SHARED\n"
                                   "IMM[0] FLT32 {1, 2, 3, 4}\n";

static const char gs_prelude[] = "GEOM\n"
                                 "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
                                 "DCL IN[][0], POSITION\n"
                                 "DCL OUT[0], POSITION\n"
                                 "DCL TEMP[0]\n"
                                 "DCL ADDR[0]\n"
                                 "IMM[0] INT32 {0, 0, 0, 0}\n";

struct insn_case {
   const char *pre; /* NULL: frag_prelude */
   const char *text;
   struct tgsi_insn want;
};

static const struct insn_case insn_cases[] = {
    {NULL,
     "MOV TEMP[0], IN[0]",
     {.op = OPC(MOV), .ndst = 1, .nsrc = 1, .dst = {DST(R(TEMP, 0), 0xf)}, .src = {SRC(R(IN, 0))}}},
    {NULL,
     "  12: MOV TEMP[0], IN[0]",
     {.op = OPC(MOV), .ndst = 1, .nsrc = 1, .dst = {DST(R(TEMP, 0), 0xf)}, .src = {SRC(R(IN, 0))}}},
    {NULL,
     "0:MOV TEMP[0],IN[0]",
     {.op = OPC(MOV), .ndst = 1, .nsrc = 1, .dst = {DST(R(TEMP, 0), 0xf)}, .src = {SRC(R(IN, 0))}}},
    {NULL,
     "mov temp[1].xz, in[2].wzyx",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(TEMP, 1), 0x5)},
      .src = {SWZ(R(IN, 2), SW, SZ, SY, SX)}}},
    {NULL,
     "MOV TEMP[1] . yw , IN[2] . xxxx",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(TEMP, 1), 0xa)},
      .src = {SWZ(R(IN, 2), SX, SX, SX, SX)}}},
    {NULL,
     "MOV_SAT TEMP[0].w, -IN[1]",
     {.op = OPC(MOV),
      .sat = true,
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(TEMP, 0), 0x8)},
      .src = {SRCM(R(IN, 1), true, false)}}},
    {NULL,
     "ADD_PRECISE TEMP[0], |IN[1]|, - |IN[2]|",
     {.op = OPC(ADD),
      .precise = true,
      .ndst = 1,
      .nsrc = 2,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {SRCM(R(IN, 1), false, true), SRCM(R(IN, 2), true, true)}}},
    {NULL,
     "ADD_SAT_PRECISE TEMP[0], -|IN[1].yyyy|, IN[2]",
     {.op = OPC(ADD),
      .sat = true,
      .precise = true,
      .ndst = 1,
      .nsrc = 2,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {{.reg = R(IN, 1), .swz = {1, 1, 1, 1}, .neg = true, .abs = true}, SRC(R(IN, 2))}}},
    {NULL,
     "MAD TEMP[0], CONST[1][3], IMM[0].xxxx, CONST[7]",
     {.op = OPC(MAD),
      .ndst = 1,
      .nsrc = 3,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {SRC(R2(CONST, 1, 3)), SWZ(R(IMM, 0), SX, SX, SX, SX), SRC(R(CONST, 7))}}},
    {NULL,
     "MOV TEMP[0], CONST[ADDR[0].x+3]",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {SRC(RI(CONST, IND(ADDR, 0, SX), 3))}}},
    {NULL,
     "MOV TEMP[0], CONST[ ADDR[1] +2 ]",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {SRC(RI(CONST, IND(ADDR, 1, SX), 2))}}},
    {NULL,
     "MOV TEMP[0], CONST[ADDR[0].w-1]",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {SRC(RI(CONST, IND(ADDR, 0, SW), -1))}}},
    {NULL,
     "MOV TEMP[ADDR[0].x+8](1).xy, TEMP[ADDR[1].y](1)",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {{.reg = {.file = F(TEMP),
                       .index = 8,
                       .indirect = true,
                       .ind = IND(ADDR, 0, SX),
                       .array_id = 1},
               .mask = 3}},
      .src = {{.reg = {.file = F(TEMP),
                       .index = 0,
                       .indirect = true,
                       .ind = IND(ADDR, 1, SY),
                       .array_id = 1},
               .swz = {0, 1, 2, 3}}}}},
    {NULL,
     "MOV TEMP[0], CONST[ADDR[0].x+1][ADDR[1].z+2]",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {{.reg = {.file = F(CONST),
                       .has_dim = true,
                       .dim = 1,
                       .dim_indirect = true,
                       .dim_ind = IND(ADDR, 0, SX),
                       .index = 2,
                       .indirect = true,
                       .ind = IND(ADDR, 1, SZ)},
               .swz = {0, 1, 2, 3}}}}},
    {NULL,
     "TEX TEMP[1].xyz, TEMP[1], SAMP[0], 2D",
     {.op = OPC(TEX),
      .ndst = 1,
      .nsrc = 2,
      .dst = {DST(R(TEMP, 1), 0x7)},
      .src = {SRC(R(TEMP, 1)), SRC(R(SAMP, 0))},
      .tex_target = TGSI_TEX_T_2D}},
    {NULL,
     "TXF TEMP[0], TEMP[0], SAMP[1], 2D_msaa, IMM[0].xyz, IMM[0] . zyx",
     {.op = OPC(TXF),
      .ndst = 1,
      .nsrc = 2,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {SRC(R(TEMP, 0)), SRC(R(SAMP, 1))},
      .tex_target = TGSI_TEX_T_2D_MSAA,
      .noffsets = 2,
      .offsets = {{.reg = R(IMM, 0), .swz = {0, 1, 2}}, {.reg = R(IMM, 0), .swz = {2, 1, 0}}}}},
    {NULL,
     "TXD TEMP[0], TEMP[1], TEMP[2], TEMP[3], SAMP[0], SHADOWCUBEARRAY",
     {.op = OPC(TXD),
      .ndst = 1,
      .nsrc = 4,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {SRC(R(TEMP, 1)), SRC(R(TEMP, 2)), SRC(R(TEMP, 3)), SRC(R(SAMP, 0))},
      .tex_target = TGSI_TEX_T_SHADOWCUBE_ARRAY}},
    {NULL,
     "SAMPLE TEMP[1], TEMP[1], SVIEW[0], SAMP[0], IMM[0]",
     {.op = OPC(SAMPLE),
      .ndst = 1,
      .nsrc = 3,
      .dst = {DST(R(TEMP, 1), 0xf)},
      .src = {SRC(R(TEMP, 1)), SRC(R(SVIEW, 0)), SRC(R(SAMP, 0))},
      .noffsets = 1,
      .offsets = {{.reg = R(IMM, 0), .swz = {0, 1, 2}}}}},
    {NULL,
     "LOAD TEMP[3], IMAGE[0], TEMP[2].xyzx, 2D_ARRAY, PIPE_FORMAT_R32G32B32A32_FLOAT",
     {.op = OPC(LOAD),
      .ndst = 1,
      .nsrc = 2,
      .dst = {DST(R(TEMP, 3), 0xf)},
      .src = {SRC(R(IMAGE, 0)), SWZ(R(TEMP, 2), SX, SY, SZ, SX)},
      .has_mem_target = true,
      .mem_target = TGSI_TEX_T_2D_ARRAY,
      .mem_format = "PIPE_FORMAT_R32G32B32A32_FLOAT"}},
    {NULL,
     "STORE IMAGE[0], TEMP[2].xyzz, TEMP[3], pipe_format_r32g32b32a32_float, 2D, COHERENT",
     {.op = OPC(STORE),
      .ndst = 1,
      .nsrc = 2,
      .dst = {DST(R(IMAGE, 0), 0xf)},
      .src = {SWZ(R(TEMP, 2), SX, SY, SZ, SZ), SRC(R(TEMP, 3))},
      .mem_qual = 1u << TGSI_MEMQ_COHERENT_BIT,
      .has_mem_target = true,
      .mem_target = TGSI_TEX_T_2D,
      .mem_format = "PIPE_FORMAT_R32G32B32A32_FLOAT"}},
    {NULL,
     "ATOMUADD TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy, VOLATILE, RESTRICT, BUFFER",
     {.op = OPC(ATOMUADD),
      .ndst = 1,
      .nsrc = 3,
      .dst = {DST(R(TEMP, 0), 0x1)},
      .src = {SRC(R(BUFFER, 0)), SWZ(R(IMM, 0), SX, SX, SX, SX), SWZ(R(IMM, 0), SY, SY, SY, SY)},
      .mem_qual = (1u << TGSI_MEMQ_VOLATILE_BIT) | (1u << TGSI_MEMQ_RESTRICT_BIT),
      .has_mem_target = true,
      .mem_target = TGSI_TEX_T_BUFFER}},
    {NULL,
     "LOAD TEMP[0], MEMORY[0], IMM[0].xxxx",
     {.op = OPC(LOAD),
      .ndst = 1,
      .nsrc = 2,
      .dst = {DST(R(TEMP, 0), 0xf)},
      .src = {SRC(R(MEMORY, 0)), SWZ(R(IMM, 0), SX, SX, SX, SX)}}},
    {NULL, "BARRIER", {.op = OPC(BARRIER)}},
    {NULL,
     "MEMBAR IMM[0].xxxx",
     {.op = OPC(MEMBAR), .nsrc = 1, .src = {SWZ(R(IMM, 0), SX, SX, SX, SX)}}},
    {NULL,
     "KILL_IF -TEMP[0].xyzz",
     {.op = OPC(KILL_IF), .nsrc = 1, .src = {{.reg = R(TEMP, 0), .swz = {0, 1, 2, 2}, .neg = 1}}}},
    {NULL, "KILL", {.op = OPC(KILL)}},
    {NULL,
     "UADD TEMP[2].xy, TEMP[2].xyyy, -CONST[5].xyxy",
     {.op = OPC(UADD),
      .ndst = 1,
      .nsrc = 2,
      .dst = {DST(R(TEMP, 2), 0x3)},
      .src = {SWZ(R(TEMP, 2), SX, SY, SY, SY),
              {.reg = R(CONST, 5), .swz = {0, 1, 0, 1}, .neg = 1}}}},
    {NULL,
     "MOV TEMP[0],\n  IN[0]",
     {.op = OPC(MOV), .ndst = 1, .nsrc = 1, .dst = {DST(R(TEMP, 0), 0xf)}, .src = {SRC(R(IN, 0))}}},
    {gs_prelude,
     "MOV OUT[0], IN[2][0]",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(OUT, 0), 0xf)},
      .src = {SRC(R2(IN, 2, 0))}}},
    {gs_prelude,
     "MOV OUT[0], IN[ADDR[0].x][0]",
     {.op = OPC(MOV),
      .ndst = 1,
      .nsrc = 1,
      .dst = {DST(R(OUT, 0), 0xf)},
      .src = {{.reg = {.file = F(IN),
                       .has_dim = true,
                       .dim_indirect = true,
                       .dim_ind = IND(ADDR, 0, SX),
                       .index = 0},
               .swz = {0, 1, 2, 3}}}}},
    {gs_prelude,
     "EMIT IMM[0].xxxx",
     {.op = OPC(EMIT), .nsrc = 1, .src = {SWZ(R(IMM, 0), SX, SX, SX, SX)}}},
};

static void
test_insn_cases(void)
{
   for (size_t i = 0; i < ARRAY_SIZE(insn_cases); i++) {
      const struct insn_case *c = &insn_cases[i];
      char *text = xasprintf("%s%s\nEND\n", c->pre ? c->pre : frag_prelude, c->text);
      struct tgsi_shader *s = expect_ok(text, NULL);
      if (s) {
         struct tgsi_insn want = c->want;
         want.target = -1;
         CHECKF(s->ninsns == 2, "%s: %u instructions", c->text, s->ninsns);
         bool eq = tgsi_insn_equal(&s->insns[0], &want);
         char *got = tgsi_print_insn(s, &s->insns[0]), *exp = tgsi_print_insn(s, &want);
         CHECKF(eq, "case %zu '%s':\n  got  %s\n  want %s", i, c->text, got, exp);
         free(got);
         free(exp);
         check_round_trip(s, NULL);
      }
      tgsi_shader_free(s);
      free(text);
   }
}

/* Every opcode of the table parses with its operand counts and prints back. */
static void
test_every_opcode(void)
{
   for (int op = 0; op < TGSI_OP_COUNT; op++) {
      const struct tgsi_op_info *info = &tgsi_op_info[op];
      if (op == TGSI_OP_END || op == TGSI_OP_CAL || op == TGSI_OP_ELSE || op == TGSI_OP_ENDIF ||
          op == TGSI_OP_ENDLOOP || op == TGSI_OP_ENDSUB || op == TGSI_OP_ENDSWITCH ||
          op == TGSI_OP_BRK || op == TGSI_OP_CONT || op == TGSI_OP_CASE || op == TGSI_OP_DEFAULT ||
          op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_BGNLOOP || op == TGSI_OP_SWITCH ||
          op == TGSI_OP_BGNSUB)
         continue; /* control flow: see test_flow */
      char line[256];
      int n = snprintf(line, sizeof(line), "%s", info->name);
      for (unsigned k = 0; k < info->ndst + info->nsrc; k++)
         n += snprintf(line + n, sizeof(line) - (size_t)n, "%sTEMP[%u]", k ? ", " : " ", k);
      if (info->flags & TGSI_OPF_TEX)
         n += snprintf(line + n, sizeof(line) - (size_t)n, ", 2D");
      char *text = xasprintf("%s%s\nEND\n", frag_prelude, line);
      const struct tgsi_parse_opts *o = (info->flags & TGSI_OPF_LEGACY) ? &legacy_opts : &no_opts;
      struct tgsi_shader *s = expect_ok(text, o);
      if (s) {
         CHECKF(s->insns[0].op == (enum tgsi_opcode)op && s->insns[0].ndst == info->ndst &&
                    s->insns[0].nsrc == info->nsrc,
                "%s", line);
         check_round_trip(s, o);
      }
      tgsi_shader_free(s);
      free(text);
      if (info->flags & TGSI_OPF_LEGACY) {
         text = xasprintf("%s%s\nEND\n", frag_prelude, line);
         expect_error(text, &no_detect_opts, 15, 1, "--legacy");
         free(text);
      }
   }
}

/* ------------------------------------------------------------------ */
/* Declarations                                                         */

struct decl_case {
   const char *pre; /* header and properties */
   const char *text;
   struct tgsi_decl want;
};

#define SEM(n, i)      .has_semantic = true, .semantic = TGSI_SEM_##n, .semantic_index = (i)
#define INTERP(n)      .has_interp = true, .interp = TGSI_INTERP_##n
#define RET4(a)        .ret = {TGSI_RET_##a, TGSI_RET_##a, TGSI_RET_##a, TGSI_RET_##a}
#define GS_TRI         "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
#define DECL(f, a, b)  .file = F(f), .first = (a), .last = (b), .usage_mask = 0xf
#define DECLM(f, a, m) .file = F(f), .first = (a), .last = (a), .usage_mask = (m)

static const struct decl_case decl_cases[] = {
    {"FRAG\n",
     "DCL IN[0], GENERIC[20], PERSPECTIVE",
     {DECL(IN, 0, 0), SEM(GENERIC, 20), INTERP(PERSPECTIVE)}},
    {"FRAG\n",
     "DCL IN[2].xyz, GENERIC[2], PERSPECTIVE",
     {DECLM(IN, 2, 7), SEM(GENERIC, 2), INTERP(PERSPECTIVE)}},
    {"FRAG\n", "DCL IN[0], POSITION, LINEAR", {DECL(IN, 0, 0), SEM(POSITION, 0), INTERP(LINEAR)}},
    {"FRAG\n", "DCL IN[1], FACE, CONSTANT", {DECL(IN, 1, 1), SEM(FACE, 0), INTERP(CONSTANT)}},
    {"FRAG\n",
     "DCL IN[1], COLOR, COLOR, CENTROID",
     {DECL(IN, 1, 1), SEM(COLOR, 0), INTERP(COLOR), .has_location = true,
      .location = TGSI_LOC_CENTROID}},
    {"FRAG\n",
     "DCL IN[3], GENERIC [7], PERSPECTIVE, SAMPLE",
     {DECL(IN, 3, 3), SEM(GENERIC, 7), INTERP(PERSPECTIVE), .has_location = true,
      .location = TGSI_LOC_SAMPLE}},
    {"FRAG\n", "DCL OUT[0], COLOR", {DECL(OUT, 0, 0), SEM(COLOR, 0)}},
    {"VERT\n",
     "DCL OUT[0], POSITION, INVARIANT",
     {DECL(OUT, 0, 0), SEM(POSITION, 0), .invariant = true}},
    {"VERT\n", "DCL IN[0..3]", {DECL(IN, 0, 3)}},
    {"VERT\n", "DCL IN[1].xy, ARRAY(3)", {DECLM(IN, 1, 3), .array_id = 3}},
    {"FRAG\n", "DCL CONST[0][0..45]", {DECL(CONST, 0, 45), .has_dim = true, .dim = 0}},
    {"FRAG\n", "DCL CONST[1..2]", {DECL(CONST, 1, 2)}},
    {"FRAG\n", "DCL CONST [ 3 ] [ 4 .. 5 ]", {DECL(CONST, 4, 5), .has_dim = true, .dim = 3}},
    {"FRAG\n", "DCL TEMP[1..258], LOCAL", {DECL(TEMP, 1, 258), .local = true}},
    {"FRAG\n",
     "DCL TEMP[4..15], ARRAY(2), LOCAL",
     {DECL(TEMP, 4, 15), .array_id = 2, .local = true}},
    {"FRAG\n", "DCL TEMP[0..3], ARRAY( 7 )", {DECL(TEMP, 0, 3), .array_id = 7}},
    {"FRAG\n", "dcl temp[0..4], constant", {DECL(TEMP, 0, 4), INTERP(CONSTANT)}},
    {"FRAG\n", "DCL ADDR[0..1]", {DECL(ADDR, 0, 1)}},
    {"FRAG\n", "DCL SAMP[0..1]", {DECL(SAMP, 0, 1)}},
    {"FRAG\n",
     "DCL SVIEW[0], 2D_MSAA, FLOAT",
     {DECL(SVIEW, 0, 0), .target = TGSI_TEX_T_2D_MSAA, RET4(FLOAT)}},
    {"FRAG\n",
     "DCL SVIEW[0..2], 2D_ARRAY, UINT",
     {DECL(SVIEW, 0, 2), .target = TGSI_TEX_T_2D_ARRAY, RET4(UINT)}},
    {"FRAG\n",
     "DCL SVIEW[1], CUBEARRAY, FLOAT, FLOAT, UINT, SINT",
     {DECL(SVIEW, 1, 1), .target = TGSI_TEX_T_CUBE_ARRAY,
      .ret = {TGSI_RET_FLOAT, TGSI_RET_FLOAT, TGSI_RET_UINT, TGSI_RET_SINT}}},
    {"FRAG\n",
     "DCL SVIEW[1], 3D, SNORM, UNORM",
     {DECL(SVIEW, 1, 1), .target = TGSI_TEX_T_3D,
      .ret = {TGSI_RET_SNORM, TGSI_RET_UNORM, TGSI_RET_SNORM, TGSI_RET_SNORM}}},
    {"VERT\n", "DCL SV[0], VERTEXID", {DECL(SV, 0, 0), SEM(VERTEXID, 0)}},
    {"COMP\n", "DCL SV[1], BLOCK_ID", {DECL(SV, 1, 1), SEM(BLOCK_ID, 0)}},
    {"COMP\n", "DCL BUFFER[0]", {DECL(BUFFER, 0, 0)}},
    {"COMP\n", "DCL BUFFER[1..2], ATOMIC", {DECL(BUFFER, 1, 2), .atomic = true}},
    {"COMP\n",
     "DCL IMAGE[2], 2D, PIPE_FORMAT_R8G8_UINT, WR",
     {DECL(IMAGE, 2, 2), .target = TGSI_TEX_T_2D, .format = "PIPE_FORMAT_R8G8_UINT",
      .writable = true}},
    {"COMP\n",
     "DCL IMAGE[0], 2D_ARRAY, RAW",
     {DECL(IMAGE, 0, 0), .target = TGSI_TEX_T_2D_ARRAY, .raw = true}},
    {"COMP\n",
     "DCL IMAGE[0], BUFFER, WR, RAW, PIPE_FORMAT_R32_UINT",
     {DECL(IMAGE, 0, 0), .target = TGSI_TEX_T_BUFFER, .raw = true, .writable = true,
      .format = "PIPE_FORMAT_R32_UINT"}},
    {"COMP\n",
     "DCL MEMORY[0], SHARED",
     {DECL(MEMORY, 0, 0), .has_mem_type = true, .mem_type = TGSI_MEMTYPE_SHARED}},
    {"COMP\n", "DCL MEMORY[1]", {DECL(MEMORY, 1, 1)}},
    {GS_TRI,
     "DCL IN[][0], POSITION",
     {DECL(IN, 0, 0), .has_dim = true, .dim = 3, SEM(POSITION, 0)}},
    {GS_TRI, "DCL IN[0], POSITION", {DECL(IN, 0, 0), SEM(POSITION, 0)}},
    {"GEOM\n",
     "DCL IN[6][1], GENERIC[0]",
     {DECL(IN, 1, 1), .has_dim = true, .dim = 6, SEM(GENERIC, 0)}},
    {GS_TRI,
     "DCL OUT[1], GENERIC[3], STREAM(0, 1, 2, 3)",
     {DECL(OUT, 1, 1), SEM(GENERIC, 3), .has_stream = true, .stream = {0, 1, 2, 3}}},
    {"TESS_CTRL\n",
     "DCL OUT[][0], POSITION",
     {DECL(OUT, 0, 0), .has_dim = true, .dim = 32, SEM(POSITION, 0)}},
    {"TESS_CTRL\n", "DCL OUT[1].xyz, TESSOUTER", {DECLM(OUT, 1, 7), SEM(TESSOUTER, 0)}},
    {"TESS_EVAL\n",
     "DCL IN[][1], GENERIC[1]",
     {DECL(IN, 1, 1), .has_dim = true, .dim = 32, SEM(GENERIC, 1)}},
    {"TESS_EVAL\n", "DCL IN[2], PATCH[1]", {DECL(IN, 2, 2), SEM(PATCH, 1)}},
    {"FRAG\n",
     "DCL TEMP[0], LOCAL, CONSTANT, CENTER, INVARIANT",
     {DECL(TEMP, 0, 0), .local = true, INTERP(CONSTANT), .has_location = true,
      .location = TGSI_LOC_CENTER, .invariant = true}},
    {"FRAG\n",
     "DCL HWATOMIC[0][0..3], ARRAY(1)",
     {DECL(HWATOMIC, 0, 3), .has_dim = true, .array_id = 1}},
};

static void
test_decl_cases(void)
{
   for (size_t i = 0; i < ARRAY_SIZE(decl_cases); i++) {
      const struct decl_case *c = &decl_cases[i];
      char *text = xasprintf("%s%s\nEND\n", c->pre, c->text);
      struct tgsi_shader *s = expect_ok(text, NULL);
      if (s) {
         CHECKF(s->ndecls == 1 && tgsi_decl_equal(&s->decls[0], &c->want), "decl case %zu '%s'", i,
                c->text);
         check_round_trip(s, NULL);
      }
      tgsi_shader_free(s);
      free(text);
   }
}

/* Every semantic, interpolation, location, texture target, return type,
 * memory type and primitive name, through the parser and printer. */
static void
test_every_name(void)
{
   for (int i = 0; i < TGSI_SEM_COUNT; i++) {
      char *t = xasprintf("FRAG\nDCL OUT[0], %s[1]\nEND\n", tgsi_semantic_names[i]);
      struct tgsi_shader *s = expect_ok(t, NULL);
      CHECKF(s && s->decls[0].semantic == (enum tgsi_semantic)i && s->decls[0].semantic_index == 1,
             "%s", tgsi_semantic_names[i]);
      tgsi_shader_free(s);
      free(t);
   }
   for (int i = 0; i < TGSI_TEX_COUNT; i++) {
      char *t = xasprintf("FRAG\nDCL SVIEW[0], %s, FLOAT\nDCL TEMP[0]\nDCL SAMP[0]\n"
                          "TEX TEMP[0], TEMP[0], SAMP[0], %s\nEND\n",
                          tgsi_texture_names[i], tgsi_texture_names[i]);
      struct tgsi_shader *s = expect_ok(t, NULL);
      CHECKF(s && s->decls[0].target == (enum tgsi_texture)i &&
                 s->insns[0].tex_target == (enum tgsi_texture)i,
             "%s", tgsi_texture_names[i]);
      if (s)
         check_round_trip(s, NULL);
      tgsi_shader_free(s);
      free(t);
   }
   for (int i = 0; i < TGSI_INTERP_COUNT * TGSI_LOC_COUNT * TGSI_RET_COUNT; i++) {
      int ip = i % TGSI_INTERP_COUNT, lc = i / TGSI_INTERP_COUNT % TGSI_LOC_COUNT,
          rt = i / (TGSI_INTERP_COUNT * TGSI_LOC_COUNT);
      char *t =
          xasprintf("FRAG\nDCL IN[0], GENERIC[0], %s, %s\nDCL SVIEW[0], 2D, %s\nEND\n",
                    tgsi_interp_names[ip], tgsi_location_names[lc], tgsi_return_type_names[rt]);
      struct tgsi_shader *s = expect_ok(t, NULL);
      CHECK(s && s->decls[0].interp == (enum tgsi_interp)ip &&
            s->decls[0].location == (enum tgsi_location)lc &&
            s->decls[1].ret[3] == (enum tgsi_return_type)rt);
      tgsi_shader_free(s);
      free(t);
   }
   for (int i = 0; i < TGSI_MEMTYPE_COUNT; i++) {
      char *t = xasprintf("COMP\nDCL MEMORY[0], %s\nEND\n", tgsi_memory_type_names[i]);
      struct tgsi_shader *s = expect_ok(t, NULL);
      CHECK(s && s->decls[0].has_mem_type && s->decls[0].mem_type == (enum tgsi_memory_type)i);
      tgsi_shader_free(s);
      free(t);
   }
   for (int i = 0; i < TGSI_STAGE_COUNT; i++) {
      char *t = xasprintf("%s\nEND\n", tgsi_stage_names[i]);
      struct tgsi_shader *s = expect_ok(t, NULL);
      CHECK(s && s->stage == (enum tgsi_stage)i);
      tgsi_shader_free(s);
      free(t);
   }
}

/* ------------------------------------------------------------------ */
/* Properties and immediates                                            */

static void
test_properties(void)
{
   static const struct {
      const char *text;
      enum tgsi_property prop;
      uint32_t value;
   } cases[] = {
       {"PROPERTY GS_INPUT_PRIMITIVE TRIANGLES_ADJACENCY", TGSI_PROP_GS_INPUT_PRIMITIVE,
        TGSI_PRIM_TRIANGLES_ADJACENCY},
       {"PROPERTY GS_OUTPUT_PRIMITIVE line_strip", TGSI_PROP_GS_OUTPUT_PRIMITIVE,
        TGSI_PRIM_LINE_STRIP},
       {"PROPERTY FS_COORD_ORIGIN LOWER_LEFT", TGSI_PROP_FS_COORD_ORIGIN, 1},
       {"property fs_coord_origin upper_left", TGSI_PROP_FS_COORD_ORIGIN, 0},
       {"PROPERTY FS_COORD_PIXEL_CENTER INTEGER", TGSI_PROP_FS_COORD_PIXEL_CENTER, 1},
       {"PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER", TGSI_PROP_FS_COORD_PIXEL_CENTER, 0},
       {"PROPERTY NEXT_SHADER GEOM", TGSI_PROP_NEXT_SHADER, TGSI_STAGE_GEOM},
       {"PROPERTY TES_PRIM_MODE 4", TGSI_PROP_TES_PRIM_MODE, 4},
       {"PROPERTY CS_FIXED_BLOCK_WIDTH 4294967295", TGSI_PROP_CS_FIXED_BLOCK_WIDTH, 4294967295u},
   };
   for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
      char *t = xasprintf("FRAG\n%s\nEND\n", cases[i].text);
      struct tgsi_shader *s = expect_ok(t, NULL);
      CHECKF(s && s->nprops == 1 && s->props[0].prop == cases[i].prop &&
                 s->props[0].value == cases[i].value,
             "%s", cases[i].text);
      if (s)
         check_round_trip(s, NULL);
      tgsi_shader_free(s);
      free(t);
   }
   /* Every property name parses with a value of its kind. */
   for (int p = 0; p < TGSI_PROP_COUNT; p++) {
      unsigned n;
      const char *const *names = tgsi_prop_value_names(tgsi_property_kinds[p], &n);
      char *t = xasprintf("FRAG\nPROPERTY %s %s\nEND\n", tgsi_property_names[p],
                          names ? names[n - 1] : "7");
      struct tgsi_shader *s = expect_ok(t, NULL);
      CHECKF(s && s->props[0].value == (names ? n - 1 : 7), "%s", tgsi_property_names[p]);
      tgsi_shader_free(s);
      free(t);
   }
   expect_error("FRAG\nPROPERTY FOO 1\nEND\n", NULL, 2, 10, "unknown property 'FOO'");
   expect_error("FRAG\nPROPERTY FS_COORD_ORIGIN MIDDLE\nEND\n", NULL, 2, 26, "value name");
   expect_error("GEOM\nPROPERTY GS_OUTPUT_PRIMITIVE 99\nEND\n", NULL, 2, 30, "names no primitive");
   expect_error("FRAG\nPROPERTY TES_PRIM_MODE TRIANGLES\nEND\n", NULL, 2, 24, "property value");
   expect_error("FRAG\nPROPERTY TES_PRIM_MODE 4294967296\nEND\n", NULL, 2, 24, "too large");
   /* Setting a property twice warns. */
   struct diag_list d = {0};
   struct tgsi_shader *s =
       parse_str("FRAG\nPROPERTY NEXT_SHADER GEOM\nPROPERTY NEXT_SHADER VERT\nEND\n", NULL, &d);
   CHECK(s && d.nwarnings == 1 && d.v[0].line == 3 && strstr(d.v[0].msg, "more than once"));
   tgsi_shader_free(s);
   diag_clear(&d);
}

struct imm_case {
   const struct tgsi_parse_opts *opts;
   const char *text;
   enum tgsi_imm_type type;
   uint32_t u[4];
};

static const struct imm_case imm_cases[] = {
    {&no_opts,
     "IMM[0] FLT32 {1, -0.5, .5, 1e-3}",
     TGSI_IMM_FLT32,
     {0x3f800000, 0xbf000000, 0x3f000000, 0x3a83126f}},
    {&no_opts,
     "IMM FLT32 {    0.0312,     2.0000, -0.0005, 5.}",
     TGSI_IMM_FLT32,
     {0x3cff9724, 0x40000000, 0xba03126f, 0x40a00000}},
    {&no_opts,
     "IMM[0] FLT32 { inf , -INF, nan, -nan }",
     TGSI_IMM_FLT32,
     {0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000}},
    {&no_opts,
     "IMM[0] FLT32 {nan(0x7fa00001), nan(0xFFFFFFFF), Infinity, -0}",
     TGSI_IMM_FLT32,
     {0x7fa00001, 0xffffffff, 0x7f800000, 0x80000000}},
    {&no_opts,
     "IMM[0] FLT32 {1e-45, 1.17549435e-38, 3.40282347e+38, 1e-50}",
     TGSI_IMM_FLT32,
     {0x00000001, 0x00800000, 0x7f7fffff, 0}},
    /* Current Mesa (a dialect line naming no hex-bits): 0x... is a C99
     * hex float value. */
    {&current_opts,
     "IMM[0] FLT32 {0x3f800000, 0x1p-3, 0x1.8p1, -0x10}",
     TGSI_IMM_FLT32,
     {0x4e7e0000, 0x3e000000, 0x40400000, 0xc1800000}},
    /* No dialect line: eight hex digits are virgl's bit pattern, every
     * other hex form a value. */
    {&no_opts,
     "IMM[0] FLT32 {0x3f800000, 0x1p-3, 0x3f80000, -0x3f800000}",
     TGSI_IMM_FLT32,
     {0x3f800000, 0x3e000000, 0x4c7e0000, 0xce7e0000}},
    /* virgl / Mesa <= 21: 0x + up to 8 hex digits is the bit pattern. */
    {&hex_opts,
     "IMM[0] FLT32 {0x3f800000, 0xBF800000, 0x0, 0x1p-3}",
     TGSI_IMM_FLT32,
     {0x3f800000, 0xbf800000, 0, 0x3e000000}},
    {&hex_opts,
     "IMM[0] FLT32 {0x7fc00001, 1.5, 0x00000001, -2}",
     TGSI_IMM_FLT32,
     {0x7fc00001, 0x3fc00000, 1, 0xc0000000}},
    {&no_opts, "IMM[0] UINT32 {0, 4294967295, 7, 1}", TGSI_IMM_UINT32, {0, 0xffffffff, 7, 1}},
    {&no_opts,
     "IMM[0] INT32 {-2147483648, 2147483647, -1, +5}",
     TGSI_IMM_INT32,
     {0x80000000, 0x7fffffff, 0xffffffff, 5}},
    {&no_opts, "imm[0] int32{0,1,2,3}", TGSI_IMM_INT32, {0, 1, 2, 3}},
};

static void
test_immediates(void)
{
   for (size_t i = 0; i < ARRAY_SIZE(imm_cases); i++) {
      const struct imm_case *c = &imm_cases[i];
      char *t = xasprintf("FRAG\nDCL TEMP[0]\n%s\nMOV TEMP[0], IMM[0]\nEND\n", c->text);
      struct tgsi_shader *s = expect_ok(t, c->opts);
      if (s) {
         CHECKF(s->nimms == 1 && s->imms[0].type == c->type, "%s", c->text);
         for (int k = 0; k < 4; k++)
            CHECKF(s->imms[0].u[k] == c->u[k], "%s: value %d is 0x%08x, want 0x%08x", c->text, k,
                   s->imms[0].u[k], c->u[k]);
         check_round_trip(s, c->opts);
      }
      tgsi_shader_free(s);
      free(t);
   }
   /* 64-bit immediates parse, then the sanity rule rejects them like Mesa. */
   expect_error("FRAG\nIMM[0] FLT64 {1.5, -2}\nEND\n", NULL, 2, 1,
                "FLT64 immediates are not supported");
   expect_error("FRAG\nIMM[0] UINT64 {18446744073709551615, 0x10}\nEND\n", NULL, 2, 1,
                "UINT64 immediates are not supported");
   expect_error("FRAG\nIMM[0] INT64 {-9223372036854775808, 1}\nEND\n", NULL, 2, 1,
                "INT64 immediates are not supported");
   expect_error("FRAG\nIMM[0] UINT64 {18446744073709551616, 0}\nEND\n", NULL, 2, 16,
                "out of range for 64 bits");
   expect_error("FRAG\nIMM[0] FLT32 {1.0f, 0, 0, 0}\nEND\n", NULL, 2, 18, "unexpected 'f'");
   expect_error("FRAG\nIMM[0] FLT32 {1e39, 0, 0, 0}\nEND\n", NULL, 2, 15, "out of range");
   expect_error("FRAG\nIMM[0] FLT32 {1, 2, 3}\nEND\n", NULL, 2, 22, "exactly 4 values");
   expect_error("FRAG\nIMM[0] FLT32 {1, 2, 3, 4, 5}\nEND\n", NULL, 2, 25, "exactly 4 values");
   expect_error("FRAG\nIMM[0] UINT32 {4294967296, 0, 0, 0}\nEND\n", NULL, 2, 16, "out of range");
   expect_error("FRAG\nIMM[0] UINT32 {0x10, 0, 0, 0}\nEND\n", NULL, 2, 16, "decimal");
   expect_error("FRAG\nIMM[0] INT32 {2147483648, 0, 0, 0}\nEND\n", NULL, 2, 15, "out of range");
   expect_error("FRAG\nIMM[0] FLT32 {0x123456789, 0, 0, 0}\nEND\n", &hex_opts, 2, 15,
                "longer than 8 digits");
   expect_error("FRAG\nIMM[0] FLT32 {-0x3f800000, 0, 0, 0}\nEND\n", &hex_opts, 2, 15, "no sign");
   expect_error("FRAG\nIMM[0] FLT32 {nan(0x3f800000), 0, 0, 0}\nEND\n", NULL, 2, 15,
                "not a NaN bit pattern");
   expect_error("FRAG\nIMM[1] FLT32 {0, 0, 0, 0}\nEND\n", NULL, 2, 5, "out of order");
   expect_error("FRAG\nIMM[0] FLT16 {0, 0, 0, 0}\nEND\n", NULL, 2, 8, "immediate type");
}

/* Printing any FLT32 bit pattern reads back bit-exact in both dialects. */
static void
test_float_round_trip(void)
{
   struct rng r;
   rng_seed(&r, 7);
   static const uint32_t special[] = {0,          0x80000000, 1,          0x80000001, 0x007fffff,
                                      0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
                                      0x7fc00000, 0xffc00000, 0x7f800001, 0xffbfffff, 0x3f800000};
   for (int round = 0; round < 2; round++) {
      const struct tgsi_parse_opts *o = round ? &hex_opts : &no_opts;
      struct tgsi_shader *s = tgsi_shader_new(TGSI_STAGE_FRAG, "f");
      for (unsigned i = 0; i < 2000; i++) {
         struct tgsi_imm imm = {.type = TGSI_IMM_FLT32};
         for (int k = 0; k < 4; k++)
            imm.u[k] = 4 * i + k < ARRAY_SIZE(special) ? special[4 * i + k] : rng_u32(&r);
         VEC_PUSH(s->imms, s->nimms, s->imms_cap, imm);
      }
      struct tgsi_insn end = {.op = TGSI_OP_END, .target = -1};
      VEC_PUSH(s->insns, s->ninsns, s->insns_cap, end);
      char *text = tgsi_print(s);
      struct diag_list d = {0};
      struct tgsi_shader *s2 = tgsi_parse(text, strlen(text), "f", o, &d);
      CHECKF(s2 != NULL, "%s", diag_first_error(&d) ? diag_first_error(&d) : "");
      unsigned bad = 0;
      for (unsigned i = 0; s2 && i < s->nimms; i++)
         bad += memcmp(s->imms[i].u, s2->imms[i].u, 16) != 0;
      CHECKF(s2 && bad == 0, "%u immediates changed", bad);
      tgsi_shader_free(s);
      tgsi_shader_free(s2);
      diag_clear(&d);
      free(text);
   }
}

/* ------------------------------------------------------------------ */
/* Control flow                                                         */

static void
test_flow(void)
{
   static const char text[] = "FRAG\n"
                              "DCL TEMP[0]\n"
                              "  0: IF TEMP[0].xxxx :7\n"
                              "  1:   MOV TEMP[0], TEMP[0]\n"
                              "  2: ELSE :0\n"
                              "  3:   BGNLOOP :99\n"
                              "  4:     UIF TEMP[0].xxxx\n"
                              "  5:       BRK\n"
                              "  6:     ENDIF\n"
                              "  7:     CONT\n"
                              "  8:   ENDLOOP :0\n"
                              "  9: ENDIF\n"
                              " 10: SWITCH TEMP[0].xxxx\n"
                              " 11: CASE TEMP[0].xxxx\n"
                              " 12:   BRK\n"
                              " 13: DEFAULT\n"
                              " 14:   CAL :17\n"
                              " 15: ENDSWITCH\n"
                              " 16: END\n"
                              " 17: BGNSUB\n"
                              " 18:   RET\n"
                              " 19: ENDSUB\n";
   static const int32_t want[] = {2,  -1, 9,  8,  6,  -1, -1, -1, 3,  -1,
                                  15, -1, -1, -1, 17, -1, -1, -1, -1, -1};
   struct tgsi_shader *s = expect_ok(text, NULL);
   CHECK(s && s->ninsns == ARRAY_SIZE(want));
   for (unsigned i = 0; s && i < s->ninsns && i < ARRAY_SIZE(want); i++)
      CHECKF(s->insns[i].target == want[i], "insn %u target %d, want %d", i, s->insns[i].target,
             want[i]);
   /* Labels as written are kept, but only CAL's is used. */
   CHECK(s && s->insns[0].has_label && s->insns[0].label == 7 && !s->insns[4].has_label);
   if (s)
      check_round_trip(s, NULL);
   tgsi_shader_free(s);

   const char *pre = "FRAG\nDCL TEMP[0]\n";
   struct {
      const char *body;
      int line, col;
      const char *msg;
   } bad[] = {
       {"IF TEMP[0].xxxx\nEND\n", 3, 1, "IF without a matching ENDIF"},
       {"ENDIF\nEND\n", 3, 1, "ENDIF without a matching IF"},
       {"ELSE\nEND\n", 3, 1, "ELSE without a matching IF"},
       {"IF TEMP[0].xxxx\nELSE\nELSE\nENDIF\nEND\n", 5, 1, "ELSE without a matching IF"},
       {"ENDLOOP\nEND\n", 3, 1, "ENDLOOP without a matching BGNLOOP"},
       {"BGNLOOP\nENDIF\nEND\n", 4, 1, "does not close the BGNLOOP at line 3"},
       {"BRK\nEND\n", 3, 1, "BRK outside of a loop or switch"},
       {"SWITCH TEMP[0].xxxx\nCONT\nENDSWITCH\nEND\n", 4, 1, "CONT outside of a loop"},
       {"CASE TEMP[0].xxxx\nEND\n", 3, 1, "CASE outside of a SWITCH"},
       {"BGNLOOP\nBGNSUB\nENDSUB\nENDLOOP\nEND\n", 4, 1, "BGNSUB inside a BGNLOOP block"},
       {"BGNLOOP\nEND\nBGNSUB\nBRK\nENDSUB\n", 5, 1, "BGNSUB inside a BGNLOOP block (line 3)"},
       {"BGNLOOP\nEND\n", 3, 1, "BGNLOOP without a matching ENDLOOP"},
       {"CAL :0\nEND\n", 3, 1, "must name a BGNSUB, but instruction 0 is CAL"},
       {"CAL :5\nEND\n", 3, 1, "past the last instruction"},
       {"CAL\nEND\n", 3, 4, "CAL needs a target label"},
       {"ENDIF :3\nEND\n", 3, 7, "ENDIF takes no ':' label"},
       {"BRK :1\nEND\n", 3, 5, "BRK takes no ':' label"},
   };
   for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
      char *t = xasprintf("%s%s", pre, bad[i].body);
      expect_error(t, NULL, bad[i].line, bad[i].col, bad[i].msg);
      free(t);
   }
   /* 64 levels are fine, 65 are not. */
   for (int depth = 64; depth <= 65; depth++) {
      size_t cap = 64 + (size_t)depth * 40;
      char *t = xmalloc(cap);
      size_t n = (size_t)snprintf(t, cap, "%s", pre);
      for (int i = 0; i < depth; i++)
         n += (size_t)snprintf(t + n, cap - n, "BGNLOOP\n");
      for (int i = 0; i < depth; i++)
         n += (size_t)snprintf(t + n, cap - n, "ENDLOOP\n");
      snprintf(t + n, cap - n, "END\n");
      if (depth == 64) {
         struct tgsi_shader *ok = expect_ok(t, NULL);
         CHECK(ok && ok->insns[0].target == 127 && ok->insns[127].target == 0);
         tgsi_shader_free(ok);
      } else {
         expect_error(t, NULL, 67, 1, "nested deeper than 64");
      }
      free(t);
   }
}

/* ------------------------------------------------------------------ */
/* Sanity rules                                                         */

static void
test_sanity(void)
{
   expect_error("FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[1]\nEND\n", NULL, 3, 14,
                "TEMP[1] is not declared");
   expect_error("FRAG\nDCL TEMP[0]\nMOV TEMP[0], IMM[0]\nEND\n", NULL, 3, 14,
                "IMM[0] is not declared");
   expect_error("FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\nDCL TEMP[1]\nEND\n", NULL, 4, 1,
                "declarations must come before the first instruction");
   expect_error("FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\nIMM[0] FLT32 {0, 0, 0, 0}\nEND\n", NULL,
                4, 1, "immediates must come before the first instruction");
   expect_error("FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\n", NULL, 4, 1, "no END instruction");
   expect_error("FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]", NULL, 3, 21, "no END instruction");
   expect_error("FRAG\nEND\nEND\n", NULL, 3, 1, "more than one END (the first is at line 2)");
   expect_error("FRAG\nDCL TEMP[0..3]\nDCL TEMP[3..4]\nEND\n", NULL, 3, 1,
                "TEMP[3] is declared twice");
   expect_error("FRAG\nDCL CONST[0][1]\nDCL CONST[2][0..9]\nDCL CONST[0][0..1]\nEND\n", NULL, 4, 1,
                "CONST[0][1] is declared twice");
   expect_error("FRAG\nDCL TEMP[0]\nMOV TEMP[0]., TEMP[0]\nEND\n", NULL, 3, 13,
                "expected write mask letters");
   expect_error("FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[ADDR[0].x]\nEND\n", NULL, 3, 14,
                "address register ADDR[0] is not declared");
   expect_error("FRAG\nDCL ADDR[0]\nDCL TEMP[0]\nMOV TEMP[0], CONST[ADDR[0].x]\nEND\n", NULL, 4, 14,
                "no CONST register is declared");
   expect_error("FRAG\nDCL ADDR[0]\nDCL TEMP[0]\nMOV TEMP[ADDR[0].x+1], TEMP[0]\nEND\n", NULL, 4, 5,
                "TEMP[ADDR[0].x+1] is not declared");
   /* Per-vertex inputs: a vertex index is needed and must be in range. */
   expect_error(GS_TRI "DCL IN[][0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND\n", NULL, 5, 13,
                "per-vertex register");
   expect_error(GS_TRI "DCL IN[][0]\nDCL OUT[0]\nMOV OUT[0], IN[3][0]\nEND\n", NULL, 5, 13,
                "vertex index 3 is out of range (3 vertices)");
   expect_error("GEOM\nDCL IN[3][0]\nDCL OUT[0]\nMOV OUT[0], IN[0][0]\nEND\n", NULL, 4, 13,
                "set PROPERTY GS_INPUT_PRIMITIVE first");
   expect_error("TESS_CTRL\nDCL OUT[][0]\nDCL TEMP[0]\nMOV OUT[0][0], TEMP[0]\nEND\n", NULL, 4, 5,
                "PROPERTY TCS_VERTICES_OUT");
   /* Indirect sources only need some register of the file. */
   struct tgsi_shader *s = expect_ok("FRAG\nDCL ADDR[0]\nDCL TEMP[0]\nDCL CONST[4]\n"
                                     "MOV TEMP[0], CONST[ADDR[0].x+100]\nEND\n",
                                     NULL);
   tgsi_shader_free(s);

   /* Warnings: never used, CONST 1-D vs 2-D. */
   struct diag_list d = {0};
   s = parse_str("FRAG\nDCL TEMP[0..1]\nDCL CONST[0][0..3]\nIMM[0] FLT32 {0, 0, 0, 0}\n"
                 "MOV TEMP[0], CONST[2]\nMOV TEMP[0], CONST[3]\nEND\n",
                 NULL, &d);
   CHECK(s != NULL && d.nerrors == 0 && d.nwarnings == 2);
   CHECK(d.n == 2 && d.v[0].line == 4 && strstr(d.v[0].msg, "IMM[0] is declared but never used"));
   CHECK(d.n == 2 && d.v[1].line == 5 && d.v[1].col == 14 &&
         strstr(d.v[1].msg, "CONST[2] is declared as CONST[0][2]"));
   tgsi_shader_free(s);
   diag_clear(&d);
   s = parse_str("FRAG\nDCL TEMP[0..1]\nDCL CONST[1]\nMOV TEMP[0], CONST[0][1]\nEND\n", NULL, &d);
   CHECK(s != NULL && d.nwarnings == 1 &&
         strstr(d.v[0].msg, "CONST[0][1] is declared as CONST[1]"));
   tgsi_shader_free(s);
   diag_clear(&d);
   /* TEX with SAMP[1] uses SVIEW[1] too, not SVIEW[0]. */
   s = parse_str("FRAG\nDCL TEMP[0]\nDCL SAMP[1]\nDCL SVIEW[0..1], 2D, FLOAT\nDCL SVIEW[2], 2D, "
                 "FLOAT\nTEX TEMP[0], TEMP[0], SAMP[1], 2D\nEND\n",
                 NULL, &d);
   CHECK(s && d.n == 1 && d.v[0].line == 5 && strstr(d.v[0].msg, "SVIEW[2] is declared but never"));
   tgsi_shader_free(s);
   diag_clear(&d);
   /* Indirect use marks the whole file used. */
   s = parse_str("FRAG\nDCL TEMP[0..9]\nDCL ADDR[0]\nMOV TEMP[0], TEMP[ADDR[0].x]\nEND\n", NULL,
                 &d);
   CHECK(s != NULL && d.n == 0);
   tgsi_shader_free(s);
   diag_clear(&d);

   /* Rules on a built AST: operand counts, empty mask, bad immediate type. */
   s = expect_ok("FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\nEND\n", NULL);
   if (s) {
      s->insns[0].nsrc = 2;
      s->insns[0].src[1] = s->insns[0].src[0];
      CHECK(!tgsi_sanity_check(s, NULL, 0, &d) && strstr(diag_first_error(&d), "MOV takes 1"));
      diag_clear(&d);
      s->insns[0].nsrc = 1;
      s->insns[0].dst[0].mask = 0;
      CHECK(!tgsi_sanity_check(s, NULL, 0, &d) && strstr(diag_first_error(&d), "empty write mask"));
      diag_clear(&d);
      s->insns[0].dst[0].mask = 1;
      CHECK(tgsi_sanity_check(s, NULL, 0, &d) && d.nerrors == 0);
      diag_clear(&d);
   }
   tgsi_shader_free(s);
}

/* ------------------------------------------------------------------ */
/* Syntax errors, dialects, lexical rules                               */

static void
test_syntax_errors(void)
{
   const char *p = "FRAG\nDCL TEMP[0..1]\nDCL ADDR[0]\n";
   struct {
      const char *body;
      int line, col;
      const char *msg;
   } cases[] = {
       {"MOV TEMP[0], TEMP[1\nEND\n", 4, 20, "expected ']' after the register index"},
       {"MOV TEMP[0] TEMP[1]\nEND\n", 4, 13, "expected ',' (MOV takes 1 destination and 1 source)"},
       {"MOV TEMP[0], TEMP[1], TEMP[1]\nEND\n", 4, 23, "too many operands"},
       {"MOV TEMP[0], TEMP[1].xy\nEND\n", 4, 22, "exactly 4 letters"},
       {"MOV TEMP[0].yx, TEMP[1]\nEND\n", 4, 13, "xyzw order"},
       {"MOV TEMP[0].xq, TEMP[1]\nEND\n", 4, 14, "invalid write mask letter 'q'"},
       {"MOV TEMP[0], |-TEMP[1]|\nEND\n", 4, 15, "negation must come before"},
       {"MOV TEMP[0], |TEMP[1]\nEND\n", 4, 22, "'|' closing"},
       {"MOV TEMP[0], TEMP[ADDR[0].x + x]\nEND\n", 4, 29, "expected digits after the sign"},
       {"MOV TEMP[0], TEMP[-1]\nEND\n", 4, 19, "cannot be negative"},
       {"MOV TEMP[0], TEMP[]\nEND\n", 4, 19, "only allowed in declarations"},
       {"MOV TEMP[0], TEMP[1][0][0]\nEND\n", 4, 24, "at most two brackets"},
       {"MOV TEMP[0], FOO[1]\nEND\n", 4, 14, "unknown register file 'FOO'"},
       {"MOV TEMP[0], TEMP[65536]\nEND\n", 4, 19, "register index is too large"},
       {"MOV TEMP[0](0), TEMP[1]\nEND\n", 4, 13, "array ids start at 1"},
       {"FOO TEMP[0], TEMP[1]\nEND\n", 4, 1, "unknown opcode 'FOO'"},
       {"ADD_PRECISE_SAT TEMP[0], TEMP[1], TEMP[1]\nEND\n", 4, 1, "_SAT must come before _PRECISE"},
       {"MOVTEMP[0], TEMP[1]\nEND\n", 4, 1, "unknown opcode 'MOVTEMP'"},
       {"MOV TEMP[0], TEMP[1] # comment\nEND\n", 4, 22, "first character of a line"},
       {"TEX TEMP[0], TEMP[1], TEMP[1]\nEND\n", 4, 30, "',' and a texture target"},
       {"TEX TEMP[0], TEMP[1], TEMP[1], 4D\nEND\n", 4, 32, "texture target"},
       {"LOAD TEMP[0], TEMP[1], TEMP[1], WEIRD\nEND\n", 4, 33, "memory qualifier"},
       {"12 MOV TEMP[0], TEMP[1]\nEND\n", 4, 4, "expected ':' after the instruction number"},
       {"1: DCL TEMP[5]\nEND\n", 4, 1, "only instructions can be numbered"},
       {"MOV TEMP[0], TEMP[1]END\n", 4, 21, "unexpected 'END' after instruction"},
       {"END\nMOV TEMP[0], TEMP[1]\r\rEND\n", 5, 21, "carriage return not followed"},
       {"MOV TEMP[0], TEMP[1]\n  \xff\n", 5, 3, "byte 0xff"},
   };
   for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
      char *t = xasprintf("%s%s", p, cases[i].body);
      expect_error(t, NULL, cases[i].line, cases[i].col, cases[i].msg);
      free(t);
   }
   /* Declarations. */
   expect_error("VERT\nDCL IN[0], POSITION\nEND\n", &no_detect_opts, 2, 12,
                "semantic or interpolation on a vertex shader input");
   expect_error("FRAG\nDCL TEMP[0..3], LOCAL, ARRAY(1)\nEND\n", NULL, 2, 24, "unexpected 'ARRAY'");
   expect_error("FRAG\nDCL TEMP[3..1]\nEND\n", NULL, 2, 13, "range end 1 is below its start 3");
   expect_error("FRAG\nDCL IN[][0]\nEND\n", NULL, 2, 8, "vertex dimension of GS");
   expect_error("GEOM\nDCL IN[][0]\nEND\n", NULL, 2, 8, "GS_INPUT_PRIMITIVE first");
   expect_error("FRAG\nDCL TEMP[]\nEND\n", NULL, 2, 10, "only allowed for the vertex dimension");
   expect_error("FRAG\nDCL OUT[0], STREAM(0, 0, 0, 0)\nEND\n", NULL, 2, 13,
                "geometry shader outputs");
   expect_error("GEOM\nDCL OUT[0], STREAM(0, 0, 4, 0)\nEND\n", NULL, 2, 26,
                "stream number is too large");
   expect_error("FRAG\nDCL SVIEW[0], 2D\nEND\n", NULL, 2, 17, "return type");
   expect_error("FRAG\nDCL SVIEW[0], 2D, FLOAT,\nEND\n", NULL, 3, 1, "return type");
   expect_error("COMP\nDCL IMAGE[0]\nEND\n", NULL, 2, 13, "IMAGE declarations need a target");
   expect_error("FRAG\nDCL IMM[0]\nEND\n", NULL, 2, 8, "declared with IMM");
   expect_error("FRAG\nDCL TEMP[0], ARRAY(0)\nEND\n", NULL, 2, 20, "array ids start at 1");
   expect_error("FRAG\nDCL TEMP[0], FOO\nEND\n", NULL, 2, 14, "unexpected 'FOO' in declaration");
   /* Header. */
   expect_error("", NULL, 1, 1, "expected a shader header");
   expect_error("  \n\n# only a comment\n", NULL, 4, 1, "expected a shader header");
   expect_error("PROPERTY FS_COORD_ORIGIN UPPER_LEFT\nEND\n", NULL, 2, 1,
                "expected a shader header (FRAG, VERT, GEOM, TESS_CTRL, TESS_EVAL or COMP), found "
                "'END'");
   expect_error("PROPERTY FS_COORD_ORIGIN UPPER_LEFT\nFRAG\nEND\n", &no_detect_opts, 1, 1,
                "a PROPERTY line before the header was removed from Mesa");
   expect_error("FRAGMENT\nEND\n", NULL, 1, 1, "found 'FRAGMENT'");
   /* No diagnostics list: still a clean yes or no. */
   struct tgsi_shader *quiet = tgsi_parse("FRAG\nEND\n", 9, NULL, NULL, NULL);
   CHECK(quiet && !strcmp(quiet->name, "<input>"));
   tgsi_shader_free(quiet);
   CHECK(!tgsi_parse("FRAG\nEN\n", 8, NULL, NULL, NULL));
   /* A NUL byte inside the given length. */
   static const char nul[] = "FRAG\nDCL TEMP[0]\nMOV TEMP[0], \0TEMP[0]\nEND\n";
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(nul, sizeof(nul) - 1, "t.tgsi", NULL, &d);
   CHECK(!s && d.nerrors == 1 && d.v[0].line == 3 && d.v[0].col == 14 &&
         strstr(d.v[0].msg, "NUL byte"));
   diag_clear(&d);
}

static void
test_dialects(void)
{
   const char *legacy = "FRAG\nDCL TEMP[0..1]\nABS TEMP[0], TEMP[1]\nSUB TEMP[0], TEMP[0], "
                        "TEMP[1]\nKIL TEMP[0]\nEND\n";
   struct tgsi_shader *s = expect_ok(legacy, &legacy_opts);
   CHECK(s && s->insns[0].op == TGSI_OP_ABS && s->insns[1].op == TGSI_OP_SUB &&
         s->insns[2].op == TGSI_OP_KIL && s->insns[2].nsrc == 1);
   tgsi_shader_free(s);
   /* Detected: no dialect line, a removed opcode. A note, never an error,
    * at the first form that needs the dialect. */
   struct diag_list d = {0};
   s = parse_str(legacy, NULL, &d);
   CHECK(s && s->insns[0].op == TGSI_OP_ABS && d.nerrors == 0 && d.nwarnings == 0 && d.n == 1);
   CHECKF(d.n == 1 && d.v[0].sev == DIAG_NOTE && d.v[0].line == 3 && d.v[0].col == 1 &&
              strstr(d.v[0].msg, "parsed in the legacy dialect: ABS was removed from Mesa"),
          "%s", d.n ? d.v[0].msg : "no note");
   tgsi_shader_free(s);
   diag_clear(&d);
   /* Given: no note. */
   s = parse_str(legacy, &legacy_opts, &d);
   CHECK(s && d.n == 0);
   tgsi_shader_free(s);
   diag_clear(&d);
   /* A dialect line that does not name legacy contradicts it. */
   const struct tgsi_parse_opts said = {.dialect_line = true}, off = {.no_detect = true};
   expect_error(legacy, &said, 3, 1,
                "ABS was removed from Mesa; it is accepted only in the legacy dialect");
   expect_error(legacy, &off, 3, 1, "ABS was removed from Mesa");
   struct tgsi_parse_opts read = {0};
   tgsi_read_dialect("# dialect: hex-bits\nFRAG\n", 20, &read);
   CHECK(read.dialect_line && read.hex_bits && !read.legacy);
   /* Detected bit patterns: a note at the first, none when given. */
   const char *hex = "FRAG\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0xbf800000, 0, 0}\n"
                     "MOV TEMP[0], IMM[0]\nEND\n";
   s = parse_str(hex, NULL, &d);
   CHECK(s && s->imms[0].u[1] == 0xbf800000u && d.nerrors == 0 && d.nwarnings == 0);
   CHECKF(d.n == 1 && d.v[0].sev == DIAG_NOTE && d.v[0].line == 3 && d.v[0].col == 20 &&
              strstr(d.v[0].msg, "read as bit patterns"),
          "%s", d.n ? d.v[0].msg : "no note");
   tgsi_shader_free(s);
   diag_clear(&d);
   s = parse_str(hex, &hex_opts, &d);
   CHECK(s && s->imms[0].u[1] == 0xbf800000u && d.n == 0);
   tgsi_shader_free(s);
   diag_clear(&d);
   s = parse_str(hex, &said, &d);
   CHECK(s && s->imms[0].u[1] == 0x4f3f8000u && d.n == 0);
   tgsi_shader_free(s);
   diag_clear(&d);

   /* Comments, CRLF, everything on one line, tabs. */
   const char *crlf = "# provenance: test\r\n# dialect: none\r\nFRAG\r\n  # indented comment\r\n"
                      "DCL TEMP[0]\r\n\tMOV TEMP[0], TEMP[0]\r\nEND\r\n# trailing\r\n";
   s = expect_ok(crlf, NULL);
   CHECK(s && s->ninsns == 2 && s->insns[0].loc.line == 6 && s->insns[0].loc.col == 2);
   tgsi_shader_free(s);
   s = expect_ok("FRAG DCL TEMP[0] IMM[0] FLT32 {0,0,0,0} MOV TEMP[0], IMM[0] END", NULL);
   CHECK(s && s->ninsns == 2 && s->nimms == 1);
   tgsi_shader_free(s);
   /* Whole-word keywords. */
   expect_error("FRAG\nDCLTEMP[0]\nEND\n", NULL, 2, 1, "unknown opcode 'DCLTEMP'");
   expect_error("FRAG\nDCL TEMPX[0]\nEND\n", &no_detect_opts, 2, 5, "TEMPX was removed from Mesa");
   expect_error("FRAG\nDCL TEMPY[0]\nEND\n", NULL, 2, 5, "unknown register file 'TEMPY'");
   /* KILP is today's KILL; KILPX is no opcode. */
   s = expect_ok("FRAG\nkilp\nEND\n", NULL);
   CHECK(s && s->ninsns == 2 && s->insns[0].op == TGSI_OP_KILL && s->insns[0].nsrc == 0);
   tgsi_shader_free(s);
   expect_error("FRAG\nKILP\nEND\n", &no_detect_opts, 2, 1, "KILP (today's KILL) was removed");
   expect_error("FRAG\nKILPX\nEND\n", NULL, 2, 1, "unknown opcode 'KILPX'");
   /* CYLWRAP_ letters: some of XYZW, in order. */
   expect_error("FRAG\nDCL IN[0], GENERIC[0], LINEAR, CYLWRAP_YX\nEND\n", NULL, 2, 32,
                "order XYZW");
   expect_error("FRAG\nDCL IN[0], GENERIC[0], LINEAR, CYLWRAP_\nEND\n", NULL, 2, 32, "order XYZW");
   expect_error("FRAG\nDCL IN[0], GENERIC[0], LINEAR, CYLWRAP_X\nEND\n", &no_detect_opts, 2, 32,
                "cylindrical wrap (CYLWRAP_) was removed");
}

/* ------------------------------------------------------------------ */
/* Equality must notice a change in any field the printer shows.        */

static void
test_equality(void)
{
   const char *t = "FRAG\nDCL IN[0], GENERIC[1], LINEAR\nDCL TEMP[0..1]\nDCL ADDR[0]\n"
                   "DCL SAMP[0]\nIMM[0] FLT32 {1, 2, 3, 4}\n"
                   "TEX_SAT TEMP[0].xy, -|TEMP[ADDR[0].x+1].yxzw|, SAMP[0], 2D, IMM[0].xyz\n"
                   "MOV TEMP[1], IN[0]\nEND\n";
   struct tgsi_shader *a = expect_ok(t, NULL);
   if (!a)
      return;
   struct tgsi_shader *b = tgsi_shader_clone(a);
   CHECK(tgsi_shader_equal(a, b));
   b->insns[0].loc.line = 99;
   b->insns[0].src[0].reg.loc.col = 99;
   free(b->name);
   b->name = xstrdup("other");
   CHECK(tgsi_shader_equal(a, b)); /* positions and name are ignored */
   struct tgsi_insn *in = &b->insns[0];
#define MUTATE(stmt)                                                                               \
   do {                                                                                            \
      struct tgsi_insn save = *in;                                                                 \
      stmt;                                                                                        \
      CHECKF(!tgsi_shader_equal(a, b), "not noticed: %s", #stmt);                                  \
      *in = save;                                                                                  \
   } while (0)
   MUTATE(in->sat = false);
   MUTATE(in->precise = true);
   MUTATE(in->dst[0].mask = 1);
   MUTATE(in->src[0].neg = false);
   MUTATE(in->src[0].abs = false);
   MUTATE(in->src[0].swz[1] = 1);
   MUTATE(in->src[0].reg.index = 2);
   MUTATE(in->src[0].reg.ind.comp = 1);
   MUTATE(in->src[0].reg.indirect = false);
   MUTATE(in->src[1].reg.file = TGSI_FILE_SVIEW);
   MUTATE(in->tex_target = TGSI_TEX_T_3D);
   MUTATE(in->noffsets = 0);
   MUTATE(in->offsets[0].swz[2] = 0);
   MUTATE(in->target = 5);
   MUTATE(in->has_label = true);
   CHECK(tgsi_shader_equal(a, b));
   b->decls[0].semantic_index = 2;
   CHECK(!tgsi_shader_equal(a, b));
   b->decls[0].semantic_index = 1;
   b->decls[0].interp = TGSI_INTERP_CONSTANT;
   CHECK(!tgsi_shader_equal(a, b));
   b->decls[0].interp = TGSI_INTERP_LINEAR;
   b->imms[0].u[3] ^= 1;
   CHECK(!tgsi_shader_equal(a, b));
   b->imms[0].u[3] ^= 1;
   CHECK(tgsi_shader_equal(a, b));
   tgsi_shader_free(b);
   tgsi_shader_free(a);
}

/* Large inputs: 100k instructions, a 1 MB line, 100k nested IFs. */
static void
test_large(void)
{
   size_t cap = 100000 * 64 + 256, n = 0;
   char *t = xmalloc(cap);
   n += (size_t)snprintf(t, cap, "FRAG\nDCL TEMP[0..15]\nDCL CONST[0][0..15]\n");
   for (unsigned i = 0; i < 100000; i++)
      n += (size_t)snprintf(t + n, cap - n, "%5u: ADD TEMP[%u].xy, TEMP[%u], CONST[0][%u]\n", i,
                            i % 16, (i + 1) % 16, i % 16);
   snprintf(t + n, cap - n, "END\n");
   struct tgsi_shader *s = expect_ok(t, NULL);
   CHECK(s && s->ninsns == 100001 && s->insns[99999].loc.line == 100003);
   tgsi_shader_free(s);
   free(t);

   /* One 1 MB line: blanks then an error at its end. */
   size_t big = 1u << 20;
   t = xmalloc(big + 64);
   n = (size_t)snprintf(t, 64, "FRAG\nEND ");
   memset(t + n, ' ', big);
   n += big;
   n += (size_t)snprintf(t + n, 64, "?\n");
   struct diag_list d = {0};
   s = tgsi_parse(t, n, "big", NULL, &d);
   CHECK(!s && d.nerrors == 1 && d.v[0].line == 2 && d.v[0].col == (int)big + 5);
   diag_clear(&d);
   free(t);

   /* 100000 nested IFs: rejected at level 65, no recursion, no hang. */
   cap = 100000 * 16 + 64;
   t = xmalloc(cap);
   n = (size_t)snprintf(t, cap, "FRAG\nDCL TEMP[0]\n");
   for (unsigned i = 0; i < 100000; i++)
      n += (size_t)snprintf(t + n, cap - n, "IF TEMP[0].xxxx\n");
   expect_error(t, NULL, 67, 1, "nested deeper than 64");
   free(t);
}

/* Debug logs: banners around a shader are left out with a note; several
 * shaders in one text are found by their headers; text that is not TGSI
 * inside a shader, or TGSI before any header, is still an error. */
static void
test_logs(void)
{
   static const char one[] = "TGSI after translation from NIR:\n"
                             "FRAG\n"
                             "DCL OUT[0], COLOR\n"
                             "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
                             "  0: MOV OUT[0], IMM[0]\n"
                             "  1: END\n"
                             "\n"
                             "st: something else\n";
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(one, strlen(one), "t.tgsi", NULL, &d);
   CHECK(s && s->stage == TGSI_STAGE_FRAG && s->ninsns == 2 && s->insns[1].loc.line == 6);
   CHECK(d.nerrors == 0 && d.n == 2 && d.v[0].line == 1 && d.v[1].line == 8 &&
         strstr(d.v[0].msg, "1 line that is not TGSI left out"));
   tgsi_shader_free(s);
   diag_clear(&d);

   static const char two[] = "# dialect: legacy\n"
                             "banner\n"
                             "VERT\n"
                             "DCL IN[0]\n"
                             "DCL OUT[0], POSITION\n"
                             "  0: SUB OUT[0], IN[0], IN[0]\n"
                             "  1: END\n"
                             "  2: BGNSUB\n"
                             "  3: RET\n"
                             "  4: ENDSUB\n"
                             "another banner\n"
                             "PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\r\n"
                             "FRAG\r\n"
                             "DCL OUT[0], COLOR\r\n"
                             "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\r\n"
                             "  0: MOV OUT[0], IMM[0]\r\n"
                             "  1: END\r\n";
   struct tgsi_unit *u;
   unsigned left;
   unsigned n = tgsi_split(two, strlen(two), "t", &u, &left, &d);
   CHECK(n == 2 && left == 2 && d.n == 2);
   if (n == 2) {
      CHECK(u[0].line == 3 && u[0].first_line == 2 && u[1].line == 13 && u[1].first_line == 11);
      CHECK(!strncmp(two + u[0].end - 7, "ENDSUB\n", 7)); /* subroutines after END stay */
      for (unsigned k = 0; k < 2; k++) {
         char *t = tgsi_unit_text(two, strlen(two), u, k);
         struct tgsi_parse_opts o = {0};
         tgsi_read_dialect(t, strlen(t), &o);
         CHECK(o.legacy); /* the comment before the first shader stays */
         struct diag_list d2 = {0};
         s = tgsi_parse(t, strlen(t), "t", &o, &d2);
         CHECKF(s && s->stage == (k ? TGSI_STAGE_FRAG : TGSI_STAGE_VERT) && d2.n == 0,
                "unit %u: %s", k, diag_first_error(&d2) ? diag_first_error(&d2) : "");
         CHECK(s && s->insns[0].loc.line == (k ? 16 : 6));
         tgsi_shader_free(s);
         diag_clear(&d2);
         free(t);
      }
   }
   free(u);
   diag_clear(&d);
   expect_error(two, &legacy_opts, 13, 1, "the file holds 2 shaders");

   /* not TGSI inside a shader: the parser's error, nothing left out */
   expect_error("FRAG\nDCL OUT[0], COLOR\nst: text\n  0: END\n", NULL, 3, 1, "unknown opcode 'st'");
   /* TGSI before the header: no shader found, the parser's error */
   expect_error("DCL OUT[0], COLOR\nFRAG\nEND\n", NULL, 1, 1, "expected a shader header");
   CHECK(tgsi_split("DCL OUT[0]\nFRAG\nEND\n", 19, "t", &u, &left, NULL) == 0 && !u);
   /* a banner alone */
   expect_error("nothing here\n", NULL, 1, 1, "expected a shader header");
}

int
main(void)
{
   test_insn_cases();
   test_every_opcode();
   test_decl_cases();
   test_every_name();
   test_properties();
   test_immediates();
   test_float_round_trip();
   test_flow();
   test_sanity();
   test_syntax_errors();
   test_dialects();
   test_equality();
   test_large();
   test_logs();
   return test_done();
}
