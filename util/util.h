/*
 * Small shared helpers: allocation, growable arrays, diagnostics, a
 * deterministic random number generator and float bit casts.
 *
 * Diagnostics are collected, never printed: libraries fill a diag_list and
 * the tools/ front ends decide how to show it.
 */
#ifndef DC_UTIL_H
#define DC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The largest input file read_file accepts: 64 MiB, far above any shader,
 * model or program (a 300000-instruction TGSI shader is about 9 MB), and
 * small enough that a mistaken argument (a disk image, /proc/kcore) fails
 * at once with a clear message instead of exhausting memory. */
#define DC_MAX_FILE_SIZE (64u << 20)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN2(a, b)    ((a) < (b) ? (a) : (b))
#define MAX2(a, b)    ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define DC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DC_PRINTF(f, a)
#endif

/* Functions holding lane loops (the interpreter's, the emulator's ALU
 * kernels and texture lookups) are built twice on x86-64 ELF targets by
 * GCC, for AVX2 and for the baseline ISA, and the loader picks one by the
 * CPU (target_clones, an ifunc): twice the lanes per vector instruction.
 * The results are the same bits: both are IEEE single and double
 * arithmetic, and "fma" is left out, so nothing can contract a * b + c
 * where the baseline build rounds twice. Clang 14 leaves extern clones
 * unresolved across files, so it builds the baseline alone, as
 * -DDC_NO_LANE_CLONES does. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) &&         \
    !defined(DC_NO_LANE_CLONES)
#define DC_LANES __attribute__((target_clones("avx2", "default")))
#else
#define DC_LANES
#endif

enum diag_severity {
   DIAG_ERROR,
   DIAG_WARNING,
   DIAG_NOTE,
};

/* Source lines longer than this are kept only around the column. */
#define DIAG_LINE_MAX 160

/* One message about a position in a text file. line and col count from 1;
 * 0 means "unknown". srcline is a copy of the source line (a window of at
 * most DIAG_LINE_MAX characters around col, plus "..." marks, for a longer
 * one), or NULL; caret is where col falls in srcline, from 0 (-1: none). */
struct diag {
   enum diag_severity sev;
   char *file;
   int line, col;
   char *msg;
   char *srcline;
   int caret;
};

struct diag_list {
   struct diag *v;
   unsigned n, cap;
   unsigned nerrors, nwarnings;
};

/* Random numbers: xoshiro256** seeded through splitmix64. Same seed, same
 * sequence on every machine. */
struct rng {
   uint64_t s[4];
};

/* util.c */
void *xmalloc(size_t n);
void *xaligned_alloc(size_t align, size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) DC_PRINTF(1, 2);
char *xvasprintf(const char *fmt, va_list ap);
/* A growing NUL-terminated string: {0} is empty; s is NULL until the
 * first append, then owned by the caller. */
struct strbuf {
   char *s;
   size_t n, cap;
};
void strbuf_printf(struct strbuf *b, const char *fmt, ...) DC_PRINTF(2, 3);
void strbuf_vprintf(struct strbuf *b, const char *fmt, va_list ap);
void strbuf_add(struct strbuf *b, const char *str);
/* The string, "" when nothing was appended: the caller owns it. */
char *strbuf_take(struct strbuf *b);
/* Appends s (NULL: "") as a JSON string: quoted, escaped, a byte that is
 * not UTF-8 text replaced by U+FFFD. */
void strbuf_json_str(struct strbuf *b, const char *s);
/* Appends s (NULL: "") as XML or HTML text: markup characters as
 * references, a newline as "&#10;" when in_attr (an attribute value keeps
 * it), other control characters and bytes that are not UTF-8 text as '?'. */
void strbuf_xml_str(struct strbuf *b, const char *s, bool in_attr);
bool read_file(const char *path, char **text, size_t *len, char **err);
bool read_file_diag(const char *path, char **text, size_t *len, struct diag_list *d);
/* Seconds on the monotonic clock: differences time a run. */
double now_seconds(void);
/* Whether the comma list `list` names `name` exactly. */
bool comma_list_has(const char *list, const char *name);
/* Length of the longest prefix of s[0..len) that is UTF-8 text without NUL
 * bytes (shortest forms, no surrogates); len when all of it is. */
size_t utf8_text_prefix(const char *s, size_t len);

