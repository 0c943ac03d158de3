// A second binary of the GoogleTest e2e project, for the checks of two
// binaries behind one `sh -c` wrapper (tests/e2e/runners/gtest.json): under
// `fail`, `Other.Fails` fails; under `forge`, `Other.Forges` prints a
// `[ RUN      ] Other.Ghost` that no result follows and passes; under
// `forge_at_exit` the process prints it after GoogleTest's closing and
// exits 0.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>

static bool mode(const char* m) {
  const char* set = std::getenv("TESTGATE_FIXTURE");
  return set != nullptr && std::strcmp(set, m) == 0;
}

static void ghost() { std::printf("[ RUN      ] Other.Ghost\n"); }

TEST(Other, Passes) { EXPECT_EQ(2, 1 + 1); }
TEST(Other, Fails) { EXPECT_EQ(mode("fail") ? 3 : 2, 1 + 1); }
TEST(Other, Forges) {
  if (mode("forge")) ghost();
  if (mode("forge_at_exit")) std::atexit(ghost);
}
