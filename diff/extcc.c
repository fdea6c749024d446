/*
 * An external compiler under test (check --opt-cmd): a command that stands
 * where the optimizing compiler stands. The protocol (README, "Checking
 * your own compiler"):
 *
 *   - the command template's placeholders are replaced: {tgsi} the shader
 *     in canonical text (as `diffcomp tgsi` prints it), {out} the file to
 *     write, {bindings} where raw code's bindings go, {target} the model
 *     name, {stage} frag|vert|comp|geom|tess_ctrl|tess_eval, {limit} the
 *     bisect limit (-1: none); file names are shell-quoted;
 *   - exit 0: {out} holds the program, either an emulator assembly program
 *     with its binding directives (emu/README.md, what `diffcomp compile
 *     -o` writes) or, when the command also wrote {bindings}, raw machine
 *     code whose bindings are that YAML file (one key per directive);
 *   - exit 3: the command does not translate this shader (a refusal);
 *   - anything else -- another status, a signal, the time limit, no or
 *     malformed output, bindings the shader does not have -- is a failure
 *     of the case, with the tail of the command's standard error;
 *   - its standard error may carry `BISECT: pass NAME transformation N
 *     (what)` lines, read by bisect when {limit} is used.
 *
 * Files live in a fresh temporary directory per run, removed after; the
 * directory's name never reaches a message ({tgsi}, {out}, {dir} stand for
 * it), so messages are the same from run to run.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "isa/isa.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const placeholders[] = {"tgsi", "out", "bindings", "target", "stage", "limit"};

/* The placeholder at p ("{name}"), or -1; *len its length with braces. */
static int
placeholder_at(const char *p, size_t *len)
{
   if (*p != '{')
      return -1;
   for (unsigned i = 0; i < ARRAY_SIZE(placeholders); i++) {
      size_t n = strlen(placeholders[i]);
      if (!strncmp(p + 1, placeholders[i], n) && p[1 + n] == '}') {
         *len = n + 2;
         return (int)i;
      }
   }
   return -1;
}

