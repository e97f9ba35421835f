// Local SGD's PS-side math (sim/policies/local_sgd_rule.h): FedAvg's participant count and draw,
// the outer step (plain averaging, and DiLoCo's Nesterov step against a hand computation), and
// the parameter checks.
#include "sim/policies/local_sgd_rule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

namespace hermes::protocols {
namespace {

TEST(LocalSgdRule, ParticipantCountIsFloorOfCTimesKAtLeastOne) {
  EXPECT_EQ(participant_count(1.0, 12), 12u);
  EXPECT_EQ(participant_count(0.5, 12), 6u);
  EXPECT_EQ(participant_count(0.5, 3), 1u);      // floor(1.5)
  EXPECT_EQ(participant_count(0.7, 3), 2u);      // floor(2.1)
  EXPECT_EQ(participant_count(0.1, 3), 1u);      // max(1, floor(0.3))
  EXPECT_EQ(participant_count(0.29, 100), 29u);  // 28.999999999999996 in binary
  EXPECT_EQ(participant_count(0.3, 10), 3u);
  EXPECT_EQ(participant_count(0.5, 0), 0u);
  EXPECT_EQ(participant_count(0.01, 1), 1u);
}

TEST(LocalSgdRule, DrawIsUniformWithoutReplacementAndReproducible) {
  const std::vector<std::size_t> candidates{0, 2, 3, 5, 7, 9};
  RandomStream a = RandomStream::named(1, "t");
  RandomStream b = RandomStream::named(1, "t");
  std::map<std::size_t, int> picks;
  constexpr int kDraws = 6000;
  for (int i = 0; i < kDraws; ++i) {
    const auto p = draw_participants(candidates, 2, a);
    ASSERT_EQ(p.size(), 2u);
    EXPECT_LT(p[0], p[1]);  // distinct, ascending
    for (const std::size_t w : p) {
      EXPECT_NE(std::find(candidates.begin(), candidates.end(), w), candidates.end());
      ++picks[w];
    }
    EXPECT_EQ(draw_participants(candidates, 2, b), p);  // the same stream, the same draws
  }
  // Each candidate is picked with probability 2/6: 2000 of 6000 (binomial sd ~37).
  ASSERT_EQ(picks.size(), candidates.size());
  for (const auto& [w, n] : picks) EXPECT_NEAR(n, kDraws / 3, 150) << w;
}

TEST(LocalSgdRule, AllCandidatesTakePartWithoutADraw) {
  const std::vector<std::size_t> candidates{1, 4, 6};
  RandomStream rng = RandomStream::named(1, "t");
  EXPECT_EQ(draw_participants(candidates, 3, rng), candidates);
  EXPECT_EQ(draw_participants(candidates, 5, rng), candidates);
  EXPECT_EQ(rng.draws(), 0u);
}

TEST(LocalSgdRule, PlainOuterStepAddsTheMean) {
  OuterStep step(1.0, 0.0, 3);
  EXPECT_TRUE(step.plain());
  EXPECT_TRUE(step.momentum().empty());
  std::vector<float> global{1.0f, -2.0f, 0.5f};
  const std::vector<float> sum{3.0f, 0.0f, -1.5f};  // three changes summed
  step.apply(sum, 3, global);
  EXPECT_FLOAT_EQ(global[0], 2.0f);
  EXPECT_FLOAT_EQ(global[1], -2.0f);
  EXPECT_FLOAT_EQ(global[2], 0.0f);
}

TEST(LocalSgdRule, NesterovOuterStepMatchesAHandComputation) {
  // DiLoCo: eta 0.7, mu 0.9. Per parameter, with d the round's mean change:
  //   m <- 0.9 m + d;  w <- w + 0.7 (d + 0.9 m).
  OuterStep step(0.7, 0.9, 2);
  EXPECT_FALSE(step.plain());
  std::vector<float> w{0.0f, 1.0f};
  // Round 1: changes summed (2, -4) over 2 workers: d = (1, -2); m = (1, -2);
  // w += 0.7 (d + 0.9 m) = 0.7 x 1.9 d = (1.33, -2.66).
  step.apply(std::vector<float>{2.0f, -4.0f}, 2, w);
  EXPECT_NEAR(w[0], 1.33, 1e-6);
  EXPECT_NEAR(w[1], 1.0 - 2.66, 1e-6);
  EXPECT_NEAR(step.momentum()[0], 1.0, 1e-7);
  EXPECT_NEAR(step.momentum()[1], -2.0, 1e-7);
  // Round 2: one worker, change (0.5, 0): d = (0.5, 0); m = (0.9 + 0.5, -1.8) = (1.4, -1.8);
  // w += 0.7 (d + 0.9 m) = 0.7 (0.5 + 1.26, -1.62) = (1.232, -1.134).
  step.apply(std::vector<float>{0.5f, 0.0f}, 1, w);
  EXPECT_NEAR(step.momentum()[0], 1.4, 1e-6);
  EXPECT_NEAR(step.momentum()[1], -1.8, 1e-6);
  EXPECT_NEAR(w[0], 1.33 + 1.232, 1e-5);
  EXPECT_NEAR(w[1], 1.0 - 2.66 - 1.134, 1e-5);
  // A restored momentum is the one the next step uses.
  step.set_momentum(std::vector<float>{0.0f, 0.0f});
  std::vector<float> z{0.0f, 0.0f};
  step.apply(std::vector<float>{1.0f, 1.0f}, 1, z);
  EXPECT_NEAR(z[0], 0.7 * 1.9, 1e-6);
}

TEST(LocalSgdRule, ParametersOutOfRangeAreRefused) {
  const auto bad = [](auto change) {
    LocalSgdParams p;
    change(p);
    EXPECT_THROW(check_local_sgd_params(p), std::invalid_argument);
  };
  EXPECT_NO_THROW(check_local_sgd_params(LocalSgdParams{}));
  bad([](LocalSgdParams& p) { p.local_steps = 0; });
  bad([](LocalSgdParams& p) { p.participation = 0; });
  bad([](LocalSgdParams& p) { p.participation = 1.01; });
  bad([](LocalSgdParams& p) { p.outer_lr = 0; });
  bad([](LocalSgdParams& p) { p.outer_momentum = 1; });
  bad([](LocalSgdParams& p) { p.outer_momentum = -0.1; });
}

}  // namespace
}  // namespace hermes::protocols
