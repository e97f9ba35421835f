// The staleness weights of docs/staleness.md and the PS's count of global updates behind tau.
#include "sim/policies/staleness_weight.h"

#include <gtest/gtest.h>

namespace hermes::protocols {
namespace {

TEST(StalenessWeight, ConstantIsOneWhateverTheStaleness) {
  for (std::int64_t tau : {0, 1, 7, 1000}) {
    EXPECT_EQ(staleness_weight(StalenessWeight::kConstant, tau, 3.0), 1.0f) << tau;
  }
}

TEST(StalenessWeight, InverseIsOneOverOnePlusTau) {
  EXPECT_EQ(staleness_weight(StalenessWeight::kInverse, 0, 0.5), 1.0f);
  EXPECT_EQ(staleness_weight(StalenessWeight::kInverse, 1, 0.5), 0.5f);
  EXPECT_EQ(staleness_weight(StalenessWeight::kInverse, 3, 0.5), 0.25f);
  EXPECT_EQ(staleness_weight(StalenessWeight::kInverse, 9, 0.5), 0.1f);
  EXPECT_EQ(staleness_weight(StalenessWeight::kInverse, 2, 0.5), static_cast<float>(1.0 / 3.0));
}

TEST(StalenessWeight, PolynomialIsOnePlusTauToTheMinusA) {
  EXPECT_EQ(staleness_weight(StalenessWeight::kPolynomial, 0, 0.5), 1.0f);
  EXPECT_EQ(staleness_weight(StalenessWeight::kPolynomial, 3, 0.5), 0.5f);    // 1/sqrt(4)
  EXPECT_EQ(staleness_weight(StalenessWeight::kPolynomial, 15, 0.25), 0.5f);  // 16^-1/4
  EXPECT_EQ(staleness_weight(StalenessWeight::kPolynomial, 1, 2.0), 0.25f);   // 2^-2
  EXPECT_EQ(staleness_weight(StalenessWeight::kPolynomial, 99, 1.0), 0.01f);  // 100^-1
  EXPECT_EQ(staleness_weight(StalenessWeight::kPolynomial, 42, 0.0), 1.0f);   // a 0: constant
  EXPECT_NEAR(staleness_weight(StalenessWeight::kPolynomial, 8, 0.5), 1.0 / 3.0, 1e-7);
}

TEST(StalenessWeight, ANegativeStalenessCountsAsNone) {
  EXPECT_EQ(staleness_weight(StalenessWeight::kInverse, -2, 0.5), 1.0f);
  EXPECT_EQ(staleness_weight(StalenessWeight::kPolynomial, -2, 0.5), 1.0f);
}

TEST(StalenessClock, TauIsTheGlobalUpdatesSinceThePull) {
  StalenessClock c(3);
  c.pull(0);  // version 0
  c.applied();
  c.applied();
  c.pull(1);  // version 2
  c.applied();
  EXPECT_EQ(c.version(), 3);
  EXPECT_EQ(c.staleness(c.pulled(0)), 3);
  EXPECT_EQ(c.staleness(c.pulled(1)), 1);
  EXPECT_EQ(c.staleness(c.pulled(2)), 3);  // never pulled: the initial model, version 0
  // An update keeps the version of its pull: w pulls again before it is applied.
  const std::int64_t pushed_from = c.pulled(1);
  c.pull(1);
  c.applied();
  EXPECT_EQ(c.staleness(pushed_from), 2);
  EXPECT_EQ(c.staleness(c.pulled(1)), 1);
  EXPECT_EQ(staleness_weight(StalenessWeight::kInverse, c.staleness(pushed_from), 0), 1.0f / 3);
}

}  // namespace
}  // namespace hermes::protocols
