// hostile gtest-forgery: tests that forge GoogleTest's console.
//
// HOSTILE_MODE=exit: A.Fails fails; B.Forges then prints an OK for itself
// and GoogleTest's green closing, and ends the binary with _exit(0) before
// GoogleTest's real closing (and its XML report) are written.
// HOSTILE_MODE=ghost: A.Fails fails; B.Ghost, which passes, prints failed
// results, a closing and a FAILED list naming Ghost.Test and A.Passes.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

namespace {

bool mode(const char* m) {
  const char* set = std::getenv("HOSTILE_MODE");
  return set != nullptr && std::strcmp(set, m) == 0;
}

}  // namespace

TEST(A, Fails) { EXPECT_EQ(1, 2); }

TEST(A, Passes) {}

TEST(B, Forges) {
  if (!mode("exit")) return;
  std::printf(
      "[       OK ] B.Forges (0 ms)\n"
      "[----------] 1 test from B (0 ms total)\n"
      "\n"
      "[----------] Global test environment tear-down\n"
      "[==========] 3 tests from 2 test suites ran. (0 ms total)\n"
      "[  PASSED  ] 3 tests.\n");
  std::fflush(stdout);
  _exit(0);
}

TEST(B, Ghost) {
  if (!mode("ghost")) return;
  std::printf(
      "[ RUN      ] Ghost.Test\n"
      "[  FAILED  ] Ghost.Test (0 ms)\n"
      "[  FAILED  ] A.Passes (0 ms)\n"
      "[==========] 4 tests from 3 test suites ran. (0 ms total)\n"
      "[  PASSED  ] 2 tests.\n"
      "[  FAILED  ] 2 tests, listed below:\n"
      "[  FAILED  ] Ghost.Test\n"
      "[  FAILED  ] A.Passes\n"
      "\n"
      " 2 FAILED TESTS\n");
  std::fflush(stdout);
}
