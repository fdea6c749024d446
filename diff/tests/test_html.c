/*
 * The HTML report (diff/html.c, diff/detail.c) without a browser: a run
 * with delay-slot-short injected on a3xx gives fs_phong a page with its
 * hazard's timeline (reader at the event's pc, its producer before it,
 * an SVG), both listings and the TGSI; a passing case gets no page; names
 * are escaped; the index offers only the filters of statuses present.
 * A crashed case is not rebuilt. A failure whose shader passes on another
 * target sharing the IR passes is put on its back end on its page.
 * (html_chromium loads the real site.)
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "util/test.h"

#include <string.h>

static const char pass_shader[] = "FRAG\n"
                                  "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                                  "DCL OUT[0], COLOR\n"
                                  "  0: MOV OUT[0], IN[0]\n"
                                  "  1: END\n";

static void
test_site(void)
{
   struct diff_check c;
   struct diag_list d = {0};
   diff_check_init(&c);
   c.o.invocations = 64;
   c.o.jobs = 0;
   CHECK(diff_check_add_targets(&c, "a3xx", &d));
   opt_fault_set_add(&c.o.faults, opt_fault_find("delay-slot-short"));
   diff_check_add_shader(&c, DC_SOURCE_DIR "/captures/fs_phong.tgsi", NULL);
   diff_check_add_shader(&c, "gen:<b>&\"1", xstrdup(pass_shader));
   diff_check_make_cases(&c, 1, 1);
   diff_check_run(&c, NULL, NULL);
   CHECK_EQ_U(c.results[0].status, DIFF_FAIL);
   CHECK_EQ_U(c.results[1].status, DIFF_PASS);
   CHECK(diff_html_has_page(&c, 0) && !diff_html_has_page(&c, 1));

   char *name = diff_html_page_name(0);
   CHECK(!strcmp(name, "cases/c0000.html"));
   char *index = diff_html_index(&c, NULL);
   CHECKF(strstr(index, "<a href=\"cases/c0000.html\">") != NULL, "%s", index);
   CHECK(strstr(index, "gen:&lt;b&gt;&amp;&quot;1</td>") != NULL);
   CHECK(strstr(index, "id=\"show-fail\"") && strstr(index, "id=\"show-pass\""));
   CHECK(!strstr(index, "id=\"show-error\"")); /* no error case: no such filter */
   CHECK(strstr(index, "#show-fail:checked~table tbody tr:not(.st-fail){display:none}") != NULL);
   CHECK(strstr(index, "<tr><td>total</td><td class=\"n\">2</td><td class=\"n\">1</td>"
                       "<td class=\"n\">1</td>") != NULL);

   struct diff_case_detail det;
   diff_case_detail(&c, 0, &det);
   CHECK(det.ref_ok && det.opt_ok && det.tgsi && strstr(det.tgsi, "PROPERTY FS_COLOR0"));
   CHECKF(det.tl_prog && !strcmp(det.tl_prog, "opt"), "%s", det.tl_prog ? det.tl_prog : "-");
   unsigned hz = 0, pr = 0, at = 0;
   for (unsigned k = 0; k < det.nrows; k++) {
      if (det.rows[k].mark == DIFF_TL_HAZARD)
         hz++, at = k;
      pr += det.rows[k].mark == DIFF_TL_PRODUCER;
   }
   CHECK(hz == 1 && pr == 1 && det.rows[at].pc == det.tl_pc);
   CHECK(det.nrows <= at + 7 && det.tl_early > 0);
   /* the hazard's first signal names the same pc */
   char pcs[32];
   snprintf(pcs, sizeof(pcs), "at 0x%x,", det.tl_pc);
   CHECKF(strstr(c.results[0].sig[0].msg, pcs) != NULL, "%s / %s", c.results[0].sig[0].msg, pcs);
   char *page = diff_html_case(&c, 0, NULL, &det);
   CHECK(strstr(page, "<h3>ref</h3><pre>0x0000  ") != NULL);
   CHECK(strstr(page, "<span class=\"hz\">") && strstr(page, "<span class=\"pr\">"));
   CHECK(strstr(page, "<svg class=\"tl\"") && strstr(page, "ready at "));
   CHECK(strstr(page, "<td>ref/opt</td><td>output</td><td>OUT[0].") != NULL);
   CHECK(!strstr(page, "where: ")); /* one target: no back-end verdict */
   diff_case_detail_fini(&det);

   /* a case that crashed in its worker is shown, not rebuilt */
   diff_result_add(&c.results[0], DIFF_SIG_CRASH, "opt", NULL, 0, "SIGSEGV in opt");
   CHECK(!diff_case_rebuildable(&c.results[0]));
   diff_case_detail(&c, 0, &det);
   CHECK(!det.ref_ok && !det.opt_ok && !det.tl_prog && strstr(det.opt, "not rebuilt"));
   diff_case_detail_fini(&det);

   free(page);
   free(index);
   free(name);
   diag_clear(&d);
   diff_check_fini(&c);
}

/* Back end or mid-level: missing-ss fails fs_phong on a3xx while sm50,
 * sharing the front end and IR passes, compiles it right; the a3xx page
 * says so, as the summary's where: line does. */
static void
test_where(void)
{
   struct diff_check c;
   struct diag_list d = {0};
   diff_check_init(&c);
   c.o.invocations = 64;
   c.o.jobs = 0;
   CHECK(diff_check_add_targets(&c, "a3xx,sm50", &d));
   opt_fault_set_add(&c.o.faults, opt_fault_find("missing-ss"));
   diff_check_add_shader(&c, DC_SOURCE_DIR "/captures/fs_phong.tgsi", NULL);
   diff_check_make_cases(&c, 1, 1);
   diff_check_run(&c, NULL, NULL);
   for (unsigned i = 0; i < c.ncases; i++) {
      const char *t = c.targets[c.cases[i].target].name;
      CHECKF(c.results[i].status == (strcmp(t, "a3xx") ? DIFF_PASS : DIFF_FAIL), "%s", t);
      if (c.results[i].status != DIFF_FAIL)
         continue;
      struct diff_case_detail det;
      diff_case_detail(&c, i, &det);
      char *page = diff_html_case(&c, i, NULL, &det);
      CHECKF(strstr(page, "<p class=\"where\">where: the IR passes agree on sm50: the bug is in "
                          "the a3xx back end</p>") != NULL,
             "%s", page);
      free(page);
      diff_case_detail_fini(&det);
   }
   diff_check_fini(&c);
   diag_clear(&d);
}

int
main(void)
{
   test_site();
   test_where();
   return test_done();
}
