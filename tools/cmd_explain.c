/*
 * diffcomp explain REPRO.yaml: a picture of a hazard (issue 16). Compiles
 * the reproducer's shader with the optimizing compiler as the check did
 * (its options and injected faults), runs one wave of it on the emulator
 * with the trace on, and draws the first hazard the run meets as an SVG
 * timeline: one row per instruction from the write to the early read,
 * each instruction's issue cycle, the cycle the written result is ready,
 * the read that came before it, and the wait the code needed there
 * (isa_delay, through diff_needed_sync). The picture carries its own
 * legend, so it reads without the README.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 40 /* instructions drawn at most (the last ones before the read) */

static void
explain_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp explain REPRO.yaml [-o FILE.svg]\n\n"
              "Compiles the reproducer's shader with the optimizing compiler as the check\n"
              "did, runs one wave on the emulator and draws the first hazard it meets as an\n"
              "SVG timeline: the instructions from the write to the early read, when each\n"
              "issues, when the result is ready, the read that came too early and the wait\n"
              "the code needed. Writes FILE.svg (default: REPRO.svg next to the reproducer;\n"
              "'-': standard output).\n\n"
              "Exit status: 0 a hazard was drawn; 1 the run meets no hazard; 2 bad usage or\n"
              "an unusable reproducer.\n");
}

struct row {
   uint32_t pc; /* byte address */
   uint64_t cycle, stall;
   char why[32];
};

struct trace {
   struct row *v;
   unsigned n, cap;
};

static void
on_trace(void *user, const struct emu_trace *t)
{
   struct trace *tr = user;
   if (t->wave != 0 || tr->n >= 1u << 20)
      return;
   VEC_RESERVE(tr->v, tr->cap, tr->n + 1);
   struct row *r = &tr->v[tr->n++];
   r->pc = t->pc;
   r->cycle = t->cycle;
   r->stall = t->stall;
   snprintf(r->why, sizeof(r->why), "%s", t->why ? t->why : "");
}

static void
xml_text(struct strbuf *o, const char *s)
{
   for (; *s; s++)
      switch (*s) {
      case '<':
         strbuf_printf(o, "&lt;");
         break;
      case '>':
         strbuf_printf(o, "&gt;");
         break;
      case '&':
         strbuf_printf(o, "&amp;");
         break;
      default:
         strbuf_printf(o, "%c", *s);
      }
}

/* Instruction index of byte address a in the decoded program, or -1. */
static int
index_of(const struct isa_insn *in, size_t n, uint32_t a)
{
   for (size_t i = 0; i < n; i++)
      if (in[i].addr == a)
         return (int)i;
   return -1;
}

