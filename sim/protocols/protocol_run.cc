#include "sim/protocols/protocol_run.h"

#include <algorithm>
#include <cmath>

#include "models/data/chunks.h"
#include "models/nn/param_ops.h"
#include "models/nn/zoo.h"
#include "sim/common/diagnostics.h"
#include "sim/protocols/protocols.h"

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
      stop_rule_(scenario.training.stop.patience) {
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
                              engine::RandomStream::named(scenario.seed, "chunk", w),
                              engine::RandomStream::named(scenario.seed, "shuffle", w),
                              t.chunk_size,
                              {},
                              {},
                              0});
  }
  result_.local_iterations.assign(n, 0);
  result_.model_requests.assign(n, 0);
}

ProtocolRun::~ProtocolRun() = default;

RunResult ProtocolRun::run(const ProgressFn& progress) {
  progress_ = progress;
  // The cap on simulated time is an event too, so a run that stalls still ends.
  ctx_.sim.schedule_at(ctx_.scenario.training.stop.max_sim_time,
                       [this] { finish("ok", "max_sim_time"); });
  start();
  ctx_.sim.run();
  if (!finished_) finish("ok", "no_events");  // every party waits on another: a protocol bug
  result_.bytes = ctx_.network->bytes_delivered();
  return result_;
}

void ProtocolRun::begin_iteration(std::size_t w) {
  if (finished_) return;
  Worker& wk = workers_[w];
  wk.iteration_start = ctx_.sim.now();
  // WI counts global-model requests that an iteration starts from: a pull still unused when the
  // run stops is not one, so a protocol that pulls before every iteration has WI exactly 1.
  if (wk.fresh_model) {
    ++result_.model_requests[w];
    wk.fresh_model = false;
  }
  const std::int64_t done_before = result_.local_iterations[w]++;  // counted when it starts
  const std::size_t train_size = data_.train->size();
  const auto chunk = static_cast<std::size_t>(wk.chunk_size);
  if (ctx_.scenario.training.chunking == scenario::Chunking::kRandom) {
    // A fresh random sample of the whole training set per iteration, as the reference does.
    wk.chunk = data::sample_chunk(train_size, chunk, wk.chunk_rng);
  } else {
    // Fixed: the worker's own slice of the training set, walked cyclically.
    const auto part = data::fixed_partition(train_size, worker_count(), w);
    wk.chunk.resize(chunk);
    const std::int64_t offset = done_before * wk.chunk_size;
    for (std::size_t i = 0; i < chunk; ++i) {
      wk.chunk[i] = part[(static_cast<std::size_t>(offset) + i) % part.size()];
    }
  }
  ++api_.data_requests;
  const double bytes = iteration_work(ctx_.scenario.training, cost_, wk.chunk_size).chunk_bytes;
  ctx_.network->start_flow(RunContext::kPs, RunContext::worker_host(w), bytes, [this, w, bytes] {
    if (finished_) return;
    Worker& k = workers_[w];
    trace_chunk_arrived(w, bytes);
    const auto params = k.model.params();
    k.start_params.assign(params.begin(), params.end());
    k.compute_start = ctx_.sim.now();
    k.last = train_on_chunk(k.model, *data_.train, k.chunk, ctx_.scenario.training, cost_,
                            k.shuffle_rng, gradient_sum(w));
    const engine::SimTime end =
        ctx_.nodes[w + 1].run_job(ctx_.sim.now(), k.last.work.flops, k.last.work.steps);
    ctx_.sim.schedule_at(end, [this, w] {
      if (finished_) return;
      Worker& done = workers_[w];
      trace_computed(w);
      ++api_.time_reports;
      if (!done.last.finite()) {
        finish("diverged", "diverged");
        return;
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
      rec.credits_left = ctx_.nodes[w + 1].credits_at(ctx_.sim.now());
      annotate(w, rec);
      result_.iterations_log.push_back(std::move(rec));
    });
  });
}

void ProtocolRun::push_update(std::size_t w, std::function<void()> at_ps) {
  ++api_.pushes;
  ++result_.major_updates;
  const auto kind = update_kind(w) == "major" ? InstantKind::kMajorUpdate : InstantKind::kUpdate;
  ctx_.network->start_flow(RunContext::worker_host(w), RunContext::kPs,
                           4.0 * static_cast<double>(cost_.params),
                           [this, w, kind, start = now(), at_ps = std::move(at_ps)] {
                             trace_update_arrived(w, kind, start);
                             if (!finished_) at_ps();
                           });
}

void ProtocolRun::ps_job(SpanKind kind, double flops, std::int64_t steps,
                         std::function<void()> done) {
  cluster::NodeCompute& ps = ctx_.nodes[RunContext::kPs];
  const engine::SimTime start = std::max(ctx_.sim.now(), ps.busy_until());
  const engine::SimTime end = ps.run_job(start, flops, steps);
  ctx_.sim.schedule_at(end, [this, kind, start, flops, done = std::move(done)] {
    trace_span(RunContext::kPs, kind, start, {.flops = flops});
    if (!finished_) done();
  });
}

std::optional<double> ProtocolRun::last_global_loss() const {
  if (result_.global.empty()) return std::nullopt;
  return result_.global.back().loss;
}

double ProtocolRun::test_eval_flops() const {
  return static_cast<double>(data_.test->size()) * cost_.flops_forward_per_sample;
}

void ProtocolRun::evaluate_global(int worker, std::function<void()> then) {
  ps_job(SpanKind::kEvaluate, test_eval_flops(), 0, [this, worker, then = std::move(then)] {
    const nn::EvalStats eval = nn::evaluate(global_, *data_.test);
    ++result_.aggregations;
    result_.global.push_back(
        {ctx_.sim.now(), result_.iterations, worker, eval.loss, eval.accuracy});
    trace_evaluation(result_.global.back());
    if (!std::isfinite(eval.loss)) {
      finish("diverged", "diverged");
      return;
    }
    const bool stop = stop_rule_.observe(eval.loss, eval.accuracy);
    if (stop_rule_.last_improved()) {
      result_.best_loss = stop_rule_.best_loss();
      result_.accuracy_at_best = stop_rule_.accuracy_at_best();
      result_.best_time = ctx_.sim.now();
    }
    if (progress_) progress_(result_, ctx_.sim.now());
    if (stop) {
      finish("ok", "patience");
    } else if (result_.iterations >= ctx_.scenario.training.stop.max_iterations) {
      finish("ok", "max_iterations");
    } else {
      then();
    }
  });
}

void ProtocolRun::send_model(std::size_t w, std::function<void()> at_worker) {
  ++api_.pulls;
  // The worker gets the global model as it is when the PS sends it.
  auto snapshot =
      std::make_shared<std::vector<float>>(global_.params().begin(), global_.params().end());
  ctx_.network->start_flow(RunContext::kPs, RunContext::worker_host(w),
                           4.0 * static_cast<double>(cost_.params),
                           [this, w, snapshot, start = now(), at_worker = std::move(at_worker)] {
                             if (finished_) return;
                             trace_model_arrived(w, start);
                             workers_[w].model.set_params(*snapshot);
                             workers_[w].fresh_model = true;
                             at_worker();
                           });
}

void ProtocolRun::finish(const std::string& status, const std::string& reason) {
  if (finished_) return;
  trace_instant(InstantKind::kStop, {.updates = result_.iterations, .reason = reason});
  finished_ = true;
  result_.status = status;
  result_.stop_reason = reason;
  result_.sim_time = ctx_.sim.now();
  result_.api = api_;
  ctx_.sim.stop();
}

std::vector<float> ProtocolRun::update(std::size_t w) const {
  const Worker& k = workers_[w];
  std::vector<float> delta(k.model.params().begin(), k.model.params().end());
  nn::axpy(-1.0f, k.start_params, delta);
  return delta;
}

double ProtocolRun::aggregation_flops(std::size_t k) const {
  return 2.0 * static_cast<double>(k) * static_cast<double>(cost_.params);
}

}  // namespace hermes::protocols

