#include "sim/scenario/event_rules.h"

#include "base/number_text.h"

namespace hermes::scenario {

namespace {

// Seconds as ns / 1e9 (a division, unlike to_seconds' product, gives back 250 for 250e9 ns).
std::string seconds_text(engine::SimTime t) {
  return format_number(static_cast<double>(t.ns()) / 1e9);
}

}  // namespace

std::string host_list(const std::vector<NodeSpec>& nodes) {
  if (nodes.size() <= 1) return "ps";
  if (nodes.size() == 2) return "ps, w0";
  return "ps, w0..w" + std::to_string(nodes.size() - 2);
}

std::string interval_text(engine::SimTime start, engine::SimTime end) {
  return "[" + seconds_text(start) + ", " + seconds_text(end) + ") s";
}

}  // namespace hermes::scenario