char *
diff_extcc_check_template(const char *cmd)
{
   bool seen[ARRAY_SIZE(placeholders)] = {false};
   for (const char *p = cmd; *p; p++) {
      size_t len;
      int k = placeholder_at(p, &len);
      if (k >= 0) {
         seen[k] = true;
         continue;
      }
      /* {word} not after '$' (shell's ${VAR}) is a misspelt placeholder */
      if (*p == '{' && (p == cmd || p[-1] != '$')) {
         size_t n = 1;
         while (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z'))
            n++;
         if (n > 1 && p[n] == '}')
            return xasprintf("unknown placeholder '%.*s' (known: {tgsi} {out} {bindings} "
                             "{target} {stage} {limit})",
                             (int)n + 1, p);
      }
   }
   if (!seen[0] || !seen[1])
      return xstrdup("the command must name {tgsi} (the shader it reads) and {out} (the "
                     "program it writes)");
   return NULL;
}

bool
diff_extcc_has_limit(const char *cmd)
{
   for (const char *p = cmd; *p; p++) {
      size_t len;
      if (placeholder_at(p, &len) == 5)
         return true;
   }
   return false;
}

/* The command line: each placeholder replaced by vals[k]. */
static char *
expand(const char *cmd, const char *const vals[ARRAY_SIZE(placeholders)])
{
   size_t n = 1;
   for (const char *p = cmd; *p; p++) {
      size_t len;
      int k = placeholder_at(p, &len);
      n += k >= 0 ? strlen(vals[k]) : 1;
   }
   char *out = xmalloc(n), *o = out;
   for (const char *p = cmd; *p;) {
      size_t len;
      int k = placeholder_at(p, &len);
      if (k >= 0) {
         size_t l = strlen(vals[k]);
         memcpy(o, vals[k], l);
         o += l;
         p += len;
      } else {
         *o++ = *p++;
      }
   }
   *o = 0;
   return out;
}

/* Every occurrence of from in s replaced by to (s is freed). */
static char *
replace_all(char *s, const char *from, const char *to)
{
   size_t fl = strlen(from), tl = strlen(to);
   if (!fl || !strstr(s, from))
      return s;
   size_t n = 0;
   for (const char *p = s; (p = strstr(p, from)); p += fl)
      n++;
   char *out = xmalloc(strlen(s) + n * tl + 1), *o = out;
   for (const char *p = s;;) {
      const char *q = strstr(p, from);
      if (!q) {
         strcpy(o, p);
         break;
      }
      memcpy(o, p, (size_t)(q - p));
      o += q - p;
      memcpy(o, to, tl);
      o += tl;
      p = q + fl;
   }
   free(s);
   return out;
}

/* ------------------------------------------------------------------ */
/* The bindings of raw code: YAML, one key per directive                */

static const char *const directives[] = {
    "stage",  "lanes", "block", "shared", "max_vertices", "out_vertices", "outputs", "input",
    "sysval", "const", "value", "output", "texture",      "buffer",       "image",   "size",
};

/* The directive text of a bindings file ("stage: vert" -> ".stage vert"),
 * or NULL with diagnostics. */
static char *
bindings_directives(const char *text, size_t len, const char *file, struct diag_list *d)
{
   struct ydoc *y = ydoc_load(text, len, file, d);
   if (!y)
      return NULL;
   int root = ydoc_root(y);
   struct strbuf b = {0};
   bool ok = ydoc_is_map(y, root);
   if (!ok)
      ydoc_error(y, root, d, "a bindings file is a map: one key per directive (input: ...)");
   for (unsigned i = 0; ok && i < ydoc_len(y, root); i++) {
      int k, v;
      ydoc_pair(y, root, i, &k, &v);
      const char *key = ydoc_scalar(y, k);
      bool known = false;
      for (unsigned j = 0; key && j < ARRAY_SIZE(directives); j++)
         known |= !strcmp(key, directives[j]);
      if (!known) {
         ydoc_error(y, k, d, "unknown key '%s' (the directives of emu/README.md, without the dot)",
                    key ? key : "?");
         ok = false;
         break;
      }
      bool seq = !ydoc_scalar(y, v) && !ydoc_is_map(y, v);
      unsigned n = seq ? ydoc_len(y, v) : 1;
      for (unsigned j = 0; ok && j < n; j++) {
         int item = seq ? ydoc_item(y, v, j) : v;
         const char *val = ydoc_scalar(y, item);
         if (!val || strchr(val, '\n')) {
            ydoc_error(y, item, d, "'%s' takes the directive's arguments as text, or a list", key);
            ok = false;
            break;
         }
         strbuf_printf(&b, ".%s %s\n", key, val);
      }
   }
   ydoc_free(y);
   if (!ok) {
      free(b.s);
      return NULL;
   }
   return strbuf_take(&b);
}

bool
diff_raw_program(const struct isa_model *m, const uint8_t *code, size_t len, const char *btext,
                 size_t blen, const char *bfile, struct emu_asm *out, struct diag_list *d)
{
   char *dirs = bindings_directives(btext, blen, bfile, d);
   /* the directives alone: a program without instructions, then the code */
   bool ok = dirs && emu_asm_parse(m, dirs, bfile, out, d);
   free(dirs);
   if (!ok)
      return false;
   free(out->prog.code);
   out->prog.code = xmalloc(len ? len : 1);
   memcpy(out->prog.code, code, len);
   out->prog.size = len;
   return true;
}

/* ------------------------------------------------------------------ */
/* The bindings against the shader                                      */

/* One past the highest index the shader declares in file (buffer: the
 * CONST dimension; -1 any). */
static uint32_t
declared(const struct tgsi_shader *s, enum tgsi_file file, int buffer)
{
   uint32_t n = 0;
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *dc = &s->decls[i];
      if (dc->file != file)
         continue;
      if (file == TGSI_FILE_CONST && buffer >= 0 && (dc->has_dim ? (int)dc->dim : 0) != buffer)
         continue;
      n = MAX2(n, dc->last + 1);
   }
   return n;
}

