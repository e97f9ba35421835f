// What a protocol run produces: the summary figures the paper reports and the per-aggregation and
// per-worker-iteration records behind them (global.csv, workers.csv).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/common/run_ending.h"
#include "sim/engine/sim_time.h"

namespace hermes::protocols {

// What a worker iteration's update was: the baselines push every update; Hermes' GUP decides
// between a major update (pushed) and a minor one (kept local).
enum class UpdateKind { kPush, kMajor, kMinor };
// How a run ended and why: sim/common/run_ending.h, with their words (printed and parsed there).
using hermes::parse_run_status;
using hermes::parse_stop_reason;
using hermes::run_status_text;
using hermes::RunStatus;
using hermes::stop_reason_text;
using hermes::StopReason;

// Its text in workers.csv and traces: "push", "major", "minor".
std::string_view update_kind_text(UpdateKind kind);

// One evaluation of the global model after an aggregation.
struct AggregationRecord {
  engine::SimTime time{};    // when the evaluation finished
  std::int64_t updates = 0;  // updates applied so far (global.csv's "iteration")
  int worker = -1;           // whose update triggered it; -1 for a barrier of all workers
  double loss = 0;
  double accuracy = 0;
};

// One worker iteration (from receiving its chunk to the end of its compute).
struct WorkerIterationRecord {
  engine::SimTime start{};
  engine::SimTime end{};
  int worker = 0;
  std::int64_t local_iteration = 0;  // 1-based, per worker
  std::int64_t chunk_size = 0;
  double local_loss = 0;
  std::optional<double> z_score;    // Hermes only
  std::optional<double> threshold;  // Hermes only
  UpdateKind update = UpdateKind::kPush;
  std::optional<double> credits_left;
};

// The control requests the PS answered, counted as they happened: the records the API counting
// (sim/protocols/reporting/api_counting.h) starts from.
struct ControlRequests {
  std::int64_t data_requests = 0;  // a worker asks for its next chunk
  std::int64_t time_reports = 0;   // a worker reports its iteration time
  std::int64_t pushes = 0;         // updates sent to the PS
  std::int64_t pulls = 0;          // global-model requests
};

// How the calls were counted (scenario api.counting).
enum class ApiCounting { kCalls, kReleasedCode };

// Control requests the PS answers, by kind (the paper's "API calls").
// Counting "calls": polls are counted analytically: a worker that waits (for a barrier, a model,
// its SSP clock) polls the PS once per poll interval of the scenario's "api" section, so polls =
// its total wait / the interval. Counting "released-code": the code's requests per worker
// iteration (minor or major), per update on the master, and its master's polling loop at a rate
// over the run's time. The kinds of the other counting stay 0 (data_requests, time_reports,
// pushes and pulls are counted in both, for the record, but add to the total only in "calls").
struct ApiCalls {
  ApiCounting counting = ApiCounting::kCalls;
  std::int64_t data_requests = 0;  // a worker asks for its next chunk
  std::int64_t time_reports = 0;   // a worker reports its iteration time
  std::int64_t flags = 0;          // run/stop flag checks, api.flags_per_iteration per iteration
  std::int64_t pushes = 0;         // updates sent to the PS
  std::int64_t pulls = 0;          // global-model requests
  std::int64_t logs = 0;           // progress logs, api.logs_per_iteration per iteration
  std::int64_t polls = 0;          // status polls while waiting
  std::int64_t minor_iteration_requests = 0;  // released-code: per iteration not pushed
  std::int64_t major_iteration_requests = 0;  // released-code: per iteration pushed
  std::int64_t master_update_requests = 0;    // released-code: the master's, per update
  std::int64_t master_polls = 0;              // released-code: the IS_GRADIENT_PRESENT loop

