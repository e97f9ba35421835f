// The parameter-server / worker skeleton every protocol runs on. It owns the simulated cluster of
// one run (RunContext), the global model on the PS and each worker's local model, and offers the
// building blocks a protocol is made of:
//   begin_iteration(w)  chunk transfer PS -> w, then the worker's training math and its compute
//                       time on its node; on_computed(w) fires at the simulated completion;
//   push_update(w, u, f) the update u's transfer w -> PS, then f() at the PS;
//   ps_job(flops, f)    PS compute (aggregation), serialised FIFO on the PS node;
//   evaluate_global(f)  PS job: global test-set evaluation, the stop rule, then f() if the run
//                       goes on;
//   send_model(w, f)    the global model as of now, transferred PS -> w, installed at arrival.
// How many bytes each transfer is, and the PS's delay before a chunk, follow the scenario's
// "transfers" section (transfer_sizes.h).
// With the run's dynamic_allocation on (any protocol), every iteration time is reported to the
// allocator at the completion event and the worker's next chunk size follows its decision.
// A worker's iteration (update_unit "steps" too) and its waits: worker_state.h.
// With an observer attached (set_observer), these report their spans, instants and counters
// (run_observer.h) for timelines.
// Churn (docs/churn.md): the run's Availability (availability.h) takes nodes away and brings them
// back; ProtocolRun, its subscriber, counts the work lost and tells the protocol (on_departed,
// on_rejoined, restart). A protocol's callbacks of ps_job, push_update, send_model and schedule_in
// run only for work that was not lost.
// Math runs when its simulated activity starts and its result is used when the activity's
// completion event fires, so simulated time never depends on the machine's speed. The math of a
// worker iteration and of a global evaluation goes to a thread pool at its start (on the calling
// thread at once with a one-thread pool) and is waited for at its completion event; it reads and
// writes only that worker's state (or a snapshot of the global model), so results do not depend on
// the thread count.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "models/data/dataset.h"
#include "models/nn/model.h"
#include "sim/parallel/thread_pool.h"
#include "sim/policies/dynamic_allocation.h"
#include "sim/policies/ps_sharding.h"
#include "sim/protocols/skeleton/availability.h"
#include "sim/protocols/skeleton/buffer_pool.h"
#include "sim/protocols/skeleton/global_evaluation.h"
#include "sim/protocols/skeleton/ps_checkpoint.h"
#include "sim/protocols/skeleton/ps_timers.h"
#include "sim/protocols/skeleton/run_context.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/protocols/skeleton/run_trace.h"
#include "sim/protocols/skeleton/update_compressor.h"
#include "sim/protocols/skeleton/worker_state.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::protocols {

// Called after every aggregation (progress lines); may be empty.
using ProgressFn = std::function<void(const RunResult&, engine::SimTime now)>;

class ProtocolRun : private AvailabilitySubscriber {
 public:
  ProtocolRun(const scenario::Scenario& scenario, const scenario::RunSpec& run,
              const data::TrainTestSplit& data);
  virtual ~ProtocolRun();
  ProtocolRun(const ProtocolRun&) = delete;
  ProtocolRun& operator=(const ProtocolRun&) = delete;

  // Runs until the stop rule, a cap or divergence ends it. The math runs on `pool` (null: on this
  // thread, as a one-thread pool does).
  RunResult run(const ProgressFn& progress = {}, parallel::ThreadPool* pool = nullptr);
  // Reports the run's timeline to `observer` (not owned; may be null) from then on.
  void set_observer(RunObserver* observer) { trace_.attach(observer); }

 protected:
  // A worker's state (worker_state.h).
  using Worker = WorkerState;