/* Line i of the listing, without its end. */
static void
listing_line(const char *text, int i, char *out, size_t size)
{
   const char *p = text;
   for (int k = 0; p && k < i; k++)
      p = (p = strchr(p, '\n')) ? p + 1 : NULL;
   snprintf(out, size, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
}

/* The SVG: rows from the producer's issue (trace entry first) to the
 * early read (trace entry last), cycles on the x axis. */
static char *
draw(const struct isa_model *m, const struct isa_insn *in, size_t n, const char *listing,
     const struct trace *tr, unsigned first, unsigned last, const struct emu_event *ev,
     const char *reg)
{
   if (last - first + 1 > MAX_ROWS)
      first = last + 1 - MAX_ROWS;
   int c = index_of(in, n, ev->pc), p = index_of(in, n, ev->producer_pc);
   uint64_t c0 = tr->v[first].cycle, c1 = tr->v[last].cycle;
   int64_t ready = (int64_t)tr->v[last].cycle + ev->early; /* when the read would be right */
   uint64_t span = MAX2(c1, (uint64_t)MAX2(ready, 0)) - c0 + 2;
   double cw = MIN2(24.0, 640.0 / (double)span);
   const int left = 360, top = 96, rh = 22;
   unsigned rows = last - first + 1;
   int width = left + (int)(cw * (double)span) + 300, height = top + (int)rows * rh + 110;
   const char *wait = c >= 0 && p >= 0 ? diff_needed_sync(m, &in[p], &in[c], ev->kind) : "a wait";
   struct strbuf o = {0};
   strbuf_printf(&o,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "font-family=\"monospace\" font-size=\"12\">\n",
                 width, height);
   strbuf_printf(&o, "<title>hazard timeline</title>\n<rect width=\"100%%\" height=\"100%%\" "
                     "fill=\"white\"/>\n");
   strbuf_printf(&o,
                 "<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">Hazard: %s "
                 "(%s) at pc %d</text>\n",
                 emu_event_names[ev->kind], emu_event_descs[ev->kind], c);
   strbuf_printf(&o,
                 "<text x=\"8\" y=\"40\">pc %d reads %s at cycle %llu; pc %d wrote it, ready at "
                 "cycle %lld: the read is %d cycle%s early.</text>\n",
                 c, reg, (unsigned long long)c1, p, (long long)ready, ev->early,
                 ev->early == 1 ? "" : "s");
   strbuf_printf(&o, "<text x=\"8\" y=\"58\">The code needed %s before pc %d.</text>\n", wait, c);
   strbuf_printf(&o,
                 "<text x=\"8\" y=\"%d\" fill=\"#555\">issue cycle (relative to cycle %llu)"
                 "</text>\n",
                 top - 12, (unsigned long long)c0);
   for (uint64_t k = 0; k<span; k += span> 40 ? 10 : 5) {
      double x = left + cw * (double)k;
      strbuf_printf(&o,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                    "<text x=\"%.1f\" y=\"%d\" fill=\"#555\">%llu</text>\n",
                    x, top - 4, x, top + (int)rows * rh, x + 2, top - 2, (unsigned long long)k);
   }
   for (unsigned i = first; i <= last; i++) {
      const struct row *r = &tr->v[i];
      int y = top + (int)(i - first) * rh, ix = index_of(in, n, r->pc);
      bool is_p = i == first && ix == p, is_c = i == last;
      char line[160], label[200];
      listing_line(listing, ix, line, sizeof(line));
      snprintf(label, sizeof(label), "pc %-3d %s", ix, line);
      strbuf_printf(&o, "<text x=\"8\" y=\"%d\"%s>", y + 15,
                    is_c   ? " fill=\"#c00\""
                    : is_p ? " fill=\"#06c\""
                           : "");
      xml_text(&o, label);
      strbuf_printf(&o, "</text>\n");
      double x = left + cw * (double)(r->cycle - c0);
      if (r->stall)
         strbuf_printf(&o,
                       "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#eee\"/>"
                       "<text x=\"%.1f\" y=\"%d\" fill=\"#777\">waits %llu (%s)</text>\n",
                       x - cw * (double)r->stall, y + 4, cw * (double)r->stall, rh - 8,
                       x - cw * (double)r->stall, y + 15, (unsigned long long)r->stall,
                       r->why[0] ? r->why : "stall");
      strbuf_printf(&o,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>"
                    "issue at cycle %llu</title></rect>\n",
                    x, y + 3, MAX2(cw, 4.0), rh - 6,
                    is_c   ? "#c00"
                    : is_p ? "#06c"
                           : "#888",
                    (unsigned long long)r->cycle);
      if (is_p && ready >= (int64_t)c0) {
         double xr = left + cw * (double)((uint64_t)ready - c0);
         strbuf_printf(&o,
                       "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#06c\" "
                       "stroke-width=\"3\"/><text x=\"%.1f\" y=\"%d\" fill=\"#06c\">%s ready at "
                       "cycle %lld</text>\n",
                       x + MAX2(cw, 4.0), y + rh / 2, xr, y + rh / 2, xr + 4, y + 15, reg,
                       (long long)ready);
         strbuf_printf(&o,
                       "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#06c\" "
                       "stroke-dasharray=\"4 3\"/>\n",
                       xr, y, xr, top + (int)rows * rh);
      }
      if (is_c)
         strbuf_printf(&o,
                       "<text x=\"%.1f\" y=\"%d\" fill=\"#c00\">early read of %s (%d cycle%s "
                       "early): needs %s</text>\n",
                       x + MAX2(cw, 4.0) + 4, y + 15, reg, ev->early, ev->early == 1 ? "" : "s",
                       wait);
   }
   int ly = top + (int)rows * rh + 24;
   strbuf_printf(&o,
                 "<text x=\"8\" y=\"%d\">Legend: each row is one executed instruction of wave 0; "
                 "a box marks the cycle it issues, a grey band the cycles it waited first.</text>\n"
                 "<text x=\"8\" y=\"%d\" fill=\"#06c\">Blue: the instruction that writes %s and "
                 "the span until its result is ready (dashed line).</text>\n"
                 "<text x=\"8\" y=\"%d\" fill=\"#c00\">Red: the instruction that reads it before "
                 "then; it needed %s.</text>\n",
                 ly, ly + 18, reg, ly + 36, wait);
   strbuf_printf(&o, "</svg>\n");
   return o.s;
}

/* Compiles and runs r's shader; the SVG of its first hazard, or NULL with
 * *none set when the run meets none. */
static char *
explain(const struct diff_repro *r, bool *none, struct diag_list *d)
{
   struct diff_check c;
   diff_check_init(&c);
   c.o.jobs = 0;
   char *svg = NULL;
   struct tgsi_shader *s = NULL;
   struct emu_program prog = {0};
   struct emu_code *code = NULL;
   struct env *e = NULL;
   struct isa_insn *in = NULL;
   size_t n = 0;
   struct trace tr = {0};
   struct emu_result res = {0};
   *none = false;
   if (!diff_repro_setup(r, &c, d))
      goto out;
   struct tgsi_parse_opts po = c.o.popts;
   tgsi_read_dialect(r->text, strlen(r->text), &po);
   if (!(s = tgsi_parse(r->text, strlen(r->text), r->shader, &po, d)))
      goto out;
   const struct isa_model *m = c.targets[0].model;
   struct opt_options o;
   diff_check_opt_options(&c, &o);
   if (opt_compile(s, m, &o, &prog, NULL, NULL, d) != COMPILE_OK ||
       emu_load(&prog, &code, d) != EMU_OK ||
       isa_decode_program(m, prog.code, prog.size, &in, &n, d) != ISA_ERR_OK)
      goto out;
   uint32_t nout = 1;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_OUT)
         nout = MAX2(nout, s->decls[i].last + 1);
   if (!(e = diff_gen_inputs(s, r->o.seed, emu_wave_size(m), d)))
      goto out;
   if (!e->out && !env_alloc_outputs(e, MAX2(nout, emu_code_output_regs(code)), 1))
      goto out;
   struct emu_options eo = {.trace = on_trace, .trace_user = &tr};
   emu_run(code, e, &eo, &res, d);
   const struct emu_event *ev = NULL;
   for (unsigned i = 0; i < res.nevents && !ev; i++)
      if (res.events[i].kind < EMU_EV_FIRST_FAULT && res.events[i].wave == 0)
         ev = &res.events[i];
   /* the early read: the last issue of its pc at its cycle; the write: the
    * last issue of the producer before it */
   int last = -1, first = -1;
   for (unsigned i = 0; ev && i < tr.n; i++)
      if (tr.v[i].pc == ev->pc && tr.v[i].cycle <= ev->cycle)
         last = (int)i;
   for (int i = last; i >= 0 && first < 0; i--)
      if (tr.v[i].pc == ev->producer_pc)
         first = i;
   if (!ev || last < 0) {
      *none = true;
      goto out;
   }
   char reg[32] = "-";
   if (ev->file != 0xff)
      isa_reg_text(m, ev->file, ev->index, reg, sizeof(reg));
   char *listing = isa_print_program(m, prog.code, prog.size, NULL);
   svg =
       draw(m, in, n, listing, &tr, (unsigned)(first < 0 ? last : first), (unsigned)last, ev, reg);
   free(listing);
out:
   emu_result_free(&res);
   free(tr.v);
   free(in);
   env_free(e);
   emu_code_free(code);
   emu_program_free(&prog);
   tgsi_shader_free(s);
   diff_check_fini(&c);
   return svg;
}

