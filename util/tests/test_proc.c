/*
 * util/proc.c: exit statuses, signals, the time limit (the whole process
 * group killed, a grandchild holding stderr open included), the stderr
 * tail and shell quoting.
 */
#include "util/test.h"
#include "util/util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

static void
test_exit_and_stderr(void)
{
   struct proc_result r;
   CHECK(proc_run_shell("echo out; echo err1 >&2; echo err2 >&2; exit 0", 10000, &r));
   CHECK(r.status == PROC_EXITED && r.code == 0);
   CHECKF(!strcmp(r.err, "err1\nerr2\n"), "stderr '%s'", r.err); /* stdout is not kept */
   char *t = proc_err_tail(&r, 4, 400);
   CHECKF(!strcmp(t, "err1 | err2"), "tail '%s'", t);
   free(t);
   t = proc_err_tail(&r, 1, 400);
   CHECKF(!strcmp(t, "... err2"), "tail of one line '%s'", t);
   free(t);
   proc_result_fini(&r);

   CHECK(!proc_run_shell("exit 7", 10000, &r));
   CHECK(r.status == PROC_EXITED && r.code == 7);
   CHECK(r.err && !*r.err);
   proc_result_fini(&r);

   CHECK(!proc_run_shell("kill -SEGV $$", 10000, &r));
   CHECK(r.status == PROC_SIGNALED && r.code == 11);
   proc_result_fini(&r);

   /* standard input is /dev/null: a command reading it does not block */
   CHECK(proc_run_shell("cat", 10000, &r));
   proc_result_fini(&r);
}

static void
test_timeout(void)
{
   struct proc_result r;
   double t0 = now_seconds();
   /* a background child keeps stderr open: the pipe never closes by itself */
   CHECK(!proc_run_shell("echo started >&2; sleep 30 & sleep 30", 300, &r));
   double dt = now_seconds() - t0;
   CHECK(r.status == PROC_TIMEOUT);
   CHECKF(dt < 5, "took %.2f s", dt);
   CHECK(!strcmp(r.err, "started\n"));
   proc_result_fini(&r);
}

static void
test_quote(void)
{
   struct proc_result r;
   char *q = proc_quote("it's a $HOME `x` \"y\"");
   char *cmd = xasprintf("printf %%s %s >&2", q);
   CHECK(proc_run_shell(cmd, 10000, &r));
   CHECKF(!strcmp(r.err, "it's a $HOME `x` \"y\""), "'%s'", r.err);
   proc_result_fini(&r);
   free(cmd);
   free(q);
}

/* Once stopped (Ctrl-C), a command started later is killed at once: the
 * signal may come between fork and the moment its group is published. */
static void
test_stop(void)
{
   struct proc_result r;
   proc_stop_commands();
   CHECK(!proc_run_shell("sleep 30", 10000, &r));
   CHECKF(r.status == PROC_SIGNALED && r.code == SIGKILL, "status %d code %d", r.status, r.code);
   proc_result_fini(&r);
}

int
main(void)
{
   test_exit_and_stderr();
   test_timeout();
   test_quote();
   test_stop(); /* last: stopping is for good */
   return test_done();
}
