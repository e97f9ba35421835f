// What a protocol run reports while it runs, for timelines (`hermes-sim run --trace`): spans of
// work on a node, instants (updates arriving, barriers, evaluations) and counter samples (burst
// credits, chunk sizes). ProtocolRun calls an observer, when one is attached, at the few places
// where transfers, compute and PS jobs start and end; the default callbacks do nothing, and a run
// without an observer builds no event at all.
//
// Nodes are RunContext host indices: 0 is the PS, i + 1 is worker i. Times are simulated.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/engine/sim_time.h"

namespace hermes::protocols {

enum class SpanKind {
  kCompute,    // a worker trains on its chunk
  kChunk,      // transfer PS -> worker of the worker's next chunk (data request)
  kUpdate,     // transfer worker -> PS of an update (push)
  kModel,      // transfer PS -> worker of the global model (pull)
  kAggregate,  // a PS job combining updates (ProtocolRun::ps_job)
  kEvaluate,   // a PS job evaluating the global model on the test set
  // A worker idle from the end of its compute until its next iteration starts (the barrier, the
  // global model, its SSP clock): the waits the API polls are counted from. It contains the
  // worker's update and model transfers of that gap.
  kWait,
  // A worker gone (crashed or evicted) until it is back or the run ends (args.reason: "crash" or
  // "eviction").
  kOutage,
  // A fault of a node's links (a scenario event of kind "link") from its start until its end or
  // the run's end, whichever is first (args.bandwidth_factor, args.added_latency_ms); reported
  // when the run ends, none for a fault that starts after it.
  kLinkFault,
};

enum class InstantKind {
  kUpdate,       // an update arrived at the PS (baselines: every push)
  kMajorUpdate,  // a Hermes major update arrived at the PS
  kEvaluation,   // a global evaluation finished (after one worker's update)
  kBarrier,      // a round of all workers closed: BSP aggregation, E-BSP barrier
  kStop,         // the run ended (args.reason)
  kNotice,       // on a worker: the notice of its eviction
  kDeparted,     // the PS stops counting on a worker (args.worker): its notice, or its crash missed
  kCheckpoint,   // the PS saved the global model (args.updates)
  kRestored,     // the PS is back from an outage with its latest checkpoint (args.updates)
};

enum class CounterKind {
  kCredits,    // burst credits in a B-series node's bank
  kChunkSize,  // samples in the chunk a worker's iteration trains on
};

std::string_view span_name(SpanKind kind);
std::string_view instant_name(InstantKind kind);
std::string_view counter_name(CounterKind kind);

// Details of an event; unset fields do not apply to it.
struct EventArgs {
  std::optional<std::int64_t> iteration = {};      // the worker's local iteration (1-based)
  std::optional<std::int64_t> chunk_size = {};     // samples
  std::optional<double> bytes = {};                // transfers
  std::optional<double> flops = {};                // compute, PS jobs
  std::optional<int> worker = {};                  // PS events: whose update
  std::optional<std::int64_t> updates = {};        // updates applied by the PS so far
  std::optional<double> loss = {}, accuracy = {};  // global evaluations
  std::optional<double> bandwidth_factor = {};     // link faults: [0, 1]
  std::optional<double> added_latency_ms = {};     // link faults
  std::string_view reason = {};                    // stop: why
};

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // `node` was busy with `kind` from `start` to `end` (reported when it ends).
  virtual void on_span(std::size_t /*node*/, SpanKind /*kind*/, engine::SimTime /*start*/,
                       engine::SimTime /*end*/, const EventArgs& /*args*/) {}
  virtual void on_instant(std::size_t /*node*/, InstantKind /*kind*/, engine::SimTime /*at*/,
                          const EventArgs& /*args*/) {}
  virtual void on_counter(std::size_t /*node*/, CounterKind /*kind*/, engine::SimTime /*at*/,
                          double /*value*/) {}
};

// Forwards every event to each of its observers (non-null, not owned), in order: a run takes one
// observer, and a CLI run may feed both a trace and a timeline.
class ObserverFanOut final : public RunObserver {
 public:
  explicit ObserverFanOut(std::vector<RunObserver*> observers) : observers_(std::move(observers)) {}
  void on_span(std::size_t node, SpanKind kind, engine::SimTime start, engine::SimTime end,
               const EventArgs& args) override;
  void on_instant(std::size_t node, InstantKind kind, engine::SimTime at,
                  const EventArgs& args) override;
  void on_counter(std::size_t node, CounterKind kind, engine::SimTime at, double value) override;

 private:
  std::vector<RunObserver*> observers_;
};

}  // namespace hermes::protocols
