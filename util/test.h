/*
 * A minimal test harness for the test_*.c programs. Each CHECK counts one
 * assertion; test_done() prints "N passed, N failed" and returns the exit code.
 */
#ifndef DC_TEST_H
#define DC_TEST_H

#include <inttypes.h>
#include <stdio.h>

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

static inline int
test_done(void)
{
   printf("%u passed, %u failed\n", test_passed, test_failed);
   return test_failed || !test_passed ? 1 : 0;
}

#endif
