// CSV files of demo runs (sim/protocols/algorithms/demo.h), fed like every run's outputs from
// its RunResult and its RunObserver events:
//   demo_workers.csv  one row per worker of each demo run: its iterations and activity
//   timeline.csv      one row per span of each demo run (outputs.timeline): what each node did
//                     when, sorted by (start, end, node, record order), so the file does not
//                     depend on event interleavings of equal times
// The demo names its spans by what the worker does: recv_chunk, compute, send_update, recv_model.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/protocols/reporting/result_csv.h"
#include "sim/protocols/skeleton/run_observer.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

// recv_chunk, compute, send_update, recv_model for the chunk, compute, update and model spans.
std::string_view demo_span_name(SpanKind kind);

// demo_workers.csv of the demo runs among `runs` (in order).
void write_demo_workers_csv(std::ostream& out, const scenario::Scenario& scenario,
                            const std::vector<FinishedRun>& runs);

// The spans of a scenario's demo runs, for timeline.csv.
class DemoTimeline {
 public:
  struct Span {
    std::string run;
    std::string node;     // host name: ps, w0, w1, ...
    std::string profile;  // node profile name
    std::string activity;
    std::int64_t iteration = 0;
    engine::SimTime start{};
    engine::SimTime end{};
    double bytes = 0;                    // for transfers
    std::optional<double> credits_left;  // B-series nodes, at the end of a compute span
  };

  // An observer that adds the spans of run `run` (and the credits sampled at a span's end, on
  // its node, to that span); it must not outlive this timeline or `scenario`.
  std::unique_ptr<RunObserver> recorder(const scenario::Scenario& scenario,
                                        const scenario::RunSpec& run);
  const std::vector<Span>& spans() const { return spans_; }
  // Columns: run,node,profile,activity,iteration,start_s,end_s,duration_s,bytes,credits_left
  void write_csv(std::ostream& out) const;

 private:
  std::vector<Span> spans_;
};

}  // namespace hermes::protocols