  struct Row {
    const char* kind;
    std::int64_t calls;
  };
  // The kinds of this counting, in api.csv's order; their calls sum to total().
  std::vector<Row> rows() const {
    if (counting == ApiCounting::kReleasedCode) {
      return {{"minor_iteration_requests", minor_iteration_requests},
              {"major_iteration_requests", major_iteration_requests},
              {"master_update_requests", master_update_requests},
              {"master_polls", master_polls}};
    }
    return {{"data_requests", data_requests},
            {"time_reports", time_reports},
            {"flags", flags},
            {"pushes", pushes},
            {"pulls", pulls},
            {"logs", logs},
            {"polls", polls}};
  }
  std::int64_t total() const {
    std::int64_t sum = 0;
    for (const Row& r : rows()) sum += r.calls;
    return sum;
  }
};

// What one worker did over a run, summed over its spans: what the demo reports per worker
// (demo_workers.csv). The training protocols report per iteration instead (local_iteration_log).
struct WorkerActivity {
  engine::SimTime finished{};          // when its last iteration ended
  engine::SimTime compute_time{};      // sum of its compute spans
  engine::SimTime transfer_time{};     // sum of its transfer spans (chunk, update, model)
  double bytes = 0;                    // sent + received
  std::optional<double> credits_left;  // burst credits when it finished, B-series only
};

// Work that has not reached the global model yet: local iterations and their compute time (and
// the updates carrying them, when in flight).
struct WorkCarried {
  std::int64_t iterations = 0;
  engine::SimTime compute{};
  std::int64_t updates = 0;
  WorkCarried& operator+=(const WorkCarried& o) {
    iterations += o.iterations;
    compute += o.compute;
    updates += o.updates;
    return *this;
  }
  WorkCarried& operator-=(const WorkCarried& o) {
    iterations -= o.iterations;
    compute -= o.compute;
    updates -= o.updates;
    return *this;
  }
};

// What outages did to one node over a run (docs/churn.md); all zero without outages.
struct NodeChurn {
  std::int64_t outages = 0;          // times it went
  engine::SimTime downtime{};        // time gone (up to the end of the run)
  engine::SimTime deallocated{};     // of that, time an evicted node was not allocated (unbilled)
  std::int64_t lost_iterations = 0;  // its local iterations whose work never reached the PS
  engine::SimTime wasted_compute{};  // the compute time of those iterations
  std::int64_t dropped_updates = 0;  // its updates that left it and were never applied
};

struct RunResult {
  RunStatus status = RunStatus::kOk;
  StopReason stop_reason = StopReason::kNone;
  engine::SimTime sim_time{};  // when the run ended (demo: when its last worker finished)
  // Updates received and applied by the PS (the paper's "iterations": summary.csv's column keeps
  // that name); what training.stop.max_iterations caps (docs/glossary.md).
  std::int64_t updates = 0;
  std::int64_t aggregations = 0;   // global-model evaluations
  std::int64_t major_updates = 0;  // updates pushed: Hermes' major ones; every update of a baseline
  double best_loss = std::numeric_limits<double>::infinity();
  double accuracy_at_best = 0;  // global test accuracy at the best loss
  engine::SimTime best_time{};
  std::vector<std::int64_t> local_iterations;  // per worker
  // Model-sized buffers the run's pool made: the most updates and model snapshots in transfer at
  // once (a snapshot shared by the workers it goes to counts once). Not written to any CSV.
  std::size_t model_buffers = 0;
  std::vector<std::int64_t> model_requests;  // per worker: pulled models iterations started from
  std::vector<engine::SimTime> wait_time;    // per worker: idle between iterations (polling)
  std::vector<WorkerActivity> activity;      // per worker: demo runs only
  std::vector<engine::SimTime> billed_time;  // per host, PS first: time the node was allocated
  int evaluations_since_best = 0;            // for the progress line's ETA
  // The same in training.stop.patience_unit, and the run's progress in that unit so far
  // (evaluations, rounds or simulated seconds), also for the ETA.
  double patience_since_best = 0;
  double patience_progress = 0;
  double bytes = 0;          // over the network
  double pushed_bytes = 0;   // of the updates pushed (compressed: docs/compression.md), sent or not
  std::uint64_t events = 0;  // simulator events processed
  // FLOPs of the math done, as the simulator charges them: worker iterations that began computing
  // (training + local evaluation; those the stop cut short included: their math runs too) and
  // completed PS test-set evaluations.
  double train_flops = 0;
  double eval_flops = 0;
  ControlRequests requests;
  // The paper's API calls: counted after the run from the records above (requests,
  // local_iterations, updates, wait_time, sim_time) by count_api_calls
  // (sim/protocols/reporting/api_counting.h); sim/protocols/registry.cc fills it.
  ApiCalls api;
  std::vector<NodeChurn> churn;  // per host, PS first
  // When the global test accuracy first reached outputs.target_accuracy (unset: not reached, or
  // no target).
  std::optional<engine::SimTime> time_to_target;
  std::vector<AggregationRecord> global;
  std::vector<WorkerIterationRecord> local_iteration_log;

  std::int64_t total_local_iterations() const;
  // The global test loss at the last evaluation; nan before the first.
  double final_loss() const {
    return global.empty() ? std::numeric_limits<double>::quiet_NaN() : global.back().loss;
  }
  // Worker independence: local iterations / global-model requests, averaged over workers.
  double wi_avg() const;
  // The churn of every node added up.
  NodeChurn churn_total() const;
};

}  // namespace hermes::protocols
