#include "sim/protocols/skeleton/protocol_run.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "base/diagnostics.h"
#include "models/data/chunks.h"
#include "models/nn/param_ops.h"
#include "models/nn/zoo.h"
#include "sim/protocols/skeleton/transfer_sizes.h"

namespace hermes::protocols {

namespace {
// Seed of the initial weights: the scenario's, so every run of a scenario starts from the same w0.
std::uint64_t init_seed(const scenario::Scenario& s) { return s.seed; }
}  // namespace

ProtocolRun::ProtocolRun(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                         const data::TrainTestSplit& data)
    : ctx_(scenario, run),
      data_(data),
      global_(
          nn::make_model(nn::model_spec(scenario.model.name, *data.train), init_seed(scenario))),
      eval_model_(global_),
      buffers_(global_.num_params()),
      stop_rule_(
          patience_threshold(scenario.training.stop, ctx_.worker_count()),
          scenario.training.stop.reported_accuracy == scenario::ReportedAccuracy::kBestLoss) {
  ctx_.pool = &inline_pool_;
  cost_ = model_cost(global_);
  const auto& t = scenario.training;
  if (static_cast<std::size_t>(t.chunk_size) > data.train->size()) {
    throw InputError("/training/chunk_size: " + std::to_string(t.chunk_size) +
                     " is larger than the training set of " + scenario.dataset.name + " (" +
                     std::to_string(data.train->size()) + " samples)");
  }
  const std::size_t n = ctx_.worker_count();
  workers_.reserve(n);
  for (std::size_t w = 0; w < n; ++w) {
    workers_.push_back(Worker{global_,
                              {},
                              RandomStream::named(scenario.seed, "chunk", w),
                              RandomStream::named(scenario.seed, "shuffle", w),
                              t.chunk_size,
                              {},
                              {},
                              {},
                              engine::SimTime{}});
  }
  result_.local_iterations.assign(n, 0);
  result_.model_requests.assign(n, 0);
  result_.wait_time.assign(n, engine::SimTime{});
  result_.churn.assign(n + 1, NodeChurn{});
  if (run.dynamic_allocation) {
    AllocatorConfig cfg;
    cfg.workers = static_cast<int>(n);
    cfg.local_epochs = t.local_epochs;
    cfg.mini_batch = t.batch_size;
    // The smallest chunk still trains one full mini-batch and keeps one held-out sample.
    cfg.min_chunk = static_cast<std::int64_t>(std::ceil(t.batch_size / t.train_fraction)) + 1;
    cfg.dataset_size = static_cast<std::int64_t>(data.train->size());
    cfg.max_chunk = cfg.dataset_size;
    cfg.t_med_from_latest = t.t_med == scenario::TMedRule::kLatestTimes;
    allocator_.emplace(cfg);
  }
}

ProtocolRun::~ProtocolRun() = default;

RunResult ProtocolRun::run(const ProgressFn& progress, parallel::ThreadPool* pool) {
  progress_ = progress;
  if (pool != nullptr) ctx_.pool = pool;
  // The cap on simulated time is an event too, so a run that stalls still ends.
  ctx_.sim.schedule_at(ctx_.scenario.training.stop.max_sim_time,
                       [this] { finish(RunStatus::kOk, StopReason::kMaxSimTime); });
  try {
    schedule_outages();
    start();
    ctx_.sim.run();
  } catch (...) {
    drain_math(false);  // no task may outlive the state it works on
    throw;
  }
  drain_math(true);
  if (!finished_)
    finish(RunStatus::kOk, StopReason::kNoEvents);  // every party waits on another: a protocol bug
  result_.bytes = ctx_.network->bytes_delivered();
  result_.events = ctx_.sim.events_processed();
  return result_;
}

void ProtocolRun::begin_iteration(std::size_t w) {
  if (finished_ || !available(w)) return;
  Worker& wk = workers_[w];
  if (wk.math.valid() || wk.in_iteration) {
    throw std::logic_error("worker " + std::to_string(w) + " began an iteration while computing");
  }
  wk.in_iteration = true;
  wk.iteration_start = ctx_.sim.now();
  // WI counts global-model requests that an iteration starts from: a pull still unused when the
  // run stops is not one, so a protocol that pulls before every iteration has WI exactly 1.
  if (wk.fresh_model) {
    ++result_.model_requests[w];
    wk.fresh_model = false;
  }
  const std::int64_t done_before = result_.local_iterations[w]++;  // counted when it starts
  end_wait(w, done_before);
  if (wk.chunk_open) {  // update_unit "steps": the next mini-batches of the chunk it holds
    start_compute(w);
    return;
  }
  draw_chunk(w);
  request_chunk(w);
}

void ProtocolRun::end_wait(std::size_t w, std::int64_t done_before) {
  Worker& wk = workers_[w];
  if (!wk.idle_since) return;
  result_.wait_time[w] += ctx_.sim.now() - *wk.idle_since;
  if (ctx_.sim.now() > *wk.idle_since) {
    trace_span(RunContext::worker_host(w), SpanKind::kWait, *wk.idle_since,
               {.iteration = done_before});
  }
  wk.idle_since.reset();
}

void ProtocolRun::draw_chunk(std::size_t w) {
  Worker& wk = workers_[w];
  const std::int64_t done_before = wk.chunks_drawn++;
  const std::size_t train_size = data_.train->size();
  const auto chunk = static_cast<std::size_t>(wk.chunk_size);
  if (ctx_.scenario.training.chunking == scenario::Chunking::kRandom) {
    // A fresh random sample of the whole training set per iteration, as the reference does.
    wk.chunk = data::sample_chunk(train_size, chunk, wk.chunk_rng);
    return;
  }
  // Fixed: the worker's own slice of the training set, walked cyclically.
  if (wk.partition.empty()) wk.partition = data::fixed_partition(train_size, worker_count(), w);
  const auto& part = wk.partition;
  wk.chunk.resize(chunk);
  const std::int64_t offset = done_before * wk.chunk_size;
  for (std::size_t i = 0; i < chunk; ++i) {
    wk.chunk[i] = part[(static_cast<std::size_t>(offset) + i) % part.size()];
  }
}

void ProtocolRun::request_chunk(std::size_t w) {
  ++result_.requests.data_requests;
  const auto& transfers = ctx_.scenario.transfers;
  const double bytes = chunk_transfer_bytes(
      transfers, iteration_work(ctx_.scenario.training, cost_, workers_[w].chunk_size));
  // A flow to a worker that goes fails with its host.
  auto send = [this, w, bytes] {
    ctx_.network->start({RunContext::kPs, RunContext::worker_host(w), bytes},
                        [this, w, bytes](engine::ActivityOutcome outcome) {
                          if (outcome == engine::ActivityOutcome::kFailed || finished_) return;
                          trace_chunk_arrived(w, bytes);
                          start_compute(w);
                        });
  };
  // The released code's PS sleeps before it sends a chunk (transfers.chunk_delay_s): a PS timer
  // (its failure cancels it), which sends only to the process that asked (Worker::incarnation).
  if (transfers.chunk_delay > engine::SimTime{}) {
    schedule_in(transfers.chunk_delay, [this, w, send, inc = workers_[w].incarnation] {
      if (workers_[w].incarnation == inc) send();
    });
  } else {
    send();
  }
}

void ProtocolRun::start_compute(std::size_t w) {
  Worker& k = workers_[w];
  k.compute_start = ctx_.sim.now();
  k.computing = true;
  const auto& training = ctx_.scenario.training;
  const bool steps = spec().update_unit == scenario::UpdateUnit::kSteps;
  if (steps && !k.chunk_open) {  // a new chunk: its pass begins
    const IterationWork split =
        iteration_work(training, cost_, static_cast<std::int64_t>(k.chunk.size()));
    k.pass = nn::EpochCursor(
        std::span<const std::uint32_t>(k.chunk).subspan(static_cast<std::size_t>(split.dropped),
                                                        static_cast<std::size_t>(split.train)),
        training.local_epochs, training.batch_size);
    k.chunk_open = true;
  }
  // The work of an iteration depends only on its chunk's size (and, per step, on the place in
  // the chunk's pass), so its end is known before its math runs: the math goes to the pool now
  // and is waited for when the iteration ends.
  const IterationWork work =
      steps ? steps_work(training, cost_, static_cast<std::int64_t>(k.chunk.size()), k.pass,
                         spec().steps_per_update)
            : iteration_work(training, cost_, static_cast<std::int64_t>(k.chunk.size()));
  // A compute that fails (its node turned off, or its work given up as the PS failed) has been
  // counted as lost already (count_lost).
  ctx_.worker_node(w).start({work.flops, work.steps}, [this, w](engine::ActivityOutcome outcome) {
    if (outcome == engine::ActivityOutcome::kDone && !finished_) end_compute(w);
  });
  const engine::SimTime end = ctx_.worker_node(w).last_job().end;
  result_.train_flops += work.flops;
  if (steps && work.ends_chunk) k.chunk_open = false;  // the next iteration draws a new chunk
  k.math = pool().submit(
      end.ns(), [this, &k, steps, ends = work.ends_chunk, grad_sum = gradient_sum(w)] {
        const auto params = k.model.params();
        k.start_params.assign(params.begin(), params.end());
        if (steps) {
          k.last = train_steps(k.model, *data_.train, k.chunk, k.pass, spec().steps_per_update,
                               ctx_.scenario.training, cost_, k.shuffle_rng, grad_sum);
        } else {
          k.last = train_on_chunk(k.model, *data_.train, k.chunk, ctx_.scenario.training, cost_,
                                  k.shuffle_rng, grad_sum);
        }
        // Only computing workers need activations: idle ones hold their parameters alone, which
        // keeps a thousand-worker run small (re-made next chunk, a tiny cost beside its math).
        if (!steps || ends) k.model.release_workspace();
      });
}

void ProtocolRun::end_compute(std::size_t w) {
  Worker& done = workers_[w];
  done.math.wait();
  done.computing = false;
  done.in_iteration = false;
  done.unsynced += {1, ctx_.sim.now() - done.compute_start, 0};
  trace_computed(w);
  ++result_.requests.time_reports;
  done.idle_since = ctx_.sim.now();
  if (!done.last.finite()) {
    finish(RunStatus::kDiverged, StopReason::kDiverged);
    return;
  }
  if (allocator_) {
    const double t_i = engine::to_seconds(ctx_.sim.now() - done.compute_start);
    done.chunk_size = allocator_->report(static_cast<int>(w), t_i, done.last.work.chunk).next_chunk;
  }
  // Read before on_computed(w): a protocol may start w's next iteration from it.
  WorkerIterationRecord rec;
  rec.start = done.iteration_start;
  rec.local_iteration = result_.local_iterations[w];
  on_computed(w);
  rec.end = ctx_.sim.now();
  rec.worker = static_cast<int>(w);
  rec.chunk_size = done.last.work.chunk;
  rec.local_loss = done.last.local_test_loss;
  rec.update = update_kind(w);
  rec.credits_left = ctx_.worker_node(w).credits_at(ctx_.sim.now());
  annotate(w, rec);
  result_.local_iteration_log.push_back(std::move(rec));
}

void ProtocolRun::push_update(std::size_t w, std::span<const float> update,
                              std::function<void()> at_ps) {
  ++result_.requests.pushes;
  ++result_.major_updates;
  // The update carries the worker's work since its last one; a flow from a worker that goes (or
  // to a PS that fails) fails, and then that work is lost (count_lost counted it when it went).
  Worker& k = workers_[w];
  WorkCarried carried = k.unsynced;
  carried.updates = 1;
  k.unsynced = {};
  k.in_flight += carried;
  const auto kind =
      update_kind(w) == UpdateKind::kMajor ? InstantKind::kMajorUpdate : InstantKind::kUpdate;
  const double bytes = update_transfer_bytes(ctx_.scenario.transfers, update);
  ctx_.network->start({RunContext::worker_host(w), RunContext::kPs, bytes},
                      [this, w, kind, bytes, carried, start = now(),
                       at_ps = std::move(at_ps)](engine::ActivityOutcome outcome) {
                        if (outcome == engine::ActivityOutcome::kFailed) return;
                        workers_[w].in_flight -= carried;
                        trace_update_arrived(w, kind, start, bytes);
                        if (finished_) return;
                        ++unapplied_;
                        arriving_ = carried;
                        at_ps();
                        arriving_ = {};
                      });
}

engine::ActivityId ProtocolRun::ps_job(SpanKind kind, const cluster::TrainingJob& job,
                                       std::function<void()> done) {
  cluster::NodeCompute& ps = ctx_.nodes[RunContext::kPs];
  const engine::SimTime start = ps.next_start();
  const double flops = job.flops + job.inference_flops;
  // A job the PS's failure took is no span: the PS did not do it.
  return ps.start(
      job, [this, kind, start, flops, done = std::move(done)](engine::ActivityOutcome outcome) {
        if (outcome == engine::ActivityOutcome::kFailed) return;
        trace_span(RunContext::kPs, kind, start, {.flops = flops});
        if (!finished_) done();
      });
}

std::optional<double> ProtocolRun::last_global_loss() const {
  if (result_.global.empty()) return std::nullopt;
  return result_.global.back().loss;
}

std::int64_t ProtocolRun::patience_threshold(const scenario::StopSpec& stop, std::size_t n) {
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

std::optional<std::int64_t> ProtocolRun::patience_position() const {
  switch (ctx_.scenario.training.stop.patience_unit) {
    case scenario::PatienceUnit::kEvaluations:
      return std::nullopt;  // the stop rule counts its evaluations
    case scenario::PatienceUnit::kRounds:
      return round_position_;
    case scenario::PatienceUnit::kSeconds:
      return now().ns();
  }
  return std::nullopt;
}

double ProtocolRun::patience_in_units(std::int64_t position) const {
  const auto& stop = ctx_.scenario.training.stop;
  return static_cast<double>(position) * stop.patience /
         static_cast<double>(stop_rule_.threshold());
}

double ProtocolRun::test_eval_flops() const {
  return static_cast<double>(data_.test->size()) * cost_.flops_forward_per_sample;
}

nn::EvalStats ProtocolRun::evaluate_on_ps(nn::Model& model) {
  nn::EvalStats r;
  pool().run_here([&] { r = nn::evaluate(model, *data_.test); });
  result_.eval_flops += test_eval_flops();
  return r;
}

void ProtocolRun::evaluate_global(int worker, std::function<void()> then) {
  // Every protocol changes the global model only in PS jobs, which run one at a time: the model at
  // this job's start is the model at its end, so the evaluation can run meanwhile on the pool,
  // from a snapshot taken at the start. The start event is scheduled before the job's end event
  // and after the end event of the job before it, so it sees that job's change and fires first
  // even if this job takes no time.
  struct Job {
    engine::ActivityId id = 0;
    engine::SimTime end{};
  };
  std::shared_ptr<Job> job;
  if (!pool().runs_inline()) {
    job = std::make_shared<Job>();
    cluster::NodeCompute& ps = ctx_.nodes[RunContext::kPs];
    // A PS that fails before the job starts takes the job with it: it has failed by then.
    ctx_.sim.schedule_at(ps.next_start(), [this, job, &ps] {
      if (!finished_ && ps.in_progress(job->id)) start_global_eval(job->end);
    });
  }
  const engine::ActivityId id =
      ps_job(SpanKind::kEvaluate, test_eval_job(), [this, worker, then = std::move(then)] {
        const nn::EvalStats eval = global_eval_result();
        ++result_.aggregations;
        result_.global.push_back(
            {ctx_.sim.now(), result_.updates, worker, eval.loss, eval.accuracy});
        trace_evaluation(result_.global.back());
        if (!std::isfinite(eval.loss)) {
          finish(RunStatus::kDiverged, StopReason::kDiverged);
          return;
        }
        const auto& target = ctx_.scenario.outputs.target_accuracy;
        if (target && !result_.time_to_target && eval.accuracy >= *target) {
          result_.time_to_target = ctx_.sim.now();
        }
        const bool stop = stop_rule_.observe(eval.loss, eval.accuracy, patience_position());
        result_.evaluations_since_best = stop_rule_.since_best();
        result_.patience_since_best = patience_in_units(stop_rule_.since_best_position());
        result_.patience_progress = patience_in_units(
            patience_position().value_or(static_cast<std::int64_t>(result_.global.size())));
        if (stop_rule_.last_improved()) {
          result_.best_loss = stop_rule_.best_loss();
          result_.accuracy_at_best = stop_rule_.accuracy_at_best();
          result_.best_time = ctx_.sim.now();
        }
        if (progress_) progress_(result_, ctx_.sim.now());
        if (stop) {
          finish(RunStatus::kOk, StopReason::kPatience);
        } else if (result_.updates >= ctx_.scenario.training.stop.max_iterations) {
          finish(RunStatus::kOk, StopReason::kMaxIterations);
        } else {
          then();
        }
      });
  if (job) *job = {id, ctx_.nodes[RunContext::kPs].busy_until()};  // this job's end
}

void ProtocolRun::start_global_eval(engine::SimTime end) {
  eval_model_.set_params(global_.params());
  eval_task_ =
      pool().submit(end.ns(), [this] { eval_result_ = nn::evaluate(eval_model_, *data_.test); });
}

nn::EvalStats ProtocolRun::global_eval_result() {
  if (eval_task_.valid()) {
    eval_task_.wait();
    const auto now = global_.params();
    const auto snap = eval_model_.params();
    // Bit for bit the model evaluated at the start? Then its result is the inline path's result.
    if (std::memcmp(now.data(), snap.data(), now.size_bytes()) == 0) {
      result_.eval_flops += test_eval_flops();
      return eval_result_;
    }
  }
  // Inline path (and the fallback should a protocol ever change the model outside a PS job).
  return evaluate_on_ps(global_);
}

void ProtocolRun::send_model(std::size_t w, std::function<void()> at_worker) {
  // A worker that is gone or leaving takes no model: it pulls one when it is back.
  if (!available(w)) return;
  ++result_.requests.pulls;
  // The worker gets the global model as it is when the PS sends it.
  std::shared_ptr<const std::vector<float>> snapshot = buffers_.copy_of(global_.params());
  const double bytes = model_transfer_bytes(ctx_.scenario.transfers, cost_);
  ctx_.network->start({RunContext::kPs, RunContext::worker_host(w), bytes},
                      [this, w, snapshot, bytes, start = now(),
                       at_worker = std::move(at_worker)](engine::ActivityOutcome outcome) {
                        if (outcome == engine::ActivityOutcome::kFailed || finished_) return;
                        if (workers_[w].math.valid()) {
                          throw std::logic_error("worker " + std::to_string(w) +
                                                 " received a model while computing");
                        }
                        trace_model_arrived(w, start, bytes);
                        workers_[w].model.set_params(*snapshot);
                        workers_[w].fresh_model = true;
                        at_worker();
                      });
}

engine::EventId ProtocolRun::schedule_in(engine::SimTime delay, std::function<void()> f) {
  // A protocol's timer lives in the PS process: ps_fail cancels the pending ones. (Not a resource
  // activity: nothing else would end it.)
  std::erase_if(ps_timers_, [this](engine::EventId id) { return !ctx_.sim.is_pending(id); });
  const engine::EventId id = ctx_.sim.schedule_in(delay, [this, f = std::move(f)] {
    if (!finished_) f();
  });
  ps_timers_.push_back(id);
  return id;
}

void ProtocolRun::finish(RunStatus status, StopReason reason) {
  if (finished_) return;
  close_outages();
  trace_link_faults();
  trace_instant(InstantKind::kStop,
                {.updates = result_.updates, .reason = stop_reason_text(reason)});
  finished_ = true;
  // A run that stopped with its loss far above its best diverged, whatever rule stopped it.
  const double last = result_.final_loss();
  if (status == RunStatus::kOk && !result_.global.empty() &&
      last > ctx_.scenario.training.stop.divergence_factor * result_.best_loss) {
    status = RunStatus::kDiverged;
  }
  result_.status = status;
  result_.stop_reason = reason;
  result_.sim_time = ctx_.sim.now();
  // Every node is allocated from the start to the end of the run (index 0 the PS, w at w + 1),
  // but for the time an evicted Spot node was gone (deallocated, not billed; close_outages has
  // counted outages still open).
  result_.billed_time.assign(workers_.size() + 1, result_.sim_time);
  for (std::size_t h = 0; h < result_.billed_time.size(); ++h) {
    result_.billed_time[h] -= result_.churn[h].deallocated;
  }
  // A worker still waiting waited up to the end (its polls count it: api_counting.h).
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    if (workers_[w].idle_since) result_.wait_time[w] += ctx_.sim.now() - *workers_[w].idle_since;
  }
  ctx_.sim.stop();
}

void ProtocolRun::drain_math(bool finish_iterations) {
  // Worker iterations the stop cut short were charged and, inline, computed when they began: they
  // are finished here too, so that every thread count does the same math. An evaluation whose job
  // had not ended is dropped if it has not started (inline, it would not have run at all).
  for (Worker& k : workers_) {
    if (finish_iterations && k.math.valid()) {
      k.math.wait();
    } else {
      k.math.cancel_or_wait();
    }
  }
  eval_task_.cancel_or_wait();
}

BufferPool::Buffer ProtocolRun::update(std::size_t w) {
  const Worker& k = workers_[w];
  auto delta = buffers_.copy_of(k.model.params());
  nn::axpy(-1.0f, k.start_params, *delta);
  return delta;
}

double ProtocolRun::aggregation_flops(std::size_t k) const {
  return 2.0 * static_cast<double>(k) * static_cast<double>(cost_.params);
}

}  // namespace hermes::protocols
