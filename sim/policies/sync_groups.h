// The sync groups of the hybrid protocol (docs/hybrid.md): which workers average synchronously
// with each other. PaddlePaddle's heterogeneous PS forms groups of workers of similar speed; here
// a group is every worker of one node profile (`profile`, the cluster's own partition of equal
// machines), `sync_group_size` consecutive workers in the cluster's order (`size`), or every
// worker of one entry of the scenario's `cluster.workers` (`entry`: the partition written down
// explicitly, one entry per group), or `sync_group_size` workers of similar measured speed
// (`speed`: groups_by_speed, after a first round of every worker together). Pure: no simulator.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hermes::protocols {

enum class Grouping { kProfile, kSize, kEntry, kSpeed };

namespace hybrid_defaults {
// One group per node profile: the paper's MNIST cluster (4 B1ms, 4 DS2_v2, 4 F4s_v2) gives three
// groups of four equal machines.
inline constexpr int kGrouping = 0;  // Grouping::kProfile
// With grouping `size`: pairs.
inline constexpr int kSyncGroupSize = 2;
// A group's update weighted by 1/(1+tau) (StalenessWeight::kInverse, staleness_weight.h): late
// updates damped, as the hybrid mode damps them.
inline constexpr int kStalenessWeight = 1;
}  // namespace hybrid_defaults

// Why `size` cannot partition `workers` workers into groups of that size, naming the accepted
// values (the divisors of `workers`), or empty when it can.
std::string sync_group_size_problem(std::size_t workers, int size);

// What a worker is, for its grouping: its node profile and the cluster.workers entry it was
// expanded from.
struct GroupedWorker {
  std::string profile;
  int entry = 0;
};

// The group of each of `workers` (0-based, numbered in the order of each group's first worker).
// `size` is read by kSize and kSpeed and must divide the worker count (else std::invalid_argument
// with sync_group_size_problem's text). kSpeed: one group of every worker, the round that measures
// them (groups_by_speed then).
std::vector<int> sync_groups(const std::vector<GroupedWorker>& workers, Grouping grouping,
                             int size);

// Groups of `size` workers by measured speed: the workers in the order of `seconds` (the time each
// took, shortest first; ties by worker index), cut into groups of `size`; group 0 is the fastest.
// `size` must divide the worker count (else std::invalid_argument).
std::vector<int> groups_by_speed(const std::vector<double>& seconds, int size);

}  // namespace hermes::protocols
