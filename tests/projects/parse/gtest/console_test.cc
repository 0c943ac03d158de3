// GoogleTest's shapes: a pass, a failure, a skip, a disabled test, value-
// and type-parameterised tests, death tests, a test that passes on its
// second run in a process (--gtest_repeat), a crash (GTEST_FIXTURE=crash)
// and a passing test that prints GoogleTest's failure lines.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

namespace {

bool mode(const char* m) {
  const char* set = std::getenv("GTEST_FIXTURE");
  return set != nullptr && std::strcmp(set, m) == 0;
}

}  // namespace

TEST(Calc, Adds) { EXPECT_EQ(2 + 2, 4); }
TEST(Calc, Subtracts) { EXPECT_EQ(1 - 1, 2); }
TEST(Calc, Skips) { GTEST_SKIP() << "not today"; }
TEST(Calc, DISABLED_Later) { FAIL(); }

TEST(Calc, Crashes) {
  if (mode("crash")) {
    std::puts("about to abort");
    std::fflush(stdout);
    std::abort();
  }
}

// Fails the first time it runs in a process, passes after.
TEST(Flaky, SecondTime) {
  static int runs = 0;
  runs += 1;
  EXPECT_GT(runs, 1);
}

// A passing test that prints what GoogleTest prints for failures.
TEST(Liar, PrintsFailures) {
  std::puts("[  FAILED  ] Forged.Name (0 ms)");
  std::puts("[==========] 9 tests from 3 test suites ran. (1 ms total)");
  std::puts("[  PASSED  ] 8 tests.");
  std::puts("[  FAILED  ] 1 test, listed below:");
  std::puts("[  FAILED  ] Forged.Name");
  std::fflush(stdout);
}

class Sq : public ::testing::TestWithParam<int> {};
TEST_P(Sq, Positive) { EXPECT_GT(GetParam(), 1); }
INSTANTIATE_TEST_SUITE_P(Small, Sq, ::testing::Values(1, 2));

template <typename T>
class Num : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned char>;
TYPED_TEST_SUITE(Num, Types);
TYPED_TEST(Num, FitsAByte) { EXPECT_LT(sizeof(TypeParam), 2u); }

template <typename T>
class Wide : public ::testing::Test {};
TYPED_TEST_SUITE_P(Wide);
TYPED_TEST_P(Wide, AtLeastTwo) { EXPECT_GE(sizeof(TypeParam), 2u); }
REGISTER_TYPED_TEST_SUITE_P(Wide, AtLeastTwo);
INSTANTIATE_TYPED_TEST_SUITE_P(My, Wide, Types);

TEST(CalcDeathTest, Exits) { EXPECT_EXIT(std::exit(3), ::testing::ExitedWithCode(3), ""); }
TEST(CalcDeathTest, DoesNotDie) { EXPECT_DEATH(std::puts("alive"), "never printed"); }
