/*
 * Random inputs: the same seed gives the same inputs (and a lane's inputs
 * do not depend on the number of lanes), the special values show up, the
 * "sane" rule keeps indices and loop bounds small, and the YAML form
 * round-trips and reports errors with their line.
 */
#include "diff/diff.h"
#include "util/test.h"

#include <math.h>
#include <stdlib.h>

static struct tgsi_shader *
parse(const char *text)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), "test.tgsi", NULL, &d);
   for (unsigned i = 0; i < d.n && !s; i++)
      fprintf(stderr, "%s\n", d.v[i].msg);
   diag_clear(&d);
   return s;
}

static const char *const shader_text = "FRAG\n"
                                       "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                                       "DCL IN[1], GENERIC[1], PERSPECTIVE\n"
                                       "DCL IN[2], POSITION, LINEAR\n"
                                       "DCL OUT[0], COLOR\n"
                                       "DCL SAMP[0]\n"
                                       "DCL SVIEW[0], 2D, FLOAT\n"
                                       "DCL CONST[0][0..7]\n"
                                       "DCL TEMP[0..2]\n"
                                       "DCL ADDR[0]\n"
                                       "IMM[0] FLT32 {0.0, 1.0, 2.0, 0.0}\n"
                                       "IMM[1] UINT32 {1, 0, 0, 0}\n"
                                       "  0: ARL ADDR[0].x, IN[0].wwww\n"
                                       "  1: MOV TEMP[0], CONST[0][ADDR[0].x]\n"
                                       "  2: UADD TEMP[1].x, IN[1].xxxx, IN[1].yyyy\n"
                                       "  3: MOV TEMP[2].x, IMM[0].xxxx\n"
                                       "  4: BGNLOOP\n"
                                       "  5:   FSGE TEMP[2].y, TEMP[2].xxxx, CONST[0][7].xxxx\n"
                                       "  6:   UIF TEMP[2].yyyy\n"
                                       "  7:     BRK\n"
                                       "  8:   ENDIF\n"
                                       "  9:   ADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy\n"
                                       " 10: ENDLOOP\n"
                                       " 11: TEX TEMP[0], IN[0], SAMP[0], 2D\n"
                                       " 12: ADD OUT[0], TEMP[0], IN[0]\n"
                                       " 13: END\n";

static bool
same_inputs(const struct env *a, const struct env *b, uint32_t lanes)
{
   for (uint32_t r = 0; r < a->nin; r++)
      for (unsigned c = 0; c < 4; c++)
         if (memcmp(env_in(a, 0, r, c), env_in(b, 0, r, c), lanes * 4))
            return false;
   return true;
}

static void
test_determinism(const struct tgsi_shader *s)
{
   struct diag_list d = {0};
   struct env *a = diff_gen_inputs(s, 42, 256, &d), *b = diff_gen_inputs(s, 42, 256, &d);
   struct env *c = diff_gen_inputs(s, 43, 256, &d), *small = diff_gen_inputs(s, 42, 16, &d);
   CHECK(a && b && c && small && d.n == 0);
   CHECK(a->nin == 3 && a->cbuf_slots[0] == 8 && a->tex[0].bound);
   CHECK(same_inputs(a, b, 256));
   CHECK(!same_inputs(a, c, 256));
   CHECK(same_inputs(a, small, 16)); /* lanes do not depend on the count */
   CHECK(!memcmp(a->cbuf[0], b->cbuf[0], 8 * 16) && a->tex[0].seed == b->tex[0].seed);
   char *ya = diff_inputs_to_yaml(a), *yb = diff_inputs_to_yaml(b);
   CHECK(ya && yb && !strcmp(ya, yb));
   free(ya);
   free(yb);
   env_free(a);
   env_free(b);
   env_free(c);
   env_free(small);
}

/* Over many lanes the specials of each kind appear; sane channels stay in
 * their ranges; gl_FragCoord inputs are pixel centres. */
