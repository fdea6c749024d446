/*
 * libdcisa: diffcomp's ISA layer as a library (pkg-config diffcomp-isa).
 *
 * A model (a3xx, sm50, gfx9, agx, or the path of a model YAML file) is
 * opened by name; its handle then decodes machine code one instruction at
 * a time, prints instructions as the disassembler does, assembles text and
 * encodes instructions back into bytes (with sm50's control words). Every
 * handle is opaque. A call that can fail returns a dc_isa_err; the model
 * handle keeps the last failure's message, with file:line:col where there
 * is one (dc_isa_error). The library never prints and never exits.
 *
 * Models are found by name in $DIFFCOMP_ISA_PATH, then where diffcomp
 * installed them (PREFIX/share/diffcomp/models).
 */
#ifndef DIFFCOMP_ISA_H
#define DIFFCOMP_ISA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(DC_ISA_BUILDING)
#define DC_ISA_API __attribute__((visibility("default")))
#else
#define DC_ISA_API
#endif

/* Errors: the same list, in the same order, as the ISA layer's own. */
typedef enum dc_isa_err {
   DC_ISA_ERR_OK = 0,     /* no error */
   DC_ISA_ERR_IO,         /* cannot read the file */
   DC_ISA_ERR_NOTFOUND,   /* no such model */
   DC_ISA_ERR_YAML,       /* YAML syntax error */
   DC_ISA_ERR_MODEL,      /* invalid model */
   DC_ISA_ERR_ARG,        /* invalid argument */
   DC_ISA_ERR_TRUNCATED,  /* not enough bytes for an instruction */
   DC_ISA_ERR_DECODE,     /* no instruction matches the bytes */
   DC_ISA_ERR_ILLEGAL,    /* illegal encoding */
   DC_ISA_ERR_RANGE,      /* value does not fit its field */
   DC_ISA_ERR_OPERAND,    /* operand kind not allowed in this slot */
   DC_ISA_ERR_MODIFIER,   /* invalid modifier or flag combination */
   DC_ISA_ERR_SYNTAX,     /* assembler syntax error */
   DC_ISA_ERR_UNKNOWN_OP, /* unknown mnemonic */
} dc_isa_err;

typedef struct dc_isa dc_isa;           /* an opened model */
typedef struct dc_isa_insn dc_isa_insn; /* one instruction of a model */

/* The version of the library ("0.5.0"). */
DC_ISA_API const char *dc_isa_version(void);
/* The message of an error code ("no such model"). */
DC_ISA_API const char *dc_isa_strerror(dc_isa_err err);

/* Opens a model by name or path. *isa is set even on failure (NULL only
 * when memory runs out): dc_isa_error() then says why; close it either way. */
DC_ISA_API dc_isa_err dc_isa_open(const char *model, dc_isa **isa);
DC_ISA_API void dc_isa_close(dc_isa *isa);
/* The model's name ("sm50"). */
DC_ISA_API const char *dc_isa_name(const dc_isa *isa);
/* The last failure of a call on isa, one line ("" after a success). */
DC_ISA_API const char *dc_isa_error(const dc_isa *isa);

/* An instruction record for isa's model; NULL when memory runs out. */
DC_ISA_API dc_isa_insn *dc_isa_insn_new(dc_isa *isa);
DC_ISA_API void dc_isa_insn_free(dc_isa_insn *insn);

/* Decodes the instruction at byte *offset of code[0..size) into insn and
 * moves *offset past it (and past a bundle's control word). An illegal
 * but decodable encoding decodes (see dc_isa_insn_illegal). */
DC_ISA_API dc_isa_err dc_isa_decode(dc_isa *isa, const uint8_t *code, size_t size, size_t *offset,
                                    dc_isa_insn *insn);
/* Parses one line of assembly into insn. */
DC_ISA_API dc_isa_err dc_isa_parse(dc_isa *isa, const char *line, dc_isa_insn *insn);
/* Prints insn as the disassembler does into buf (always NUL-terminated
 * when size > 0); returns the length the whole text needs. */
DC_ISA_API size_t dc_isa_print(dc_isa *isa, const dc_isa_insn *insn, char *buf, size_t size);
/* Encodes n instructions as a program (bundles and control words
 * included) into *code (*size bytes; free with dc_isa_free). */
DC_ISA_API dc_isa_err dc_isa_encode(dc_isa *isa, const dc_isa_insn *const *insns, size_t n,
                                    uint8_t **code, size_t *size);
/* Assembles a program (one instruction a line, ';' or '#' comments) into
 * *code (free with dc_isa_free). */
DC_ISA_API dc_isa_err dc_isa_assemble(dc_isa *isa, const char *text, uint8_t **code, size_t *size);

/* The instruction's byte address (set by dc_isa_decode), its size in
 * bytes (a control word not counted), and why its encoding is illegal
 * (NULL when it is legal). */
DC_ISA_API uint32_t dc_isa_insn_address(const dc_isa_insn *insn);
DC_ISA_API size_t dc_isa_insn_size(const dc_isa_insn *insn);
DC_ISA_API const char *dc_isa_insn_illegal(dc_isa *isa, const dc_isa_insn *insn);

/* Frees what dc_isa_encode and dc_isa_assemble return. */
DC_ISA_API void dc_isa_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