int
cmd_explain(int argc, char **argv)
{
   const char *file = NULL, *out = NULL, *v;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         explain_usage(stdout);
         return EXIT_OK;
      } else if (opt_value(argc, argv, &i, "-o", &v)) {
         if (!v)
            return usage_error("-o takes a file name");
         out = v;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         return usage_error("explain: unknown option '%s' (see diffcomp explain --help)", argv[i]);
      } else if (file) {
         return usage_error("explain: one reproducer at a time");
      } else {
         file = argv[i];
      }
   }
   if (!file) {
      explain_usage(stderr);
      return EXIT_USAGE;
   }
   struct diff_repro r;
   if (!load_repro(file, &r))
      return EXIT_USAGE;
   struct diag_list d = {0};
   bool none;
   char *svg = explain(&r, &none, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   diff_repro_free(&r);
   if (!svg) {
      if (none)
         printf("the optimized program meets no hazard in wave 0: nothing to draw\n");
      return none ? EXIT_FAIL : EXIT_USAGE;
   }
   char *path = out ? xstrdup(out) : NULL;
   if (!path) {
      const char *dot = strrchr(file, '.');
      path = xasprintf("%.*s.svg", (int)(dot ? dot - file : (long)strlen(file)), file);
   }
   int rc = EXIT_OK;
   FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
   if (!f || fputs(svg, f) < 0) {
      fprintf(stderr, "%s: cannot write %s\n", prog_name, path);
      rc = EXIT_USAGE;
   } else if (f != stdout) {
      printf("wrote %s\n", path);
   }
   if (f && f != stdout)
      fclose(f);
   free(path);
   free(svg);
   return rc;
}
