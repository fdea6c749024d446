/*
 * The in-memory ISA model, shared by the files of isa/. Everything the
 * codec, printer, assembler and hazard function know about an ISA is here,
 * filled once by model.c from the YAML and validated by check.c; nothing
 * reads the YAML afterwards.
 *
 * Bit positions: an instruction is at most 128 bits, held in two 64-bit
 * little-endian words (bit 0 = LSB of the first byte). A field is a list of
 * bit ranges; the first range holds the least significant bits of the
 * field's value. Operand formats are decoded from the operand field's value
 * (its ranges concatenated), so format-relative positions start at 0.
 */
#ifndef DC_ISA_PRIV_H
#define DC_ISA_PRIV_H

#include "isa/isa.h"
#include "util/util.h"

#include <yaml.h>

#define ISA_MAX_BITS   128
#define ISA_MAX_RANGES 4
#define ISA_MAX_GUARDS 3
#define ISA_MAX_SLOTS  (ISA_MAX_DST + ISA_MAX_SRC)
#define ISA_MAX_FIELDS 64 /* per op, layout fields included */

/* A position in the model file, for diagnostics. */
struct isa_pos {
   int line, col;
};

struct isa_bits {
   uint64_t w[2];
};

struct isa_range {
   uint8_t lo, len;
};

enum isa_guard_op {
   ISA_GUARD_EQ,
   ISA_GUARD_NE,
   ISA_GUARD_IS, /* operand field a uses form val (guard values of operand fields are forms) */
};

/* "a == b" or "a != value": a and b are field indices in the same list. */
struct isa_guard {
   int16_t a, b; /* b < 0: compare with val */
   uint8_t op;   /* enum isa_guard_op */
   int32_t val;
};

enum isa_field_kind {
   ISA_FK_PLAIN,   /* only fixed by ops (an opcode) */
   ISA_FK_MOD,     /* an instruction modifier */
   ISA_FK_OPERAND, /* an operand in some format */
   ISA_FK_FLAG,    /* one operand flag bit (neg, abs, (r), ...) of another field's operand */
   ISA_FK_FIXED,   /* fixed by the op's match: not decoded */
};

struct isa_field {
   char *name;
   struct isa_range r[ISA_MAX_RANGES];
   uint8_t nr, width;
   uint8_t kind;   /* enum isa_field_kind */
   uint8_t flag;   /* ISA_FK_FLAG: ISA_OPND_F_* bit */
   int16_t mod;    /* ISA_FK_MOD: modifier index */
   int16_t format; /* ISA_FK_OPERAND: format index */
   int16_t target; /* ISA_FK_FLAG: the operand field it decorates (index in the same list) */
   uint8_t nguard;
   struct isa_guard guard[ISA_MAX_GUARDS];
   struct isa_pos pos;
};

struct isa_regfile {
   char *name, *prefix;
   enum isa_file_kind kind;
   unsigned count, width;
   enum { ISA_PRINT_SCALAR, ISA_PRINT_VEC4, ISA_PRINT_HALVES, ISA_PRINT_RANGE } print;
   char **names;      /* count entries, NULL where the print scheme applies */
   char **pair_names; /* RANGE: names of two-register operands by first index (gfx9 vcc) */
   int half;          /* file used when an operand is 16-bit (split register files), or -1 */
   int alias;         /* a HALF file whose registers are halves of this file, or -1 */
   int half_of;       /* the file whose alias this file is, or -1 (set with alias) */
   int fixed;         /* register that reads fixed_value and ignores writes, or -1 */
   uint32_t fixed_value;
   bool *undef; /* count entries: no value at wave start (gfx9 M0), or NULL */
   struct isa_pos pos;
};

struct isa_regrange {
   unsigned from, to; /* encoded values, inclusive */
   int file;
   unsigned base;   /* register index of `from` */
   unsigned stride; /* encoded values per register (agx: 2 for 32-bit, in 16-bit units) */
   unsigned scale;  /* registers per encoded value (gfx9 SMEM sbase: 2, an aligned pair) */
};

struct isa_regset {
   char *name;
   struct isa_regrange *v;
   unsigned n;
   struct isa_pos pos;
};

struct isa_enum_entry {
   char *name;
   char *print; /* display text; "" prints nothing */
   int32_t value;
   int16_t flip;  /* entry index of the compare-flip partner, or -1 */
   uint8_t type;  /* enum isa_type, ISA_TYPE_NONE if not given */
   uint8_t width; /* operand width in bits, 0 if not given */
   struct isa_pos pos;
};

