/*
 * Running the cases of a check in worker processes, so that a crash or a
 * hang in one case is that case's result and the run goes on.
 *
 * A job is one shader and its cases (they share the parse, the inputs and
 * the interpreter run). Each job runs in a forked child; at most o.jobs
 * children run at once. The child reports over a pipe, in frames of
 * [type u8][length u32][payload]:
 *   'S' case, step   a step of a case begins (resets the case's timer)
 *   'R' case, result the case is done (the serialized diff_case_result)
 * When a child dies before the result of the case it was in, that case
 * gets a crash signal (the signal's name, or the exit status) naming the
 * step; past o.timeout_ms without a new frame the child is killed and the
 * case gets a timeout. The job's cases that had not begun are queued again
 * as a new job. Results are stored by case index, so the order of the
 * results never depends on the number of workers or on timing.
 *
 * Jobs are made one shader at a time as workers free up, so nothing here
 * grows with the run. A streaming check (c->window) starts a shader only
 * when its cases fit in the window past the released ones: a slow case
 * holds the others back by at most the window.
 *
 * With o.jobs == 0 the jobs run in this process, without isolation.
 */
#include "diff/diff.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Seconds a worker asked to stop (c->stop) has to end its case. */
#define STOP_GRACE_S 2.0

const char *
diff_signal_name(int sig, char *buf, size_t size)
{
   static const struct {
      int sig;
      const char *name;
   } names[] = {
       {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
       {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGTRAP, "SIGTRAP"},
       {SIGSYS, "SIGSYS"},   {SIGPIPE, "SIGPIPE"}, {SIGINT, "SIGINT"},   {SIGXCPU, "SIGXCPU"},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
      if (names[i].sig == sig)
         return names[i].name;
   snprintf(buf, size, "signal %d", sig);
   return buf;
}

/* ------------------------------------------------------------------ */
/* Serialization of a result (both ends are this binary)               */

struct buf {
   uint8_t *p;
   size_t len, cap, pos;
   bool bad;
};

static void
put(struct buf *b, const void *v, size_t n)
{
   if (!n) /* v may be NULL then (a lane with no values) */
      return;
   VEC_RESERVE(b->p, b->cap, b->len + n);
   memcpy(b->p + b->len, v, n);
   b->len += n;
}

static void
put_u32(struct buf *b, uint32_t v)
{
   put(b, &v, 4);
}

static void
put_u64(struct buf *b, uint64_t v)
{
   put(b, &v, 8);
}

static void
put_str(struct buf *b, const char *s)
{
   uint32_t n = s ? (uint32_t)strlen(s) : 0;
   put_u32(b, n);
   put(b, s, n);
}

static void
get(struct buf *b, void *v, size_t n)
{
   if (!n)
      return;
   if (b->bad || b->len - b->pos < n) {
      b->bad = true;
      memset(v, 0, n);
      return;
   }
   memcpy(v, b->p + b->pos, n);
   b->pos += n;
}

static uint32_t
get_u32(struct buf *b)
{
   uint32_t v;
   get(b, &v, 4);
   return v;
}

static uint64_t
get_u64(struct buf *b)
{
   uint64_t v;
   get(b, &v, 8);
   return v;
}

static char *
get_str(struct buf *b)
{
   uint32_t n = get_u32(b);
   if (b->bad || b->len - b->pos < n) {
      b->bad = true;
      return xstrdup("");
   }
   char *s = xstrndup((const char *)b->p + b->pos, n);
   b->pos += n;
   return s;
}

static void
put_prog(struct buf *b, const struct diff_prog_stats *p)
{
   put_u32(b, p->valid);
   put_u32(b, p->instructions);
   put_u32(b, p->nops);
   put_u32(b, p->registers);
   put_u64(b, p->cycles);
   put_u64(b, p->emu_cycles);
}

static void
get_prog(struct buf *b, struct diff_prog_stats *p)
{
   p->valid = get_u32(b) != 0;
   p->instructions = get_u32(b);
   p->nops = get_u32(b);
   p->registers = get_u32(b);
   p->cycles = get_u64(b);
   p->emu_cycles = get_u64(b);
}

static void
put_result(struct buf *b, const struct diff_case_result *r)
{
   put_u32(b, r->status);
   put_u32(b, r->nsig);
   for (unsigned i = 0; i < r->nsig; i++) {
      const struct diff_signal *s = &r->sig[i];
      put_u32(b, s->kind);
      put_str(b, s->step);
      put_str(b, s->msg);
      put_u32(b, s->has_value);
      put(b, &s->m, sizeof(s->m));
      put_u64(b, s->count);
   }
   put_prog(b, &r->ref);
   put_prog(b, &r->opt);
   put_u64(b, r->compared);
   put_u64(b, r->undefined);
   put_u64(b, r->unchecked);
   put_u64(b, r->tolerated);
   put_u64(b, r->outputs);
   put_u64(b, r->nan);
   put_u32(b, r->nlanes);
   for (unsigned i = 0; i < r->nlanes; i++) {
      put_u32(b, r->lanes[i].lane);
      put_u32(b, r->lanes[i].nvals);
      put(b, r->lanes[i].vals, r->lanes[i].nvals * sizeof(struct diff_lane_value));
   }
   put_u64(b, dui(r->seconds));
   put_str(b, r->cover ? r->cover : "");
}

static bool
get_result(struct buf *b, struct diff_case_result *r)
{
   r->status = (enum diff_status)(get_u32(b) % DIFF_STATUS_COUNT);
   unsigned n = get_u32(b);
   for (unsigned i = 0; i < n && !b->bad; i++) {
      struct diff_signal s = {0};
      s.kind = (enum diff_signal_kind)(get_u32(b) % DIFF_SIG_COUNT);
      s.step = get_str(b);
      s.msg = get_str(b);
      s.has_value = get_u32(b) != 0;
      get(b, &s.m, sizeof(s.m));
      s.count = get_u64(b);
      VEC_PUSH(r->sig, r->nsig, r->sig_cap, s);
   }
   get_prog(b, &r->ref);
   get_prog(b, &r->opt);
   r->compared = get_u64(b);
   r->undefined = get_u64(b);
   r->unchecked = get_u64(b);
   r->tolerated = get_u64(b);
   r->outputs = get_u64(b);
   r->nan = get_u64(b);
   unsigned nl = get_u32(b);
   for (unsigned i = 0; i < nl && i < DIFF_MAX_LANES && !b->bad; i++) {
      struct diff_lane_dump *d = &r->lanes[r->nlanes++];
      d->lane = get_u32(b);
      unsigned nv = get_u32(b);
      if (nv > b->len / sizeof(struct diff_lane_value)) {
         b->bad = true;
         break;
      }
      d->nvals = nv;
      d->vals = xcalloc(nv + 1, sizeof(struct diff_lane_value));
      get(b, d->vals, nv * sizeof(struct diff_lane_value));
   }
   r->seconds = uid(get_u64(b));
   r->cover = get_str(b);
   r->done = true;
   return !b->bad;
}

/* ------------------------------------------------------------------ */
/* The child                                                            */

struct child_ctx {
   int fd;
   const struct diff_check *c;
};

static void
write_all(int fd, const void *p, size_t n)
{
   const uint8_t *s = p;
   while (n) {
      ssize_t k = write(fd, s, n);
      if (k < 0 && errno == EINTR)
         continue;
      if (k <= 0)
         _exit(70); /* the parent is gone */
      s += k;
      n -= (size_t)k;
   }
}

static void
send_frame(int fd, uint8_t type, const struct buf *b)
{
   uint8_t hdr[5] = {type};
   uint32_t n = (uint32_t)b->len;
   memcpy(hdr + 1, &n, 4);
   write_all(fd, hdr, 5);
   write_all(fd, b->p, b->len);
}

static void
child_progress(void *ctx, unsigned idx, const char *step)
{
   struct child_ctx *cc = ctx;
   struct buf b = {0};
   put_u32(&b, idx);
   if (step) {
      put_str(&b, step);
      send_frame(cc->fd, 'S', &b);
   } else {
      put_result(&b, diff_result(cc->c, idx));
      send_frame(cc->fd, 'R', &b);
   }
   free(b.p);
}

/* ------------------------------------------------------------------ */
/* The parent                                                           */

struct job_list {
   unsigned *cases;
   unsigned n;
};

struct worker {
   pid_t pid;
   int fd;
   struct job_list job;
   /* results received: of the job's first cases, which the child runs in
    * order (a streaming check may have released them since) */
   unsigned nres;
   unsigned cur; /* case in progress; UINT32_MAX if none */
   char *step;
   double deadline;
   bool timed_out;
   struct buf in;
};

struct pool {
   struct diff_check *c;
   diff_progress_fn fn;
   void *ctx;
   struct job_list *queue; /* jobs made again after a crash, popped from the end */
   unsigned nqueue, queue_cap;
   unsigned next;    /* the first case no job has had yet */
   unsigned started; /* one past the last case a job has had */
   struct worker *w;
   unsigned nw;
};

/* The next job to run, if one may start: a job queued again, else the
 * cases of the next shader (cases are shader-major), if they fit in the
 * window. */
static bool
next_job(struct pool *p, struct job_list *out)
{
   struct diff_check *c = p->c;
   if (p->nqueue) {
      *out = p->queue[--p->nqueue];
   } else {
      if (p->next >= c->ncases)
         return false;
      unsigned end = diff_check_group_end(c, p->next);
      if (c->window && end > c->released + c->window)
         return false;
      *out = (struct job_list){xmalloc((end - p->next) * sizeof(unsigned)), end - p->next};
      for (unsigned i = p->next; i < end; i++)
         out->cases[i - p->next] = i;
      p->next = end;
   }
   for (unsigned i = 0; i < out->n; i++)
      p->started = MAX2(p->started, out->cases[i] + 1);
   c->held_peak = MAX2(c->held_peak, p->started - MIN2(c->released, p->started));
   return true;
}

/* Whether a job is waiting, queued or still to be made. */
static bool
jobs_left(const struct pool *p)
{
   return p->nqueue || p->next < p->c->ncases;
}

static void
spawn(struct pool *p, struct worker *w, struct job_list job)
{
   memset(w, 0, sizeof(*w));
   w->job = job;
   w->cur = UINT32_MAX;
   w->deadline = p->c->o.timeout_ms ? now_seconds() + p->c->o.timeout_ms / 1000.0 : 0;
   int fds[2];
   if (pipe(fds) != 0) {
      w->pid = -1;
      return;
   }
   fflush(NULL);
   w->pid = fork();
   if (w->pid == 0) {
      close(fds[0]);
      for (unsigned i = 0; i < p->nw; i++)
         if (p->w[i].fd > 0 && &p->w[i] != w)
            close(p->w[i].fd);
      signal(SIGPIPE, SIG_DFL);
      struct child_ctx cc = {fds[1], p->c};
      diff_check_job(p->c, job.cases, job.n, child_progress, &cc);
      _exit(0);
   }
   close(fds[1]);
   w->fd = w->pid > 0 ? fds[0] : -1;
   if (w->pid < 0)
      close(fds[0]);
}

static void
on_frame(struct pool *p, struct worker *w, uint8_t type, struct buf *b)
{
   unsigned idx = get_u32(b);
   if (b->bad || idx >= p->c->ncases)
      return;
   if (type == 'S') {
      free(w->step);
      w->step = get_str(b);
      w->cur = idx;
      if (p->c->o.timeout_ms)
         w->deadline = now_seconds() + p->c->o.timeout_ms / 1000.0;
      if (p->fn)
         p->fn(p->ctx, idx, w->step);
   } else if (type == 'R') {
      struct diff_case_result *r = diff_result(p->c, idx);
      diff_result_fini(r);
      if (!get_result(b, r))
         diff_result_add(r, DIFF_SIG_CRASH, "report", NULL, 0, "garbled result from the worker");
      w->nres++;
      w->cur = UINT32_MAX;
      if (p->fn)
         p->fn(p->ctx, idx, NULL);
   }
}

/* Reads what is available; false at end of file. */
static bool
drain(struct pool *p, struct worker *w)
{
   uint8_t tmp[65536];
   ssize_t k = read(w->fd, tmp, sizeof(tmp));
   if (k < 0 && (errno == EINTR || errno == EAGAIN))
      return true;
   if (k <= 0)
      return false;
   put(&w->in, tmp, (size_t)k);
   size_t pos = 0;
   while (w->in.len - pos >= 5) {
      uint32_t n;
      memcpy(&n, w->in.p + pos + 1, 4);
      if (w->in.len - pos - 5 < n)
         break;
      struct buf f = {w->in.p + pos + 5, n, n, 0, false};
      on_frame(p, w, w->in.p[pos], &f);
      pos += 5 + (size_t)n;
   }
   memmove(w->in.p, w->in.p + pos, w->in.len - pos);
   w->in.len -= pos;
   return true;
}

static void
blame(struct pool *p, struct worker *w, int status)
{
   struct diff_case_result *r = diff_result(p->c, w->cur);
   const char *step = w->step ? w->step : "start";
   char sb[32];
   diff_result_fini(r);
   if (w->timed_out)
      diff_result_add(r, DIFF_SIG_TIMEOUT, step, NULL, 0, "no result after %u ms (in %s)",
                      p->c->o.timeout_ms, step);
   else if (WIFSIGNALED(status))
      diff_result_add(r, DIFF_SIG_CRASH, step, NULL, 0, "%s in %s",
                      diff_signal_name(WTERMSIG(status), sb, sizeof(sb)), step);
   else
      diff_result_add(r, DIFF_SIG_CRASH, step, NULL, 0, "worker exited with status %d in %s",
                      WIFEXITED(status) ? WEXITSTATUS(status) : -1, step);
   r->done = true;
   if (p->fn)
      p->fn(p->ctx, w->cur, NULL);
}

static void
reap(struct pool *p, struct worker *w)
{
   int status = 0;
   close(w->fd);
   while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
      ;
   struct job_list rest = {xmalloc((w->job.n + 1) * sizeof(unsigned)), 0};
   bool blamed = p->c->stop != 0; /* a stopped run blames nothing, queues nothing */
   for (unsigned i = w->nres; i < w->job.n; i++) {
      unsigned idx = w->job.cases[i];
      if (!blamed) {
         /* The first unfinished case was running (or about to). */
         if (w->cur == UINT32_MAX)
            w->cur = idx;
         blame(p, w, status);
         blamed = true;
      } else if (!p->c->stop) {
         rest.cases[rest.n++] = idx;
      }
   }
   if (rest.n)
      VEC_PUSH(p->queue, p->nqueue, p->queue_cap, rest);
   else
      free(rest.cases);
   free(w->job.cases);
   free(w->step);
   free(w->in.p);
   *w = p->w[--p->nw];
}

static void
run_forked(struct pool *p, unsigned jobs)
{
   p->w = xcalloc(jobs, sizeof(*p->w));
   struct pollfd *fds = xcalloc(jobs, sizeof(*fds));
   bool stopping = false;
   while ((jobs_left(p) && !p->c->stop) || p->nw) {
      if (p->c->stop && !stopping) {
         /* ask each worker to end after its case (it ends its external
          * command too); STOP_GRACE_S later it is killed */
         stopping = true;
         for (unsigned i = 0; i < p->nw; i++) {
            kill(p->w[i].pid, SIGINT);
            p->w[i].deadline = now_seconds() + STOP_GRACE_S;
         }
      }
      struct job_list job;
      bool here = false;
      while (p->nw < jobs && !p->c->stop && next_job(p, &job)) {
         struct worker *w = &p->w[p->nw++];
         spawn(p, w, job);
         if (w->pid < 0) { /* no process: run it here */
            p->nw--;
            diff_check_job(p->c, w->job.cases, w->job.n, p->fn, p->ctx);
            free(w->job.cases);
            here = true;
         }
      }
      if (!p->nw && here)
         continue;
      if (!p->nw) /* nothing runs and nothing may start (a window not released) */
         break;
      double now = now_seconds(), first = 0;
      for (unsigned i = 0; i < p->nw; i++) {
         fds[i] = (struct pollfd){.fd = p->w[i].fd, .events = POLLIN};
         if (p->w[i].deadline && (!first || p->w[i].deadline < first))
            first = p->w[i].deadline;
      }
      int ms = first ? (int)MAX2(0.0, (first - now) * 1000.0 + 1) : -1;
      if (poll(fds, p->nw, ms) < 0 && errno != EINTR)
         break;
      now = now_seconds();
      for (unsigned i = p->nw; i-- > 0;) {
         struct worker *w = &p->w[i];
         if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) && !drain(p, w)) {
            reap(p, w);
            continue;
         }
         if (w->deadline && now >= w->deadline && !w->timed_out) {
            w->timed_out = true;
            w->deadline = 0;
            kill(w->pid, SIGKILL);
         }
      }
   }
   free(fds);
   free(p->w);
}

void
diff_check_run(struct diff_check *c, diff_progress_fn fn, void *ctx)
{
   struct pool p = {.c = c, .fn = fn, .ctx = ctx};
   if (!c->o.jobs) {
      struct job_list j;
      while (!c->stop && next_job(&p, &j)) {
         diff_check_job(c, j.cases, j.n, fn, ctx);
         free(j.cases);
      }
   } else {
      run_forked(&p, c->o.jobs);
   }
   for (unsigned i = 0; i < p.nqueue; i++) /* what a stop left */
      free(p.queue[i].cases);
   free(p.queue);
}
