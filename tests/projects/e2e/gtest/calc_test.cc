// The GoogleTest e2e project's tests: Calc.Adds, Calc.AddsNegative,
// Calc.Sometimes, Calc.Hangs, Big.Numbers.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

namespace {

bool mode(const char* m) {
  const char* set = std::getenv("TESTGATE_FIXTURE");
  return std::strcmp(set != nullptr ? set : "pass", m) == 0;
}

// Whether this is an odd-numbered run, counted in PROJECT_DIR/.flaky-count
// plus one run per earlier attempt (testgate puts the tree back).
bool odd_run() {
  const char* path = PROJECT_DIR "/.flaky-count";
  int runs = 0;
  if (FILE* f = std::fopen(path, "r")) {
    if (std::fscanf(f, "%d", &runs) != 1) runs = 0;
    std::fclose(f);
  }
  runs += 1;
  if (FILE* f = std::fopen(path, "w")) {
    std::fprintf(f, "%d", runs);
    std::fclose(f);
  }
  const char* attempt = std::getenv("TESTGATE_ATTEMPT");
  int n = runs + (attempt != nullptr ? std::atoi(attempt) : 1) - 1;
  return n % 2 == 1;
}

}  // namespace

TEST(Calc, Adds) {
  if (mode("crash")) std::raise(SIGSEGV);
  EXPECT_EQ(2 + 2, 4);
}

TEST(Calc, AddsNegative) { EXPECT_EQ(1 + -2, mode("fail") ? 0 : -1); }

TEST(Calc, Sometimes) {
  if (mode("flaky") && odd_run()) FAIL() << "odd-numbered run";
}

TEST(Calc, Hangs) {
  if (mode("hang")) sleep(3600);
}

TEST(Big, Numbers) { EXPECT_EQ(1000000L * 2, mode("fail") ? 1L : 2000000L); }
