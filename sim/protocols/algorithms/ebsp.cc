// E-BSP with ZipLine; the cycle (barrier, ASP-style pushes without pulls, ZipLine decision, stop)
// and the choices made are documented in ebsp.h.
#include "sim/protocols/algorithms/ebsp.h"

#include <algorithm>

#include "base/diagnostics.h"
#include "models/nn/param_ops.h"
#include "sim/protocols/algorithms/factories.h"

namespace hermes::protocols {

EbspRun::EbspRun(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                 const data::TrainTestSplit& data)
    : ProtocolRun(scenario, run, data), lookahead_(run.lookahead) {
  // The loader already enforces this; a RunSpec built in code must too.
  if (lookahead_ < 1) {
    throw InputError("run '" + run.name + "': lookahead must be >= 1, got " +
                     std::to_string(lookahead_));
  }
  last_push_.assign(worker_count(), engine::SimTime{});
  present_.assign(worker_count(), true);
  previous_push_.assign(worker_count(), engine::SimTime{});
}

void EbspRun::start() { barrier(); }

void EbspRun::barrier() {
  const std::size_t n = worker_count();
  trace_instant(InstantKind::kBarrier, {.updates = applied_total_});
  EbspCycle& c = cycles_.emplace_back();
  c.barrier_time = now();
  c.applied_before = applied_total_;
  c.started.assign(n, 0);
  c.pushes.assign(n, 0);
  c.applied.assign(n, 0);
  c.members = present_;
  stalled_ = std::find(c.members.begin(), c.members.end(), true) == c.members.end();
  for (std::size_t w = 0; w < n; ++w) {
    if (c.members[w]) send_model(w, [this, w] { start_iteration(w); });
  }
}

void EbspRun::on_departed(std::size_t w) {
  present_[w] = false;
  EbspCycle& c = current();
  if (!c.members[w]) return;
  c.members[w] = false;
  if (std::find(c.members.begin(), c.members.end(), true) == c.members.end()) {
    stalled_ = true;  // the updates in flight are applied; a return opens the next cycle
    return;
  }
  check_decision();
  check_barrier();
}

void EbspRun::restart() {
  // The cycle in progress is gone with the PS: a new one begins with the workers available.
  for (std::size_t w = 0; w < worker_count(); ++w) present_[w] = available(w);
  barrier();
}

void EbspRun::on_rejoined(std::size_t w) {
  present_[w] = true;
  if (stalled_) barrier();
}

void EbspRun::check_decision() {
  const EbspCycle& c = current();
  if (c.decided || stalled_) return;  // stalled: nobody to predict for
  for (std::size_t v = 0; v < worker_count(); ++v) {
    if (c.members[v] && c.pushes[v] < 2) return;
  }
  decide();
}

void EbspRun::check_barrier() {
  const EbspCycle& c = current();
  if (!c.decided) return;
  for (std::size_t v = 0; v < worker_count(); ++v) {
    if (c.members[v] && c.applied[v] < c.target[v]) return;
  }
  // Every member has stopped and every update of the cycle is in the global model.
  barrier();
}

void EbspRun::start_iteration(std::size_t w) {
  ++current().started[w];
  begin_iteration(w);
}

void EbspRun::on_computed(std::size_t w) {
  auto delta = update(w);
  push_update(w, *delta,
              [this, w, delta, inc = incarnation(w)] { on_push_arrival(w, inc, delta); });
  if (spec().pull_between_barriers) return;  // goes on when the PS answers (on_push_arrival)
  const EbspCycle& c = current();
  // The iteration that just ended is the cycle's started[w]-th; the target is never below it.
  if (c.decided && c.started[w] >= c.target[w]) return;  // waits for the barrier
  start_iteration(w);  // from its own local model: no pull between barriers
}

void EbspRun::pull_or_wait(std::size_t w, std::uint32_t pushed_by) {
  EbspCycle& c = current();
  if (!c.members[w] || incarnation(w) != pushed_by) return;  // left, or back for the next cycle
  if (c.decided && c.started[w] >= c.target[w]) return;      // waits for the barrier
  // Its next iteration counts as begun from now, while the model travels: a decision meanwhile
  // then targets it, so the barrier cannot come before its push (and two models never cross).
  ++c.started[w];
  answer_push(w, pushed_by, [this, w] { begin_iteration(w); });
}

void EbspRun::on_push_arrival(std::size_t w, std::uint32_t pushed_by,
                              std::shared_ptr<const std::vector<float>> delta) {
  EbspCycle& c = current();
  ++c.pushes[w];
  previous_push_[w] = last_push_[w];
  last_push_[w] = now();
  check_decision();
  // Apply and evaluation are queued together, so the evaluation sees exactly this update.
  ps_job(aggregation_flops(1), 0, [this, w, pushed_by, delta] {
    nn::axpy(async_update_weight(), *delta, global_model().params());
    count_applied(1);
    if (spec().pull_between_barriers) pull_or_wait(w, pushed_by);
    on_applied(w);
  });
  if (evaluation_due(1)) evaluate_global(static_cast<int>(w), [] {});
}

void EbspRun::decide() {
  EbspCycle& c = current();
  const std::size_t n = worker_count();
  c.decided = true;
  c.decision_time = now();
  c.pushes_known = c.pushes;
  c.started_known = c.started;
  // ZipLine over the members only (all workers without churn); the others get no target.
  std::vector<std::size_t> over;
  for (std::size_t w = 0; w < n; ++w) {
    if (c.members[w]) over.push_back(w);
  }
  c.trends.resize(over.size());
  for (std::size_t i = 0; i < over.size(); ++i) {
    const std::size_t w = over[i];
    // Two pushes of one worker leave at least an iteration's compute apart, so the interval is
    // > 0; the 1 ns floor only keeps ZipLine's precondition should two ever arrive together.
    const engine::SimTime interval =
        std::max(last_push_[w] - previous_push_[w], engine::kNanosecond);
    c.trends[i] = {engine::to_seconds(last_push_[w]), engine::to_seconds(interval)};
  }
  c.zipline = zipline(c.trends, lookahead_);
  c.assigned.assign(n, 0);
  c.target.assign(n, 0);
  for (std::size_t i = 0; i < over.size(); ++i) {
    const std::size_t w = over[i];
    c.assigned[w] = c.pushes_known[w] + c.zipline.iterations[i];
    c.target[w] = std::max(c.assigned[w], c.started_known[w]);
  }
}

void EbspRun::on_applied(std::size_t w) {
  ++applied_total_;
  ++current().applied[w];
  check_barrier();
}

std::unique_ptr<ProtocolRun> make_ebsp(const scenario::Scenario& s, const scenario::RunSpec& r,
                                       const data::TrainTestSplit& d) {
  return std::make_unique<EbspRun>(s, r, d);
}

RunResult run_ebsp(const scenario::Scenario& s, const scenario::RunSpec& r,
                   const data::TrainTestSplit& d, const ProgressFn& progress,
                   parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(make_ebsp(s, r, d), progress, pool, observer);
}

}  // namespace hermes::protocols
