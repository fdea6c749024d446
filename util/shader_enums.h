/*
 * TGSI's vocabulary: shader stages, register files, semantics, texture
 * targets, return types, interpolation, immediates' types, memory,
 * primitives and properties, with their names, and what a texture target
 * addresses. Every layer speaks it -- the emulator binds TGSI registers
 * and resources to a program's registers -- so it sits here, below the
 * emulator, and the TGSI front end (compiler/tgsi: the parser, printer and
 * interpreter) is built on it.
 */
#ifndef DC_SHADER_ENUMS_H
#define DC_SHADER_ENUMS_H

#include <stdbool.h>

/* ------------------------------------------------------------------ */
/* Name tables, each written once (shader_enums.c expands them).      */

/* clang-format off */
#define TGSI_STAGES(X) X(FRAG) X(VERT) X(GEOM) X(TESS_CTRL) X(TESS_EVAL) X(COMP)

#define TGSI_FILES(X)                                                                              \
   X(NULL) X(CONST) X(IN) X(OUT) X(TEMP) X(SAMP) X(ADDR) X(IMM) X(SV) X(IMAGE) X(SVIEW)            \
   X(BUFFER) X(MEMORY) X(CONSTBUF) X(HWATOMIC)

#define TGSI_SEMANTICS(X)                                                                          \
   X(POSITION) X(COLOR) X(BCOLOR) X(FOG) X(PSIZE) X(GENERIC) X(NORMAL) X(FACE) X(EDGEFLAG)         \
   X(PRIM_ID) X(INSTANCEID) X(VERTEXID) X(STENCIL) X(CLIPDIST) X(CLIPVERTEX) X(GRID_SIZE)          \
   X(BLOCK_ID) X(BLOCK_SIZE) X(THREAD_ID) X(TEXCOORD) X(PCOORD) X(VIEWPORT_INDEX) X(LAYER)         \
   X(SAMPLEID) X(SAMPLEPOS) X(SAMPLEMASK) X(INVOCATIONID) X(VERTEXID_NOBASE) X(BASEVERTEX)         \
   X(PATCH) X(TESSCOORD) X(TESSOUTER) X(TESSINNER) X(VERTICESIN) X(HELPER_INVOCATION)              \
   X(BASEINSTANCE) X(DRAWID) X(WORK_DIM) X(SUBGROUP_SIZE) X(SUBGROUP_INVOCATION)                   \
   X(SUBGROUP_EQ_MASK) X(SUBGROUP_GE_MASK) X(SUBGROUP_GT_MASK) X(SUBGROUP_LE_MASK)                 \
   X(SUBGROUP_LT_MASK) X(CS_USER_DATA_AMD) X(VIEWPORT_MASK)

/* Texture targets; the name is the text spelling (a leading digit is
 * allowed there, so the enum gets a T_ prefix). */
#define TGSI_TEXTURES(X)                                                                           \
   X(BUFFER, "BUFFER") X(1D, "1D") X(2D, "2D") X(3D, "3D") X(CUBE, "CUBE") X(RECT, "RECT")         \
   X(SHADOW1D, "SHADOW1D") X(SHADOW2D, "SHADOW2D") X(SHADOWRECT, "SHADOWRECT")                     \
   X(1D_ARRAY, "1D_ARRAY") X(2D_ARRAY, "2D_ARRAY") X(SHADOW1D_ARRAY, "SHADOW1D_ARRAY")             \
   X(SHADOW2D_ARRAY, "SHADOW2D_ARRAY") X(SHADOWCUBE, "SHADOWCUBE") X(2D_MSAA, "2D_MSAA")           \
   X(2D_ARRAY_MSAA, "2D_ARRAY_MSAA") X(CUBE_ARRAY, "CUBEARRAY")                                    \
   X(SHADOWCUBE_ARRAY, "SHADOWCUBEARRAY") X(UNKNOWN, "UNKNOWN")

#define TGSI_RETURN_TYPES(X) X(UNORM) X(SNORM) X(SINT) X(UINT) X(FLOAT)

#define TGSI_INTERPS(X) X(CONSTANT) X(LINEAR) X(PERSPECTIVE) X(COLOR)

#define TGSI_LOCATIONS(X) X(CENTER) X(CENTROID) X(SAMPLE)

#define TGSI_IMM_TYPES(X) X(FLT32) X(UINT32) X(INT32) X(FLT64) X(UINT64) X(INT64)

#define TGSI_MEMORY_TYPES(X) X(GLOBAL) X(SHARED) X(PRIVATE) X(INPUT)

#define TGSI_MEM_QUALIFIERS(X) X(COHERENT) X(RESTRICT) X(VOLATILE) X(STREAM_CACHE_POLICY)

#define TGSI_PRIMITIVES(X)                                                                         \
   X(POINTS) X(LINES) X(LINE_LOOP) X(LINE_STRIP) X(TRIANGLES) X(TRIANGLE_STRIP) X(TRIANGLE_FAN)    \
   X(QUADS) X(QUAD_STRIP) X(POLYGON) X(LINES_ADJACENCY) X(LINE_STRIP_ADJACENCY)                    \
   X(TRIANGLES_ADJACENCY) X(TRIANGLE_STRIP_ADJACENCY) X(PATCHES)

