// ProtocolRun when the parameter server itself fails (docs/churn.md, "A PS outage"): the semantics
// of a parameter-server job that recovers from checkpoints (TensorFlow's PS training, for one).
// The Availability (availability.h) schedules the PS's outages and turns its node and host off and
// on; here is what its checkpoints (ps_checkpoint.h), failure and return do to the run.
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

void ProtocolRun::on_planned(std::size_t node, const scenario::OutageSpec& /*outage*/) {
  if (node != RunContext::kPs || checkpoint_.taken()) return;
  // The first PS outage of the schedule: the initial model is a checkpoint.
  save_checkpoint();
  schedule_checkpoint();
}

void ProtocolRun::save_checkpoint() {
  checkpoint_.save(global_, result_.updates);
  save_ps_state();
  trace_.instant(InstantKind::kCheckpoint, {.updates = result_.updates});
}

void ProtocolRun::schedule_checkpoint() {
  const auto& interval = ctx_.scenario.availability.checkpoint_interval;
  if (!interval) return;
  // A PS timer: the PS that meant to write it may fail first (ps_down cancels it).
  schedule_in(*interval, [this] {
    save_checkpoint();
    schedule_checkpoint();
  });
}

void ProtocolRun::ps_notice() {
  // Checkpointing PS software writes one more at the notice (Azure's Scheduled Events let it).
  if (ctx_.scenario.availability.checkpoint_interval && ps_serving_) save_checkpoint();
}

void ProtocolRun::ps_down() {
  // Updates that reached the PS and were not in the model yet die with its memory.
  result_.churn[RunContext::kPs].dropped_updates += unapplied_;
  unapplied_ = 0;
  eval_snapshot_.cancel();  // an evaluation under way: its job is gone
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    if (availability_.down(RunContext::worker_host(w))) continue;
    drop_work(w);
    // Its process gives up the iteration it computes for the PS that failed; its node stays on.
    ctx_.worker_node(w).fail_all();
    if (!workers_[w].idle_since) workers_[w].idle_since = now();  // waits for the PS from now
  }
  // The Availability turns the PS's node and host off next (every flow has the PS at one end).
  // Its timers (the protocol's, the checkpoints') were in its memory.
  ps_timers_.cancel_all();
  ps_serving_ = false;
  // The updates it held died with it: with every worker gone for good, nothing is left to apply.
  if (no_worker_left()) {
    ctx_.sim.schedule_in(engine::SimTime{}, [this] { end_if_no_worker_left(); });
  }
}

void ProtocolRun::ps_up() {
  // The new PS process starts from the latest checkpoint: the updates applied since are lost.
  const std::int64_t restored = checkpoint_.restore(global_);
  result_.churn[RunContext::kPs].dropped_updates += result_.updates - restored;
  result_.updates = restored;
  restore_ps_state();
  trace_.instant(InstantKind::kRestored, {.updates = result_.updates});
  // It counts on the workers it finds up and not leaving; the others rejoin when they come back.
  availability_.assume_missed_unless_up();
  evaluation_.restart_due();  // the restored model is evaluated now: evaluate_every counts from it
  evaluate_global(-1, [this] {
    ps_serving_ = true;
    schedule_checkpoint();
    restart();
  });
}

}  // namespace hermes::protocols
