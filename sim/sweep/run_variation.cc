#include "sim/sweep/run_variation.h"

#include <set>
#include <unordered_map>

#include "sim/common/sha256.h"

namespace hermes::sweep {

namespace {

// Whether two scenario documents are equal in everything but their "runs" and "seed".
bool equal_except_runs(const Json& a, const Json& b) {
  if (!a.is_object() || !b.is_object() || a.size() != b.size()) return a == b;
  for (const auto& [key, value] : a.items()) {
    if (key == "runs" || key == "seed") continue;
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

// The document without its "runs" and "seed", as the text a key is made of.
std::string rest_text(const Json& document) {
  if (!document.is_object()) return document.dump();
  Json rest = Json::object();
  for (const auto& [key, value] : document.items()) {
    if (key != "runs" && key != "seed") rest[key] = value;
  }
  return rest.dump();
}

}  // namespace

DistinctRuns distinct_runs(const std::vector<const Json*>& combos,
                           const std::vector<std::uint64_t>& seeds) {
  // A run of a combination is keyed by the SHA-256 of the rest of its scenario and that of its
  // entry (digests keep the table small when the scenario is large, a thousand nodes), computed
  // once per combination. Runs of two seeds always differ; within one seed, runs are the same
  // exactly when their keys are: numbered per (key, seed) in a dense table.
  std::unordered_map<std::string, std::size_t> keys;
  std::vector<std::vector<std::size_t>> combo_keys;
  for (const Json* combo : combos) {
    const std::string rest = sha256_hex(rest_text(*combo));
    std::vector<std::size_t>& k = combo_keys.emplace_back();
    for (const Json& run : runs_of(*combo)) {
      k.push_back(keys.emplace(rest + sha256_hex(run.dump()), keys.size()).first->second);
    }
  }
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> number(keys.size() * seeds.size(), kNone);
  DistinctRuns out;
  for (const auto& k : combo_keys) {
    for (std::size_t s = 0; s < seeds.size(); ++s) {
      std::vector<std::size_t>& point = out.ids.emplace_back();
      for (const std::size_t key : k) {
        std::size_t& id = number[key * seeds.size() + s];
        if (id == kNone) id = out.count++;
        point.push_back(id);
      }
    }
  }
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

std::vector<std::size_t> unvaried_runs(const std::vector<const Json*>& combos) {
  if (combos.size() < 2) return {};
  const Json& reference = *combos[0];
  const std::size_t count = runs_of(reference).size();
  for (const Json* combo : combos) {
    if (runs_of(*combo).size() != count || !equal_except_runs(*combo, reference)) return {};
  }
  std::vector<std::size_t> unvaried;
  for (std::size_t r = 0; r < count; ++r) {
    bool same = true;
    for (std::size_t c = 1; c < combos.size() && same; ++c) {
      same = runs_of(*combos[c])[r] == runs_of(reference)[r];
    }
    if (same) unvaried.push_back(r);
  }
  return unvaried;
}

}  // namespace hermes::sweep