  // Schedules the first activities at time 0.
  virtual void start() = 0;
  // Worker w finished the compute of its iteration; workers_[w].last holds the result and
  // update(w) the change of its model during it.
  virtual void on_computed(std::size_t w) = 0;
  // What worker w's latest update is (workers.csv); Hermes overrides it.
  virtual UpdateKind update_kind(std::size_t /*w*/) const { return UpdateKind::kPush; }
  // Whether the protocol calls update(w): only then does each iteration keep the parameters it
  // started from (start_params, a model's worth per worker; Hermes and SelSync keep none).
  virtual bool uses_update() const { return true; }
  // Where worker w's mini-batch gradients accumulate during its iterations (Hermes' cumulative
  // S_i); empty: not accumulated.
  virtual std::span<float> gradient_sum(std::size_t /*w*/) { return {}; }
  // Adds protocol-specific columns (Hermes: z-score, threshold) to a workers.csv record.
  virtual void annotate(std::size_t /*w*/, WorkerIterationRecord& /*record*/) const {}
  // The PS learns that worker w left (at its eviction notice, or detection_s after its crash, or
  // when it comes back before that): it must not wait for w any more. An update w pushed before
  // it left may still arrive. Default: nothing (protocols that wait for no one).
  virtual void on_departed(std::size_t /*w*/) {}
  // Worker w is back on a fresh node, with no model (its memory was lost): the default pulls the
  // global model and begins an iteration from it.
  virtual void on_rejoined(std::size_t w);
  // The PS is back from an outage (protocol_run_ps_outage.cc): it restored its latest checkpoint
  // and evaluated it; the protocol's own state of before the outage died with the PS process.
  // The protocol starts over from the global model with the workers available now, as at the
  // start of a run; the others join through on_rejoined when they come back. Every protocol that
  // runs with PS outages overrides it (the default throws std::logic_error).
  virtual void restart();
  // The PS writes a checkpoint: a protocol with PS state beyond the global model (Hermes' G)
  // saves it with the model, and restores it after an outage (before restart()).
  virtual void save_ps_state() {}
  virtual void restore_ps_state() {}

  void begin_iteration(std::size_t w);
  // `update` is what travels (its bytes follow transfers.update_encoding). With the run's
  // compression (docs/compression.md) it is first replaced by what the PS decodes, and its bytes
  // are the compressed ones: `update` must be the buffer at_ps applies.
  void push_update(std::size_t w, std::span<float> update, std::function<void()> at_ps);
  void ps_job(double flops, std::int64_t steps, std::function<void()> done) {
    ps_job(SpanKind::kAggregate, flops, steps, std::move(done));
  }
  void ps_job(SpanKind kind, double flops, std::int64_t steps, std::function<void()> done) {
    ps_job(kind, cluster::TrainingJob{flops, steps}, std::move(done));
  }
  // `done` runs when the job ends done; a job the PS's failure takes ends without it. Returns the
  // job's id on the PS node.
  engine::ActivityId ps_job(SpanKind kind, const cluster::TrainingJob& job,
                            std::function<void()> done);
  void evaluate_global(int worker, std::function<void()> then);
  void send_model(std::size_t w, std::function<void()> at_worker);
  // The same as the answer to a push of worker w's incarnation `pushed_by` (incarnation(w) when
  // it pushed): not sent if w went and came back since (the process that asked is gone; the new
  // one pulls its own model when it comes back). Its push arrived, so no resource of w failed
  // under it; w may go after, while the PS works on it: a check of the process, not of a resource.
  void answer_push(std::size_t w, std::uint32_t pushed_by, std::function<void()> at_worker) {
    if (incarnation(w) == pushed_by) send_model(w, std::move(at_worker));
  }
  // Worker w's process (Availability::incarnation): +1 each time it goes.
  std::uint32_t incarnation(std::size_t w) const {
    return availability_.incarnation(RunContext::worker_host(w));
  }
  // The update that has just arrived at the PS (in push_update's at_ps) is not applied: counted
  // as dropped, the iterations it carried as lost.
  void discard_update(std::size_t w);
  // Whether worker w can take work now: its node is up, it is not leaving, and the PS serves.
  bool available(std::size_t w) const {
    return ps_serving_ && availability_.up(RunContext::worker_host(w));
  }
  // Ends the run now; later events are dropped.
  void finish(RunStatus status, StopReason reason);
  // A protocol's own timer (BSP's barrier timeout): `f` runs after `delay` unless the run has
  // finished, the PS has failed (the timer lives in its memory) or cancel(id) came first.
  engine::EventId schedule_in(engine::SimTime delay, std::function<void()> f);
  void cancel(engine::EventId id) { ctx_.sim.cancel(id); }
  bool finished() const { return finished_; }

