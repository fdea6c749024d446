/*
 * A minimal test harness for the test_*.c programs. Each CHECK counts one
 * assertion; test_done() prints "N passed, N failed" and returns the exit code.
 */
#ifndef DC_TEST_H
#define DC_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned test_passed, test_failed;

#define CHECK(cond)                                                                                \
   do {                                                                                            \
      if (cond) {                                                                                  \
         test_passed++;                                                                            \
      } else {                                                                                     \
         test_failed++;                                                                            \
         fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                  \
      }                                                                                            \
   } while (0)

#define CHECKF(cond, ...)                                                                          \
   do {                                                                                            \
      if (cond) {                                                                                  \
         test_passed++;                                                                            \
      } else {                                                                                     \
         test_failed++;                                                                            \
         fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                  \
         fprintf(stderr, __VA_ARGS__);                                                             \
         fputc('\n', stderr);                                                                      \
      }                                                                                            \
   } while (0)

#define CHECK_EQ_U(a, b)                                                                           \
   CHECKF((uint64_t)(a) == (uint64_t)(b), "%s = 0x%" PRIx64 ", expected 0x%" PRIx64, #a,           \
          (uint64_t)(a), (uint64_t)(b))

/* A repetition count: full, or a tenth of it (at least 1) when the
 * environment sets DIFFCOMP_TEST_QUICK to anything but 0. CI's sanitizer
 * stage sets it: there every code path still runs, on fewer random draws
 * (the gcc stage runs the full counts). */
static inline unsigned
test_reps(unsigned full)
{
   const char *q = getenv("DIFFCOMP_TEST_QUICK");
   if (!q || !*q || (q[0] == '0' && !q[1]))
      return full;
   return full >= 10 ? full / 10 : 1;
}

static inline int
test_done(void)
{
   printf("%u passed, %u failed\n", test_passed, test_failed);
   return test_failed || !test_passed ? 1 : 0;
}

#endif
