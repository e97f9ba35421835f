// ProtocolRun under churn (docs/churn.md): what the Availability's events (availability.h) do to
// the run's workers. A worker that goes loses what it had not delivered: the iteration in progress
// (its compute so far is wasted), the iterations it computed since its latest update left
// (Hermes' minor ones), and its updates still travelling to the PS (dropped with their flows,
// which fail as its host is turned off). The math of an iteration it was running is waited for,
// not cancelled, so that its random streams are where every thread count leaves them. A leaving
// worker (from an eviction's notice) starts no new iteration and takes no model; what it computes
// meanwhile is still pushed and may arrive before it goes.
#include <algorithm>

#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

void ProtocolRun::on_notice(std::size_t node) {
  if (node == RunContext::kPs) ps_notice();
}

void ProtocolRun::on_missed(std::size_t node) {
  // A PS that is down hears nothing; back, it counts on the workers it finds (ps_up).
  if (ps_serving_) on_departed(node - 1);
  // The last worker gone for good that the PS misses: what it holds is all it will ever get.
  end_if_no_worker_left();
}

void ProtocolRun::count_lost(std::size_t w) {
  Worker& k = workers_[w];
  NodeChurn& c = result_.churn[RunContext::worker_host(w)];
  WorkCarried lost = k.unsynced;
  lost += k.in_flight;
  if (k.in_iteration) ++lost.iterations;
  if (k.computing) lost.compute += now() - k.compute_start;
  c.lost_iterations += lost.iterations;
  c.wasted_compute += lost.compute;
  c.dropped_updates += k.in_flight.updates;
  k.unsynced = {};
  k.in_flight = {};
}

void ProtocolRun::drop_work(std::size_t w) {
  Worker& k = workers_[w];
  // Its math finishes as it would have with any thread count; its result is then dropped.
  if (k.math.valid()) k.math.wait();
  count_lost(w);
  k.in_iteration = false;
  k.computing = false;
  k.fresh_model = false;
  k.chunk_open = false;  // update_unit "steps": the chunk is lost with the work
}

void ProtocolRun::on_down(std::size_t node) {
  if (node == RunContext::kPs) {
    ps_down();
    return;
  }
  const std::size_t w = node - 1;
  Worker& k = workers_[w];
  drop_work(w);
  if (k.idle_since) {
    result_.wait_time[w] += now() - *k.idle_since;
    k.idle_since.reset();
  }
}

void ProtocolRun::on_up(std::size_t node) {
  if (node == RunContext::kPs) {
    ps_up();
    return;
  }
  const std::size_t w = node - 1;
  workers_[w].model.reset_velocity();  // a new worker process: its optimiser starts again
  compressor_.forget(w);               // and its error-feedback residual died with the old one
  workers_[w].idle_since = now();
  if (ps_serving_) on_rejoined(w);  // else the PS finds it when it is back
}

void ProtocolRun::on_rejoined(std::size_t w) {
  send_model(w, [this, w] { begin_iteration(w); });
}

void ProtocolRun::on_gone_for_good(std::size_t /*node*/) { end_if_no_worker_left(); }

bool ProtocolRun::no_worker_left() const {
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    if (!availability_.gone_for_good(RunContext::worker_host(w))) return false;
  }
  return true;
}

void ProtocolRun::end_if_no_worker_left() {
  // No worker can compute, push or pull again. Only timers would go on (checkpoints, a PS that
  // comes back to restore and evaluate a model no one can train) up to
  // training.stop.max_sim_time_s: they cannot change the trained model, so the run ends, once
  // the PS is done with what it has: its jobs (an aggregation, the evaluation of the last model)
  // and the updates it holds.
  if (finished_ || !no_worker_left()) return;
  engine::SimTime busy_until = now();
  for (std::size_t s = 0; s < ctx_.ps_shards(); ++s) {
    const std::size_t host = ctx_.ps_host(s);
    if (!availability_.down(host)) busy_until = std::max(busy_until, ctx_.nodes[host].busy_until());
  }
  if (busy_until > now()) {
    // Its jobs end first (scheduled before this check); count_applied checks again on the way.
    ctx_.sim.schedule_at(busy_until, [this] { end_if_no_worker_left(); });
    return;
  }
  if (unapplied_ != 0) {
    // Updates held for a barrier that closes over the missed workers may still be applied. Once
    // the PS misses every worker, with its compute idle, what it still holds (a FedBuff buffer
    // short of K) can never be: dropped.
    for (std::size_t w = 0; w < workers_.size(); ++w) {
      if (!availability_.missed(RunContext::worker_host(w))) return;  // on_missed checks again
    }
    result_.churn[RunContext::kPs].dropped_updates += unapplied_;
    unapplied_ = 0;
  }
  finish(RunStatus::kOk, StopReason::kNoWorkers);
}

void ProtocolRun::discard_update(std::size_t w) {
  NodeChurn& c = result_.churn[RunContext::worker_host(w)];
  ++c.dropped_updates;
  --unapplied_;
  c.lost_iterations += arriving_.iterations;
  c.wasted_compute += arriving_.compute;
  arriving_ = {};
}

}  // namespace hermes::protocols
