/*
 * diffcomp llvm: LLVM's AMDGPU back end as a compiler under test.
 *
 *   llvm ir FILE.tgsi [-o OUT.ll]           TGSI -> LLVM IR (with its bindings)
 *   llvm asm FILE.ll FILE.s [-o OUT.s]      llc's assembly -> an emulator program
 *   llvm cc FILE.tgsi -o OUT.s [--llc CMD]  both, running llc in between: the
 *                                           external compiler for check --opt-cmd
 *
 * Exit status: 0 done; 3 the shader is not translated (a refusal, the
 * --opt-cmd protocol's); 1 llc or the conversion failed; 2 bad usage or input.
 */
#include "compiler/llvm/llvm.h"
#include "tools/tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LLVM_EXIT_REFUSED 3

static void
llvm_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp llvm ir FILE.tgsi [-o OUT.ll]\n"
              "       diffcomp llvm asm FILE.ll FILE.s [-o OUT.s]\n"
              "       diffcomp llvm cc FILE.tgsi -o OUT.s [--llc CMD] [--keep]\n\n"
              "LLVM's AMDGPU back end (llc -march=amdgcn -mcpu=gfx900) as a compiler\n"
              "under test on the gfx9 emulator.\n\n"
              "  ir    translate TGSI to LLVM IR: an amdgpu_ps/vs/cs function whose\n"
              "        header comments say which input, constant or output each\n"
              "        argument and returned value is\n"
              "  asm   turn llc's assembly of that IR into an emulator program with\n"
              "        binding directives (the format compile -o writes)\n"
              "  cc    ir, then llc -O2 -march=amdgcn -mcpu=gfx900, then asm: use as\n"
              "        check --target gfx9 --opt-cmd 'diffcomp llvm cc {tgsi} -o {out}'\n\n"
              "  -o FILE     output (default: standard output; cc needs it)\n"
              "  --llc CMD   the llc to run (default $DIFFCOMP_LLC, else llc)\n"
              "  --keep      cc: keep OUT.s.ll and OUT.s.llc.s beside the output\n\n"
              "Exit status: 0 done, 3 the shader is not translated (the reason on\n"
              "stderr), 1 llc or the conversion failed, 2 bad usage or input.\n");
}

static bool
write_text(const char *path, const char *text)
{
   FILE *f = path ? fopen(path, "w") : stdout;
   if (!f) {
      fprintf(stderr, "diffcomp llvm: %s: %s\n", path, strerror(errno));
      return false;
   }
   bool ok = fputs(text, f) >= 0;
   if (path)
      ok = (fclose(f) == 0) && ok;
   if (!ok)
      fprintf(stderr, "diffcomp llvm: %s: write failed\n", path ? path : "<stdout>");
   return ok;
}

/* Translates; 0, LLVM_EXIT_REFUSED or 2 (unreadable). */
static int
translate(const char *path, char **ir)
{
   struct diag_list d = {0};
   struct tgsi_parse_opts po = {0};
   struct tgsi_shader *s = tgsi_parse_file(path, &po, &d);
   int rc = 2;
   if (s) {
      *ir = llvm_from_tgsi(s, &d);
      rc = *ir ? 0 : LLVM_EXIT_REFUSED;
   }
   print_diags(&d, stderr);
   diag_clear(&d);
   tgsi_shader_free(s);
   return rc;
}

