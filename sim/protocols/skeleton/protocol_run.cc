#include "sim/protocols/skeleton/protocol_run.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "base/diagnostics.h"
#include "models/nn/param_ops.h"
#include "models/nn/zoo.h"
#include "sim/protocols/skeleton/transfer_sizes.h"
#include "sim/scenario/compression_params.h"

namespace hermes::protocols {

namespace {

// The end of a transfer or job split over the PS's shards: `joined` runs once, when the last part
// ends, with kDone if every part was done and kFailed if any failed.
class ShardJoin {
 public:
  using Joined = std::function<void(engine::ActivityOutcome)>;
  static std::shared_ptr<ShardJoin> of(std::size_t parts, Joined joined) {
    return std::make_shared<ShardJoin>(parts, std::move(joined));
  }
  ShardJoin(std::size_t parts, Joined joined) : left_(parts), joined_(std::move(joined)) {}
  void ended(engine::ActivityOutcome outcome) {
    if (outcome == engine::ActivityOutcome::kFailed) failed_ = true;
    if (--left_ > 0) return;
    joined_(failed_ ? engine::ActivityOutcome::kFailed : engine::ActivityOutcome::kDone);
  }

 private:
  std::size_t left_;
  bool failed_ = false;
  Joined joined_;
};

}  // namespace

ProtocolRun::ProtocolRun(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                         const data::TrainTestSplit& data)
    : ctx_(scenario, run),
      data_(data),
      // Initial weights from the scenario's seed: every run of a scenario starts from the same w0.
      global_(nn::make_model(scenario_model_spec(scenario, *data.train), scenario.seed)),
      eval_snapshot_(global_, *data.test),
      buffers_(global_.num_params()),
      evaluation_(scenario.training.stop, scenario.outputs.target_accuracy, run.evaluate_every,
                  ctx_.worker_count()),
      trace_(ctx_.sim),
      compressor_(scenario::compression_of(run), scenario.seed, ctx_.worker_count()),
      availability_(ctx_, trace_, *this),
      ps_timers_(ctx_.sim) {
  ctx_.pool = &inline_pool_;
  cost_ = model_cost(global_);
  const auto& t = scenario.training;
  if (static_cast<std::size_t>(t.chunk_size) > data.train->size()) {
    throw InputError("/training/chunk_size: " + std::to_string(t.chunk_size) +
                     " is larger than the training set of " + scenario.dataset.name + " (" +
                     std::to_string(data.train->size()) + " samples)");
  }
  const std::size_t n = ctx_.worker_count();
  workers_ = make_workers(global_, t, data.train->size(), n, scenario.seed);
  result_.local_iterations.assign(n, 0);
  result_.model_requests.assign(n, 0);
  result_.wait_time.assign(n, engine::SimTime{});
  // Every node's (the PS's shards too): lost work here, downtime from availability_.
  result_.churn.assign(ctx_.nodes.size(), NodeChurn{});
  shard_shares_ =
      shard_shares(shard_params(layer_params(global_), ctx_.ps_shards(), scenario.ps.sharding));
  if (run.dynamic_allocation) allocator_.emplace(allocator_config(t, n, data.train->size()));
}

ProtocolRun::~ProtocolRun() = default;

RunResult ProtocolRun::run(const ProgressFn& progress, parallel::ThreadPool* pool) {
  progress_ = progress;
  if (pool != nullptr) ctx_.pool = pool;
  // The cap on simulated time is an event too, so a run that stalls still ends.
  ctx_.sim.schedule_at(ctx_.scenario.training.stop.max_sim_time,
                       [this] { finish(RunStatus::kOk, StopReason::kMaxSimTime); });
  try {
    availability_.schedule();
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
  wk.chunks.draw(wk.chunk_size, wk.chunk);
  request_chunk(w);
}

void ProtocolRun::end_wait(std::size_t w, std::int64_t done_before) {
  Worker& wk = workers_[w];
  if (!wk.idle_since) return;
  result_.wait_time[w] += ctx_.sim.now() - *wk.idle_since;
  if (ctx_.sim.now() > *wk.idle_since) {
    trace_.span(RunContext::worker_host(w), SpanKind::kWait, *wk.idle_since,
                {.iteration = done_before});
  }
  wk.idle_since.reset();
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
                          const Worker& k = workers_[w];
                          if (trace_.on()) {
                            trace_.chunk_arrived(RunContext::worker_host(w), k.iteration_start,
                                                 result_.local_iterations[w], k.chunk_size, bytes,
                                                 ctx_.worker_node(w).credits_at(now()));
                          }
                          start_compute(w);
                        });
  };
  // The released code's PS sleeps before it sends a chunk (transfers.chunk_delay_s): a PS timer
  // (its failure cancels it), which sends only to the process that asked (Worker::incarnation).
  if (transfers.chunk_delay > engine::SimTime{}) {
    schedule_in(transfers.chunk_delay, [this, w, send, inc = incarnation(w)] {
      if (incarnation(w) == inc) send();
    });
  } else {
    send();
  }
}

