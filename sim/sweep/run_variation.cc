#include "sim/sweep/run_variation.h"

#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "sim/common/sha256.h"

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

// The document without its "runs", as the text a key is made of.
std::string rest_text(const Json& document) {
  if (!document.is_object()) return document.dump();
  Json rest = Json::object();
  for (const auto& [key, value] : document.items()) {
    if (key != "runs") rest[key] = value;
  }
  return rest.dump();
}

}  // namespace

DistinctRuns distinct_runs(const std::vector<const Json*>& documents) {
  // A run's key: the SHA-256 of the rest of its scenario and that of its entry. Digests keep the
  // table small when the scenario is large (a thousand nodes) and the points many.
  DistinctRuns out;
  std::unordered_map<std::string, std::size_t> ids;
  for (const Json* document : documents) {
    const std::string rest = sha256_hex(rest_text(*document));
    std::vector<std::size_t>& point = out.ids.emplace_back();
    for (const Json& run : runs_of(*document)) {
      const auto [it, added] = ids.emplace(rest + sha256_hex(run.dump()), ids.size());
      point.push_back(it->second);
    }
  }
  out.count = ids.size();
  return out;
}

std::size_t repeated_runs(const DistinctRuns& runs, const std::vector<std::size_t>& points) {
  std::set<std::size_t> seen;
  std::size_t repeated = 0;
  for (const std::size_t i : points) {
    for (const std::size_t id : runs.ids.at(i)) repeated += seen.insert(id).second ? 0 : 1;
  }
  return repeated;
}

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