static int
convert(const char *ir, const char *asm_path, char **prog)
{
   char *text = NULL, *err = NULL;
   size_t len;
   if (!read_file(asm_path, &text, &len, &err)) {
      fprintf(stderr, "diffcomp llvm: %s\n", err);
      free(err);
      return 2;
   }
   struct diag_list d = {0};
   *prog = llvm_asm_to_program(ir, text, asm_path, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   free(text);
   return *prog ? 0 : 1;
}

/* Runs llc on in, writing out; its stderr passes through. */
static bool
run_llc(const char *llc, const char *in, const char *out)
{
   pid_t pid = fork();
   if (pid < 0) {
      fprintf(stderr, "diffcomp llvm: fork: %s\n", strerror(errno));
      return false;
   }
   if (pid == 0) {
      char *argv[] = {(char *)llc, "-O2", "-march=amdgcn", "-mcpu=gfx900",
                      (char *)in,  "-o",  (char *)out,     NULL};
      execvp(llc, argv);
      fprintf(stderr, "diffcomp llvm: cannot run %s: %s\n", llc, strerror(errno));
      _exit(127);
   }
   int st;
   while (waitpid(pid, &st, 0) < 0)
      if (errno != EINTR)
         return false;
   if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
      return true;
   if (WIFSIGNALED(st))
      fprintf(stderr, "diffcomp llvm: %s died of signal %d\n", llc, WTERMSIG(st));
   else
      fprintf(stderr, "diffcomp llvm: %s exited with status %d\n", llc, WEXITSTATUS(st));
   return false;
}

static int
cmd_cc(const char *tgsi, const char *out, const char *llc, bool keep)
{
   char *ir = NULL, *prog = NULL;
   int rc = translate(tgsi, &ir);
   if (rc)
      return rc;
   char *ll = xasprintf("%s.ll", out), *s = xasprintf("%s.llc.s", out);
   rc = 1;
   if (write_text(ll, ir) && run_llc(llc, ll, s))
      rc = convert(ir, s, &prog);
   if (!rc && !write_text(out, prog))
      rc = 2;
   if (!keep) {
      remove(ll);
      remove(s);
   }
   free(ll);
   free(s);
   free(ir);
   free(prog);
   return rc;
}

int
cmd_llvm(int argc, char **argv)
{
   const char *out = NULL, *llc = getenv("DIFFCOMP_LLC"), *files[2] = {NULL, NULL};
   unsigned nfiles = 0;
   bool keep = false;
   if (argc < 2) {
      llvm_usage(stderr);
      return 2;
   }
   const char *mode = argv[1];
   if (!strcmp(mode, "--help") || !strcmp(mode, "-h")) {
      llvm_usage(stdout);
      return 0;
   }
   for (int i = 2; i < argc; i++) {
      const char *v;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         llvm_usage(stdout);
         return 0;
      } else if (opt_value(argc, argv, &i, "-o", &v))
         out = v;
      else if (opt_value(argc, argv, &i, "--llc", &v))
         llc = v;
      else if (!strcmp(argv[i], "--keep"))
         keep = true;
      else if (argv[i][0] == '-' && argv[i][1])
         return usage_error("llvm: unknown option '%s'", argv[i]);
      else if (nfiles < 2)
         files[nfiles++] = argv[i];
      else
         return usage_error("llvm: too many files");
   }
   if (!llc || !*llc)
      llc = "llc";
   if (!strcmp(mode, "ir")) {
      if (nfiles != 1)
         return usage_error("llvm ir: one TGSI file");
      char *ir = NULL;
      int rc = translate(files[0], &ir);
      if (!rc && !write_text(out, ir))
         rc = 2;
      free(ir);
      return rc;
   }
   if (!strcmp(mode, "asm")) {
      if (nfiles != 2)
         return usage_error("llvm asm: the IR file and llc's assembly file");
      char *ir = NULL, *prog = NULL, *err = NULL;
      size_t len;
      if (!read_file(files[0], &ir, &len, &err)) {
         fprintf(stderr, "diffcomp llvm: %s\n", err);
         free(err);
         return 2;
      }
      int rc = convert(ir, files[1], &prog);
      if (!rc && !write_text(out, prog))
         rc = 2;
      free(ir);
      free(prog);
      return rc;
   }
   if (!strcmp(mode, "cc")) {
      if (nfiles != 1 || !out)
         return usage_error("llvm cc: one TGSI file and -o OUT");
      return cmd_cc(files[0], out, llc, keep);
   }
   return usage_error("llvm: unknown mode '%s' (ir, asm or cc)", mode);
}
