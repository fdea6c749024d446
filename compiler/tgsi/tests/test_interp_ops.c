/*
 * Per-opcode vectors: runs every line of fixtures/interp/ops*.txt through
 * the interpreter and checks the result bits and flags. The expected values
 * in the fixtures are written from the TGSI semantics, not from this code.
 *
 * Line format (see the head of fixtures/interp/ops.txt):
 *    OPCODE[_SAT] [.mask] operand... -> result [flag...]
 * Each operand becomes IN[k] and is read with the given modifiers by
 * "OPCODE OUT[0].mask, IN[0], IN[1], ...". An operand or result is a value
 * (4 channels) or {v, v, v, v}; values are 0xHEX, f:FLOAT, i:INT, u:UINT
 * (one channel) or d:DOUBLE, l:INT64 (a channel pair, low word first);
 * results may use _ (not checked) and ? (must be undefined). An operand
 * channel ? is an undefined input (a never-written TEMP channel, bits 0).
 */
#include "compiler/tgsi/tests/test_interp_build.h"
#include "util/test.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>

struct vec {
   uint32_t v[4];
   uint8_t kind[4]; /* 0 value, 1 '_', 2 '?' */
   bool neg, abs;
};

struct vline {
   enum tgsi_opcode op;
   bool sat;
   unsigned mask;
   struct vec src[TGSI_MAX_SRC];
   unsigned nsrc;
   struct vec res;
   uint32_t flags;   /* enum env_flag bits that must be set */
   uint32_t noflags; /* and bits that must be clear ("nofuse") */
   bool undef;
};

static const char *
skip_ws(const char *p)
{
   while (*p == ' ' || *p == '\t')
      p++;
   return p;
}

/* One value: 1 or 2 channels into out; returns channels or 0 on error. */
static unsigned
parse_value(const char **pp, uint32_t out[2], uint8_t *kind)
{
   const char *p = skip_ws(*pp);
   char *end = NULL;
   *kind = 0;
   if (*p == '_' || *p == '?') {
      *kind = *p == '_' ? 1 : 2;
      out[0] = 0;
      *pp = p + 1;
      return 1;
   }
   errno = 0;
   if (!strncmp(p, "f:", 2)) {
      out[0] = fui(strtof(p + 2, &end));
   } else if (!strncmp(p, "i:", 2)) {
      out[0] = (uint32_t)(int32_t)strtol(p + 2, &end, 0);
   } else if (!strncmp(p, "u:", 2) || isdigit((unsigned char)*p)) {
      out[0] = (uint32_t)strtoul(p[0] == 'u' ? p + 2 : p, &end, 0);
   } else if (!strncmp(p, "d:", 2) || !strncmp(p, "l:", 2) || !strncmp(p, "q:", 2)) {
      uint64_t v = p[0] == 'd'   ? dui(strtod(p + 2, &end))
                   : p[0] == 'l' ? (uint64_t)strtoll(p + 2, &end, 0)
                                 : strtoull(p + 2, &end, 0);
      out[0] = (uint32_t)v;
      out[1] = (uint32_t)(v >> 32);
      *pp = end;
      return end == p + 2 ? 0 : 2;
   } else {
      return 0;
   }
   if (!end || end == p || end == p + 2)
      return 0;
   *pp = end;
   return 1;
}

static bool
parse_vec(const char **pp, struct vec *v)
{
   const char *p = skip_ws(*pp);
   memset(v, 0, sizeof(*v));
   if (!strncmp(p, "neg(", 4) || !strncmp(p, "abs(", 4)) {
      bool neg = p[0] == 'n';
      p += 4;
      if (!parse_vec(&p, v))
         return false;
      p = skip_ws(p);
      if (*p != ')')
         return false;
      if (neg)
         v->neg = true;
      else
         v->abs = true;
      *pp = p + 1;
      return true;
   }
   uint32_t w[2];
   uint8_t k;
   if (*p != '{') {
      unsigned n = parse_value(&p, w, &k);
      if (!n)
         return false;
      for (unsigned c = 0; c < 4; c++) {
         v->v[c] = w[c % n];
         v->kind[c] = k;
      }
      *pp = p;
      return true;
   }
   p++;
   unsigned c = 0;
   while (c < 4) {
      unsigned n = parse_value(&p, w, &k);
      if (!n || c + n > 4)
         return false;
      for (unsigned j = 0; j < n; j++) {
         v->v[c] = w[j];
         v->kind[c++] = k;
      }
      p = skip_ws(p);
      if (*p == ',')
         p++;
   }
   p = skip_ws(p);
   if (*p != '}')
      return false;
   *pp = p + 1;
   return true;
}

