#include "sim/policies/sync_groups.h"

#include <map>
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

std::vector<int> sync_groups(const std::vector<GroupedWorker>& workers, Grouping grouping,
                             int size) {
  std::vector<int> group(workers.size(), 0);
  if (grouping == Grouping::kSize) {
    if (const std::string problem = sync_group_size_problem(workers.size(), size);
        !problem.empty()) {
      throw std::invalid_argument("sync_group_size: " + problem);
    }
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

}  // namespace hermes::protocols
