// The run's record of its global evaluations and its stop rule (training.stop): every evaluation
// of the global model is recorded (global.csv), checked for divergence and the target accuracy,
// and seen by the stop rule in training.stop.patience_unit; the verdict says whether the run goes
// on. It also counts what the patience units count (rounds: applied updates or barriers; seconds:
// simulated time) and when an evaluation is due (the run's evaluate_every).
//
// EvalSnapshot is the evaluation's math on the thread pool: a snapshot of the global model taken
// at the start of the PS's evaluation job, evaluated meanwhile, its result used at the job's end.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "models/data/dataset.h"
#include "models/nn/model.h"
#include "models/nn/train.h"
#include "sim/cluster/node_compute.h"
#include "sim/engine/simulator.h"
#include "sim/parallel/thread_pool.h"
#include "sim/policies/stop_rule.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

class GlobalEvaluation {
 public:
  // `workers`: the cluster's (a round is that many applied updates).
  GlobalEvaluation(const scenario::StopSpec& stop, std::optional<double> target_accuracy,
                   int evaluate_every, std::size_t workers);

  // Counts `updates` handed to the PS to apply; true once evaluate_every of them have been since
  // the last time it answered true (the count then starts over).
  bool due(std::int64_t updates);
  // The count of due() starts over (a PS restored from a checkpoint evaluates at once).
  void restart_due() { since_evaluation_ = 0; }
  // Rounds done, in 1/n of a round: never set back, not even by a PS restored from a checkpoint,
  // so that patience in rounds counts the time spent.
  void count_round_parts(std::int64_t parts) { round_position_ += parts; }

  // Records the evaluation of the global model at `now` after `result.updates` updates (`worker`:
  // whose update; -1 a barrier) into `result` (global, best, patience, time to target). Returns
  // why the run stops (diverged, patience, max_iterations), nullopt if it goes on.
  std::optional<StopReason> record(engine::SimTime now, int worker, const nn::EvalStats& eval,
                                   RunResult& result);

  // How a run that ended as `status` ended: diverged, whatever rule stopped it, if its latest loss
  // is far above its best (training.stop.divergence_factor).
  RunStatus final_status(RunStatus status, const RunResult& result) const;

  // The stop rule's threshold in its integer unit: evaluations, 1/n rounds, or ns.
  static std::int64_t patience_threshold(const scenario::StopSpec& stop, std::size_t n);
  // The run's position in that unit at `now` (nullopt: evaluations, which the rule counts).
  std::optional<std::int64_t> patience_position(engine::SimTime now) const;
  // A position converted back to patience_unit (for the progress line's ETA).
  double patience_in_units(std::int64_t position) const;

 private:
  const scenario::StopSpec& stop_;
  std::optional<double> target_accuracy_;
  int evaluate_every_;
  StopRule stop_rule_;
  std::int64_t round_position_ = 0;
  std::int64_t since_evaluation_ = 0;
};

class EvalSnapshot {
 public:
  EvalSnapshot(const nn::Model& global, const data::Dataset& test) : model_(global), test_(test) {}
  // The PS job that takes the snapshot at its start: its id and end, set once it is queued.
  struct Job {
    engine::ActivityId id = 0;
    engine::SimTime end{};
  };
  // Schedules start() at the start of the next job of `ps`, which the caller queues right after
  // and then sets *job of: the start event is scheduled before that job's end event and after the
  // end event of the job before it, so it sees that job's change and fires first even if this job
  // takes no time. A PS that fails before the job starts takes the job with it (nothing starts),
  // and so does a run `finished` by then. Null with an inline pool: nothing is scheduled.
  std::shared_ptr<Job> arm(engine::Simulator& sim, const cluster::NodeCompute& ps,
                           const nn::Model& global, parallel::ThreadPool& pool,
                           const bool& finished);
  // Snapshots `global` and evaluates it on `pool`, due by `end`.
  void start(const nn::Model& global, engine::SimTime end, parallel::ThreadPool& pool);
  // The snapshot's result if one was started and `global` is still bit for bit that snapshot
  // (then it is the inline evaluation's result); nullopt otherwise.
  std::optional<nn::EvalStats> take(const nn::Model& global);
  // Drops a pending evaluation (waits for one under way).
  void cancel() { task_.cancel_or_wait(); }

 private:
  nn::Model model_;
  const data::Dataset& test_;
  parallel::Task task_;
  nn::EvalStats result_;
};

}  // namespace hermes::protocols
