/*
 * Running an external command (check --opt-cmd): the only place in the
 * libraries that spawns a process. The command runs under /bin/sh -c in a
 * process group of its own, with standard input and output on /dev/null
 * and standard error captured (up to PROC_MAX_ERR bytes, the rest counted
 * and dropped). Past the time limit the whole group is killed, so a shell
 * script's children go too. Nothing here prints or exits; a failure to
 * spawn is a result like any other.
 *
 * The caller must not ignore SIGCHLD (waitpid needs the zombie); the
 * child restores SIGPIPE and SIGINT to their defaults before the exec.
 */
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The process group of the command running now (0: none), and whether
 * proc_stop_commands was called, both for a signal handler. A handler runs
 * between two statements of proc_run_shell: either it sees the group, or
 * proc_run_shell sees the flag after publishing the group. */
static volatile sig_atomic_t running_pgid, stopping;

void
proc_stop_commands(void)
{
   stopping = 1;
   pid_t g = (pid_t)running_pgid;
   if (g > 0)
      kill(-g, SIGKILL);
}

void
proc_result_fini(struct proc_result *r)
{
   free(r->err);
   memset(r, 0, sizeof(*r));
}

/* The child: never returns. Only async-signal-safe calls after fork. */
static void
child(const char *cmd, int errfd)
{
   setpgid(0, 0);
   signal(SIGPIPE, SIG_DFL);
   signal(SIGINT, SIG_DFL);
   int null = open("/dev/null", O_RDWR);
   if (null >= 0) {
      dup2(null, STDIN_FILENO);
      dup2(null, STDOUT_FILENO);
   }
   dup2(errfd, STDERR_FILENO);
   execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
   _exit(127);
}

static void
take(struct proc_result *r, size_t *cap, const char *buf, size_t n)
{
   size_t room = PROC_MAX_ERR - r->err_len;
   if (n > room) {
      r->err_dropped += n - room;
      n = room;
   }
   if (!n)
      return;
   if (r->err_len + n + 1 > *cap) {
      *cap = MAX2(*cap * 2, r->err_len + n + 1);
      r->err = xrealloc(r->err, *cap);
   }
   memcpy(r->err + r->err_len, buf, n);
   r->err_len += n;
   r->err[r->err_len] = 0;
}

/* Reads the pipe until it closes or the deadline passes; false on timeout. */
static bool
drain(int fd, double deadline, struct proc_result *r)
{
   size_t cap = 0;
   char buf[4096];
   for (;;) {
      double left = deadline - now_seconds();
      if (deadline > 0 && left <= 0)
         return false;
      struct pollfd p = {.fd = fd, .events = POLLIN};
      int ms = deadline > 0 ? (int)(left * 1000) + 1 : -1;
      int k = poll(&p, 1, ms);
      if (k < 0 && errno == EINTR)
         continue;
      if (k == 0)
         continue; /* the deadline check above decides */
      ssize_t n = read(fd, buf, sizeof(buf));
      if (n < 0 && errno == EINTR)
         continue;
      if (n <= 0)
         return true;
      take(r, &cap, buf, (size_t)n);
   }
}

/* Waits for pid until the deadline (0: none); false on timeout. */
static bool
reap(pid_t pid, double deadline, int *status)
{
   for (;;) {
      pid_t w = waitpid(pid, status, deadline > 0 ? WNOHANG : 0);
      if (w == pid)
         return true;
      if (w < 0 && errno != EINTR)
         return true; /* not our child any more: nothing to wait for */
      if (deadline > 0 && now_seconds() >= deadline)
         return false;
      if (w == 0) {
         struct timespec ts = {0, 2 * 1000 * 1000};
         nanosleep(&ts, NULL);
      }
   }
}

bool
proc_run_shell(const char *cmd, unsigned timeout_ms, struct proc_result *r)
{
   memset(r, 0, sizeof(*r));
   double t0 = now_seconds();
   double deadline = timeout_ms ? t0 + timeout_ms / 1000.0 : 0;
   int fds[2];
   if (pipe(fds) < 0) {
      r->status = PROC_SPAWN_FAILED;
      r->code = errno;
      return false;
   }
   fflush(NULL);
   pid_t pid = fork();
   if (pid < 0) {
      r->status = PROC_SPAWN_FAILED;
      r->code = errno;
      close(fds[0]);
      close(fds[1]);
      return false;
   }
   if (pid == 0) {
      close(fds[0]);
      child(cmd, fds[1]);
   }
   setpgid(pid, pid); /* also here: no race with the kill below */
   running_pgid = pid;
   if (stopping) /* asked before the group was known */
      kill(-pid, SIGKILL);
   close(fds[1]);
   int status = 0;
   bool in_time = drain(fds[0], deadline, r) && reap(pid, deadline, &status);
   close(fds[0]);
   if (!in_time) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      reap(pid, 0, &status);
   }
   running_pgid = 0;
   if (!in_time) {
      r->status = PROC_TIMEOUT;
   } else if (WIFSIGNALED(status)) {
      r->status = PROC_SIGNALED;
      r->code = WTERMSIG(status);
   } else {
      r->status = PROC_EXITED;
      r->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
   }
   r->seconds = now_seconds() - t0;
   if (!r->err)
      r->err = xstrdup("");
   return r->status == PROC_EXITED && r->code == 0;
}

char *
proc_err_tail(const struct proc_result *r, unsigned max_lines, size_t max_chars)
{
   const char *s = r->err ? r->err : "";
   size_t len = strlen(s);
   while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' '))
      len--;
   size_t start = len;
   unsigned lines = 0;
   while (start > 0 && len - start < max_chars) {
      if (s[start - 1] == '\n' && ++lines >= max_lines)
         break;
      start--;
   }
   bool cut = start > 0;
   char *out = xmalloc((len - start) * 3 + 8);
   size_t o = 0;
   if (cut)
      o += (size_t)sprintf(out, "... ");
   for (size_t i = start; i < len; i++) {
      char ch = s[i];
      if (ch == '\n') {
         memcpy(out + o, " | ", 3);
         o += 3;
         continue;
      }
      out[o++] = (unsigned char)ch < 0x20 ? ' ' : ch;
   }
   out[o] = 0;
   return out;
}

char *
proc_quote(const char *s)
{
   size_t n = 3;
   for (const char *p = s; *p; p++)
      n += *p == '\'' ? 4 : 1;
   char *q = xmalloc(n), *o = q;
   *o++ = '\'';
   for (const char *p = s; *p; p++) {
      if (*p == '\'') {
         memcpy(o, "'\\''", 4);
         o += 4;
      } else {
         *o++ = *p;
      }
   }
   *o++ = '\'';
   *o = 0;
   return q;
}
