#include "sim/protocols/skeleton/global_evaluation.h"

#include <cmath>
#include <cstring>

namespace hermes::protocols {

GlobalEvaluation::GlobalEvaluation(const scenario::StopSpec& stop,
                                   std::optional<double> target_accuracy, int evaluate_every,
                                   std::size_t workers)
    : stop_(stop),
      target_accuracy_(target_accuracy),
      evaluate_every_(evaluate_every),
      stop_rule_(patience_threshold(stop, workers),
                 stop.reported_accuracy == scenario::ReportedAccuracy::kBestLoss) {}

bool GlobalEvaluation::due(std::int64_t updates) {
  since_evaluation_ += updates;
  if (since_evaluation_ < evaluate_every_) return false;
  since_evaluation_ = 0;
  return true;
}

std::optional<StopReason> GlobalEvaluation::record(engine::SimTime now, int worker,
                                                   const nn::EvalStats& eval, RunResult& result) {
  ++result.aggregations;
  result.global.push_back({now, result.updates, worker, eval.loss, eval.accuracy});
  if (!std::isfinite(eval.loss)) return StopReason::kDiverged;
  if (target_accuracy_ && !result.time_to_target && eval.accuracy >= *target_accuracy_) {
    result.time_to_target = now;
  }
  const bool stop = stop_rule_.observe(eval.loss, eval.accuracy, patience_position(now));
  result.evaluations_since_best = stop_rule_.since_best();
  result.patience_since_best = patience_in_units(stop_rule_.since_best_position());
  result.patience_progress = patience_in_units(
      patience_position(now).value_or(static_cast<std::int64_t>(result.global.size())));
  if (stop_rule_.last_improved()) {
    result.best_loss = stop_rule_.best_loss();
    result.accuracy_at_best = stop_rule_.accuracy_at_best();
    result.best_time = now;
  }
  if (stop) return StopReason::kPatience;
  if (result.updates >= stop_.max_iterations) return StopReason::kMaxIterations;
  return std::nullopt;
}

RunStatus GlobalEvaluation::final_status(RunStatus status, const RunResult& result) const {
  if (status == RunStatus::kOk && !result.global.empty() &&
      result.final_loss() > stop_.divergence_factor * result.best_loss) {
    return RunStatus::kDiverged;
  }
  return status;
}

std::int64_t GlobalEvaluation::patience_threshold(const scenario::StopSpec& stop, std::size_t n) {
  const std::int64_t patience = stop.patience;
  switch (stop.patience_unit) {
    case scenario::PatienceUnit::kEvaluations:
      return patience;
    case scenario::PatienceUnit::kRounds:
      return patience * static_cast<std::int64_t>(n);  // round_position_ counts 1/n rounds
    case scenario::PatienceUnit::kSeconds:
      return patience * 1'000'000'000;  // ns; patience < 2^31, so < 2.2e18
  }
  return patience;
}

std::optional<std::int64_t> GlobalEvaluation::patience_position(engine::SimTime now) const {
  switch (stop_.patience_unit) {
    case scenario::PatienceUnit::kEvaluations:
      return std::nullopt;  // the stop rule counts its evaluations
    case scenario::PatienceUnit::kRounds:
      return round_position_;
    case scenario::PatienceUnit::kSeconds:
      return now.ns();
  }
  return std::nullopt;
}

double GlobalEvaluation::patience_in_units(std::int64_t position) const {
  return static_cast<double>(position) * stop_.patience /
         static_cast<double>(stop_rule_.threshold());
}

std::shared_ptr<EvalSnapshot::Job> EvalSnapshot::arm(engine::Simulator& sim,
                                                     const cluster::NodeCompute& ps,
                                                     const nn::Model& global,
                                                     parallel::ThreadPool& pool,
                                                     const bool& finished) {
  if (pool.runs_inline()) return nullptr;
  auto job = std::make_shared<Job>();
  sim.schedule_at(ps.next_start(), [this, job, &ps, &global, &pool, &finished] {
    if (!finished && ps.in_progress(job->id)) start(global, job->end, pool);
  });
  return job;
}

void EvalSnapshot::start(const nn::Model& global, engine::SimTime end, parallel::ThreadPool& pool) {
  model_.set_params(global.params());
  task_ = pool.submit(
      end.ns(), [this] { result_ = nn::evaluate(model_, test_); }, parallel::TaskKind::kEvaluation);
}

std::optional<nn::EvalStats> EvalSnapshot::take(const nn::Model& global) {
  if (!task_.valid()) return std::nullopt;
  task_.wait();
  const auto now = global.params();
  const auto snap = model_.params();
  if (std::memcmp(now.data(), snap.data(), now.size_bytes()) != 0) return std::nullopt;
  return result_;
}

}  // namespace hermes::protocols
