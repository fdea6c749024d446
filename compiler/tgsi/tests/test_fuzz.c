/*
 * Robustness of the TGSI parser on hostile input, with a fixed seed:
 * inputs mutated from the good fixtures (bit flips, random bytes, NULs,
 * truncation, insertion of bytes and grammar tokens, deletion, duplicated
 * chunks) plus pure random bytes. For every input: no crash (the CI runs
 * this under ASan/UBSan), a shader exactly when there is no error, every
 * message positioned inside the input, and an accepted input must print,
 * parse back equal and print identically.
 */
#include "compiler/tgsi/tests/fixture_util.h"
#include "util/test.h"

#define SEED    0x7451f00du
#define ROUNDS  5000
#define RANDOMS 300

struct seed {
   char *text;
   size_t len;
   struct tgsi_parse_opts opts;
};

static const char *const tokens[] = {
    "[",
    "]",
    ",",
    ".",
    "|",
    "-",
    ":",
    "(",
    ")",
    "{",
    "}",
    "\n",
    "\r",
    "\r\n",
    "#",
    "0x",
    "nan(",
    "..",
    "ADDR[0].x+",
    "TEMP[",
    "IN[][",
    "IF TEMP[0].xxxx\n",
    "ENDIF\n",
    "ELSE\n",
    "BGNLOOP\n",
    "ENDLOOP\n",
    "BRK\n",
    "CAL :1\n",
    "BGNSUB\n",
    "ENDSUB\n",
    "END\n",
    "DCL TEMP[0]\n",
    "IMM[0] FLT32 {",
    "99999999999999999999",
    "4294967296",
    "-2147483649",
    "1e39",
    ".xyzw",
    ".xy",
    "_SAT",
    "PROPERTY GS_INPUT_PRIMITIVE POINTS\n",
    ", 2D",
    ", ARRAY(1)",
    "(1)",
    "\xff",
    "\0",
};

/* Start and length of the line holding pos. */
static size_t
line_at(const char *buf, size_t n, size_t pos, size_t *len)
{
   size_t a = pos, b = pos;
   while (a > 0 && buf[a - 1] != '\n')
      a--;
   while (b < n && buf[b] != '\n')
      b++;
   *len = b - a + (b < n);
   return a;
}

/* Mutations that often keep the shader valid: a digit or a component
 * letter changed, a line duplicated or deleted. */
static bool
mutate_gently(struct rng *r, char **buf, size_t *len, size_t *cap, size_t pos)
{
   static const char comps[] = "xyzw";
   char *b = *buf;
   size_t n = *len, ll, ls = line_at(b, n, pos, &ll);
   switch (rng_below(r, 4)) {
   case 0:
      if (b[pos] < '0' || b[pos] > '9')
         return false;
      b[pos] = (char)('0' + rng_below(r, 10));
      return true;
   case 1:
      if (!strchr(comps, b[pos]) || !b[pos])
         return false;
      b[pos] = comps[rng_below(r, 4)];
      return true;
   case 2: /* duplicate the line */
      VEC_RESERVE(*buf, *cap, n + ll + 1);
      memmove(*buf + ls + ll, *buf + ls, n - ls);
      *len = n + ll;
      return true;
   default: /* delete the line */
      memmove(b + ls, b + ls + ll, n - ls - ll);
      *len = n - ll;
      return true;
   }
}

static void
mutate(struct rng *r, char **buf, size_t *len, size_t *cap, bool gentle)
{
   size_t n = *len;
   unsigned kind = rng_below(r, 8);
   size_t pos = n ? rng_below(r, (uint32_t)n) : 0;
   if (gentle && n) {
      for (int tries = 0; tries < 16 && !mutate_gently(r, buf, len, cap, pos); tries++)
         pos = rng_below(r, (uint32_t)n);
      (*buf)[*len] = 0;
      return;
   }
   switch (kind) {
   case 0: /* flip a bit */
      if (n)
         (*buf)[pos] ^= (char)(1u << rng_below(r, 8));
      break;
   case 1: /* any byte, NUL included */
      if (n)
         (*buf)[pos] = (char)rng_below(r, 256);
      break;
   case 2: /* truncate */
      *len = pos;
      break;
   case 3:   /* insert random bytes */
   case 4: { /* insert a token */
      char tmp[64];
      size_t k;
      if (kind == 3) {
         k = 1 + rng_below(r, 8);
         for (size_t i = 0; i < k; i++)
            tmp[i] = (char)rng_below(r, 256);
      } else {
         unsigned t = rng_below(r, ARRAY_SIZE(tokens));
         k = tokens[t][0] ? strlen(tokens[t]) : 1; /* "\0" inserts one NUL */
         memcpy(tmp, tokens[t], k);
      }
      VEC_RESERVE(*buf, *cap, n + k + 1);
      memmove(*buf + pos + k, *buf + pos, n - pos);
      memcpy(*buf + pos, tmp, k);
      *len = n + k;
      break;
   }
   case 5: { /* delete a range */
      size_t want = rng_below(r, 40), k = MIN2(n - pos, want);
      memmove(*buf + pos, *buf + pos + k, n - pos - k);
      *len = n - k;
      break;
   }
   default: { /* duplicate a chunk somewhere else */
      if (!n)
         break;
      size_t want = 1 + rng_below(r, 120), k = MIN2(n - pos, want);
      size_t to = rng_below(r, (uint32_t)n + 1);
      VEC_RESERVE(*buf, *cap, n + k + 1);
      char *chunk = xmalloc(k);
      memcpy(chunk, *buf + pos, k);
      memmove(*buf + to + k, *buf + to, n - to);
      memcpy(*buf + to, chunk, k);
      free(chunk);
      *len = n + k;
      break;
   }
   }
   (*buf)[*len] = 0;
}

