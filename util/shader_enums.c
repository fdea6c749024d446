/*
 * TGSI's name tables expanded from shader_enums.h, and what each texture
 * target addresses.
 */
#include "util/shader_enums.h"

#define NAME_(n)     #n,
#define NAME2_(n, s) s,
#define NAMEK_(n, k) #n,
#define KIND_(n, k)  TGSI_PROPK_##k,
const char *const tgsi_stage_names[TGSI_STAGE_COUNT] = {TGSI_STAGES(NAME_)};
const char *const tgsi_file_names[TGSI_FILE_COUNT] = {TGSI_FILES(NAME_)};
const char *const tgsi_semantic_names[TGSI_SEM_COUNT] = {TGSI_SEMANTICS(NAME_)};
const char *const tgsi_texture_names[TGSI_TEX_COUNT] = {TGSI_TEXTURES(NAME2_)};
const char *const tgsi_return_type_names[TGSI_RET_COUNT] = {TGSI_RETURN_TYPES(NAME_)};
const char *const tgsi_interp_names[TGSI_INTERP_COUNT] = {TGSI_INTERPS(NAME_)};
const char *const tgsi_location_names[TGSI_LOC_COUNT] = {TGSI_LOCATIONS(NAME_)};
const char *const tgsi_imm_type_names[TGSI_IMM_COUNT] = {TGSI_IMM_TYPES(NAME_)};
const char *const tgsi_memory_type_names[TGSI_MEMTYPE_COUNT] = {TGSI_MEMORY_TYPES(NAME_)};
const char *const tgsi_mem_qualifier_names[TGSI_MEMQ_COUNT] = {TGSI_MEM_QUALIFIERS(NAME_)};
const char *const tgsi_primitive_names[TGSI_PRIM_COUNT] = {TGSI_PRIMITIVES(NAME_)};
const char *const tgsi_property_names[TGSI_PROP_COUNT] = {TGSI_PROPERTIES(NAMEK_)};
const enum tgsi_prop_kind tgsi_property_kinds[TGSI_PROP_COUNT] = {TGSI_PROPERTIES(KIND_)};
#undef NAME_
#undef NAME2_
#undef NAMEK_
#undef KIND_

/* Number of coordinate components a target addresses (array layer
 * included, shadow reference excluded). */
unsigned
tgsi_texture_coord_count(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_BUFFER:
   case TGSI_TEX_T_1D:
   case TGSI_TEX_T_SHADOW1D:
      return 1;
   case TGSI_TEX_T_2D:
   case TGSI_TEX_T_RECT:
   case TGSI_TEX_T_SHADOW2D:
   case TGSI_TEX_T_SHADOWRECT:
   case TGSI_TEX_T_1D_ARRAY:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
   case TGSI_TEX_T_2D_MSAA:
      return 2;
   case TGSI_TEX_T_3D:
   case TGSI_TEX_T_CUBE:
   case TGSI_TEX_T_2D_ARRAY:
   case TGSI_TEX_T_SHADOW2D_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE:
   case TGSI_TEX_T_2D_ARRAY_MSAA:
      return 3;
   case TGSI_TEX_T_CUBE_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE_ARRAY:
      return 4;
   default:
      return 2;
   }
}

bool
tgsi_texture_is_shadow(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_SHADOW1D:
   case TGSI_TEX_T_SHADOW2D:
   case TGSI_TEX_T_SHADOWRECT:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
   case TGSI_TEX_T_SHADOW2D_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE:
   case TGSI_TEX_T_SHADOWCUBE_ARRAY:
      return true;
   default:
      return false;
   }
}

/* Targets with an array layer among their coordinates (the last one). */
bool
tgsi_texture_is_array(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_1D_ARRAY:
   case TGSI_TEX_T_2D_ARRAY:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
   case TGSI_TEX_T_SHADOW2D_ARRAY:
   case TGSI_TEX_T_2D_ARRAY_MSAA:
   case TGSI_TEX_T_CUBE_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE_ARRAY:
      return true;
   default:
      return false;
   }
}

unsigned
tgsi_texture_spatial_coords(enum tgsi_texture t)
{
   return tgsi_texture_coord_count(t) - (tgsi_texture_is_array(t) ? 1 : 0);
}

/* The component of src0 that holds a shadow target's depth reference; 4
 * for one past src0 (src1.x: TEX2 with SHADOWCUBE_ARRAY) or none. */
unsigned
tgsi_texture_shadow_ref(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_SHADOW1D:
   case TGSI_TEX_T_SHADOW2D:
   case TGSI_TEX_T_SHADOWRECT:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
      return 2;
   case TGSI_TEX_T_SHADOW2D_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE:
      return 3;
   default:
      return 4;
   }
}

/* The dimensionality of a target, shadow and multisampling aside (RECT is
 * 2-D): 1d, array_1d, 2d, array_2d, 3d, cube, array_cube. */
const char *
tgsi_texture_dim_name(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_1D:
   case TGSI_TEX_T_SHADOW1D:
      return "1d";
   case TGSI_TEX_T_1D_ARRAY:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
      return "array_1d";
   case TGSI_TEX_T_2D_ARRAY:
   case TGSI_TEX_T_SHADOW2D_ARRAY:
   case TGSI_TEX_T_2D_ARRAY_MSAA:
      return "array_2d";
   case TGSI_TEX_T_3D:
      return "3d";
   case TGSI_TEX_T_CUBE:
   case TGSI_TEX_T_SHADOWCUBE:
      return "cube";
   case TGSI_TEX_T_CUBE_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE_ARRAY:
      return "array_cube";
   default:
      return "2d";
   }
}