static void
test_distribution(const struct tgsi_shader *s)
{
   struct diag_list d = {0};
   struct env *e = diff_gen_inputs(s, 7, 4096, &d);
   unsigned nan = 0, negzero = 0, denorm = 0, unit = 0, intmin = 0, equal = 0;
   const uint32_t *x = env_in(e, 0, 0, 0), *w = env_in(e, 0, 0, 3), *u = env_in(e, 0, 1, 0);
   for (uint32_t l = 0; l < e->nlanes; l++) {
      nan += is_nan_bits(x[l]);
      negzero += x[l] == 0x80000000u;
      denorm += (x[l] & 0x7f800000u) == 0 && (x[l] & 0x7fffffu);
      unit += uif(x[l]) >= 0.0f && uif(x[l]) < 1.0f;
      intmin += u[l] == 0x80000000u;
      equal += l && x[l] == x[l - 1];
      float f = uif(w[l]); /* ARL source: sane index */
      CHECK(f >= 0.0f && f < 8.0f && f == floorf(f));
      const uint32_t *px = env_in(e, 0, 2, 0), *py = env_in(e, 0, 2, 1);
      uint32_t q = l / 4;
      CHECK(uif(px[l]) == (float)(2 * (q % 128) + (l & 1)) + 0.5f);
      CHECK(uif(py[l]) == (float)(2 * (q / 128) + ((l >> 1) & 1)) + 0.5f);
   }
   CHECKF(nan > 20 && negzero > 5 && denorm > 5 && intmin > 5 && equal > 20 && unit > 800,
          "nan %u -0 %u denorm %u INT_MIN %u equal %u unit %u", nan, negzero, denorm, intmin, equal,
          unit);
   float bound = uif(e->cbuf[0][7 * 4]); /* compared in the loop: sane */
   CHECK(bound >= 0.0f && bound < 8.0f && bound == floorf(bound));
   env_free(e);
   diag_clear(&d);
}

static void
test_yaml_roundtrip(const struct tgsi_shader *s)
{
   struct diag_list d = {0};
   struct env *e = diff_gen_inputs(s, 5, 32, &d);
   env_set_buffer(e, 1, 8);
   e->buf[1].data[5] = 0xab;
   char *y = diff_inputs_to_yaml(e);
   struct env *r = diff_inputs_from_yaml(y, strlen(y), "in.yaml", &d);
   CHECK(r && d.n == 0);
   char *y2 = r ? diff_inputs_to_yaml(r) : NULL;
   CHECK(y2 && !strcmp(y, y2));
   CHECK(r && r->buf[1].size == 8 && r->buf[1].data[5] == 0xab && same_inputs(e, r, 32));
   free(y);
   free(y2);
   env_free(e);
   env_free(r);
}

static void
test_yaml_errors(void)
{
   static const struct {
      const char *text, *msg;
      int line;
   } cases[] = {
       {"stage: FRAG\ninvocations: 2\nbogus: 1\n", "unknown key 'bogus'", 3},
       {"stage: FRAG\n", "missing 'invocations'", 1},
       {"stage: NOPE\ninvocations: 2\n", "unknown name 'NOPE'", 1},
       {"stage: FRAG\ninvocations: 2\ninputs:\n  - {reg: 0, chan: x, bits: [1]}\n",
        "expected 2 words, got 1", 4},
       {"stage: FRAG\ninvocations: 2\ninputs:\n  - {reg: 0, chan: q, bits: [1, 2]}\n",
        "expected a channel", 4},
       {"stage: FRAG\ninvocations: 2\nbuffers:\n  - {index: 0, size: 4, data: \"0011zz22\"}\n",
        "bad hex digit", 4},
       {"stage: FRAG\ninvocations: [\n", "YAML", 3},
       {"stage: FRAG\ninvocations: -3\n", "expected an integer", 2},
   };
   for (unsigned k = 0; k < ARRAY_SIZE(cases); k++) {
      struct diag_list d = {0};
      struct env *e = diff_inputs_from_yaml(cases[k].text, strlen(cases[k].text), "x.yaml", &d);
      CHECKF(!e && d.nerrors >= 1, "case %u", k);
      if (d.nerrors) {
         CHECKF(strstr(d.v[0].msg, cases[k].msg), "case %u: %s", k, d.v[0].msg);
         CHECKF(d.v[0].line == cases[k].line, "case %u: line %d", k, d.v[0].line);
      }
      env_free(e);
      diag_clear(&d);
   }
}