static void
show_input(const char *buf, size_t len)
{
   fprintf(stderr, "  input (%zu bytes): \"", len);
   for (size_t i = 0; i < len && i < 2000; i++) {
      unsigned char ch = (unsigned char)buf[i];
      if (ch == '\n')
         fprintf(stderr, "\\n");
      else if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\')
         fprintf(stderr, "\\x%02x", ch);
      else
         fputc(ch, stderr);
   }
   fprintf(stderr, "\"\n");
}

/* The properties every input must have; returns whether it was accepted. */
static bool
check_input(const char *buf, size_t len, const struct tgsi_parse_opts *o)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(buf, len, "fuzz", o, &d);
   bool ok = (s != NULL) == (d.nerrors == 0);
   for (unsigned i = 0; i < d.n; i++)
      ok &= fixture_pos_ok(&d.v[i], buf, len);
   CHECKF(ok, "bad result or message position (%s)", d.n ? d.v[0].msg : "no message");
   if (!ok)
      show_input(buf, len);
   diag_clear(&d);
   if (s) {
      char *p1 = tgsi_print(s);
      struct tgsi_shader *s2 = tgsi_parse(p1, strlen(p1), "print", o, &d);
      char *p2 = s2 ? tgsi_print(s2) : NULL;
      bool same = s2 && tgsi_shader_equal(s, s2) && !strcmp(p1, p2);
      CHECKF(same, "accepted input does not round-trip: %s\n%s",
             diag_first_error(&d) ? diag_first_error(&d) : "", p1);
      if (!same)
         show_input(buf, len);
      diag_clear(&d);
      tgsi_shader_free(s2);
      tgsi_shader_free(s);
      free(p1);
      free(p2);
   }
   return s != NULL;
}

int
main(void)
{
   unsigned nfiles;
   char **files = fixture_list(DC_SOURCE_DIR "/fixtures/tgsi/good", &nfiles);
   struct seed *seeds = xcalloc(nfiles + 1, sizeof(*seeds));
   unsigned nseeds = 0;
   for (unsigned i = 0; i < nfiles; i++) {
      char *err;
      struct seed *sd = &seeds[nseeds];
      if (!read_file(files[i], &sd->text, &sd->len, &err)) {
         free(err);
         continue;
      }
      sd->opts = fixture_header(sd->text, sd->len).opts;
      nseeds++;
   }
   fixture_list_free(files, nfiles);
   CHECKF(nseeds >= 15, "only %u seed shaders", nseeds);

   struct rng r;
   rng_seed(&r, SEED);
   unsigned accepted = 0;
   for (unsigned round = 0; round < ROUNDS && nseeds; round++) {
      const struct seed *sd = &seeds[rng_below(&r, nseeds)];
      size_t cap = sd->len + 1, len = sd->len;
      char *buf = xmalloc(cap);
      memcpy(buf, sd->text, len + 1);
      /* Half the inputs get one gentle change, so many stay valid. */
      bool gentle = round % 2;
      for (unsigned m = gentle ? 1 : 1 + rng_below(&r, 4); m > 0; m--)
         mutate(&r, &buf, &len, &cap, gentle);
      accepted += check_input(buf, len, &sd->opts);
      free(buf);
   }
   for (unsigned round = 0; round < RANDOMS; round++) {
      size_t len = rng_below(&r, 300);
      char *buf = xmalloc(len + 1);
      for (size_t i = 0; i < len; i++)
         buf[i] = (char)rng_below(&r, 256);
      if (round % 2 && len > 5)
         memcpy(buf, "FRAG ", 5); /* get past the header half of the time */
      buf[len] = 0;
      check_input(buf, len, NULL);
      free(buf);
   }
   /* Mutations should keep a fair share valid, or the round trip is untested. */
   printf("%u of %u mutated inputs accepted\n", accepted, ROUNDS);
   CHECKF(accepted >= ROUNDS / 5, "only %u mutated inputs were accepted", accepted);
   for (unsigned i = 0; i < nseeds; i++)
      free(seeds[i].text);
   free(seeds);
   return test_done();
}