  // Timeline hooks (RunTrace): no-ops without an observer or once the run finished. A protocol
  // reports its own events through them, e.g. trace_span(RunContext::worker_host(w),
  // SpanKind::kWait, waiting_since) when worker w continues after waiting.
  void trace_span(std::size_t node, SpanKind kind, engine::SimTime start,
                  const EventArgs& args = {}) const {
    trace_.span(node, kind, start, args);
  }
  void trace_instant(InstantKind kind, const EventArgs& args = {}) const {  // on the PS
    trace_.instant(kind, args);
  }
  void trace_instant_on(std::size_t node, InstantKind kind, const EventArgs& args = {}) const {
    trace_.instant_on(node, kind, args);
  }
  void trace_counter(std::size_t node, CounterKind kind, std::optional<double> value) const {
    trace_.counter(node, kind, value);
  }

  // The change of worker w's model during its latest iteration (after - before).
  BufferPool::Buffer update(std::size_t w);
  // Model-sized buffers for updates in transfer, reused across the run.
  BufferPool& buffers() { return buffers_; }
  // FLOPs for the PS to combine k model-sized vectors (one multiply-add per parameter each).
  double aggregation_flops(std::size_t k) const {
    return 2.0 * static_cast<double>(k) * static_cast<double>(cost_.params);
  }
  void count_applied(std::int64_t updates) {
    result_.updates += updates;
    unapplied_ -= updates;
    if (!rounds_are_barriers()) evaluation_.count_round_parts(updates);
    // The last updates of workers all gone for good: once the protocol is done with them (an
    // event later, at this instant; an evaluation it starts now is waited for), the run ends.
    if (unapplied_ == 0 && no_worker_left()) {
      ctx_.sim.schedule_in(engine::SimTime{}, [this] { end_if_no_worker_left(); });
    }
  }
  // A round, for training.stop.patience_unit "rounds": n applied updates (n workers), unless the
  // protocol's rounds are barriers (BSP), which then calls count_barrier() at each one, whatever
  // number of updates it aggregated (fewer under churn or a barrier timeout).
  virtual bool rounds_are_barriers() const { return false; }
  void count_barrier() { evaluation_.count_round_parts(static_cast<std::int64_t>(worker_count())); }
  // The factor an asynchronous baseline applies an arriving update with (RunSpec::async_update,
  // the server step): 1, 1/n for n workers, or server_lr / lr (the update is -lr x the sum of its
  // mini-batch gradients, so this applies -server_lr x that sum).
  float async_update_weight() const {
    switch (spec().async_update) {
      case scenario::AsyncUpdate::kAdd:
        return 1.0f;
      case scenario::AsyncUpdate::kAverage:
        return 1.0f / static_cast<float>(worker_count());
      case scenario::AsyncUpdate::kServerLr:
        return static_cast<float>(spec().server_lr / ctx_.scenario.training.learning_rate);
    }
    return 1.0f;
  }
  // Counts `updates` handed to the PS to apply; true once the run's evaluate_every of them have
  // been since the last evaluation it answered true for (the count then starts over): whether the
  // protocol queues a global evaluation behind them. evaluate_every 1: always.
  bool evaluation_due(std::int64_t updates) { return evaluation_.due(updates); }

  // Loss of the latest global evaluation; nullopt before the first.
  std::optional<double> last_global_loss() const {
    return result_.global.empty() ? std::nullopt : std::optional(result_.global.back().loss);
  }
  // FLOPs of one evaluation of a model on the whole test set (the PS's job per evaluation).
  double test_eval_flops() const {
    return static_cast<double>(data_.test->size()) * cost_.flops_forward_per_sample;
  }
  // The PS job of one such evaluation: one inference call over the whole test set (the released
  // code evaluates with a single model(x_test)), at the PS profile's inference rate.
  cluster::TrainingJob test_eval_job() const { return {0, 0, test_eval_flops(), 1}; }
  // Evaluates `model` on the test set now, as PS math (counted in RunResult::eval_flops).
  nn::EvalStats evaluate_on_ps(nn::Model& model);
  parallel::ThreadPool& pool() { return *ctx_.pool; }
  const data::Dataset& test_set() const { return *data_.test; }
  const scenario::Scenario& scenario() const { return ctx_.scenario; }
  engine::SimTime now() const { return ctx_.sim.now(); }

