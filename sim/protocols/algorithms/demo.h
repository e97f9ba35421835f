// The demo protocol: no training math and no synchronisation. Every worker repeats `iterations`
// times: receive a chunk from the PS, compute the iteration's FLOPs on its node, send its update
// to the PS, receive the model back. It exercises the compute model, burst credits and the flow
// network together, so the timeline of a heterogeneous cluster can be inspected before the real
// protocols exist (and it stays as a cheap smoke scenario).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/metrics/timeline.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

struct DemoWorkerSummary {
  std::string node;
  std::string profile;
  std::int64_t iterations = 0;
  engine::SimTime finished{};          // when its last iteration ended
  engine::SimTime compute_time{};      // sum of compute spans
  engine::SimTime transfer_time{};     // sum of transfer spans
  double bytes = 0;                    // sent + received
  std::optional<double> credits_left;  // at the end, B-series only
};

struct DemoResult {
  engine::SimTime sim_time{};  // when the last worker finished
  std::uint64_t events = 0;
  std::vector<DemoWorkerSummary> workers;
};

DemoResult run_demo(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                    metrics::Timeline* timeline);

}  // namespace hermes::protocols
