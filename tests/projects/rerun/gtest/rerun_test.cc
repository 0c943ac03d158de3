// The GoogleTest rerun project's tests: what they do is TESTGATE_FIXTURE's.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

namespace {

bool mode(const char* m) {
  const char* set = std::getenv("TESTGATE_FIXTURE");
  return std::strcmp(set != nullptr ? set : "pass", m) == 0;
}

// Whether this is the first run: PROJECT_DIR/.flaky-count plus one run per
// earlier attempt (testgate puts the tree back).
bool first_run() {
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
  return runs + (attempt != nullptr ? std::atoi(attempt) : 1) - 1 == 1;
}

}  // namespace

TEST(Rerun, Fails) { EXPECT_FALSE(mode("fail")); }
// Starts with a failing name and passes: a retry must not run it.
TEST(Rerun, FailsNot) {}
TEST(Rerun, Sometimes) { EXPECT_FALSE(mode("flaky") && first_run()); }

class Param : public ::testing::TestWithParam<int> {};
TEST_P(Param, Fails) { EXPECT_FALSE(mode("fail") && GetParam() == 1); }
INSTANTIATE_TEST_SUITE_P(Inst, Param, ::testing::Values(0, 1, 2));

template <typename T>
class Typed : public ::testing::Test {};
using Types = ::testing::Types<int, char>;
TYPED_TEST_SUITE(Typed, Types);
TYPED_TEST(Typed, Fails) { EXPECT_FALSE(mode("fail") && sizeof(TypeParam) == 1); }

class Passes : public ::testing::TestWithParam<int> {};
TEST_P(Passes, Always) {}
INSTANTIATE_TEST_SUITE_P(Many, Passes, ::testing::Range(0, 18));
