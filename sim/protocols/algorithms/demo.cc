#include "sim/protocols/algorithms/demo.h"

#include <algorithm>
#include <functional>

#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/skeleton/run_context.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::protocols {

namespace {

class DemoRun {
 public:
  DemoRun(const scenario::Scenario& s, const scenario::RunSpec& run, RunObserver* observer)
      : ctx_(s, run),
        work_(iteration_work(s.training, model_cost(s), s.training.chunk_size)),
        observer_(observer) {
    result_.local_iterations.assign(ctx_.worker_count(), 0);
    result_.activity.resize(ctx_.worker_count());
  }

  RunResult run() {
    for (std::size_t w = 0; w < ctx_.worker_count(); ++w) {
      ctx_.sim.schedule_at(engine::SimTime{}, [this, w] { start_iteration(w); });
    }
    ctx_.sim.run();
    // The demo ends when every worker did its iterations: nothing is left to happen.
    result_.stop_reason = StopReason::kNoEvents;
    result_.events = ctx_.sim.events_processed();
    result_.bytes = ctx_.network->bytes_delivered();
    for (const auto& a : result_.activity)
      result_.sim_time = std::max(result_.sim_time, a.finished);
    return result_;
  }

 private:
  // A transfer as a span: starts now, reported when its flow completes, then continues.
  void transfer(std::size_t w, SpanKind kind, network::HostIndex src, network::HostIndex dst,
                double bytes, std::function<void()> next) {
    const engine::SimTime start = ctx_.sim.now();
    ctx_.network->start(
        {src, dst, bytes}, [=, this, next = std::move(next)](engine::ActivityOutcome outcome) {
          if (outcome == engine::ActivityOutcome::kFailed) return;  // no demo turns a host off
          if (observer_ != nullptr) {
            observer_->on_span(RunContext::worker_host(w), kind, start, ctx_.sim.now(),
                               {.iteration = iteration(w), .bytes = bytes});
          }
          result_.activity[w].transfer_time += ctx_.sim.now() - start;
          result_.activity[w].bytes += bytes;
          next();
        });
  }

  // The 1-based iteration worker w is in.
  std::int64_t iteration(std::size_t w) const { return result_.local_iterations[w] + 1; }

  void start_iteration(std::size_t w) {
    if (result_.local_iterations[w] >= ctx_.run.demo_iterations) {
      result_.activity[w].finished = ctx_.sim.now();
      result_.activity[w].credits_left = ctx_.worker_node(w).credits_at(ctx_.sim.now());
      return;
    }
    transfer(w, SpanKind::kChunk, RunContext::kPs, RunContext::worker_host(w), work_.chunk_bytes,
             [this, w] { compute(w); });
  }

  void compute(std::size_t w) {
    const engine::SimTime start = ctx_.sim.now();
    ctx_.worker_node(w).start({work_.flops, work_.steps},
                              [this, w, start](engine::ActivityOutcome outcome) {
                                if (outcome == engine::ActivityOutcome::kDone) computed(w, start);
                              });
  }

  void computed(std::size_t w, engine::SimTime start) {
    const auto host = RunContext::worker_host(w);
    if (observer_ != nullptr) {
      observer_->on_span(host, SpanKind::kCompute, start, ctx_.sim.now(),
                         {.iteration = iteration(w)});
      if (const auto credits = ctx_.worker_node(w).credits_at(ctx_.sim.now())) {
        observer_->on_counter(host, CounterKind::kCredits, ctx_.sim.now(), *credits);
      }
    }
    result_.activity[w].compute_time += ctx_.sim.now() - start;
    transfer(w, SpanKind::kUpdate, host, RunContext::kPs, work_.model_bytes, [this, w, host] {
      transfer(w, SpanKind::kModel, RunContext::kPs, host, work_.model_bytes, [this, w] {
        ++result_.local_iterations[w];
        start_iteration(w);
      });
    });
  }

  RunContext ctx_;
  IterationWork work_;
  RunObserver* observer_;
  RunResult result_;
};

}  // namespace

RunResult run_demo(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                   RunObserver* observer) {
  return DemoRun(scenario, run, observer).run();
}

// The demo's runner (factories.h): it computes no math, so it takes no data, progress or pool.
RunResult run_demo(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                   const data::TrainTestSplit& /*data*/, const ProgressFn& /*progress*/,
                   parallel::ThreadPool* /*pool*/, RunObserver* observer) {
  return run_demo(scenario, run, observer);
}

}  // namespace hermes::protocols