/* Properties and the kind of value each takes. */
#define TGSI_PROPERTIES(X)                                                                         \
   X(GS_INPUT_PRIMITIVE, PRIM) X(GS_OUTPUT_PRIMITIVE, PRIM) X(GS_MAX_OUTPUT_VERTICES, UINT)        \
   X(FS_COORD_ORIGIN, ORIGIN) X(FS_COORD_PIXEL_CENTER, CENTER)                                     \
   X(FS_COLOR0_WRITES_ALL_CBUFS, UINT) X(FS_DEPTH_LAYOUT, UINT) X(VS_PROHIBIT_UCPS, UINT)          \
   X(GS_INVOCATIONS, UINT) X(VS_WINDOW_SPACE_POSITION, UINT) X(TCS_VERTICES_OUT, UINT)             \
   X(TES_PRIM_MODE, UINT) X(TES_SPACING, UINT) X(TES_VERTEX_ORDER_CW, UINT)                        \
   X(TES_POINT_MODE, UINT) X(NUM_CLIPDIST_ENABLED, UINT) X(NUM_CULLDIST_ENABLED, UINT)             \
   X(FS_EARLY_DEPTH_STENCIL, UINT) X(FS_POST_DEPTH_COVERAGE, UINT) X(NEXT_SHADER, STAGE)           \
   X(CS_FIXED_BLOCK_WIDTH, UINT) X(CS_FIXED_BLOCK_HEIGHT, UINT) X(CS_FIXED_BLOCK_DEPTH, UINT)      \
   X(LEGACY_MATH_RULES, UINT) X(VS_BLIT_SGPRS_AMD, UINT) X(CS_USER_DATA_COMPONENTS_AMD, UINT)      \
   X(LAYER_VIEWPORT_RELATIVE, UINT) X(FS_BLEND_EQUATION_ADVANCED, UINT) X(SEPARABLE_PROGRAM, UINT)

#define TGSI_ENUM_(n)     TGSI_STAGE_##n,
enum tgsi_stage { TGSI_STAGES(TGSI_ENUM_) TGSI_STAGE_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_FILE_##n,
enum tgsi_file { TGSI_FILES(TGSI_ENUM_) TGSI_FILE_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_SEM_##n,
enum tgsi_semantic { TGSI_SEMANTICS(TGSI_ENUM_) TGSI_SEM_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n, s) TGSI_TEX_T_##n,
enum tgsi_texture { TGSI_TEXTURES(TGSI_ENUM_) TGSI_TEX_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_RET_##n,
enum tgsi_return_type { TGSI_RETURN_TYPES(TGSI_ENUM_) TGSI_RET_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_INTERP_##n,
enum tgsi_interp { TGSI_INTERPS(TGSI_ENUM_) TGSI_INTERP_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_LOC_##n,
enum tgsi_location { TGSI_LOCATIONS(TGSI_ENUM_) TGSI_LOC_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_IMM_##n,
enum tgsi_imm_type { TGSI_IMM_TYPES(TGSI_ENUM_) TGSI_IMM_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_MEMTYPE_##n,
enum tgsi_memory_type { TGSI_MEMORY_TYPES(TGSI_ENUM_) TGSI_MEMTYPE_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_MEMQ_##n##_BIT,
enum tgsi_mem_qualifier_bit { TGSI_MEM_QUALIFIERS(TGSI_ENUM_) TGSI_MEMQ_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n) TGSI_PRIM_##n,
enum tgsi_primitive { TGSI_PRIMITIVES(TGSI_ENUM_) TGSI_PRIM_COUNT };
#undef TGSI_ENUM_
#define TGSI_ENUM_(n, k) TGSI_PROP_##n,
enum tgsi_property { TGSI_PROPERTIES(TGSI_ENUM_) TGSI_PROP_COUNT };
#undef TGSI_ENUM_

/* clang-format on */

enum tgsi_prop_kind {
   TGSI_PROPK_UINT,
   TGSI_PROPK_PRIM,
   TGSI_PROPK_ORIGIN, /* UPPER_LEFT = 0, LOWER_LEFT = 1 */
   TGSI_PROPK_CENTER, /* HALF_INTEGER = 0, INTEGER = 1 */
   TGSI_PROPK_STAGE,
};

extern const char *const tgsi_stage_names[TGSI_STAGE_COUNT];
extern const char *const tgsi_file_names[TGSI_FILE_COUNT];
extern const char *const tgsi_semantic_names[TGSI_SEM_COUNT];
extern const char *const tgsi_texture_names[TGSI_TEX_COUNT];
extern const char *const tgsi_return_type_names[TGSI_RET_COUNT];
extern const char *const tgsi_interp_names[TGSI_INTERP_COUNT];
extern const char *const tgsi_location_names[TGSI_LOC_COUNT];
extern const char *const tgsi_imm_type_names[TGSI_IMM_COUNT];
extern const char *const tgsi_memory_type_names[TGSI_MEMTYPE_COUNT];
extern const char *const tgsi_mem_qualifier_names[TGSI_MEMQ_COUNT];
extern const char *const tgsi_primitive_names[TGSI_PRIM_COUNT];
extern const char *const tgsi_property_names[TGSI_PROP_COUNT];
extern const enum tgsi_prop_kind tgsi_property_kinds[TGSI_PROP_COUNT];

unsigned tgsi_texture_coord_count(enum tgsi_texture t);
bool tgsi_texture_is_shadow(enum tgsi_texture t);
bool tgsi_texture_is_array(enum tgsi_texture t);
/* The coordinates that address texels: the count less the array layer. */
unsigned tgsi_texture_spatial_coords(enum tgsi_texture t);
/* The component of src0 with a shadow target's reference; 4: src1.x. */
unsigned tgsi_texture_shadow_ref(enum tgsi_texture t);
/* "1d", "array_2d", "cube", ...: the names sm50's TEX dimension enum uses. */
const char *tgsi_texture_dim_name(enum tgsi_texture t);

#endif
