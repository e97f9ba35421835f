// `hermes-sim run --trace FILE`: the runs of a scenario as one Chrome trace
// (metrics/chrome_trace.h). Each run is a process ("<run> (<protocol>)", in run order, all starting
// at simulated time 0 so that runs line up), each node a track ("ps (DS3_v2)", "w0 (B1ms)", ...).
// Spans: compute, chunk, update and model transfers on the worker's track (a transfer is shown on
// the worker it serves), aggregate and evaluate jobs on the PS track, wait when protocols report
// it. Instants on the PS track: update / major update arrivals, evaluation, barrier, stop. Counters
// per worker:
// "<node> credits" (B-series) and "<node> chunk size". Demo runs name their transfers as
// timeline.csv does (demo_csv.h): recv_chunk, send_update, recv_model.
#pragma once

#include <vector>

#include "sim/metrics/chrome_trace.h"
#include "sim/protocols/skeleton/run_observer.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

class TraceRecorder final : public RunObserver {
 public:
  // Adds the run's process and node tracks to `trace`.
  TraceRecorder(metrics::ChromeTrace& trace, const scenario::Scenario& scenario,
                const scenario::RunSpec& run);

  void on_span(std::size_t node, SpanKind kind, engine::SimTime start, engine::SimTime end,
               const EventArgs& args) override;
  void on_instant(std::size_t node, InstantKind kind, engine::SimTime at,
                  const EventArgs& args) override;
  void on_counter(std::size_t node, CounterKind kind, engine::SimTime at, double value) override;

 private:
  metrics::ChromeTrace& trace_;
  const scenario::Scenario& scenario_;
  bool demo_;                                          // a demo run: its own span names
  std::vector<metrics::ChromeTrace::TrackId> tracks_;  // by node (host index)
};

}  // namespace hermes::protocols