/* Compute dispatches round up to whole workgroups and fill THREAD_ID. */
static void
test_compute_layout(void)
{
   struct tgsi_shader *s = parse("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\n"
                                 "PROPERTY CS_FIXED_BLOCK_HEIGHT 2\nDCL SV[0], THREAD_ID\n"
                                 "DCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL TEMP[0]\n"
                                 "MOV TEMP[0], SV[0]\nUMAD TEMP[0].x, SV[1].xxxx, SV[0].xxxx, "
                                 "SV[0].yyyy\nSTORE BUFFER[0].x, TEMP[0].xxxx, TEMP[0].xxxx\n"
                                 "END\n");
   CHECK(s != NULL);
   if (!s)
      return;
   struct diag_list d = {0};
   struct env *e = diff_gen_inputs(s, 1, 20, &d);
   CHECK(e && e->nlanes == 24 && e->grid_size[0] == 3 && e->buf[0].data);
   const uint32_t *tid = e->sv[TGSI_SEM_THREAD_ID], *bid = e->sv[TGSI_SEM_BLOCK_ID];
   CHECK(tid[13] == 1 && tid[24 + 13] == 1 && bid[13] == 1); /* lane 13: wg 1, local 5 */
   env_free(e);
   tgsi_shader_free(s);
}

/* A compute run's images cover the dispatch together or not at all, so a
 * kernel that indexes several images by the invocation id is in bounds in
 * all of them in most runs. */
static void
test_images_cover_together(void)
{
   struct tgsi_shader *s = parse("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 8\n"
                                 "PROPERTY CS_FIXED_BLOCK_HEIGHT 8\n"
                                 "DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR\n"
                                 "DCL IMAGE[1], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR\n"
                                 "DCL IMAGE[2], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR\nEND\n");
   CHECK(s != NULL);
   unsigned all = 0, none = 0;
   for (uint64_t seed = 1; seed <= 40 && s; seed++) {
      struct diag_list d = {0};
      struct env *e = diff_gen_inputs(s, seed, 1024, &d); /* a 128 x 8 dispatch */
      unsigned cover = 0;
      for (unsigned i = 0; i < 3 && e; i++)
         cover += e->img[i].width >= 128 && e->img[i].height >= 8;
      CHECKF(cover == 0 || cover == 3, "seed %llu: %u of 3 images cover the dispatch",
             (unsigned long long)seed, cover);
      all += cover == 3;
      none += cover == 0;
      env_free(e);
      diag_clear(&d);
   }
   CHECK(all > 20 && none > 0);
   tgsi_shader_free(s);
}

/* Buffer words take the kind the shader reads them as: doubles (DADD)
 * are realistic doubles, not two integer words (whose high word makes a
 * subnormal), floats (ADD) realistic floats, integers (UADD) stay small
 * integers. */
