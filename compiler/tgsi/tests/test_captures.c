/*
 * The captures corpus as a whole (every .tgsi file in captures/). Each
 * capture must
 *  - parse in the dialect its "# dialect:" line names, print, and parse
 *    back equal;
 *  - pass the interpreter's check without warnings;
 *  - run in the golden interpreter on 256 lanes with the inputs
 *    diff_gen_inputs() draws from a fixed seed, with status OK;
 *  - produce different results for some other seed (a few are tried, as
 *    one draw may, say, discard every pixel): a shader whose results ignore
 *    its inputs validates nothing.
 * The corpus must use at least 90% of the opcodes tgsi_interp_supports();
 * the coverage and the unused opcodes are printed.
 */
#include "compiler/tgsi/tests/fixture_util.h"
#include "diff/diff.h"
#include "util/test.h"

#define CAP_DIR       DC_SOURCE_DIR "/captures"
#define CAP_LANES     256
#define CAP_SEED      0x6361707475726573ull
#define CAP_RESEEDS   4 /* further seeds tried for the input-dependence check */
#define CAP_MIN_FILES 64
#define CAP_MIN_COVER 90 /* percent of tgsi_interp_supports() */

static uint64_t
mem_digest(const struct env_mem *m, uint64_t h)
{
   return m->data ? hash64(m->data, m->size, h) : h;
}

/* A digest of everything a run writes: outputs, kills, geometry-shader
 * vertices, buffers and images. */
static uint64_t
env_digest(const struct env *e)
{
   uint64_t h = hash64(e->out, (size_t)e->nout * e->out_vertices * 4 * e->nlanes * 4, 1);
   if (e->killed)
      h = hash64(e->killed, e->nlanes, h);
   if (e->gs_count) {
      h = hash64(e->gs_count, (size_t)e->nlanes * 4, h);
      h = hash64(e->gs_data, (size_t)e->nlanes * e->gs_max_vertices * e->nout * 16, h);
   }
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++)
      h = mem_digest(&e->buf[i], h);
   for (unsigned i = 0; i < ENV_MAX_IMAGES; i++)
      h = mem_digest(&e->img[i].mem, h);
   return h;
}

/* Runs s on inputs drawn from seed; the digest of the results, 0 if the
 * inputs or the run failed. */
static uint64_t
run_capture(const char *path, const struct tgsi_shader *s, uint64_t seed)
{
   struct diag_list d = {0};
   struct env *e = diff_gen_inputs(s, seed, CAP_LANES, &d);
   CHECKF(e, "%s: no inputs: %s", path, diag_first_error(&d) ? diag_first_error(&d) : "");
   uint64_t h = 0;
   if (e) {
      enum tgsi_interp_status st = tgsi_interp_run(s, e, NULL, &d);
      CHECKF(st == TGSI_INTERP_OK, "%s: interpreter: %s: %s", path, tgsi_interp_status_names[st],
             diag_first_error(&d) ? diag_first_error(&d) : "");
      if (st == TGSI_INTERP_OK)
         h = env_digest(e) | 1;
      env_free(e);
   }
   diag_clear(&d);
   return h;
}

static void
check_round_trip(const char *path, const struct tgsi_shader *s, const struct tgsi_parse_opts *o)
{
   struct diag_list d = {0};
   char *p = tgsi_print(s);
   struct tgsi_shader *s2 = tgsi_parse(p, strlen(p), path, o, &d);
   CHECKF(s2 && tgsi_shader_equal(s, s2), "%s: the printed form does not parse back equal: %s",
          path, diag_first_error(&d) ? diag_first_error(&d) : "");
   tgsi_shader_free(s2);
   diag_clear(&d);
   free(p);
}

static void
check_capture(const char *path, bool used[TGSI_OP_COUNT])
{
   char *text = NULL, *err = NULL;
   size_t len = 0;
   if (!read_file(path, &text, &len, &err)) {
      CHECKF(false, "%s", err);
      free(err);
      return;
   }
   struct fixture_hdr h = fixture_header(text, len);
   CHECKF(!h.has_expect, "%s: a capture must be an accepted shader, not an \"# expect:\" case",
          path);
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &h.opts, &d);
   CHECKF(s && d.nerrors == 0, "%s: rejected: %s", path,
          diag_first_error(&d) ? diag_first_error(&d) : "");
   for (unsigned i = 0; i < d.n; i++)
      CHECKF(fixture_pos_ok(&d.v[i], text, len), "%s: diagnostic at %d:%d outside the file", path,
             d.v[i].line, d.v[i].col);
   diag_clear(&d);
   if (s) {
      /* The interpreter's warnings flag TGSI that rarely means what it
       * says (a buffer's RESQ into .y, a LOAD that skips its first word). */
      tgsi_interp_check(s, &d);
      CHECKF(d.n == 0, "%s:%d: %s", path, d.n ? d.v[0].line : 0, d.n ? d.v[0].msg : "");
      diag_clear(&d);
      for (unsigned i = 0; i < s->ninsns; i++)
         used[s->insns[i].op] = true;
      check_round_trip(path, s, &h.opts);
      uint64_t a = run_capture(path, s, CAP_SEED), b = a;
      for (unsigned k = 1; k <= CAP_RESEEDS && a && b == a; k++)
         b = run_capture(path, s, CAP_SEED + k);
      CHECKF(!a || !b || a != b, "%s: the results do not depend on the inputs (%u seeds)", path,
             CAP_RESEEDS + 1);
   }
   tgsi_shader_free(s);
   free(text);
}

static void
check_coverage(const bool used[TGSI_OP_COUNT])
{
   unsigned supported = 0, covered = 0;
   char unused[4096] = "";
   size_t at = 0;
   for (unsigned op = 0; op < TGSI_OP_COUNT; op++) {
      if (!tgsi_interp_supports((enum tgsi_opcode)op))
         continue;
      supported++;
      if (used[op])
         covered++;
      else if (at < sizeof(unused))
         at += (size_t)snprintf(unused + at, sizeof(unused) - at, " %s", tgsi_op_info[op].name);
   }
   printf("opcode coverage: %u of %u interpreter opcodes (%.1f%%)\n", covered, supported,
          supported ? 100.0 * covered / supported : 0.0);
   printf("unused:%s\n", at ? unused : " (none)");
   CHECKF(covered * 100 >= supported * CAP_MIN_COVER, "coverage %u/%u is below %u%%", covered,
          supported, CAP_MIN_COVER);
}

int
main(void)
{
   unsigned n;
   char **files = fixture_list(CAP_DIR, &n);
   CHECKF(n >= CAP_MIN_FILES, "%u captures in %s, want at least %u", n, CAP_DIR, CAP_MIN_FILES);
   bool used[TGSI_OP_COUNT] = {false};
   for (unsigned i = 0; i < n; i++)
      check_capture(files[i], used);
   printf("%u captures\n", n);
   check_coverage(used);
   fixture_list_free(files, n);
   return test_done();
}
