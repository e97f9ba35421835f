// "events": things that happen to the cluster at given simulated times: "slowdown" (a node's CPU at
// speed_factor x its speed for an interval), the outage kinds of sim/cluster/outage_kind.h, "crash"
// and "eviction" (a worker gone for an interval or for good; docs/churn.md says what each protocol
// does then) and "link" (a host's links degraded or lost for an interval, read in link_events.cc).
#include <string>
#include <vector>

#include "sim/config/object_reader.h"
#include "sim/scenario/event_rules.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

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
  if (const auto why = below_resolution(d.spec.start, d.spec.end, duration)) {
    r.error("duration_s", *why);
    return;
  }
  found.push_back(std::move(d));
}

// An outage of one of the kinds of cluster::kOutageKinds: the worker is gone at at_s, back after
// duration_s (absent: never); an announced kind takes the notice_s before it.
void read_outage(ObjectReader& r, OutageKind kind, std::vector<DeclaredOutage>& found) {
  const auto node = r.string("node", std::nullopt);
  const auto at = r.number("at_s", std::nullopt, Range::at_least(0).up_to(kMaxEventSeconds));
  std::optional<double> duration;
  if (r.has("duration_s")) {
    duration = r.number("duration_s", std::nullopt, Range::above(0).up_to(kMaxEventSeconds));
    if (!duration) return;
  }
  const bool announced = cluster::outage_kind(kind).announced;
  std::optional<double> notice;
  if (announced) {
    notice = r.number("notice_s", defaults::kEvictionNoticeS,
                      Range::at_least(0).up_to(kMaxEventSeconds));
  }
  if (!node || !at || (announced && !notice)) return;
  DeclaredOutage d;
  d.spec.node = *node;
  d.spec.kind = kind;
  d.spec.start = engine::from_seconds(*at);
  if (duration) {
    d.spec.end = engine::from_seconds(*at + *duration);
    if (const auto why = below_resolution(d.spec.start, *d.spec.end, duration)) {
      r.error("duration_s", *why);
      return;
    }
  }
  if (notice) d.spec.notice = engine::from_seconds(*notice);
  d.spec.origin = r.path();
  d.node_path = r.path_of("node");
  d.item_path = r.path();
  found.push_back(std::move(d));
}

// The words of "kind": slowdown, the outage kinds, link.
const std::vector<std::string>& event_kinds() {
  static const std::vector<std::string> kinds = [] {
    std::vector<std::string> all{"slowdown"};
    for (std::string& name : cluster::outage_kind_names()) all.push_back(std::move(name));
    all.emplace_back("link");
    return all;
  }();
  return kinds;
}

}  // namespace

DeclaredEvents read_events(const Json& value, Diagnostics& diags, Json& out) {
  DeclaredEvents found;
  if (!value.is_array()) {
    diags.error("/events", "wrong type: expected a list of events, got " + describe_value(value));
    return found;
  }
  out = Json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    Json& item_out = out.emplace_back(Json::object());
    ObjectReader r(value[i], "/events/" + std::to_string(i), diags, item_out);
    if (!r.is_object()) continue;
    const auto kind = r.choice("kind", event_kinds(), std::nullopt);
    // Without a known kind the other keys have no schema to be checked against.
    if (!kind) continue;
    if (*kind == "slowdown") {
      read_slowdown(r, found.slowdowns);
    } else if (*kind == "link") {
      read_link_fault(r, found.link_faults);
    } else {
      read_outage(r, *cluster::outage_kind_named(*kind), found.outages);
    }
    r.finish();
  }
  return found;
}

}  // namespace hermes::scenario