static bool
sv_declared(const struct tgsi_shader *s, unsigned sem)
{
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_SV && s->decls[i].has_semantic &&
          (unsigned)s->decls[i].semantic == sem)
         return true;
   return false;
}

char *
diff_bindings_mismatch(const struct tgsi_shader *s, const struct emu_program *p)
{
   if (p->stage != s->stage)
      return xasprintf("the program is a %s shader (.stage), the TGSI a %s shader",
                       tgsi_stage_names[p->stage % TGSI_STAGE_COUNT], tgsi_stage_names[s->stage]);
   for (unsigned i = 0; i < p->nbinds; i++) {
      const struct emu_binding *b = &p->binds[i];
      char c = "xyzw"[b->chan & 3];
      switch (b->kind) {
      case EMU_BIND_INPUT:
         if (b->tgsi_index >= declared(s, TGSI_FILE_IN, -1) ||
             b->vertex >= MAX2(1u, tgsi_interp_in_vertices(s)))
            return xasprintf("binding %u reads IN[%u][%u].%c, which the shader does not declare", i,
                             b->vertex, b->tgsi_index, c);
         break;
      case EMU_BIND_SYSVAL:
         if (b->tgsi_index >= TGSI_SEM_COUNT || !sv_declared(s, b->tgsi_index))
            return xasprintf(
                "binding %u reads system value %s, which the shader does not "
                "declare",
                i, b->tgsi_index < TGSI_SEM_COUNT ? tgsi_semantic_names[b->tgsi_index] : "?");
         break;
      case EMU_BIND_CONST:
         if (b->tgsi_index >= declared(s, TGSI_FILE_CONST, b->buffer))
            return xasprintf("binding %u reads CONST[%u][%u].%c, which the shader does not "
                             "declare",
                             i, b->buffer, b->tgsi_index, c);
         break;
      case EMU_BIND_OUTPUT:
         if (b->tgsi_index >= declared(s, TGSI_FILE_OUT, -1))
            return xasprintf("binding %u writes OUT[%u].%c, which the shader does not declare", i,
                             b->tgsi_index, c);
         break;
      case EMU_BIND_SIZE: {
         enum tgsi_file f = (enum tgsi_file)b->buffer;
         bool ok = f == TGSI_FILE_MEMORY ? declared(s, f, -1) > 0
                   : f == TGSI_FILE_SAMP || f == TGSI_FILE_SVIEW
                       ? b->tgsi_index <
                             MAX2(declared(s, TGSI_FILE_SAMP, -1), declared(s, TGSI_FILE_SVIEW, -1))
                       : f < TGSI_FILE_COUNT && b->tgsi_index < declared(s, f, -1);
         if (!ok)
            return xasprintf("binding %u reads the size of %s[%u], which the shader does not "
                             "declare",
                             i, f < TGSI_FILE_COUNT ? tgsi_file_names[f] : "?", b->tgsi_index);
         break;
      }
      default:
         break;
      }
   }
   return NULL;
}

/* ------------------------------------------------------------------ */
/* Static figures of a program no compiler of ours made                 */

