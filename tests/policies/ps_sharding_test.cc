// How parameters are split over PS shards (docs/sharding.md): by bytes, equal contiguous ranges
// with the remainder on the first shards; by layers, whole layers, largest first to the least
// loaded shard; more shards than there is to hold refused with the accepted count named; one
// shard is the whole model with a share of exactly 1.
#include "sim/policies/ps_sharding.h"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <vector>

namespace hermes::protocols {
namespace {

// The paper's MLP 784-128-64-10: weights and biases of each dense layer; ReLUs hold nothing.
const std::vector<std::size_t> kMlp = {100480, 0, 8256, 0, 650};

TEST(PsSharding, ByBytesEqualRangesWithTheRemainderOnTheFirstShards) {
  EXPECT_EQ(shard_params(kMlp, 2, Sharding::kBytes), (std::vector<std::size_t>{54693, 54693}));
  EXPECT_EQ(shard_params({5, 5}, 4, Sharding::kBytes), (std::vector<std::size_t>{3, 3, 2, 2}));
  EXPECT_EQ(shard_params(kMlp, 1, Sharding::kBytes), (std::vector<std::size_t>{109386}));
}

TEST(PsSharding, ByLayersLargestFirstToTheLeastLoadedShard) {
  // 100480 alone; 8256 and 650 go to the second shard (the least loaded each time).
  EXPECT_EQ(shard_params(kMlp, 2, Sharding::kLayers), (std::vector<std::size_t>{100480, 8906}));
  EXPECT_EQ(shard_params(kMlp, 3, Sharding::kLayers),
            (std::vector<std::size_t>{100480, 8256, 650}));
  // Greedy, not model order: 6 then 5 and 4 on the second shard would be 6 | 9; largest first to
  // the least loaded gives 6+3 | 5+4.
  EXPECT_EQ(shard_params({3, 5, 4, 6}, 2, Sharding::kLayers), (std::vector<std::size_t>{9, 9}));
  // Equal layers in model order, ties to the lowest shard.
  EXPECT_EQ(shard_params({2, 2, 2}, 2, Sharding::kLayers), (std::vector<std::size_t>{4, 2}));
}

TEST(PsSharding, CountsAddUpToTheModel) {
  for (std::size_t s = 1; s <= 3; ++s) {
    for (const Sharding how : {Sharding::kBytes, Sharding::kLayers}) {
      const auto held = shard_params(kMlp, s, how);
      EXPECT_EQ(held.size(), s);
      EXPECT_EQ(std::accumulate(held.begin(), held.end(), std::size_t{0}), 109386u);
    }
  }
}

TEST(PsSharding, AShardWithNothingToHoldIsRefusedNamingTheAcceptedCount) {
  EXPECT_EQ(sharding_problem(kMlp, 3, Sharding::kLayers), "");
  const std::string p = sharding_problem(kMlp, 4, Sharding::kLayers);
  EXPECT_NE(p.find("3 layers that hold parameters"), std::string::npos) << p;
  EXPECT_NE(p.find("at most 3 shards by layers"), std::string::npos) << p;
  EXPECT_THROW(shard_params(kMlp, 4, Sharding::kLayers), std::invalid_argument);
  EXPECT_NE(sharding_problem({1, 1}, 3, Sharding::kBytes).find("at most one shard per parameter"),
            std::string::npos);
  EXPECT_NE(sharding_problem(kMlp, 0, Sharding::kBytes).find("at least 1"), std::string::npos);
}

TEST(PsSharding, SharesAreTheFractionOfParametersAndExactlyOneForOneShard) {
  EXPECT_EQ(shard_shares({109386}), (std::vector<double>{1.0}));
  const auto shares = shard_shares({3, 1});
  EXPECT_DOUBLE_EQ(shares[0], 0.75);
  EXPECT_DOUBLE_EQ(shares[1], 0.25);
}

}  // namespace
}  // namespace hermes::protocols