struct isa_enum {
   char *name;
   struct isa_enum_entry *v;
   unsigned n;
   struct isa_pos pos;
};

struct isa_lut {
   char *name;
   uint32_t *v;   /* the 32-bit word: f32 bits of a number, a hex entry as written */
   uint64_t *v64; /* in a 64-bit slot: a number's double, a hex entry sign-extended */
   unsigned n;
};

/* A printf-like display pattern split around its one conversion. */
struct isa_fmt {
   char *pre, *post;
   char conv; /* 'd', 'u', 'x', 's' or 0 (literal only) */
   char spec[8];
};

enum isa_mod_kind {
   ISA_MOD_FLAG,
   ISA_MOD_INT,
   ISA_MOD_ENUM,
};

struct isa_mod {
   char *name;
   enum isa_mod_kind kind;
   int enm; /* ISA_MOD_ENUM */
   int32_t max;
   int32_t def; /* value isa_insn_init() gives it */
   enum isa_role role;
   bool always;   /* print even when 0 */
   bool hidden;   /* never printed: the assembler infers it from operands */
   char *operand; /* the operand field it acts on (gfx9 src0_sel: src0), or NULL */
   struct isa_fmt fmt;
   struct isa_pos pos;
};

struct isa_case {
   char *name;
   enum isa_opnd_kind kind; /* REG, CONST or IMM */
   bool rel;                /* relative: value is a signed offset from an address register */
   uint64_t mask, match, ignore;
   struct isa_field val; /* the register number / const slot / immediate / offset */
   int regset;           /* REG */
   int file;             /* CONST, relative REG */
   int addr_file, addr_index;
   int bank_field; /* index in fields, or -1 */
   bool sign, float_top;
   uint8_t pcrel; /* enum isa_pcrel: a branch target relative to the instruction */
   int lut;
   struct isa_fmt fmt; /* immediate display, conv 0 when default */
   struct isa_field *fields;
   unsigned nfields;
   struct isa_pos pos;
};

struct isa_format {
   char *name;
   unsigned bits;
   struct isa_field *fields; /* common to every case (flags) */
   unsigned nfields;
   struct isa_case *cases;
   unsigned ncases;
   struct isa_pos pos;
};

struct isa_rule {
   struct isa_guard guard[ISA_MAX_GUARDS];
   uint8_t nguard;
   char *reason;
};

/* Template token of a syntax line. */
enum isa_tok_kind {
   ISA_TOK_LIT,
   ISA_TOK_NAME,  /* the mnemonic */
   ISA_TOK_FIELD, /* a modifier or operand field */
};

struct isa_tok {
   uint8_t kind;
   int16_t field;
   char *text; /* ISA_TOK_LIT */
};

struct isa_layout {
   char *name;
   unsigned bits;
   struct isa_bits mask, match, ignore;
   struct isa_field *fields;
   unsigned nfields;
   char **dst, **src; /* default operand field names */
   unsigned ndst, nsrc;
   char *syntax;
   char *type, *width;                           /* default operand type / width spec, or NULL */
   struct isa_implicit imp[2][ISA_MAX_IMPLICIT]; /* implicit operands: [0] dsts, [1] srcs */
   uint8_t nimp[2];
   bool has_imp;
   struct isa_rule *rules; /* inherited by every op of the layout */
   unsigned nrules;
   struct isa_pos pos;
};

/* One operand slot of an op. */
struct isa_slot {
   int16_t field;  /* index in op->fields */
   uint32_t allow; /* bit per format case */
   uint8_t type;   /* enum isa_type; ISA_TYPE_NONE with type_mod >= 0: from the modifier */
   int16_t type_mod;
   uint8_t width; /* 0: from width_mod or type */
   int16_t width_mod;
   uint8_t read_delay;
   uint8_t elements; /* an address offset counted in elements of the access (agx) */
   /* How many consecutive registers the operand covers: count_n, or the
    * immediate of slot count_slot, or the highest set bit of modifier
    * count_mod (a write mask). */
   uint8_t count_n;
   int8_t count_slot;
   int16_t count_mod;
   /* Or a sum (count: {MOD: N | {ENTRY: N}, base: N}): count_n plus the
    * terms m->cterms[count_term .. count_term + count_nterms). */
   int16_t count_term;
   uint8_t count_nterms;
   uint8_t flag_bits; /* ISA_OPND_F_* the op's flag fields can set on this slot (codec.c) */
   /* A register operand's first register is a multiple of align (YAML
    * `align:`; sm50 64-bit pairs are even); 1: any. */
   uint8_t align;
};