void
diff_program_stats(const struct isa_model *m, const struct emu_program *p, struct compile_stats *st)
{
   memset(st, 0, sizeof(*st));
   struct isa_insn *v = NULL;
   size_t n = 0;
   struct diag_list d = {0};
   if (isa_decode_program(m, p->code, p->size, &v, &n, &d) != ISA_ERR_OK) {
      diag_clear(&d);
      free(v);
      return;
   }
   int rpt = isa_mod_by_role(m, ISA_ROLE_RPT), nopn = isa_mod_by_role(m, ISA_ROLE_NOPS),
       stall = isa_mod_by_role(m, ISA_ROLE_STALL);
   unsigned top = 0;
   for (size_t i = 0; i < n; i++) {
      const struct isa_insn *in = &v[i];
      uint64_t cyc = 1;
      if (in->sem == ISA_SEM_NOP) {
         st->nops++;
         if (rpt >= 0)
            cyc += (uint64_t)in->mod[rpt];
      }
      if (nopn >= 0)
         cyc += (uint64_t)in->mod[nopn];
      if (stall >= 0 && in->mod[stall] > 1)
         cyc = (uint64_t)in->mod[stall];
      st->cycles += cyc;
      for (unsigned k = 0; k < (unsigned)in->ndst + in->nsrc; k++) {
         const struct isa_opnd *o = k < in->ndst ? &in->dst[k] : &in->src[k - in->ndst];
         struct isa_file_info fi;
         if (o->kind != ISA_OPND_REG)
            continue;
         isa_file_info(m, o->file, &fi);
         if (fi.kind == ISA_FILE_FULL && (int)o->index != fi.fixed)
            top = MAX2(top, (unsigned)o->index + 1);
      }
   }
   st->instructions = (unsigned)n;
   st->registers = top;
   free(v);
}

/* ------------------------------------------------------------------ */
/* Running the command                                                  */

void
diff_extcc_result_fini(struct diff_extcc_result *r)
{
   free(r->msg);
   free(r->err);
   memset(r, 0, sizeof(*r));
}

static void
fail(struct diff_extcc_result *r, enum diff_signal_kind kind, enum compile_status cs, char *msg)
{
   r->status = cs;
   r->kind = kind;
   r->msg = msg;
}

/* Removes dir and the files in it (the command may leave more). */
static void
remove_dir(const char *dir)
{
   DIR *d = opendir(dir);
   if (d) {
      for (struct dirent *e; (e = readdir(d));) {
         if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
         char *p = xasprintf("%s/%s", dir, e->d_name);
         unlink(p);
         free(p);
      }
      closedir(d);
   }
   rmdir(dir);
}

static bool
write_text(const char *path, const char *text)
{
   FILE *f = fopen(path, "w");
   if (!f)
      return false;
   bool ok = fputs(text, f) >= 0;
   return fclose(f) == 0 && ok;
}

/* Reads the program the command wrote into out. */
static void
read_program(const struct isa_model *m, const char *outp, const char *bindp,
             struct emu_program *out, struct diff_extcc_result *r)
{
   char *code = NULL, *btext = NULL, *err = NULL;
   size_t len = 0, blen = 0;
   struct stat st;
   struct diag_list d = {0};
   if (stat(outp, &st) != 0) {
      fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
           xstrdup("the command exited 0 but wrote no program ({out} does not exist)"));
      return;
   }
   if (!read_file(outp, &code, &len, &err)) {
      fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR, xasprintf("cannot read {out}: %s", err));
      free(err);
      return;
   }
   bool raw = stat(bindp, &st) == 0;
   if (!len) {
      fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR, xstrdup("the command wrote an empty program"));
   } else if (raw && !read_file(bindp, &btext, &blen, &err)) {
      fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR, xasprintf("cannot read {bindings}: %s", err));
      free(err);
   } else if (raw) {
      struct emu_asm a;
      if (diff_raw_program(m, (const uint8_t *)code, len, btext, blen, "{bindings}", &a, &d)) {
         *out = a.prog;
         memset(&a.prog, 0, sizeof(a.prog));
         emu_asm_free(&a);
      } else {
         const struct diag *g = NULL;
         for (unsigned i = 0; i < d.n && !g; i++)
            if (d.v[i].sev == DIAG_ERROR)
               g = &d.v[i];
         fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
              g && g->line
                  ? xasprintf("bad bindings: {bindings}:%d:%d: %s", g->line, g->col, g->msg)
                  : xasprintf("bad bindings: %s", g ? g->msg : "no directive"));
      }
   } else if (utf8_text_prefix(code, len) != len) {
      fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
           xasprintf("{out} is not an assembly program (binary data at byte %zu; raw code "
                     "needs a {bindings} file)",
                     utf8_text_prefix(code, len)));
   } else {
      struct emu_asm a;
      if (emu_asm_parse(m, code, "{out}", &a, &d)) {
         *out = a.prog;
         memset(&a.prog, 0, sizeof(a.prog));
         emu_asm_free(&a);
      } else {
         const struct diag *g = NULL;
         for (unsigned i = 0; i < d.n && !g; i++)
            if (d.v[i].sev == DIAG_ERROR)
               g = &d.v[i];
         fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
              g && g->line
                  ? xasprintf("malformed program: {out}:%d:%d: %s", g->line, g->col, g->msg)
                  : xasprintf("malformed program: %s", g ? g->msg : "does not assemble"));
      }
   }
   diag_clear(&d);
   free(code);
   free(btext);
}

