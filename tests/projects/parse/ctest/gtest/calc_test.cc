// A pass, a failure, an abort and a value-parameterised test.
#include <cstdlib>

#include <gtest/gtest.h>

TEST(Calc, Adds) { EXPECT_EQ(2 + 2, 4); }
TEST(Calc, Subtracts) { EXPECT_EQ(1 - 1, 2); }
TEST(Calc, Aborts) { std::abort(); }

class Sq : public ::testing::TestWithParam<int> {};
TEST_P(Sq, Positive) { EXPECT_GT(GetParam(), 1); }
INSTANTIATE_TEST_SUITE_P(Small, Sq, ::testing::Values(1, 2));