/* proc.c: running an external command (check --opt-cmd). */
#define PROC_MAX_ERR (1u << 20) /* standard error kept; the rest is counted */
enum proc_status {
   PROC_EXITED,       /* code: its exit status */
   PROC_SIGNALED,     /* code: the signal that killed it */
   PROC_TIMEOUT,      /* killed (with its process group) at the time limit */
   PROC_SPAWN_FAILED, /* code: errno of pipe or fork */
};
struct proc_result {
   enum proc_status status;
   int code;
   char *err; /* its standard error (NUL-terminated), never NULL after a run */
   size_t err_len, err_dropped;
   double seconds;
};
/* Runs cmd under /bin/sh -c, stdin and stdout on /dev/null, stderr in
 * r->err; timeout_ms 0: no limit. True when it exited with status 0. */
bool proc_run_shell(const char *cmd, unsigned timeout_ms, struct proc_result *r);
void proc_result_fini(struct proc_result *r);
/* Kills the process group of the command running now, if any, and of every
 * command this process starts after; safe in a signal handler (Ctrl-C
 * during a check ends the command too, even one being started). */
void proc_stop_commands(void);
/* The last max_lines lines of r's stderr, at most about max_chars, on one
 * line (" | " between lines, "... " first when cut); caller frees. */
char *proc_err_tail(const struct proc_result *r, unsigned max_lines, size_t max_chars);
/* s quoted for /bin/sh ('...'); caller frees. */
char *proc_quote(const char *s);

/* diag.c */
/* A NULL list is allowed everywhere: messages to it are dropped, so a
 * library entry point may be called for its status alone. */
void diag_add(struct diag_list *l, enum diag_severity sev, const char *file, int line, int col,
              const char *line_start, const char *fmt, ...) DC_PRINTF(7, 8);
void diag_vadd(struct diag_list *l, enum diag_severity sev, const char *file, int line, int col,
               const char *line_start, const char *fmt, va_list ap);
char *diag_render(const struct diag *d, bool color);
/* "file:line:col", "file:line" (no column known) or "file" (no line);
 * caller frees. */
char *diag_pos(const struct diag *d);
const char *diag_first_error(const struct diag_list *l);
/* "file:line:col: message" of the first error (its message alone where it
 * has no position), or a copy of fallback; caller frees. */
char *diag_first_error_text(const struct diag_list *l, const char *fallback);
/* Drops the messages after the first n (a retried step's). */
void diag_truncate(struct diag_list *l, unsigned n);
void diag_clear(struct diag_list *l);

/* rng.c */
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
uint32_t rng_u32(struct rng *r);
uint32_t rng_below(struct rng *r, uint32_t n);
uint64_t hash64(const void *data, size_t len, uint64_t h);

/* cover.c: coverage counters (check --coverage). A point is a kind and a
 * name; cover_hit counts one (name from fmt) while cover_on is set. */
struct cover_point {
   char *kind, *name;
   uint64_t count;
};
extern bool cover_on;
void cover_hit(const char *kind, const char *fmt, ...) DC_PRINTF(2, 3);
void cover_declare(const char *kind, const char *name); /* a point of the universe, count 0 */
void cover_add(const char *kind, const char *name, uint64_t count);
void cover_reset(void); /* forget every point */
size_t cover_count(void);
const struct cover_point *cover_get(size_t i);
char *cover_dump(void);            /* "kind\tname\tcount\n" for every point counted */
void cover_load(const char *text); /* adds a dump's counts */

/* Grow *v (an array with *cap slots) so that it holds at least n elements. */
#define VEC_RESERVE(v, cap, n)                                                                     \
   do {                                                                                            \
      if ((n) > (cap)) {                                                                           \
         size_t vec_c_ = (cap) ? (size_t)(cap)*2 : 8;                                              \
         while (vec_c_ < (size_t)(n))                                                              \
            vec_c_ *= 2;                                                                           \
         (v) = xrealloc((v), vec_c_ * sizeof(*(v)));                                               \
         (cap) = vec_c_;                                                                           \
      }                                                                                            \
   } while (0)

/* Append x to the array v of length n and capacity cap. */
#define VEC_PUSH(v, n, cap, x)                                                                     \
   do {                                                                                            \
      VEC_RESERVE(v, cap, (n) + 1);                                                                \
      (v)[(n)++] = (x);                                                                            \
   } while (0)

static inline uint32_t
fui(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static inline float
uif(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static inline uint64_t
dui(double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}

static inline double
uid(uint64_t u)
{
   double d;
   memcpy(&d, &u, 8);
   return d;
}

static inline bool
is_nan_bits(uint32_t u)
{
   return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu);
}

#endif
