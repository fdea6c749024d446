/*
 * llc's AMDGPU assembly -> an emulator program (emu/README.md's format):
 * the bindings come from the IR's "; diffcomp-llvm:" header (llvm.h) and
 * the calling convention (inreg i32 arguments s0, s1, ...; the other
 * arguments v0, v1, ...; returned floats v0, v1, ...), the instructions
 * from the body of `main` as llc printed them. The gfx9 model's syntax is
 * LLVM's, so instructions are copied as they are; only what the emulator's
 * assembler reads differently changes: labels lose their leading dot and
 * branch targets become `$label`, comments and assembler directives go,
 * and where the function returns to its epilog (a shader part that
 * returns values) s_endpgm ends the program.
 */
#include "compiler/llvm/llvm.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *
line_end(const char *s)
{
   const char *e = strchr(s, '\n');
   return e ? e : s + strlen(s);
}

/* The header: directives and bindings in argument order. */
static bool
header(const char *ir, struct strbuf *o, struct diag_list *d, const char *name)
{
   static const char tag[] = "; diffcomp-llvm: ";
   unsigned ns = 0, nv = 0, nr = 0, line = 0;
   bool stage = false;
   for (const char *s = ir; *s;) {
      const char *e = line_end(s);
      line++;
      if (!strncmp(s, tag, sizeof(tag) - 1)) {
         const char *a = s + sizeof(tag) - 1;
         int len = (int)(e - a);
         if (!strncmp(a, "stage ", 6)) {
            strbuf_printf(o, ".stage %.*s\n", len - 6, a + 6);
            stage = true;
         } else if (!strncmp(a, "directive ", 10)) {
            strbuf_printf(o, "%.*s\n", len - 10, a + 10);
         } else if (!strncmp(a, "arg s ", 6) || !strncmp(a, "arg v ", 6)) {
            bool sg = a[4] == 's';
            const char *b = a + 6;
            const char *sp = strchr(b, ' ');
            if (!sp || sp > e)
               goto bad;
            strbuf_printf(o, "%.*s %c%u %.*s\n", (int)(sp - b), b, sg ? 's' : 'v', sg ? ns++ : nv++,
                          (int)(e - sp - 1), sp + 1);
         } else if (!strncmp(a, "ret ", 4)) {
            const char *b = a + 4;
            const char *sp = strchr(b, ' ');
            if (!sp || sp > e)
               goto bad;
            strbuf_printf(o, "%.*s v%u %.*s\n", (int)(sp - b), b, nr++, (int)(e - sp - 1), sp + 1);
         } else {
            goto bad;
         }
      }
      s = *e ? e + 1 : e;
      continue;
   bad:
      diag_add(d, DIAG_ERROR, name, (int)line, 1, NULL,
               "llvm: malformed diffcomp-llvm header line");
      return false;
   }
   if (!stage) {
      diag_add(
          d, DIAG_ERROR, name, 0, 0, NULL,
          "llvm: the IR has no '; diffcomp-llvm: stage' line (not written by diffcomp llvm ir)");
      return false;
   }
   if (ns > 102 || nv > 256) {
      diag_add(d, DIAG_ERROR, name, 0, 0, NULL, "llvm: more arguments than registers");
      return false;
   }
   return true;
}

/* A SOPK op with a signed immediate: s_<name>k_..._i32 (s_movk_i32,
 * s_cmpk_lt_i32, s_addk_i32, s_mulk_i32). */
static bool
sopk_signed(const char *s, const char *e)
{
   const char *sp = memchr(s, ' ', (size_t)(e - s));
   if (!sp || sp - s < 10 || strncmp(s, "s_", 2) || strncmp(sp - 4, "_i32", 4))
      return false;
   for (const char *p = s + 2; p + 1 < sp - 3; p++)
      if (p[0] == 'k' && p[1] == '_')
         return true;
   return false;
}

/* One line of the body, rewritten; false to drop it. */
static bool
body_line(const char *s, const char *e, struct strbuf *o)
{
   while (s < e && isspace((unsigned char)*s))
      s++;
   const char *c = s;
   while (c < e && *c != ';')
      c++;
   while (c > s && isspace((unsigned char)c[-1]))
      c--;
   if (c == s)
      return false;
   if (*s == '.' && c[-1] != ':')
      return false;    /* an assembler directive */
   if (c[-1] == ':') { /* a label */
      strbuf_printf(o, "%.*s\n", (int)(c - s - (*s == '.')), s + (*s == '.'));
      return true;
   }
   /* SOPK's 16-bit signed immediate: llc prints its bits in hex
    * ("s_movk_i32 s1, 0xffe1", "s_cmpk_lt_i32 s0, 0xfffb"), the model's
    * syntax the signed value. */
   if (sopk_signed(s, c)) {
      const char *x = c;
      while (x > s && x[-1] != ' ' && x[-1] != ',')
         x--;
      if (c - x > 2 && x[0] == '0' && (x[1] == 'x' || x[1] == 'X')) {
         long v = strtol(x, NULL, 16);
         if (v >= 0 && v <= 0xffff) {
            strbuf_printf(o, "%.*s%ld\n", (int)(x - s), s, v >= 0x8000 ? v - 0x10000 : v);
            return true;
         }
      }
   }
   /* Branch targets: ".LBB0_2" -> "$LBB0_2". */
   for (const char *p = s; p < c; p++) {
      if (p[0] == '.' && p + 1 < c && p[1] == 'L' && (p == s || p[-1] == ' ' || p[-1] == ',')) {
         strbuf_printf(o, "$");
         continue;
      }
      strbuf_printf(o, "%c", *p);
   }
   strbuf_printf(o, "\n");
   return true;
}

char *
llvm_asm_to_program(const char *ir, const char *asm_text, const char *asm_name, struct diag_list *d)
{
   struct strbuf o = {0};
   strbuf_printf(&o, "; llc's code (diffcomp llvm), bindings from the IR's calling convention\n");
   if (!header(ir, &o, d, asm_name)) {
      free(o.s);
      return NULL;
   }
   bool in = false, any = false, ended = false;
   unsigned line = 0;
   for (const char *s = asm_text; *s;) {
      const char *e = line_end(s);
      line++;
      if (!in && !strncmp(s, "main:", 5))
         in = true;
      else if (in && !strncmp(s, ".Lfunc_end", 10))
         break;
      else if (in) {
         if (strstr(s, "SCRATCH_RSRC") && strstr(s, "SCRATCH_RSRC") < e) {
            diag_add(d, DIAG_ERROR, asm_name, (int)line, 1, NULL,
                     "llvm: llc's code uses scratch memory (register spills or private "
                     "arrays), which the gfx9 emulator does not model");
            free(o.s);
            return NULL;
         }
         if (body_line(s, e, &o)) {
            any = true;
            const char *t = s;
            while (t < e && isspace((unsigned char)*t))
               t++;
            ended = !strncmp(t, "s_endpgm", 8);
         }
      }
      s = *e ? e + 1 : e;
   }
   if (!in || !any) {
      diag_add(d, DIAG_ERROR, asm_name, 0, 0, NULL, "llvm: no code for 'main' in llc's output");
      free(o.s);
      return NULL;
   }
   if (!ended)
      strbuf_printf(&o, "s_endpgm\n"); /* the return to the shader part epilog */
   return o.s;
}