static bool
parse_flag(const char *w, size_t n, struct vline *l)
{
   if (n == 5 && !strncmp(w, "undef", 5)) {
      l->undef = true;
      return true;
   }
   bool no = n > 2 && !strncmp(w, "no", 2) && strncmp(w, "nan", 3);
   if (no) {
      uint32_t keep = l->flags;
      if (!parse_flag(w + 2, n - 2, l))
         return false;
      l->noflags |= l->flags & ~keep;
      l->flags = keep;
      return true;
   }
   for (unsigned b = 0; b < ENV_F_COUNT; b++) {
      const char *name = env_flag_names[b];
      if (strlen(name) != n)
         continue;
      bool same = true;
      for (size_t i = 0; i < n; i++)
         same &= toupper((unsigned char)w[i]) == name[i];
      if (same) {
         l->flags |= 1u << b;
         return true;
      }
   }
   return false;
}

static bool
parse_line(const char *p, struct vline *l)
{
   memset(l, 0, sizeof(*l));
   p = skip_ws(p);
   const char *w = p;
   while (isalnum((unsigned char)*p) || *p == '_')
      p++;
   size_t n = (size_t)(p - w);
   if (n > 4 && !strncmp(p - 4, "_SAT", 4)) {
      l->sat = true;
      n -= 4;
   }
   int op = -1;
   for (unsigned i = 0; i < TGSI_OP_COUNT; i++)
      if (strlen(tgsi_op_info[i].name) == n && !strncmp(tgsi_op_info[i].name, w, n))
         op = (int)i;
   if (op < 0)
      return false;
   l->op = (enum tgsi_opcode)op;
   l->mask = 0xf;
   p = skip_ws(p);
   if (*p == '.') {
      l->mask = 0;
      for (p++; strchr("xyzw", *p) && *p; p++)
         l->mask |= 1u << (strchr("xyzw", *p) - "xyzw");
   }
   while (*(p = skip_ws(p)) && strncmp(p, "->", 2)) {
      if (l->nsrc == TGSI_MAX_SRC || !parse_vec(&p, &l->src[l->nsrc++]))
         return false;
   }
   if (strncmp(p, "->", 2))
      return false;
   p += 2;
   if (!parse_vec(&p, &l->res))
      return false;
   while (*(p = skip_ws(p)) && *p != '\n' && *p != '#') {
      w = p;
      while (isalpha((unsigned char)*p))
         p++;
      if (p == w || !parse_flag(w, (size_t)(p - w), l))
         return false;
   }
   return l->nsrc == tgsi_op_info[l->op].nsrc;
}