void ProtocolRun::start_compute(std::size_t w) {
  Worker& k = workers_[w];
  k.compute_start = ctx_.sim.now();
  k.computing = true;
  std::optional<std::int64_t> steps;  // update_unit "steps": mini-batches per iteration
  if (spec().update_unit == scenario::UpdateUnit::kSteps) steps = spec().steps_per_update;
  const IterationWork work = k.next_work(ctx_.scenario.training, cost_, steps);
  // A compute that fails (its node turned off, or its work given up as the PS failed) has been
  // counted as lost already (count_lost).
  ctx_.worker_node(w).start({work.flops, work.steps}, [this, w](engine::ActivityOutcome outcome) {
    if (outcome == engine::ActivityOutcome::kDone && !finished_) end_compute(w);
  });
  result_.train_flops += work.flops;
  k.start_math(pool(), ctx_.worker_node(w).last_job().end, *data_.train, ctx_.scenario.training,
               cost_, steps, work.ends_chunk, gradient_sum(w), uses_update());
}

void ProtocolRun::end_compute(std::size_t w) {
  Worker& done = workers_[w];
  done.math.wait();
  done.computing = false;
  done.in_iteration = false;
  done.unsynced += {1, ctx_.sim.now() - done.compute_start, 0};
  if (trace_.on()) {
    trace_.computed(RunContext::worker_host(w), done.compute_start, result_.local_iterations[w],
                    done.last.work, ctx_.worker_node(w).credits_at(now()));
  }
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
  // Read before on_computed(w): a protocol may start w's next iteration from it, and that
  // iteration's math writes `done.last` (inline at once, or on a pool thread meanwhile).
  WorkerIterationRecord rec;
  rec.start = done.iteration_start;
  rec.local_iteration = result_.local_iterations[w];
  rec.chunk_size = done.last.work.chunk;
  rec.local_loss = done.last.local_test_loss;
  on_computed(w);
  rec.end = ctx_.sim.now();
  rec.worker = static_cast<int>(w);
  rec.update = update_kind(w);
  rec.credits_left = ctx_.worker_node(w).credits_at(ctx_.sim.now());
  annotate(w, rec);
  result_.local_iteration_log.push_back(std::move(rec));
}

void ProtocolRun::push_update(std::size_t w, std::span<float> update, std::function<void()> at_ps) {
  // A sharded PS answers each shard's part as a request of its own (docs/sharding.md).
  result_.requests.pushes += static_cast<std::int64_t>(shard_shares_.size());
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
  const double bytes = compressor_.push_bytes(w, update, ctx_.scenario.transfers);
  result_.pushed_bytes += bytes;
  shard_flows(RunContext::worker_host(w), true, bytes,
              [this, w, kind, bytes, carried, start = now(),
               at_ps = std::move(at_ps)](engine::ActivityOutcome outcome) {
                if (outcome == engine::ActivityOutcome::kFailed) return;
                workers_[w].in_flight -= carried;
                trace_.update_arrived(RunContext::worker_host(w), static_cast<int>(w), kind, start,
                                      result_.local_iterations[w], bytes);
                if (finished_) return;
                ++unapplied_;
                arriving_ = carried;
                at_ps();
                arriving_ = {};
              });
}