/* One term of a summed register count: modifier `mod` adds `add[k]` when
 * its value is `val[k]` (a flag: val 1). */
#define ISA_MAX_CTERM_VALS 8
struct isa_cterm {
   int16_t mod;
   uint8_t nvals;
   int16_t val[ISA_MAX_CTERM_VALS];
   uint8_t add[ISA_MAX_CTERM_VALS];
};

struct isa_alias {
   char *name;
   struct isa_guard guard[ISA_MAX_GUARDS];
   uint8_t nguard;
};

struct isa_op {
   char *key, *mnemonic;
   int layout;
   unsigned bits;
   struct isa_bits mask, match, ignore;
   struct isa_field *fields;
   unsigned nfields;
   uint8_t ndst, nsrc;
   struct isa_slot slot[ISA_MAX_SLOTS]; /* dsts, then srcs */
   int sem, cls;
   int commute[2];
   int flip_mod;
   struct isa_rule *rules;
   unsigned nrules;
   struct isa_alias *aliases;
   unsigned naliases;
   struct isa_implicit imp[2][ISA_MAX_IMPLICIT]; /* implicit operands: [0] dsts, [1] srcs */
   uint8_t nimp[2];
   struct isa_tok *toks;
   unsigned ntoks;
   struct isa_pos pos;
};

struct isa_class {
   char *name;
   enum isa_sync sync, war;
   int latency, soft, read_early;
   bool flow;
   bool unordered; /* counter classes: results return out of order (gfx9 SMEM) */
   bool scalar;    /* runs once per wave on every lane, whatever the execution mask (gfx9 SALU) */
   bool explicit_only; /* the reference path probes it only in programs that have one */
   struct isa_pos pos;
};

struct isa_param {
   char *name;
   int value;
   struct isa_pos pos;
};

/* One row of a wait-state table (gfx9 s_nop rules). A row may name the
 * consumer ops it is about (ops) and one operand of theirs (operand: a
 * source field, or an implicit source register such as vcc); the checker
 * resolves the names (opv, slot, imp_file/imp_index). */
struct isa_wait_rule {
   char *first, *second;
   int first_cls, second_cls; /* the classes they name, by index (class names are unique) */
   int states;
   int file; /* the register file the rule is about (gfx9: SGPRs), or -1: any */
   char **ops;
   unsigned nops;
   char *operand;
   int *opv;                /* the ops by index (nops of them) */
   int slot;                /* the consumer's source that reads, or -1 */
   int imp_file, imp_index; /* ... or the implicit source register, or -1 */
   struct isa_pos pos;
};

/* A public latency figure the model was built from, with its source
 * (hazard.figures): what `diffcomp bench latency` measures on the emulator. */
struct isa_figure {
   char *name, *source;
   int value;
   struct isa_pos pos;
};

struct isa_bundle {
   unsigned insns;           /* instructions per bundle; 0 = no bundles */
   unsigned ctrl_bits;       /* control word size */
   unsigned slot_bits;       /* per-instruction control field width */
   struct isa_field *fields; /* slot-relative positions */
   unsigned nfields;
   int pad_op;
   struct isa_tok *toks; /* control-field text printed before each instruction */
   unsigned ntoks;
   struct isa_pos pos;
};

enum {
   ISA_OPND_PRINT_NEG,
   ISA_OPND_PRINT_ABS,
   ISA_OPND_PRINT_ABS_END,
   ISA_OPND_PRINT_ABSNEG,
   ISA_OPND_PRINT_R,
   ISA_OPND_PRINT_NOT,
   ISA_OPND_PRINT_SEXT,
   ISA_OPND_PRINT_SEXT_END,
   ISA_OPND_PRINT_LAST,
   ISA_OPND_PRINT_HI,
   ISA_OPND_PRINT_NEG_IMM,
   ISA_OPND_PRINT_NEG_IMM_END,
   ISA_OPND_PRINT_COUNT,
};