static void
run_line(const struct vline *l, const char *file, int lineno, const char *text)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   sb_decl(s, TGSI_FILE_IN, 0, l->nsrc ? l->nsrc - 1 : 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   struct tgsi_dst d = sb_dst(TGSI_FILE_OUT, 0, "xyzw");
   d.mask = (uint8_t)l->mask;
   struct tgsi_src src[TGSI_MAX_SRC];
   sb_decl(s, TGSI_FILE_TEMP, 0, TGSI_MAX_SRC - 1);
   for (unsigned k = 0; k < l->nsrc; k++) {
      src[k] = sb_src(TGSI_FILE_IN, (int)k, "xyzw");
      /* Undefined channels: read TEMP[k], written only where defined. */
      struct tgsi_dst defined = sb_dst(TGSI_FILE_TEMP, (int)k, "xyzw");
      defined.mask = 0;
      for (unsigned c = 0; c < 4; c++)
         defined.mask |= (uint8_t)(l->src[k].kind[c] != 2) << c;
      if (defined.mask != 0xf) {
         if (defined.mask)
            sb_op(s, TGSI_OP_MOV, defined, src[k]);
         src[k] = sb_src(TGSI_FILE_TEMP, (int)k, "xyzw");
      }
      src[k].neg = l->src[k].neg;
      src[k].abs = l->src[k].abs;
   }
   struct tgsi_insn *in = sb_insn(s, l->op, &d, src);
   in->sat = l->sat;
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_FRAG, 4, l->nsrc ? l->nsrc : 1);
   for (unsigned k = 0; k < l->nsrc; k++)
      for (unsigned c = 0; c < 4; c++)
         for (unsigned lane = 0; lane < 4; lane++)
            sb_set_in(e, k, c, lane, l->src[k].v[c]);
   enum tgsi_interp_status st = sb_run(s, e, NULL);
   CHECKF(st == TGSI_INTERP_OK, "%s:%d: run failed (%s): %s", file, lineno,
          tgsi_interp_status_names[st], text);
   for (unsigned c = 0; c < 4 && st == TGSI_INTERP_OK; c++) {
      if (!(l->mask & (1u << c)) || l->res.kind[c] == 1)
         continue;
      uint32_t got = sb_out(e, 0, c, 0);
      uint16_t fl = sb_outf(e, 0, c, 0);
      if (l->res.kind[c] == 2) {
         CHECKF(fl & ENV_F_UNDEF, "%s:%d: channel %c must be undefined: %s", file, lineno,
                "xyzw"[c], text);
         continue;
      }
      CHECKF(got == l->res.v[c],
             "%s:%d: channel %c = 0x%08" PRIx32 " (%g), expected 0x%08" PRIx32 ": %s", file, lineno,
             "xyzw"[c], got, (double)uif(got), l -> res.v[c], text);
      CHECKF(!!(fl & ENV_F_UNDEF) == l->undef, "%s:%d: channel %c is %s: %s", file, lineno,
             "xyzw"[c], fl & ENV_F_UNDEF ? "undefined" : "defined", text);
      CHECKF((fl & l->flags) == l->flags, "%s:%d: channel %c flags 0x%x lack 0x%x: %s", file,
             lineno, "xyzw"[c], fl, l -> flags, text);
      CHECKF(!(fl & l->noflags), "%s:%d: channel %c flags 0x%x must not hold 0x%x: %s", file,
             lineno, "xyzw"[c], fl, l -> noflags, text);
   }
   env_free(e);
   tgsi_shader_free(s);
}

static unsigned
run_file(const char *path, bool *covered)
{
   char *text = NULL, *err = NULL;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      CHECKF(false, "%s", err);
      free(err);
      return 0;
   }
   unsigned count = 0;
   int lineno = 0;
   for (char *line = text; line && *line;) {
      char *nl = strchr(line, '\n');
      if (nl)
         *nl = 0;
      lineno++;
      const char *p = skip_ws(line);
      if (*p && *p != '#') {
         struct vline l;
         bool ok = parse_line(p, &l);
         CHECKF(ok, "%s:%d: cannot parse: %s", path, lineno, p);
         if (ok) {
            run_line(&l, path, lineno, p);
            covered[l.op] = true;
            count++;
         }
      }
      line = nl ? nl + 1 : NULL;
   }
   free(text);
   return count;
}

/* Opcodes exercised by the other interpreter tests instead of vectors. */
static bool
tested_elsewhere(enum tgsi_opcode op)
{
   const struct tgsi_op_info *oi = &tgsi_op_info[op];
   return oi->ndst == 0 || (oi->flags & (TGSI_OPF_OTHR | TGSI_OPF_TEX)) || op == TGSI_OP_DDX ||
          op == TGSI_OP_DDY || op == TGSI_OP_DDX_FINE || op == TGSI_OP_DDY_FINE ||
          op == TGSI_OP_READ_FIRST || op == TGSI_OP_READ_INVOC || op == TGSI_OP_VOTE_ANY ||
          op == TGSI_OP_VOTE_ALL || op == TGSI_OP_VOTE_EQ || op == TGSI_OP_READ_HELPER ||
          !tgsi_interp_supports(op);
}

int
main(void)
{
   bool covered[TGSI_OP_COUNT] = {false};
   static const char *const files[] = {"fixtures/interp/ops.txt", "fixtures/interp/ops64.txt"};
   unsigned total = 0;
   for (unsigned f = 0; f < ARRAY_SIZE(files); f++)
      total += run_file(files[f], covered);
   CHECK(total > 300);
   for (unsigned op = 0; op < TGSI_OP_COUNT; op++)
      CHECKF(covered[op] || tested_elsewhere((enum tgsi_opcode)op), "no vector for %s",
             tgsi_op_info[op].name);
   printf("%u vectors\n", total);
   return test_done();
}
