// The one reader of events: a slowdown, an outage of a kind of sim/cluster/outage_kind.h or a link
// fault, whatever declares it (an object of the "events" list, a row of the "trace" file). Each
// source reads its values in its own syntax and reports a malformed value in its own words (a
// JSON path and key, a file line and column); what the values mean, the kinds each source
// accepts, and the checks every event passes (1 ns resolution, a link fault that changes
// something) are here, once. A new outage kind is a row of cluster::kOutageKinds; a new event
// kind is a row of event_kinds() plus the reading of its own keys (read_values, event_reader.cc).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

// What an event does to the cluster, and so which record it becomes.
enum class EventShape { kSlowdown, kOutage, kLink };

struct EventKind {
  std::string_view word;  // of "events"' "kind" and the trace's "event" column
  EventShape shape;
  OutageKind outage;  // kOutage only
  bool in_trace;      // a trace row may be of this kind
};

// Every kind in the order readers list their words: slowdown, the outage kinds in their table's
// order, link.
const std::vector<EventKind>& event_kinds();
// The kind named `word` among those a trace row (in_trace) or an "events" object may be.
std::optional<EventKind> event_kind_named(std::string_view word, bool trace);
// The words of event_kinds(), those of a trace only when `trace`.
std::vector<std::string> event_kind_words(bool trace);

// The accepted range of an event's time (at_s, start_s, end_s, duration_s, notice_s):
// 1e9 s (31 years) keeps every instant far inside SimTime's int64 nanoseconds.
inline constexpr double kMaxEventSeconds = 1e9;
// A slowdown is a slowdown: a factor above 1 would make a node faster than its profile, which is
// a different machine (a profile override), not an event.
inline const config::Range kSpeedFactorRange = config::Range::above(0).up_to(1);

// One event's values as its source read them, each already in its range.
struct EventValues {
  std::string node;
  double start_s = 0;
  std::optional<double> end_s;       // nullopt: an outage for good
  std::optional<double> duration_s;  // as given by the source, for the resolution message
  double speed_factor = 1;           // kSlowdown
  double notice_s = 0;               // an announced outage kind
  double bandwidth_factor = 1;       // kLink
  double added_latency_ms = 0;       // kLink
};

// Where the event was declared, for its record and the later checks' messages.
struct EventPlace {
  std::string origin;     // "/events/2" or "<file> line 4"
  std::string node_path;  // a bad node: /events/2/node or /trace/file
  std::string item_path;  // an overlap: /events/2 or /trace/file
  std::string prefix;     // "" or "<file>: line 4: "
};

// How messages name the hosts an event may name and the intervals that clash.
// "ps, w0..w11" (without the PS: "w0..w11"): the hosts an event may name.
std::string host_list(const std::vector<NodeSpec>& nodes, bool with_ps = true);

// Seconds as ns / 1e9, exact to the ns (a division, unlike to_seconds' product, gives back 250
// for 250e9 ns).
std::string seconds_text(engine::SimTime t);

// "[100, 160) s", exact to the ns.
std::string interval_text(engine::SimTime start, engine::SimTime end);

// Why an event from `start` to `end` (both rounded to SimTime's ns) cannot be simulated: it is
// "shorter than the simulator's 1 ns resolution" when its end rounds onto or before its start
// ("(got 1e-10)" added when the event gave `duration_s`); nullopt when it can. Every kind of event
// (slowdowns, outages, link faults, trace rows) checks this one rule.
std::optional<std::string> below_resolution(engine::SimTime start, engine::SimTime end,
                                            std::optional<double> duration_s = std::nullopt);

// Why an event's values cannot be simulated; `key` is "duration_s" for an interval below the 1 ns
// resolution, "" for the event as a whole.
struct EventProblem {
  std::string key;
  std::string message;
};

// Appends the record of one event of `kind` to `found`; returns the problem instead when its
// values, each valid, make no event together.
std::optional<EventProblem> add_event(const EventKind& kind, const EventValues& values,
                                      const EventPlace& place, DeclaredEvents& found);

}  // namespace hermes::scenario
