#include "sim/scenario/event_rules.h"

#include "base/number_text.h"

namespace hermes::scenario {

std::string seconds_text(engine::SimTime t) {
  return format_number(static_cast<double>(t.ns()) / 1e9);
}

std::string host_list(const std::vector<NodeSpec>& nodes, bool with_ps) {
  const std::string ps = with_ps ? "ps" : "";
  const std::string sep = with_ps ? ", " : "";
  if (nodes.size() <= 1) return with_ps ? ps : "no worker";
  if (nodes.size() == 2) return ps + sep + "w0";
  return ps + sep + "w0..w" + std::to_string(nodes.size() - 2);
}

std::string interval_text(engine::SimTime start, engine::SimTime end) {
  return "[" + seconds_text(start) + ", " + seconds_text(end) + ") s";
}

std::optional<std::string> below_resolution(engine::SimTime start, engine::SimTime end,
                                            std::optional<double> duration_s) {
  if (end > start) return std::nullopt;
  std::string why = "shorter than the simulator's 1 ns resolution";
  if (duration_s) why += " (got " + format_number(*duration_s) + ")";
  return why;
}

}  // namespace hermes::scenario
