#include "sim/metrics/setup_check.h"

#include <array>
#include <map>
#include <string_view>

#include "base/string_join.h"

namespace hermes::metrics {

namespace {

using Json = nlohmann::ordered_json;

// Top-level keys that are not the setup: what is compared (runs), with which seed, labels, and
// what the nodes cost (prices change no simulated number).
constexpr std::array<std::string_view, 7> kNotSetup = {"name",  "description", "seed",  "runs",
                                                       "sweep", "outputs",     "prices"};

bool is_setup(const std::string& pointer) {
  const std::size_t end = pointer.find('/', 1);
  const std::string_view top =
      std::string_view(pointer).substr(1, end == std::string::npos ? std::string::npos : end - 1);
  for (const std::string_view k : kNotSetup) {
    if (top == k) return false;
  }
  // A node group's pricing tier only prices it: /cluster/ps/pricing, /cluster/workers/N/pricing.
  const std::string_view last = "/pricing";
  if (top == "cluster" && pointer.size() > last.size() &&
      pointer.compare(pointer.size() - last.size(), last.size(), last) == 0) {
    return false;
  }
  return true;
}

std::optional<std::string> value_at(const Json& doc, const std::string& pointer) {
  const Json::json_pointer p(pointer);
  if (!doc.contains(p)) return std::nullopt;
  return doc.at(p).dump();
}

// "/training/stop/max_iterations" -> "training.stop.max_iterations" (the --set spelling).
std::string dotted(const std::string& pointer) {
  std::string out = pointer.substr(1);
  for (char& c : out) {
    if (c == '/') c = '.';
  }
  return out;
}

}  // namespace

std::vector<SetupDifference> setup_differences(const Json& run, const Json& paper) {
  std::vector<SetupDifference> out;
  // Json::diff adds the elements an array has beyond the paper's at "<array>/-" (JSON Patch's
  // append): each gets its index in the run's array, counted from the end of the paper's.
  std::map<std::string, std::size_t> appended;
  for (const Json& op : Json::diff(paper, run)) {
    std::string pointer = op.at("path").get<std::string>();
    const std::string append = "/-";
    if (pointer.size() > append.size() &&
        pointer.compare(pointer.size() - append.size(), append.size(), append) == 0) {
      const std::string array = pointer.substr(0, pointer.size() - append.size());
      const Json::json_pointer at(array);
      const std::size_t first = paper.contains(at) ? paper.at(at).size() : 0;
      const auto [slot, fresh] = appended.try_emplace(array, first);
      pointer = array + "/" + std::to_string(fresh ? slot->second : ++slot->second);
    }
    if (pointer.empty() || !is_setup(pointer)) continue;
    out.push_back({pointer, value_at(run, pointer), value_at(paper, pointer)});
  }
  return out;
}

std::string setup_differences_text(const std::vector<SetupDifference>& differences,
                                   std::size_t limit) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < differences.size() && i < limit; ++i) {
    const SetupDifference& d = differences[i];
    parts.push_back(dotted(d.pointer) + " " + d.run.value_or("absent") + " (paper " +
                    d.paper.value_or("absent") + ")");
  }
  if (differences.size() > limit) {
    parts.push_back("and " + std::to_string(differences.size() - limit) + " more");
  }
  return join_strings(parts, ", ");
}

}  // namespace hermes::metrics
