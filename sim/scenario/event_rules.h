// What the kinds of "events" share: the range of their times and how messages name the hosts an
// event may name and the intervals that clash.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/scenario/scenario.h"

namespace hermes::scenario {

// 1e9 s (31 years) keeps every instant far inside SimTime's int64 nanoseconds.
inline constexpr double kMaxEventSeconds = 1e9;

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

}  // namespace hermes::scenario