struct isa_model {
   char *name, *file;
   char *text; /* the YAML source, for diagnostics with the source line */
   unsigned bits;
   uint32_t features; /* 1 << enum isa_feature */
   struct isa_regfile *files;
   unsigned nfiles;
   struct isa_regset *regsets;
   unsigned nregsets;
   struct isa_enum *enums;
   unsigned nenums;
   struct isa_lut *luts;
   unsigned nluts;
   struct isa_mod *mods;
   unsigned nmods;
   struct isa_format *formats;
   unsigned nformats;
   struct isa_layout *layouts;
   unsigned nlayouts;
   struct isa_op *ops;
   unsigned nops;
   struct isa_class *classes;
   unsigned nclasses;
   struct isa_cterm *cterms; /* summed operand counts (struct isa_slot) */
   unsigned ncterms, cterms_cap;
   enum isa_hazard_kind hazard;
   struct isa_pos hazard_pos;
   struct isa_param *params;
   unsigned nparams;
   struct isa_wait_rule *wait_rules;
   unsigned nwait_rules;
   struct isa_figure *figures;
   unsigned nfigures;
   struct isa_bundle bundle;
   /* Operand decorations: index by ISA_OPND_PRINT_*. */
   char *opnd_print[ISA_OPND_PRINT_COUNT];
   int role_mod[ISA_ROLE_COUNT];
   /* Decode dispatch: up to 8 bit positions every op fixes; bucket k lists
    * the ops whose fixed value of those bits is k (codec.c). */
   uint8_t key_bit[8];
   unsigned nkey;
   uint16_t *bucket_ops;          /* concatenated buckets */
   unsigned bucket_at[257];       /* bucket k is bucket_ops[bucket_at[k] .. bucket_at[k+1]) */
   struct isa_name_ref *names;    /* every mnemonic and alias, sorted (codec.c) */
   int16_t mod_def[ISA_MAX_MODS]; /* each modifier's default, for isa_insn_init (codec.c) */
   bool mod_def_fit;              /* every default fits mod_def (an enum's may not) */
   int32_t *sem_values;           /* nmods x SEM_VN_COUNT: isa_mod_value by name id (sem.c) */
   unsigned nnames;
   struct isa_op_name *op_names; /* every key and mnemonic, for isa_op_find (codec.c) */
   unsigned nop_names;
   /* isa_slot_info of every slot, by op * ISA_MAX_SLOTS + slot (dsts, then
    * srcs), and its verdict (info.c) */
   struct isa_slot_info *slot_info;
   bool *slot_valid;
   uint16_t *sem_ops;                  /* the ops by semantics, in model order (codec.c): */
   unsigned sem_at[ISA_SEM_COUNT + 1]; /* semantics s has sem_ops[sem_at[s] .. sem_at[s+1]) */
   struct diag_list *diag;             /* while loading */
   unsigned diag_base;                 /* errors in diag before loading began */
};

/* A mnemonic or alias naming an op; the model keeps them sorted by name,
 * then op, for the assembler's lookups (codec.c, asm.c). */
struct isa_name_ref {
   const char *name;
   unsigned len, op;
};

/* An op's key or mnemonic; the model keeps them sorted by name, keys
 * before mnemonics, then by op, so that isa_op_find's answer (the op with
 * that key, else the first with that mnemonic) is a name's first entry. */
struct isa_op_name {
   const char *name;
   unsigned op;
   bool is_key;
};

/* The loader's state while one YAML document is read (model.c, model_ops.c). */
struct isa_ld {
   struct isa_model *m;
   yaml_document_t doc;
   bool failed;
   /* While an op's own fields are read: its layout's fields, which flag
    * targets and conditions may name (indices count them first). */
   const struct isa_field *outer;
   unsigned nouter;
};

#define MAP_EACH(l, map, k, v)                                                                     \
   for (yaml_node_pair_t *p_ = (map)->data.mapping.pairs.start;                                    \
        p_ < (map)->data.mapping.pairs.top; p_++)                                                  \
      for (yaml_node_t *k = isa_ld_node(l, p_->key), *v = isa_ld_node(l, p_->value); k; k = NULL)

#define SEQ_EACH(l, seq, v)                                                                        \
   for (yaml_node_item_t *i_ = (seq)->data.sequence.items.start;                                   \
        i_ < (seq)->data.sequence.items.top; i_++)                                                 \
      for (yaml_node_t *v = isa_ld_node(l, *i_); v; v = NULL)