void ProtocolRun::shard_flows(network::HostIndex worker_host, bool to_ps, double bytes,
                              std::function<void(engine::ActivityOutcome)> joined) {
  const std::size_t shards = shard_shares_.size();
  if (shards == 1) {  // no join: one PS's events exactly as before shards existed
    ctx_.network->start(
        {to_ps ? worker_host : RunContext::kPs, to_ps ? RunContext::kPs : worker_host, bytes},
        std::move(joined));
    return;
  }
  auto join = ShardJoin::of(shards, std::move(joined));
  for (std::size_t s = 0; s < shards; ++s) {
    const network::HostIndex ps = ctx_.ps_host(s);
    ctx_.network->start(
        {to_ps ? worker_host : ps, to_ps ? ps : worker_host, bytes * shard_shares_[s]},
        [join](engine::ActivityOutcome outcome) { join->ended(outcome); });
  }
}

engine::ActivityId ProtocolRun::ps_job(SpanKind kind, const cluster::TrainingJob& job,
                                       std::function<void()> done) {
  // A sharded PS splits a job's FLOPs over its shards, each on its own node; an evaluation of the
  // test set (and the inference part of a job) needs the whole model and runs on shard 0.
  const std::size_t shards = kind == SpanKind::kEvaluate ? 1 : shard_shares_.size();
  auto join =
      ShardJoin::of(shards, [this, done = std::move(done)](engine::ActivityOutcome outcome) {
        if (outcome == engine::ActivityOutcome::kDone && !finished_) done();
      });
  engine::ActivityId first = 0;
  for (std::size_t s = 0; s < shards; ++s) {
    const network::HostIndex host = ctx_.ps_host(s);
    cluster::NodeCompute& ps = ctx_.nodes[host];
    cluster::TrainingJob part = job;
    if (shards > 1) {
      part.flops = job.flops * shard_shares_[s];
      if (s > 0) part.inference_flops = 0, part.inference_calls = 0;
    }
    const engine::SimTime start = ps.next_start();
    const double flops = part.flops + part.inference_flops;
    // A job the PS's failure took is no span: the PS did not do it.
    const engine::ActivityId id =
        ps.start(part, [this, host, kind, start, flops, join](engine::ActivityOutcome outcome) {
          if (outcome != engine::ActivityOutcome::kFailed) {
            trace_.span(host, kind, start, {.flops = flops});
          }
          join->ended(outcome);
        });
    if (s == 0) first = id;
  }
  return first;
}

nn::EvalStats ProtocolRun::evaluate_on_ps(nn::Model& model) {
  nn::EvalStats r;
  pool().run_here([&] { r = nn::evaluate(model, *data_.test); }, parallel::TaskKind::kEvaluation);
  result_.eval_flops += test_eval_flops();
  return r;
}

void ProtocolRun::evaluate_global(int worker, std::function<void()> then) {
  // Every protocol changes the global model only in PS jobs, which run one at a time: the model at
  // this job's start is the model at its end, so the evaluation can run meanwhile on the pool,
  // from a snapshot taken at the start (EvalSnapshot::arm).
  cluster::NodeCompute& ps = ctx_.nodes[RunContext::kPs];
  const auto job = eval_snapshot_.arm(ctx_.sim, ps, global_, pool(), finished_);
  const engine::ActivityId id =
      ps_job(SpanKind::kEvaluate, test_eval_job(), [this, worker, then = std::move(then)] {
        std::optional<nn::EvalStats> eval = eval_snapshot_.take(global_);
        if (eval) {
          result_.eval_flops += test_eval_flops();
        } else {  // inline (or a protocol changed the model outside a PS job)
          eval = evaluate_on_ps(global_);
        }
        const std::optional<StopReason> stop = evaluation_.record(now(), worker, *eval, result_);
        trace_.evaluation(result_.global.back());
        if (stop == StopReason::kDiverged) {
          finish(RunStatus::kDiverged, *stop);
          return;
        }
        if (progress_) progress_(result_, now());
        if (stop) {
          finish(RunStatus::kOk, *stop);
        } else {
          then();
        }
      });
  if (job) *job = {id, ps.busy_until()};  // this job's end
}

