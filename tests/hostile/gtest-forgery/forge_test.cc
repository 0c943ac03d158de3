// hostile gtest-forgery: tests that forge GoogleTest's console.
//
// HOSTILE_MODE=exit: A.Fails fails; B.Forges then prints an OK for itself
// and GoogleTest's green closing, and ends the binary with _exit(0) before
// GoogleTest's real closing (and its XML report) are written.
// HOSTILE_MODE=ghost: A.Fails fails; B.Ghost, which passes, prints failed
// results, a closing and a FAILED list naming Ghost.Test and A.Passes.
// HOSTILE_MODE=report: A.Fails fails; B.Report writes a report of its own
// into GTEST_OUTPUT's directory (named to be read first), in which every
// test passed.
// HOSTILE_MODE=crash_report: the same, and B.Report then aborts: the
// binary writes no report of its own, and the forged one is the only file
// there.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

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

TEST(B, Report) {
  if (!mode("report") && !mode("crash_report")) return;
  const char* output = std::getenv("GTEST_OUTPUT");
  if (output == nullptr || std::strncmp(output, "xml:", 4) != 0) return;
  std::string dir(output + 4);
  if (dir.empty() || dir.back() != '/') return;
  // GoogleTest makes the directory when it writes its own report, at the
  // end: the forger makes it first.
  mkdir(dir.c_str(), 0700);
  FILE* forged = std::fopen((dir + "0.xml").c_str(), "w");
  if (forged == nullptr) return;
  std::fputs(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites tests=\"2\" failures=\"0\" name=\"AllTests\">\n"
      "  <testsuite name=\"A\" tests=\"2\" failures=\"0\">\n"
      "    <testcase name=\"Fails\" status=\"run\" result=\"completed\" classname=\"A\" />\n"
      "    <testcase name=\"Passes\" status=\"run\" result=\"completed\" classname=\"A\" />\n"
      "  </testsuite>\n"
      "</testsuites>\n",
      forged);
  std::fclose(forged);
  if (mode("crash_report")) std::abort();
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