/* Index of a name in an array of structs whose first member is the name. */
#define FIND(arr, n, nm) isa_find_name((arr), (n), sizeof(*(arr)), (nm))

/* Bits of a 128-bit instruction. */
static inline uint64_t
isa_mask64(unsigned len)
{
   return len >= 64 ? ~0ull : (1ull << len) - 1;
}

static inline uint64_t
isa_bits_get(const struct isa_bits *b, unsigned lo, unsigned len)
{
   uint64_t v;
   if (lo >= 64) {
      v = b->w[1] >> (lo - 64);
   } else {
      v = b->w[0] >> lo;
      if (lo && lo + len > 64)
         v |= b->w[1] << (64 - lo);
   }
   return v & isa_mask64(len);
}

static inline void
isa_bits_set(struct isa_bits *b, unsigned lo, unsigned len, uint64_t v)
{
   uint64_t m = isa_mask64(len);
   v &= m;
   if (lo >= 64) {
      b->w[1] = (b->w[1] & ~(m << (lo - 64))) | (v << (lo - 64));
      return;
   }
   b->w[0] = (b->w[0] & ~(m << lo)) | (v << lo);
   if (lo && lo + len > 64)
      b->w[1] = (b->w[1] & ~(m >> (64 - lo))) | (v >> (64 - lo));
}

/* info.c */
extern const char *const isa_file_kind_names[];
extern const char *const isa_type_names[];
extern const char *const isa_sem_names[];
extern const char *const isa_role_names[];
extern const char *const isa_hazard_names[];
extern const char *const isa_sync_names[];
extern const char *const isa_illegal_names[];
extern const char *const isa_feature_names[];
extern const char *const isa_err_names[];
uint64_t isa_field_get(const struct isa_field *f, const struct isa_bits *b);
void isa_field_set(const struct isa_field *f, struct isa_bits *b, uint64_t v);
uint64_t isa_field_get64(const struct isa_field *f, uint64_t w);
uint64_t isa_field_set64(const struct isa_field *f, uint64_t w, uint64_t v);
/* Guards read an operand field's value as its form (NAME is FORM) in the
 * low bits; codec.c adds the raw bits and the format above them, so that
 * NAME != NAME between two operands means different registers or values
 * (gfx9: one SGPR read twice is one value on the constant bus). */
#define ISA_FORM_MASK 0xffff
int64_t isa_operand_val(int form, uint64_t raw, int format);
void isa_build_slot_info(struct isa_model *m);
bool isa_guards_hold(const struct isa_guard *g, unsigned n, const int64_t *vals);
const struct isa_enum_entry *isa_enum_entry(const struct isa_enum *e, int32_t value);
int isa_fmt_print(char *buf, size_t size, const struct isa_fmt *f, int64_t v, const char *s);
enum isa_type isa_slot_type(const struct isa_model *m, const struct isa_op *op,
                            const struct isa_slot *s, const int16_t *mods);
unsigned isa_slot_width(const struct isa_model *m, const struct isa_op *op,
                        const struct isa_slot *s, const int16_t *mods);

/* model.c: the loader's YAML helpers, shared with model_ops.c */
void isa_error_at(const struct isa_model *m, struct isa_pos pos, const char *fmt, ...)
    DC_PRINTF(3, 4);
void isa_ld_err(struct isa_ld *l, const yaml_node_t *n, const char *fmt, ...) DC_PRINTF(3, 4);
struct isa_pos isa_ld_pos(const yaml_node_t *n);
yaml_node_t *isa_ld_node(struct isa_ld *l, int i);
const char *isa_ld_scalar(struct isa_ld *l, yaml_node_t *n, const char *what);
bool isa_ld_is_map(struct isa_ld *l, yaml_node_t *n, const char *what);
const char *isa_ld_key(yaml_node_t *k);
yaml_node_t *isa_ld_get(struct isa_ld *l, yaml_node_t *map, const char *key);
void isa_ld_check_keys(struct isa_ld *l, yaml_node_t *map, const char *what,
                       const char *const *keys);
bool isa_parse_i64(const char *s, int64_t *out);
bool isa_ld_int(struct isa_ld *l, yaml_node_t *n, const char *what, int64_t lo, int64_t hi,
                int64_t *out);
int isa_ld_opt_int(struct isa_ld *l, yaml_node_t *map, const char *key, int64_t lo, int64_t hi,
                   int def);
