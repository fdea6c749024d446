/*
 * The public face of the ISA layer (include/diffcomp/isa.h, libdcisa): thin
 * wrappers that keep each call's diagnostics as one message on the model
 * handle, so a user sees file:line:col without the diag_list type. The
 * error enum is the layer's own, checked entry by entry below.
 */
#if defined(DC_ISA_MODELS_REL) && defined(__linux__)
#define _GNU_SOURCE 1 /* dladdr: where the library was loaded from */
#include <dlfcn.h>
#define DC_ISA_HAVE_DLADDR 1
#endif
#define DC_ISA_BUILDING 1
#include "include/diffcomp/isa.h"
#include "isa/isa.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DC_ISA_SAME_(n, ...)                                                                       \
   _Static_assert((int)DC_ISA_ERR_##n == (int)ISA_ERR_##n, "dc_isa_err differs at " #n);
ISA_ERRORS(DC_ISA_SAME_)
_Static_assert(DC_ISA_ERR_UNKNOWN_OP + 1 == ISA_ERR_COUNT, "dc_isa_err lacks an error");
#undef DC_ISA_SAME_

struct dc_isa {
   struct isa_model *m; /* NULL after a failed open */
   char *err;
};

struct dc_isa_insn {
   struct isa_insn in;
};

/* Keeps the first error of d (or the code's message) as isa's last error. */
static dc_isa_err
keep(dc_isa *isa, enum isa_err e, struct diag_list *d)
{
   free(isa->err);
   isa->err = NULL;
   for (unsigned k = 0; e != ISA_ERR_OK && k < d->n && !isa->err; k++) {
      const struct diag *g = &d->v[k];
      if (g->sev != DIAG_ERROR)
         continue;
      char *pos = g->file ? diag_pos(g) : NULL;
      isa->err = pos ? xasprintf("%s: %s", pos, g->msg) : xstrdup(g->msg);
      free(pos);
   }
   if (e != ISA_ERR_OK && !isa->err)
      isa->err = xstrdup(isa_strerror(e));
   diag_clear(d);
   return (dc_isa_err)e;
}

const char *
dc_isa_version(void)
{
   return DC_VERSION;
}

const char *
dc_isa_strerror(dc_isa_err err)
{
   return isa_strerror((enum isa_err)err);
}

/* The installed models: DC_ISA_MODELS_REL from the library's own
 * directory, so a moved prefix still works; else the configured
 * DC_ISA_MODELS_DIR; NULL outside the shared library. */
static char *
installed_models(void)
{
#ifdef DC_ISA_HAVE_DLADDR
   Dl_info info;
   const char *slash;
   if (dladdr((void *)dc_isa_open, &info) && info.dli_fname &&
       (slash = strrchr(info.dli_fname, '/')))
      return xasprintf("%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname, DC_ISA_MODELS_REL);
#endif
#ifdef DC_ISA_MODELS_DIR
   return xstrdup(DC_ISA_MODELS_DIR);
#else
   return NULL;
#endif
}

/* A bare name is looked up in $DIFFCOMP_ISA_PATH, else in the installed
 * models, else as isa_open does. */
static char *
model_path(const char *model)
{
   const char *env = getenv("DIFFCOMP_ISA_PATH");
   size_t n = strlen(model);
   char *dir = NULL;
   if ((!env || !*env) && !strchr(model, '/') && !(n > 5 && !strcmp(model + n - 5, ".yaml")) &&
       (dir = installed_models())) {
      char *p = xasprintf("%s/%s.yaml", dir, model);
      free(dir);
      if (access(p, R_OK) == 0)
         return p;
      free(p);
   }
   return xstrdup(model);
}

dc_isa_err
dc_isa_open(const char *model, dc_isa **out)
{
   dc_isa *isa = calloc(1, sizeof(*isa));
   *out = isa;
   if (!isa)
      return DC_ISA_ERR_ARG;
   struct diag_list d = {0};
   if (!model) {
      diag_add(&d, DIAG_ERROR, NULL, 0, 0, NULL, "no model name");
      return keep(isa, ISA_ERR_ARG, &d);
   }
   char *path = model_path(model);
   enum isa_err e = isa_open(path, &isa->m, &d);
   free(path);
   return keep(isa, e, &d);
}

void
dc_isa_close(dc_isa *isa)
{
   if (!isa)
      return;
   isa_close(isa->m);
   free(isa->err);
   free(isa);
}

const char *
dc_isa_name(const dc_isa *isa)
{
   return isa && isa->m ? isa_model_name(isa->m) : "";
}

const char *
dc_isa_error(const dc_isa *isa)
{
   return isa && isa->err ? isa->err : "";
}

dc_isa_insn *
dc_isa_insn_new(dc_isa *isa)
{
   (void)isa;
   return calloc(1, sizeof(dc_isa_insn));
}

void
dc_isa_insn_free(dc_isa_insn *insn)
{
   free(insn);
}

/* A call on a handle whose open failed. */
static bool
unusable(dc_isa *isa)
{
   if (isa->m)
      return false;
   struct diag_list d = {0};
   diag_add(&d, DIAG_ERROR, NULL, 0, 0, NULL, "the model did not open");
   keep(isa, ISA_ERR_ARG, &d);
   return true;
}

dc_isa_err
dc_isa_decode(dc_isa *isa, const uint8_t *code, size_t size, size_t *offset, dc_isa_insn *insn)
{
   struct diag_list d = {0};
   if (unusable(isa))
      return DC_ISA_ERR_ARG;
   if (!code || !offset || !insn || *offset > size)
      return keep(isa, ISA_ERR_ARG, &d);
   size_t at = *offset;
   enum isa_err e = isa_decode(isa->m, code, size, offset, &insn->in);
   if (e != ISA_ERR_OK)
      diag_add(&d, DIAG_ERROR, NULL, 0, 0, NULL, "%s at byte 0x%zx", isa_strerror(e), at);
   return keep(isa, e, &d);
}

dc_isa_err
dc_isa_parse(dc_isa *isa, const char *line, dc_isa_insn *insn)
{
   struct diag_list d = {0};
   if (unusable(isa))
      return DC_ISA_ERR_ARG;
   if (!line || !insn)
      return keep(isa, ISA_ERR_ARG, &d);
   return keep(isa, isa_parse_insn(isa->m, line, &insn->in, &d), &d);
}

size_t
dc_isa_print(dc_isa *isa, const dc_isa_insn *insn, char *buf, size_t size)
{
   if (!isa || !isa->m || !insn) {
      if (size)
         buf[0] = 0;
      return 0;
   }
   if (!size) {
      char one[1];
      return isa_print_insn(isa->m, &insn->in, one, sizeof(one));
   }
   return isa_print_insn(isa->m, &insn->in, buf, size);
}

dc_isa_err
dc_isa_encode(dc_isa *isa, const dc_isa_insn *const *insns, size_t n, uint8_t **code, size_t *size)
{
   struct diag_list d = {0};
   if (unusable(isa))
      return DC_ISA_ERR_ARG;
   if ((!insns && n) || !code || !size)
      return keep(isa, ISA_ERR_ARG, &d);
   struct isa_insn *v = xmalloc((n ? n : 1) * sizeof(*v));
   for (size_t i = 0; i < n; i++)
      v[i] = insns[i]->in;
   enum isa_err e = isa_encode_program(isa->m, v, n, code, size, &d);
   free(v);
   return keep(isa, e, &d);
}

dc_isa_err
dc_isa_assemble(dc_isa *isa, const char *text, uint8_t **code, size_t *size)
{
   struct diag_list d = {0};
   if (unusable(isa))
      return DC_ISA_ERR_ARG;
   if (!text || !code || !size)
      return keep(isa, ISA_ERR_ARG, &d);
   return keep(isa, isa_assemble(isa->m, text, "<text>", NULL, NULL, code, size, &d), &d);
}

uint32_t
dc_isa_insn_address(const dc_isa_insn *insn)
{
   return insn->in.addr;
}

size_t
dc_isa_insn_size(const dc_isa_insn *insn)
{
   return insn->in.size;
}

const char *
dc_isa_insn_illegal(dc_isa *isa, const dc_isa_insn *insn)
{
   return isa && isa->m && insn->in.illegal ? isa_illegal_reason(isa->m, &insn->in) : NULL;
}

void
dc_isa_free(void *p)
{
   free(p);
}
