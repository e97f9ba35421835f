// ProtocolRun when the parameter server itself fails (docs/churn.md, "A PS outage"): the semantics
// of a parameter-server job that recovers from checkpoints (TensorFlow's PS training, for one).
//
// Checkpoints: in a run with PS outages, the PS saves the global model (and the updates applied
// to it, and a protocol's own PS state: Hermes' G) at time 0, every
// availability.checkpoint_interval_s of simulated time while it serves (counted from its start or
// its latest return), and at its eviction notice. Without checkpoint_interval_s the only
// checkpoint is the initial model. A checkpoint takes no simulated time: the model is a few MB
// at most beside a disk's hundreds of MB/s, and the PS keeps serving while it writes.
//
// Failure: the PS process is gone, and with it everything in its memory: the updates that
// arrived and were not applied yet (BSP's round sum, queued PS jobs), its running jobs, every
// transfer to or from it, and the protocol's state (rounds, clocks, cycles, timers). Every
// worker's session with it fails: the workers' work in progress is lost as for a worker outage
// (count_lost) and they wait for the PS, their nodes up.
//
// Return: the PS restores its latest checkpoint; the updates applied since are lost
// (result.updates goes back to the checkpoint's count, the difference and the unapplied updates
// counted as dropped on the PS's row). It evaluates the restored model (a global evaluation like
// any other: the stop rule sees it), then serves again: the protocol's restart() starts it over
// with the workers available now. Workers still gone or leaving join when they come back.
// The stop rule's record (best loss, patience) is the experiment's, not the PS's: not rolled back.
#include <stdexcept>

#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

void ProtocolRun::restart() { throw std::logic_error("this protocol does not model a PS restart"); }

void ProtocolRun::schedule_ps_outage(const scenario::OutageSpec& o) {
  if (!checkpoint_) {  // the first PS outage of the schedule: the initial model is one
    save_checkpoint();
    schedule_checkpoint();
  }
  if (cluster::outage_kind(o.kind).announced) {
    ctx_.sim.schedule_at(o.warned(), [this] {
      if (!finished_) ps_warn();
    });
  }
  ctx_.sim.schedule_at(o.start, [this, &o] {
    if (!finished_) ps_fail(o);
  });
  // The loader refuses a PS outage without an end.
  ctx_.sim.schedule_at(o.end.value(), [this, &o] {
    if (!finished_) ps_return(o);
  });
}

void ProtocolRun::save_checkpoint() {
  const auto params = global_.params();
  if (!checkpoint_) checkpoint_.emplace();
  checkpoint_->params.assign(params.begin(), params.end());
  checkpoint_->updates = result_.updates;
  save_ps_state();
  trace_instant(InstantKind::kCheckpoint, {.updates = result_.updates});
}

void ProtocolRun::schedule_checkpoint() {
  const auto& interval = ctx_.scenario.availability.checkpoint_interval;
  if (!interval) return;
  // A PS timer: the PS that meant to write it may fail first (ps_fail cancels it).
  schedule_in(*interval, [this] {
    save_checkpoint();
    schedule_checkpoint();
  });
}

void ProtocolRun::ps_warn() {
  trace_instant_on(RunContext::kPs, InstantKind::kNotice);
  // Checkpointing PS software writes one more at the notice (Azure's Scheduled Events let it).
  if (ctx_.scenario.availability.checkpoint_interval && ps_serving_) save_checkpoint();
}

void ProtocolRun::ps_fail(const scenario::OutageSpec& outage) {
  NodeChurn& c = result_.churn[RunContext::kPs];
  // Updates that reached the PS and were not in the model yet die with its memory.
  c.dropped_updates += unapplied_;
  unapplied_ = 0;
  eval_task_.cancel_or_wait();  // an evaluation under way: its job is gone
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    Worker& k = workers_[w];
    if (!k.present) continue;
    drop_work(w);
    // Its process gives up the iteration it computes for the PS that failed; its node stays on.
    ctx_.worker_node(w).fail_all();
    if (!k.idle_since) k.idle_since = now();  // waits for the PS from now
  }
  ctx_.nodes[RunContext::kPs].turn_off();
  ctx_.network->turn_off(RunContext::kPs);  // every flow has the PS at one end
  // Its timers (the protocol's, the checkpoints') were in its memory.
  for (const engine::EventId id : ps_timers_) ctx_.sim.cancel(id);
  ps_timers_.clear();
  ps_serving_ = false;
  ps_down_since_ = now();
  ps_outage_ = &outage;
  ++c.outages;
}

void ProtocolRun::close_ps_outage() {
  if (ps_outage_ == nullptr) return;
  NodeChurn& c = result_.churn[RunContext::kPs];
  const cluster::OutageKindRow& kind = cluster::outage_kind(ps_outage_->kind);
  c.downtime += now() - ps_down_since_;
  if (!kind.billed_while_gone) c.deallocated += now() - ps_down_since_;
  trace_span(RunContext::kPs, SpanKind::kOutage, ps_down_since_, {.reason = kind.name});
  ps_outage_ = nullptr;
}

void ProtocolRun::ps_return(const scenario::OutageSpec& outage) {
  close_ps_outage();
  ctx_.nodes[RunContext::kPs].turn_on(cluster::outage_kind(outage.kind).fresh_vm_on_return);
  ctx_.network->turn_on(RunContext::kPs);
  // The new PS process starts from the latest checkpoint: the updates applied since are lost.
  NodeChurn& c = result_.churn[RunContext::kPs];
  global_.set_params(checkpoint_->params);
  c.dropped_updates += result_.updates - checkpoint_->updates;
  result_.updates = checkpoint_->updates;
  restore_ps_state();
  trace_instant(InstantKind::kRestored, {.updates = result_.updates});
  // It counts on the workers it finds up and not leaving; the others rejoin when they come back.
  for (Worker& k : workers_) k.known_gone = !k.present || k.leaving;
  since_evaluation_ = 0;  // the restored model is evaluated now: evaluate_every counts from it
  evaluate_global(-1, [this] {
    ps_serving_ = true;
    schedule_checkpoint();
    restart();
  });
}

}  // namespace hermes::protocols