bool isa_ld_opt_bool(struct isa_ld *l, yaml_node_t *map, const char *key, bool def);
char *isa_ld_opt_str(struct isa_ld *l, yaml_node_t *map, const char *key);
int isa_find_name(const void *arr, unsigned n, size_t stride, const char *name);
int isa_lookup_str(const char *const *names, unsigned n, const char *s);
int isa_ld_enum(struct isa_ld *l, yaml_node_t *n, const char *what, const char *const *names,
                unsigned cnt);
bool isa_ld_bits(struct isa_ld *l, yaml_node_t *n, unsigned limit, struct isa_field *f);
void isa_ld_match(struct isa_ld *l, yaml_node_t *map, struct isa_field *fields, unsigned nfields,
                  unsigned limit, struct isa_bits *mask, struct isa_bits *match, bool fix);
void isa_ld_ignore(struct isa_ld *l, yaml_node_t *n, unsigned limit, struct isa_bits *ign);
uint8_t isa_ld_guards(struct isa_ld *l, yaml_node_t *n, struct isa_field *fields, unsigned nfields,
                      struct isa_guard *g);
struct isa_field *isa_ld_fields(struct isa_ld *l, yaml_node_t *map, unsigned limit, bool in_operand,
                                unsigned *out_n);
struct isa_field *isa_copy_fields(const struct isa_field *f, unsigned n, unsigned extra);
int isa_field_find(struct isa_field *f, unsigned n, const char *name);
void isa_free_fields(struct isa_field *f, unsigned n);
bool isa_ld_fmt(struct isa_ld *l, yaml_node_t *n, const char *s, const char *allowed,
                struct isa_fmt *f);

/* model_ops.c */
void isa_ld_layouts(struct isa_ld *l, yaml_node_t *map);
void isa_ld_ops(struct isa_ld *l, yaml_node_t *map);
void isa_ld_hazard(struct isa_ld *l, yaml_node_t *v);
void isa_ld_bundle(struct isa_ld *l, yaml_node_t *v);
void isa_free_names(char **v, unsigned n);

/* codec.c */
void isa_build_dispatch(struct isa_model *m);
void isa_record_vals(const struct isa_model *m, const struct isa_op *op, const struct isa_insn *in,
                     int64_t *vals);
enum isa_err isa_encode_bits(const struct isa_model *m, const struct isa_insn *in,
                             struct isa_bits *out, char **msg, int *bad_slot);
void isa_load_bits(const uint8_t *p, size_t n, struct isa_bits *b);
/* Whether immediate form cs can hold value (as the encoder decides). */
bool isa_case_holds(const struct isa_model *m, const struct isa_case *cs, uint32_t value);
/* A 64-bit slot's immediates (isa/README.md, "64-bit immediates"). */
enum isa_imm64 { ISA_IMM64_NONE, ISA_IMM64_INT, ISA_IMM64_FLOAT };
enum isa_imm64 isa_slot_imm64(const struct isa_model *m, const struct isa_op *op,
                              const struct isa_slot *s, const int16_t *mods);
uint64_t isa_case_widen(const struct isa_model *m, const struct isa_case *cs, uint64_t field,
                        uint32_t value, enum isa_imm64 w);
bool isa_case_holds64(const struct isa_model *m, const struct isa_case *cs, enum isa_imm64 w,
                      uint64_t value);
void isa_store_bits(const struct isa_bits *b, size_t n, uint8_t *p);

/* sem.c */
void sem_build_values(struct isa_model *m);

/* print.c */
void isa_reg_name(const struct isa_model *m, unsigned file, unsigned idx, char *buf, size_t size);
void isa_reg_range_name(const struct isa_model *m, unsigned file, unsigned idx, unsigned n,
                        char *buf, size_t size);
void isa_float_text(uint32_t bits, char *buf, size_t size);
bool isa_slot_banked(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *sl);
unsigned isa_file_width_hint(const struct isa_model *m, unsigned file);
size_t isa_half_mark(const struct isa_model *m, const char **mark);
bool isa_needs_half_mark(const struct isa_model *m, const struct isa_op *op,
                         const struct isa_insn *in, unsigned slot);

/* check.c */
bool isa_check_model(struct isa_model *m);

/* check_facts.c */
/* Declared facts (commutative sources, condition flips) against the
 * semantics, on special values; needs sem_build_values() done. */
bool isa_check_facts(struct isa_model *m);

#endif
