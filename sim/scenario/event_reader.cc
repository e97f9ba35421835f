// The kinds of events, the records they become, and the "events" list: things that happen to the
// cluster at given simulated times: "slowdown" (a node's CPU at speed_factor x its speed for an
// interval), the outage kinds of sim/cluster/outage_kind.h, "crash" and "eviction" (a worker gone
// for an interval or for good; docs/churn.md says what each protocol does then) and "link" (a
// host's links degraded or lost for an interval, checked in link_events.cc).
#include "sim/scenario/event_reader.h"

#include <utility>

#include "base/number_text.h"

namespace hermes::scenario {

namespace {

using config::Range;

// An added latency is a delay of the flows that start during a fault, not a second fault
// length: 1e9 ms (11.6 days) is far beyond any network and far inside SimTime.
constexpr double kMaxAddedLatencyMs = 1e9;

const Range kTime = Range::at_least(0).up_to(kMaxEventSeconds);
const Range kDuration = Range::above(0).up_to(kMaxEventSeconds);

// The keys of one "events" object of `kind` (its "kind" already read), read in the order the
// resolved document lists them; false when one is missing or out of its range (reported).
bool read_values(ObjectReader& r, const EventKind& kind, EventValues& v) {
  const auto node = r.string("node", std::nullopt);
  const auto at = r.number("at_s", std::nullopt, kTime);
  // An outage without duration_s: the worker is gone for good.
  std::optional<double> duration;
  const bool for_good = kind.shape == EventShape::kOutage && !r.has("duration_s");
  if (!for_good) duration = r.number("duration_s", std::nullopt, kDuration);
  bool ok = node && at && (for_good || duration);
  if (kind.shape == EventShape::kSlowdown) {
    const auto factor = r.number("speed_factor", std::nullopt, kSpeedFactorRange);
    if (factor) v.speed_factor = *factor;
    ok &= factor.has_value();
  } else if (kind.shape == EventShape::kLink) {
    const auto factor = r.number("bandwidth_factor", 1.0, Range::at_least(0).up_to(1));
    const auto latency_ms =
        r.number("added_latency_ms", 0.0, Range::at_least(0).up_to(kMaxAddedLatencyMs));
    if (factor) v.bandwidth_factor = *factor;
    if (latency_ms) v.added_latency_ms = *latency_ms;
    ok &= factor && latency_ms;
  } else if (cluster::outage_kind(kind.outage).announced) {
    // An announced kind takes its notice_s before at_s.
    const auto notice = r.number("notice_s", defaults::kEvictionNoticeS, kTime);
    if (notice) v.notice_s = *notice;
    ok &= notice.has_value();
  }
  if (!ok) return false;
  v.node = *node;
  v.start_s = *at;
  v.duration_s = duration;
  if (duration) v.end_s = *at + *duration;
  return true;
}

template <typename Spec>
Declared<Spec> declared(Spec spec, const EventPlace& place) {
  return {std::move(spec), place.node_path, place.item_path, place.prefix};
}

}  // namespace

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

const std::vector<EventKind>& event_kinds() {
  static const std::vector<EventKind> kinds = [] {
    std::vector<EventKind> all{{"slowdown", EventShape::kSlowdown, OutageKind::kCrash, true}};
    for (const cluster::OutageKindRow& row : cluster::kOutageKinds) {
      all.push_back({row.name, EventShape::kOutage, row.kind, true});
    }
    // A trace is of nodes (its columns have no bandwidth or latency).
    all.push_back({"link", EventShape::kLink, OutageKind::kCrash, false});
    return all;
  }();
  return kinds;
}

std::optional<EventKind> event_kind_named(std::string_view word, bool trace) {
  for (const EventKind& kind : event_kinds()) {
    if (kind.word == word && (kind.in_trace || !trace)) return kind;
  }
  return std::nullopt;
}

std::vector<std::string> event_kind_words(bool trace) {
  std::vector<std::string> words;
  for (const EventKind& kind : event_kinds()) {
    if (kind.in_trace || !trace) words.emplace_back(kind.word);
  }
  return words;
}

std::optional<EventProblem> add_event(const EventKind& kind, const EventValues& v,
                                      const EventPlace& place, DeclaredEvents& found) {
  const engine::SimTime start = engine::from_seconds(v.start_s);
  std::optional<engine::SimTime> end;
  if (v.end_s) end = engine::from_seconds(*v.end_s);
  if (end) {
    if (auto why = below_resolution(start, *end, v.duration_s))
      return EventProblem{"duration_s", *why};
  }
  switch (kind.shape) {
    case EventShape::kSlowdown:
      found.slowdowns.push_back(declared(SlowdownSpec{.node = v.node,
                                                      .start = start,
                                                      .end = *end,
                                                      .speed_factor = v.speed_factor,
                                                      .origin = place.origin},
                                         place));
      break;
    case EventShape::kOutage: {
      const bool announced = cluster::outage_kind(kind.outage).announced;
      found.outages.push_back(declared(
          OutageSpec{.node = v.node,
                     .kind = kind.outage,
                     .start = start,
                     .end = end,
                     .notice = announced ? engine::from_seconds(v.notice_s) : engine::SimTime{},
                     .origin = place.origin},
          place));
      break;
    }
    case EventShape::kLink: {
      DeclaredLinkFault d;
      d.fault.host = v.node;
      d.fault.start = start;
      d.fault.end = *end;
      d.fault.bandwidth_factor = v.bandwidth_factor;
      // Through microseconds: ms x 1e3 is exact for every whole or decimal-fraction ms count.
      d.fault.added_latency = engine::from_microseconds(v.added_latency_ms * 1e3);
      d.node_path = place.node_path;
      d.item_path = place.item_path;
      if (d.fault.bandwidth_factor == 1 && d.fault.added_latency == engine::SimTime{}) {
        return EventProblem{
            "", "a link event that changes nothing: bandwidth_factor 1 and added_latency_ms " +
                    format_number(v.added_latency_ms) +
                    " (accepted: bandwidth_factor below 1, or added_latency_ms of at least "
                    "0.000001, 1 ns)"};
      }
      found.link_faults.push_back(std::move(d));
      break;
    }
  }
  return std::nullopt;
}

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
    const auto word = r.choice("kind", event_kind_words(false), std::nullopt);
    // Without a known kind the other keys have no schema to be checked against.
    if (!word) continue;
    const EventKind kind = *event_kind_named(*word, false);
    EventValues values;
    if (read_values(r, kind, values)) {
      EventPlace place;
      place.origin = place.item_path = r.path();
      place.node_path = r.path_of("node");
      if (const auto problem = add_event(kind, values, place, found)) {
        if (problem->key.empty()) {
          diags.error(r.path(), problem->message);
        } else {
          r.error(problem->key, problem->message);
        }
      }
    }
    r.finish();
  }
  return found;
}

}  // namespace hermes::scenario
