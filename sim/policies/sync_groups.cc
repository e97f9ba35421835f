#include "sim/policies/sync_groups.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>

namespace hermes::protocols {

std::string sync_group_size_problem(std::size_t workers, int size) {
  if (size >= 1 && workers % static_cast<std::size_t>(size) == 0) return {};
  std::string divisors;
  for (std::size_t d = 1; d <= workers; ++d) {
    if (workers % d != 0) continue;
    if (!divisors.empty()) divisors += ", ";
    divisors += std::to_string(d);
  }
  return "groups of " + std::to_string(size) + " do not partition the " + std::to_string(workers) +
         " workers (accepted: a divisor of the worker count: " + divisors + ")";
}

namespace {

void check_size(std::size_t workers, int size) {
  if (const std::string problem = sync_group_size_problem(workers, size); !problem.empty()) {
    throw std::invalid_argument("sync_group_size: " + problem);
  }
}

}  // namespace

std::vector<int> sync_groups(const std::vector<GroupedWorker>& workers, Grouping grouping,
                             int size) {
  std::vector<int> group(workers.size(), 0);
  if (grouping == Grouping::kSize || grouping == Grouping::kSpeed) check_size(workers.size(), size);
  if (grouping == Grouping::kSpeed) return group;  // the measuring round: every worker together
  if (grouping == Grouping::kSize) {
    for (std::size_t w = 0; w < workers.size(); ++w) {
      group[w] = static_cast<int>(w / static_cast<std::size_t>(size));
    }
    return group;
  }
  // By profile or by entry: a key per group, numbered at its first worker.
  std::map<std::string, int> of_key;
  for (std::size_t w = 0; w < workers.size(); ++w) {
    const std::string key =
        grouping == Grouping::kProfile ? workers[w].profile : std::to_string(workers[w].entry);
    group[w] = of_key.try_emplace(key, static_cast<int>(of_key.size())).first->second;
  }
  return group;
}

std::vector<int> groups_by_speed(const std::vector<double>& seconds, int size) {
  check_size(seconds.size(), size);
  std::vector<std::size_t> order(seconds.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return seconds[a] < seconds[b]; });
  std::vector<int> group(seconds.size(), 0);
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    group[order[rank]] = static_cast<int>(rank / static_cast<std::size_t>(size));
  }
  return group;
}

}  // namespace hermes::protocols