  std::size_t worker_count() const { return workers_.size(); }
  const scenario::RunSpec& spec() const { return ctx_.run; }
  nn::Model& global_model() { return global_; }
  Worker& worker(std::size_t w) { return workers_[w]; }
  const Worker& worker(std::size_t w) const { return workers_[w]; }

 private:
  // Tasks still pending when the run ends: worker iterations are finished (or, after an error,
  // cancelled if they have not started), the global evaluation is cancelled if not started.
  void drain_math(bool finish_iterations);

  // A transfer of `bytes` between worker host `worker_host` and the PS (to the PS if `to_ps`): one
  // flow per PS shard with its share of the bytes (docs/sharding.md); `joined` runs when the last
  // ends, kFailed if any failed.
  void shard_flows(network::HostIndex worker_host, bool to_ps, double bytes,
                   std::function<void(engine::ActivityOutcome)> joined);

  // The phases of a worker iteration (begin_iteration): the end of the worker's wait, the
  // samples of its chunk, the chunk's transfer PS -> w, then at its arrival the compute (its
  // math submitted to the pool), and at the compute's end its result: divergence, the
  // allocator's next chunk size, on_computed(w) and the workers.csv record.
  void end_wait(std::size_t w, std::int64_t done_before);
  void request_chunk(std::size_t w);
  void start_compute(std::size_t w);
  void end_compute(std::size_t w);

  // The Availability's events (protocol_run_churn.cc for workers, protocol_run_ps_outage.cc for
  // the PS): the PS's checkpoints begin with the first PS outage planned; a notice; a node going
  // (its work lost); the PS missing a worker (on_departed); a node back.
  void on_planned(std::size_t node, const scenario::OutageSpec& outage) final;
  void on_notice(std::size_t node) final;
  void on_down(std::size_t node) final;
  void on_missed(std::size_t node) final;
  void on_up(std::size_t node) final;
  void on_gone_for_good(std::size_t node) final;
  // Ends the run (StopReason::kNoWorkers) if every worker is gone for good, once the PS's compute
  // is idle and it holds no update it could still apply: nothing can change the model any more
  // (protocol_run_churn.cc).
  void end_if_no_worker_left();
  // Whether every worker is gone for good.
  bool no_worker_left() const;
  // The work a departing worker had not delivered, counted as lost.
  void count_lost(std::size_t w);
  // Worker w's work in progress is lost (count_lost): its math finished and dropped, its state
  // back to waiting. Its activities (compute, flows) are the caller's to fail: the Availability
  // turns its node and host off, ps_down fails its jobs and the PS's flows.
  void drop_work(std::size_t w);
  // The PS fails (every worker's work in progress and every flow lost) and returns from its
  // latest checkpoint (protocol_run_ps_outage.cc).
  void ps_notice();
  void ps_down();
  void ps_up();
  void save_checkpoint();
  void schedule_checkpoint();

  parallel::ThreadPool inline_pool_{1};
  RunContext ctx_;
  const data::TrainTestSplit& data_;
  ModelCost cost_;
  nn::Model global_;
  EvalSnapshot eval_snapshot_;  // the global evaluation's math on the pool
  std::vector<Worker> workers_;
  std::vector<double> shard_shares_;  // each PS shard's share of the parameters (ps_sharding.h)
  BufferPool buffers_;
  // The latest model snapshot send_model made, while some transfer still holds it.
  std::weak_ptr<const std::vector<float>> last_snapshot_;
  GlobalEvaluation evaluation_;
  RunResult result_;
  ProgressFn progress_;
  std::optional<DynamicAllocator> allocator_;  // the run's dynamic_allocation, any protocol
  RunTrace trace_;
  UpdateCompressor compressor_;  // the run's compression of pushes, and the workers' residuals
  Availability availability_;
  WorkCarried arriving_;  // what the update being handed to the protocol carries
  bool finished_ = false;
  // PS outages: whether the PS process serves (false from its failure until the protocol's
  // restart), its timers, its latest checkpoint, the updates arrived and not yet applied or
  // discarded.
  bool ps_serving_ = true;
  PsTimers ps_timers_;
  PsCheckpoint checkpoint_;  // taken only in runs with PS outages
  std::int64_t unapplied_ = 0;
};

}  // namespace hermes::protocols
