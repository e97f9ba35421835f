// The sync groups of the hybrid protocol (docs/hybrid.md): by profile, every worker of one profile
// together, numbered by first appearance; by entry, every worker of one cluster.workers entry; by
// speed, the fastest together after a round of all; by size, consecutive workers; a size that does
// not divide the worker count refused, with the divisors named.
#include "sim/policies/sync_groups.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace hermes::protocols {
namespace {

// Six workers from four cluster.workers entries (the B1ms pair is one entry of count 2).
const std::vector<GroupedWorker> kCluster = {{"B1ms", 0},   {"B1ms", 0},   {"DS2_v2", 1},
                                             {"F4s_v2", 2}, {"DS2_v2", 3}, {"F4s_v2", 3}};

std::vector<GroupedWorker> of_profiles(const std::vector<std::string>& profiles) {
  std::vector<GroupedWorker> out;
  for (const auto& p : profiles) out.push_back({p, 0});
  return out;
}

TEST(SyncGroups, ByProfileEveryWorkerOfAProfileIsOneGroup) {
  EXPECT_EQ(sync_groups(kCluster, Grouping::kProfile, 4), (std::vector<int>{0, 0, 1, 2, 1, 2}));
  EXPECT_EQ(sync_groups(of_profiles({"F4s_v2", "B1ms"}), Grouping::kProfile, 2),
            (std::vector<int>{0, 1}));
  EXPECT_EQ(sync_groups(of_profiles({"B1ms", "B1ms", "B1ms"}), Grouping::kProfile, 2),
            (std::vector<int>{0, 0, 0}));
}

TEST(SyncGroups, BySizeConsecutiveWorkers) {
  EXPECT_EQ(sync_groups(kCluster, Grouping::kSize, 2), (std::vector<int>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(sync_groups(kCluster, Grouping::kSize, 3), (std::vector<int>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(sync_groups(kCluster, Grouping::kSize, 1), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(sync_groups(kCluster, Grouping::kSize, 6), (std::vector<int>(6, 0)));
}

TEST(SyncGroups, ByEntryEveryWorkerOfAClusterEntryIsOneGroup) {
  EXPECT_EQ(sync_groups(kCluster, Grouping::kEntry, 4), (std::vector<int>{0, 0, 1, 2, 3, 3}));
}

TEST(SyncGroups, BySpeedTheMeasuringRoundIsOneGroupThenTheFastestTogether) {
  EXPECT_EQ(sync_groups(kCluster, Grouping::kSpeed, 2), std::vector<int>(6, 0));
  const double never = std::numeric_limits<double>::infinity();
  // Shortest first, ties by worker index, one that never arrived last.
  EXPECT_EQ(groups_by_speed({9.0, 2.0, never, 2.0, 5.0, 1.0}, 2),
            (std::vector<int>{2, 0, 2, 1, 1, 0}));
  EXPECT_EQ(groups_by_speed({9.0, 2.0, never, 2.0, 5.0, 1.0}, 3),
            (std::vector<int>{1, 0, 1, 0, 1, 0}));
  EXPECT_THROW(groups_by_speed({1.0, 2.0, 3.0}, 2), std::invalid_argument);
}

TEST(SyncGroups, ASizeThatDoesNotPartitionIsRefusedWithTheDivisors) {
  EXPECT_EQ(sync_group_size_problem(6, 3), "");
  EXPECT_EQ(sync_group_size_problem(6, 4),
            "groups of 4 do not partition the 6 workers (accepted: a divisor of the worker count: "
            "1, 2, 3, 6)");
  EXPECT_NE(sync_group_size_problem(6, 0), "");
  EXPECT_NE(sync_group_size_problem(6, 12), "");
  EXPECT_THROW(sync_groups(kCluster, Grouping::kSize, 4), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::protocols