/* The message of a failed run: what happened, then the stderr tail. */
static void
add_tail(struct diff_extcc_result *r, const struct proc_result *pr)
{
   struct proc_result t = *pr;
   t.err = r->err;
   char *tail = proc_err_tail(&t, DIFF_EXTCC_TAIL_LINES, DIFF_EXTCC_TAIL_CHARS);
   if (*tail) {
      char *m = xasprintf("%s; stderr: %s", r->msg, tail);
      free(r->msg);
      r->msg = m;
   }
   free(tail);
}

void
diff_extcc_compile(const struct diff_extcc *x, const struct tgsi_shader *s,
                   const struct isa_model *m, long long limit, struct emu_program *out,
                   struct diff_extcc_result *r)
{
   memset(r, 0, sizeof(*r));
   memset(out, 0, sizeof(*out));
   const char *tmp = getenv("TMPDIR");
   char *dir = xasprintf("%s/diffcomp-cmd-XXXXXX", tmp && *tmp ? tmp : "/tmp");
   if (!mkdtemp(dir)) {
      fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
           xasprintf("cannot make a temporary directory: %s", strerror(errno)));
      free(dir);
      return;
   }
   char *tgsi = xasprintf("%s/shader.tgsi", dir), *outp = xasprintf("%s/program.out", dir),
        *bindp = xasprintf("%s/bindings.yaml", dir);
   char *text = tgsi_print(s), *lim = xasprintf("%lld", limit < 0 ? -1 : limit);
   char *q[3] = {proc_quote(tgsi), proc_quote(outp), proc_quote(bindp)};
   const char *vals[ARRAY_SIZE(placeholders)] = {
       q[0], q[1], q[2], isa_model_name(m), tgsi_stage_names[s->stage], lim};
   if (!write_text(tgsi, text)) {
      fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR, xstrdup("cannot write {tgsi}"));
   } else {
      char *cmd = expand(x->cmd, vals);
      struct proc_result pr;
      proc_run_shell(cmd, x->timeout_ms, &pr);
      r->seconds = pr.seconds;
      /* messages name the files by placeholder: the same on every run */
      r->err = replace_all(
          replace_all(replace_all(replace_all(xstrdup(pr.err), tgsi, "{tgsi}"), outp, "{out}"),
                      bindp, "{bindings}"),
          dir, "{dir}");
      char sb[32];
      if (pr.status == PROC_SPAWN_FAILED)
         fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
              xasprintf("cannot run the command: %s", strerror(pr.code)));
      else if (pr.status == PROC_TIMEOUT)
         fail(r, DIFF_SIG_TIMEOUT, COMPILE_ERROR,
              xasprintf("the command ran past its time limit (%.3g s) and was killed",
                        x->timeout_ms / 1000.0));
      else if (pr.status == PROC_SIGNALED)
         fail(r, DIFF_SIG_CRASH, COMPILE_ERROR,
              xasprintf("the command died on %s", diff_signal_name(pr.code, sb, sizeof(sb))));
      else if (pr.code > 128 && pr.code < 128 + 32) /* the shell's report of a signal */
         fail(r, DIFF_SIG_CRASH, COMPILE_ERROR,
              xasprintf("the command died on %s (exit status %d)",
                        diff_signal_name(pr.code - 128, sb, sizeof(sb)), pr.code));
      else if (pr.code == DIFF_EXTCC_REFUSED)
         fail(r, DIFF_SIG_UNSUPPORTED, COMPILE_UNSUPPORTED,
              xasprintf("the command does not translate this shader (exit %d)", pr.code));
      else if (pr.code == 127)
         fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
              xstrdup("the command exited with status 127 (not found?)"));
      else if (pr.code)
         fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
              xasprintf("the command exited with status %d", pr.code));
      else
         read_program(m, outp, bindp, out, r);
      if (!r->msg) {
         char *why = diff_bindings_mismatch(s, out);
         if (why)
            fail(r, DIFF_SIG_COMPILE, COMPILE_ERROR,
                 xasprintf("the bindings do not match the shader: %s", why));
         free(why);
      }
      if (r->msg) {
         add_tail(r, &pr);
         emu_program_free(out);
      }
      proc_result_fini(&pr);
      free(cmd);
   }
   for (unsigned i = 0; i < 3; i++)
      free(q[i]);
   remove_dir(dir);
   free(text);
   free(lim);
   free(tgsi);
   free(outp);
   free(bindp);
   free(dir);
}