static void
test_buffer_kinds(void)
{
   struct tgsi_shader *s = parse("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 64\n"
                                 "DCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL BUFFER[1]\n"
                                 "DCL BUFFER[2]\nDCL TEMP[0..3]\n"
                                 "IMM[0] UINT32 {4, 0, 0, 0}\n"
                                 "SHL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
                                 "LOAD TEMP[1], BUFFER[0], TEMP[0].xxxx\n"
                                 "STORE BUFFER[0], TEMP[0].xxxx, TEMP[1]\n"
                                 "DADD TEMP[1], TEMP[1], TEMP[1]\n"
                                 "LOAD TEMP[2], BUFFER[1], TEMP[0].xxxx\n"
                                 "ADD TEMP[2], TEMP[2], TEMP[2]\n"
                                 "LOAD TEMP[3], BUFFER[2], TEMP[0].xxxx\n"
                                 "UADD TEMP[3], TEMP[3], TEMP[3]\n"
                                 "STORE BUFFER[1], TEMP[0].xxxx, TEMP[2]\n"
                                 "STORE BUFFER[2], TEMP[0].xxxx, TEMP[3]\nEND\n");
   CHECK(s != NULL);
   struct diag_list d = {0};
   /* the first seed whose buffers all take the full size, 16 bytes a
    * lane (a quarter of buffers are small, 64 or 256 bytes: their size is
    * drawn from the same stream as the values), so that the shares below
    * are over thousands of values */
   struct env *e = NULL;
   for (uint64_t seed = 1; s && seed <= 16; seed++) {
      env_free(e);
      e = diff_gen_inputs(s, seed, 1024, &d);
      if (e && e->buf[0].size >= 16384 && e->buf[1].size >= 16384 && e->buf[2].size >= 16384)
         break;
   }
   CHECK(e && e->buf[0].size >= 16384 && e->buf[1].size >= 16384 && e->buf[2].size >= 16384);
   if (e && e->buf[0].size >= 16384 && e->buf[1].size >= 16384 && e->buf[2].size >= 16384) {
      unsigned dn = 0, dnorm = 0, fn = 0, fnorm = 0, in = 0, ismall = 0;
      for (uint32_t w = 0; w + 1 < e->buf[0].size / 4; w += 2) {
         uint64_t v;
         memcpy(&v, e->buf[0].data + 4 * w, 8);
         unsigned ex = (unsigned)(v >> 52) & 0x7ff;
         dn++;
         dnorm += ex > 0 && ex < 0x7ff;
      }
      for (uint32_t w = 0; w < e->buf[1].size / 4; w++) {
         uint32_t v;
         memcpy(&v, e->buf[1].data + 4 * w, 4);
         unsigned ex = (v >> 23) & 0xff;
         fn++;
         fnorm += ex > 0 && ex < 0xff;
      }
      for (uint32_t w = 0; w < e->buf[2].size / 4; w++) {
         int32_t v;
         memcpy(&v, e->buf[2].data + 4 * w, 4);
         in++;
         ismall += v >= -4 && v <= 16;
      }
      /* zeros and specials aside, nearly every value is a normal number */
      CHECKF(dnorm * 10 > dn * 7, "%u of %u doubles normal", dnorm, dn);
      CHECKF(fnorm * 10 > fn * 7, "%u of %u floats normal", fnorm, fn);
      CHECKF(ismall * 10 > in * 7, "%u of %u integers small", ismall, in);
   }
   env_free(e);
   diag_clear(&d);
   tgsi_shader_free(s);
}

/* Double inputs meet the edges a double expansion tests (diff/inputs.c
 * double_bound): in 4096 lanes of one double input, values within 2^-20
 * of DBL_MAX other than DBL_MAX itself (a high word of 0x7fefffff: the
 * specials hold only DBL_MAX), 2^1023 and its neighbours, subnormals other
 * than the specials' three, and one ulp either side of a power of two.
 * Without the boundaries the first two never occur. */
static void
test_double_bounds(void)
{
   struct tgsi_shader *s = parse("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                                 "DCL TEMP[0]\nDSQRT TEMP[0].xy, IN[0].xyxy\n"
                                 "MOV OUT[0], TEMP[0]\nEND\n");
   CHECK(s != NULL);
   struct diag_list d = {0};
   struct env *e = s ? diff_gen_inputs(s, 1, 4096, &d) : NULL;
   CHECK(e != NULL);
   unsigned near_max = 0, top = 0, sub = 0, ulp = 0;
   for (uint32_t l = 0; e && l < 4096; l++) {
      uint64_t v = (uint64_t)env_in(e, 0, 0, 1)[l] << 32 | env_in(e, 0, 0, 0)[l];
      uint64_t a = v & 0x7fffffffffffffffull, frac = a & 0x000fffffffffffffull;
      near_max += a >> 32 == 0x7fefffffu && a != 0x7fefffffffffffffull;
      top += a - 0x7fdffffffffffffeull <= 4;
      sub += a >> 52 == 0 && a > 1 && a != 0x000fffffffffffffull;
      ulp += a >> 52 != 0 && a >> 52 != 0x7ff && (frac == 1 || frac == 0x000fffffffffffffull);
   }
   CHECKF(near_max > 0 && top > 0 && sub > 0 && ulp > 0,
          "near DBL_MAX %u, near 2^1023 %u, subnormal %u, 2^k +- 1 ulp %u", near_max, top, sub,
          ulp);
   env_free(e);
   diag_clear(&d);
   tgsi_shader_free(s);
}

int
main(void)
{
   struct tgsi_shader *s = parse(shader_text);
   CHECK(s != NULL);
   if (s) {
      test_determinism(s);
      test_distribution(s);
      test_yaml_roundtrip(s);
   }
   test_yaml_errors();
   test_compute_layout();
   test_images_cover_together();
   test_buffer_kinds();
   test_double_bounds();
   tgsi_shader_free(s);
   return test_done();
}
