/*
 * The loader and the model checker: a good model loads and answers the
 * accessors; every model under fixtures/isa/bad/ is rejected with the error
 * and position its first line announces ("# expect: LINE:COL: message").
 */
#include "isa/isa.h"
#include "util/test.h"
#include "util/util.h"

#include <dirent.h>
#include <stdlib.h>

static void
test_good(void)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   enum isa_err e = isa_open("fixtures/isa/tiny.yaml", &m, &d);
   CHECKF(e == ISA_ERR_OK, "%s: %s", isa_strerror(e), d.n ? d.v[0].msg : "");
   if (!m)
      return;
   CHECK(!strcmp(isa_model_name(m), "tiny"));
   CHECK(isa_op_count(m) == 4);
   int cmp = isa_op_find(m, "cmp");
   CHECK(cmp == 1);
   struct isa_op_info oi;
   isa_op_info(m, (unsigned)cmp, &oi);
   CHECK(oi.sem == ISA_SEM_SCMP && oi.nsrc == 2 && oi.ndst == 1);
   CHECK(oi.commute[0] == 0 && oi.commute[1] == 1);
   int cond = isa_mod_by_role(m, ISA_ROLE_COND);
   CHECK(cond >= 0 && oi.flip_mod == cond);
   CHECK(isa_mod_flip(m, (unsigned)cond, isa_mod_value(m, (unsigned)cond, "lt")) ==
         isa_mod_value(m, (unsigned)cond, "gt"));
   CHECK(isa_mod_flip(m, (unsigned)cond, 2) == 2);
   struct isa_slot_info si;
   CHECK(isa_slot_info(m, (unsigned)cmp, false, 1, &si));
   CHECK(si.kinds == ((1 << ISA_OPND_REG) | (1 << ISA_OPND_IMM)) && si.imm_bits == 7 &&
         si.imm_signed && si.neg && !si.abs && si.type == ISA_TYPE_S32);
   int rcp = isa_op_find(m, "rcp");
   CHECK(isa_slot_info(m, (unsigned)rcp, false, 0, &si) && si.kinds == (1 << ISA_OPND_REG));
   CHECK(!isa_slot_info(m, (unsigned)rcp, false, 1, &si));
   struct isa_class_info ci;
   isa_op_info(m, (unsigned)rcp, &oi);
   isa_class_info(m, oi.cls, &ci);
   CHECK(ci.sync == ISA_SYNC_SS && ci.latency == -1 && ci.read_early == 3);
   CHECK(isa_hazard_kind(m) == ISA_HAZARD_DELAY_SLOTS);
   CHECK(isa_hazard_param(m, "size_mismatch", -1) == 3);
   CHECK(isa_hazard_param(m, "addr_write", -7) == -7);
   CHECK(isa_file_find(m, "p") == 1);
   CHECK(d.n == 0);
   isa_close(m);
   diag_clear(&d);
}

static void
test_bad_file(const char *path)
{
   char *text = NULL, *msg = NULL;
   if (!read_file(path, &text, NULL, &msg)) {
      CHECKF(0, "%s", msg);
      free(msg);
      return;
   }
   int line = 0, col = 0, off = 0;
   CHECKF(sscanf(text, "# expect: %d:%d: %n", &line, &col, &off) == 2 && off > 0,
          "%s: first line must be '# expect: LINE:COL: message'", path);
   char *want = xstrndup(text + off, strcspn(text + off, "\n"));
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   enum isa_err e = isa_open(path, &m, &d);
   CHECKF(e == ISA_ERR_MODEL || e == ISA_ERR_YAML, "%s: accepted (%s)", path, isa_strerror(e));
   CHECK(m == NULL);
   bool found = false;
   for (unsigned i = 0; i < d.n; i++)
      found |= d.v[i].line == line && d.v[i].col == col && strstr(d.v[i].msg, want) &&
               !strcmp(d.v[i].file, path) && d.v[i].srcline;
   CHECKF(found, "%s: expected %d:%d: %s; got %s%s", path, line, col, want,
          d.n ? d.v[0].msg : "no error", "");
   free(want);
   free(text);
   diag_clear(&d);
   isa_close(m);
}

static void
test_bad(void)
{
   DIR *dir = opendir("fixtures/isa/bad");
   CHECK(dir != NULL);
   if (!dir)
      return;
   unsigned n = 0;
   struct dirent *ent;
   while ((ent = readdir(dir))) {
      size_t l = strlen(ent->d_name);
      if (l < 6 || strcmp(ent->d_name + l - 5, ".yaml"))
         continue;
      char *path = xasprintf("fixtures/isa/bad/%s", ent->d_name);
      test_bad_file(path);
      free(path);
      n++;
   }
   closedir(dir);
   CHECKF(n >= 12, "only %u bad models", n);
}

static void
test_open_errors(void)
{
   struct diag_list d = {0};
   struct isa_model *m = (struct isa_model *)&d;
   CHECK(isa_open("no_such_model", &m, &d) == ISA_ERR_NOTFOUND && m == NULL);
   CHECK(isa_open("../etc", &m, &d) == ISA_ERR_IO);
   CHECK(isa_open("Bad Name", &m, &d) == ISA_ERR_NOTFOUND);
   CHECK(isa_open("", &m, &d) == ISA_ERR_ARG);
   CHECK(isa_open_string("[1, 2]", 6, "x.yaml", &m, &d) == ISA_ERR_MODEL);
   CHECK(isa_open_string("a: [", 4, "x.yaml", &m, &d) == ISA_ERR_YAML);
   CHECK(d.nerrors >= 6);
   CHECK(!strcmp(isa_strerror(ISA_ERR_RANGE), "value does not fit its field"));
   diag_clear(&d);
}

/* A model with an error per node stops reporting at the error limit, with
 * one line that says so, and errors already in the list do not count. */
static void
test_error_limit(void)
{
   char text[8192];
   size_t n = (size_t)snprintf(text, sizeof(text), "isa: x\nbits: 32\nregfiles:\n");
   for (unsigned i = 0; i < 80; i++)
      n += (size_t)snprintf(text + n, sizeof(text) - n, "  r%u: {bogus: 1}\n", i);
   struct diag_list d = {0};
   diag_add(&d, DIAG_ERROR, "before", 1, 1, NULL, "an earlier error");
   struct isa_model *m = NULL;
   CHECK(isa_open_string(text, n, "many.yaml", &m, &d) == ISA_ERR_MODEL && !m);
   CHECKF(d.nerrors == 52, "%u errors", d.nerrors);
   CHECK(d.v[1].line >= 1 && !strstr(d.v[1].msg, "too many errors"));
   CHECK(strstr(d.v[51].msg, "too many errors (50)"));
   diag_clear(&d);
   n = (size_t)snprintf(text, sizeof(text), "isa: x\nbits: 32\nregfiles: {r0: {bogus: 1}}\n");
   CHECK(isa_open_string(text, n, "one.yaml", &m, &d) == ISA_ERR_MODEL);
   CHECK(d.nerrors >= 1 && !strstr(d.v[d.n - 1].msg, "too many errors"));
   diag_clear(&d);
}

int
main(void)
{
   test_good();
   test_bad();
   test_open_errors();
   test_error_limit();
   return test_done();
}