void ProtocolRun::send_model(std::size_t w, std::function<void()> at_worker) {
  // A worker that is gone or leaving takes no model: it pulls one when it is back.
  if (!available(w)) return;
  result_.requests.pulls += static_cast<std::int64_t>(shard_shares_.size());
  // The worker gets the global model as it is when the PS sends it. A snapshot still travelling
  // with the same bytes is shared (receivers only read it): the thousand pulls of a run's start
  // hold one model, not a thousand. Bytes, not floats, are compared (-0 and 0, NaNs).
  const auto params = global_.params();
  std::shared_ptr<const std::vector<float>> snapshot = last_snapshot_.lock();
  if (!snapshot || std::memcmp(snapshot->data(), params.data(), params.size_bytes()) != 0) {
    snapshot = buffers_.copy_of(params);
    last_snapshot_ = snapshot;
  }
  const double bytes = model_transfer_bytes(ctx_.scenario.transfers, cost_);
  shard_flows(RunContext::worker_host(w), false, bytes,
              [this, w, snapshot, bytes, start = now(),
               at_worker = std::move(at_worker)](engine::ActivityOutcome outcome) {
                if (outcome == engine::ActivityOutcome::kFailed || finished_) return;
                if (workers_[w].math.valid()) {
                  throw std::logic_error("worker " + std::to_string(w) +
                                         " received a model while computing");
                }
                trace_.span(RunContext::worker_host(w), SpanKind::kModel, start, {.bytes = bytes});
                workers_[w].model.set_params(*snapshot);
                workers_[w].fresh_model = true;
                at_worker();
              });
}

engine::EventId ProtocolRun::schedule_in(engine::SimTime delay, std::function<void()> f) {
  // A protocol's timer lives in the PS process: ps_down cancels the pending ones.
  return ps_timers_.schedule_in(delay, [this, f = std::move(f)] {
    if (!finished_) f();
  });
}

void ProtocolRun::finish(RunStatus status, StopReason reason) {
  if (finished_) return;
  availability_.close();
  trace_.link_faults(ctx_.scenario.link_faults, ctx_.network->topology());
  trace_.instant(InstantKind::kStop,
                 {.updates = result_.updates, .reason = stop_reason_text(reason)});
  trace_.close();
  finished_ = true;
  result_.status = evaluation_.final_status(status, result_);
  result_.stop_reason = reason;
  result_.sim_time = ctx_.sim.now();
  result_.model_buffers = buffers_.allocated();
  // Every node is allocated from the start to the end of the run, but for the time an evicted
  // Spot node was gone (deallocated, not billed).
  availability_.report(result_, result_.sim_time);
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
  for (Worker& k : workers_) k.end_math(finish_iterations);
  eval_snapshot_.cancel();
}

BufferPool::Buffer ProtocolRun::update(std::size_t w) {
  const Worker& k = workers_[w];
  if (k.start_params.size() != k.model.num_params()) {
    throw std::logic_error(
        "update(" + std::to_string(w) +
        ") without the iteration's start: the protocol says uses_update() false");
  }
  auto delta = buffers_.copy_of(k.model.params());
  nn::axpy(-1.0f, k.start_params, *delta);
  return delta;
}

}  // namespace hermes::protocols
