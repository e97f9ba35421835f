// "events": things that happen to the cluster at given simulated times. Kinds so far:
// "slowdown" (a node's CPU at speed_factor x its speed for an interval) and "link" (a host's links
// degraded or lost for an interval, read in link_events.cc). Crashes and evictions (issue 15)
// will be further kinds of the same list.
#include <string>
#include <vector>

#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

// 1e9 s (31 years) keeps every instant far inside SimTime's int64 nanoseconds.
constexpr double kMaxEventSeconds = 1e9;

// A slowdown is a slowdown: a factor above 1 would make a node faster than its profile, which is
// a different machine (a profile override), not an event.
const Range kSpeedFactor = Range::above(0).up_to(1);

void read_slowdown(ObjectReader& r, std::vector<DeclaredSlowdown>& found) {
  const auto node = r.string("node", std::nullopt);
  const auto at = r.number("at_s", std::nullopt, Range::at_least(0).up_to(kMaxEventSeconds));
  const auto duration =
      r.number("duration_s", std::nullopt, Range::above(0).up_to(kMaxEventSeconds));
  const auto factor = r.number("speed_factor", std::nullopt, kSpeedFactor);
  if (!node || !at || !duration || !factor) return;
  DeclaredSlowdown d;
  d.spec.node = *node;
  d.spec.start = engine::from_seconds(*at);
  d.spec.end = engine::from_seconds(*at + *duration);
  d.spec.speed_factor = *factor;
  d.spec.origin = r.path();
  d.node_path = r.path_of("node");
  d.item_path = r.path();
  if (d.spec.end <= d.spec.start) {
    r.error("duration_s",
            "shorter than the simulator's 1 ns resolution (got " + format_number(*duration) + ")");
    return;
  }
  found.push_back(std::move(d));
}

}  // namespace

std::vector<DeclaredSlowdown> read_events(const Json& value, Diagnostics& diags, Json& out,
                                          std::vector<DeclaredLinkFault>& link_faults) {
  std::vector<DeclaredSlowdown> found;
  if (!value.is_array()) {
    diags.error("/events", "wrong type: expected a list of events, got " + describe_value(value));
    return found;
  }
  out = Json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    Json& item_out = out.emplace_back(Json::object());
    ObjectReader r(value[i], "/events/" + std::to_string(i), diags, item_out);
    if (!r.is_object()) continue;
    const auto kind = r.choice("kind", {"slowdown", "link"}, std::nullopt);
    // Without a known kind the other keys have no schema to be checked against.
    if (!kind) continue;
    if (*kind == "link") {
      read_link_fault(r, link_faults);
    } else {
      read_slowdown(r, found);
    }
    r.finish();
  }
  return found;
}

}  // namespace hermes::scenario