/* LLVM's -opt-bisect-limit lines ("BISECT: running pass (N) NAME on UNIT")
 * in bisect's format ("BISECT: pass NAME transformation N (UNIT)", the
 * name's spaces as '_'); other lines ("NOT running ...", past the limit)
 * stay, and bisect ignores them. s is freed. */
static char *
llvm_bisect_lines(char *s)
{
   static const char run[] = "BISECT: running pass (";
   if (!strstr(s, run))
      return s;
   size_t cap = strlen(s) * 2 + 64, n = 0;
   char *out = xmalloc(cap);
   for (const char *p = s; *p;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
      long long k;
      int at = 0;
      if (!strncmp(p, run, sizeof(run) - 1) &&
          sscanf(p + sizeof(run) - 1, "%lld) %n", &k, &at) == 1 && at) {
         const char *name = p + sizeof(run) - 1 + at, *end = p + len;
         while (end > name && (end[-1] == '\n' || end[-1] == '\r'))
            end--;
         const char *on = name;
         while (on < end && strncmp(on, " on ", 4))
            on++;
         n += (size_t)snprintf(out + n, cap - n, "BISECT: pass ");
         for (const char *c = name; c < on; c++)
            out[n++] = *c == ' ' ? '_' : *c;
         n += (size_t)snprintf(out + n, cap - n, " transformation %lld (%.*s)\n", k,
                               (int)(on < end ? end - on - 4 : 0), on < end ? on + 4 : "");
      } else {
         memcpy(out + n, p, len);
         n += len;
      }
      p += len;
   }
   out[n] = 0;
   free(s);
   return out;
}

/* bisect's compile function: the command at o's limit, its stderr the log. */
bool
diff_extcc_bisect_compile(void *ctx, const struct tgsi_shader *s, const struct isa_model *m,
                          const struct opt_options *o, struct emu_program *out, char **log,
                          struct diag_list *d)
{
   const struct diff_extcc *x = ctx;
   struct diff_extcc_result r;
   diff_extcc_compile(x, s, m, o->bisect ? o->bisect_limit : -1, out, &r);
   bool ok = !r.msg;
   if (!ok)
      diag_add(d, DIAG_ERROR, NULL, 0, 0, NULL, "%s", r.msg);
   if (log) {
      *log = llvm_bisect_lines(r.err);
      r.err = NULL;
   }
   diff_extcc_result_fini(&r);
   return ok;
}