namespace hermes::protocols {

RunResult run_protocol(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                       const data::TrainTestSplit& data, const ProgressFn& progress,
                       RunObserver* observer) {
  std::unique_ptr<ProtocolRun> p;
  switch (run.protocol) {
    case scenario::Protocol::kBsp:
      p = make_bsp(scenario, run, data);
      break;
    case scenario::Protocol::kAsp:
      p = make_asp(scenario, run, data);
      break;
    case scenario::Protocol::kSsp:
      p = make_ssp(scenario, run, data);
      break;
    case scenario::Protocol::kEbsp:
      p = make_ebsp(scenario, run, data);
      break;
    case scenario::Protocol::kHermes:
      p = make_hermes(scenario, run, data);
      break;
    default:
      throw InputError(
          "run '" + run.name + "': protocol '" +
          std::string(scenario::protocol_name(run.protocol)) +
          "' is not simulated yet (this version simulates: bsp, asp, ssp, ebsp, hermes, demo)");
  }
  p->set_observer(observer);
  return p->run(progress);
}

}  // namespace hermes::protocols

namespace hermes::protocols {

bool is_simulated(scenario::Protocol protocol) {
  switch (protocol) {
    case scenario::Protocol::kBsp:
    case scenario::Protocol::kAsp:
    case scenario::Protocol::kSsp:
    case scenario::Protocol::kEbsp:
    case scenario::Protocol::kHermes:
      return true;
    default:
      return false;
  }
}

}  // namespace hermes::protocols
