#include "sim/sweep/run_variation.h"

#include <map>
#include <stdexcept>

namespace hermes::sweep {

namespace {

// Whether two scenario documents are equal in everything but their "runs".
bool equal_except_runs(const Json& a, const Json& b) {
  if (!a.is_object() || !b.is_object() || a.size() != b.size()) return a == b;
  for (const auto& [key, value] : a.items()) {
    if (key == "runs") continue;
    const auto it = b.find(key);
    if (it == b.end() || *it != value) return false;
  }
  return true;
}

const Json& runs_of(const Json& document) {
  static const Json none = Json::array();
  const auto it = document.find("runs");
  return it != document.end() && it->is_array() ? *it : none;
}

}  // namespace

std::vector<std::size_t> unvaried_runs(const std::vector<const Json*>& documents,
                                       const std::vector<SweepPoint>& points) {
  if (documents.size() != points.size()) {
    throw std::logic_error("unvaried_runs: one document per point expected");
  }
  // The first point of each seed is what the others of that seed are compared with.
  std::map<std::uint64_t, std::size_t> first;
  bool repeated = false;
  for (std::size_t i = 0; i < points.size(); ++i) {
    repeated = !first.emplace(points[i].seed, i).second || repeated;
  }
  if (!repeated || documents.empty()) return {};
  const std::size_t count = runs_of(*documents[0]).size();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Json& reference = *documents[first.at(points[i].seed)];
    if (runs_of(*documents[i]).size() != count || !equal_except_runs(*documents[i], reference)) {
      return {};
    }
  }
  std::vector<std::size_t> unvaried;
  for (std::size_t r = 0; r < count; ++r) {
    bool same = true;
    for (std::size_t i = 0; i < points.size() && same; ++i) {
      same = runs_of(*documents[i])[r] == runs_of(*documents[first.at(points[i].seed)])[r];
    }
    if (same) unvaried.push_back(r);
  }
  return unvaried;
}

}  // namespace hermes::sweep
