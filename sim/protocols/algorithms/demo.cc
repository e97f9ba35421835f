#include "sim/protocols/algorithms/demo.h"

#include <functional>

#include "sim/protocols/skeleton/run_context.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::protocols {

namespace {

class DemoRun {
 public:
  DemoRun(const scenario::Scenario& s, const scenario::RunSpec& run, metrics::Timeline* timeline)
      : ctx_(s, run),
        work_(iteration_work(s.training, model_cost(s), s.training.chunk_size)),
        timeline_(timeline) {
    result_.workers.resize(ctx_.worker_count());
    for (std::size_t w = 0; w < ctx_.worker_count(); ++w) {
      const auto& node = s.nodes[w + 1];
      result_.workers[w].node = node.host;
      result_.workers[w].profile = node.profile.name;
    }
  }

  DemoResult run() {
    for (std::size_t w = 0; w < ctx_.worker_count(); ++w) {
      ctx_.sim.schedule_at(engine::SimTime{}, [this, w] { start_iteration(w); });
    }
    ctx_.sim.run();
    result_.events = ctx_.sim.events_processed();
    for (const auto& w : result_.workers) result_.sim_time = std::max(result_.sim_time, w.finished);
    return result_;
  }

 private:
  // A transfer as a span: starts now, records when its flow completes, then continues.
  void transfer(std::size_t w, network::HostIndex src, network::HostIndex dst, double bytes,
                const char* activity, std::function<void()> next) {
    const engine::SimTime start = ctx_.sim.now();
    ctx_.network->start({src, dst, bytes}, [=, this, next = std::move(next)] {
      record(w, activity, start, bytes, std::nullopt);
      result_.workers[w].transfer_time += ctx_.sim.now() - start;
      result_.workers[w].bytes += bytes;
      next();
    });
  }

  void record(std::size_t w, const char* activity, engine::SimTime start, double bytes,
              std::optional<double> credits) {
    if (timeline_ == nullptr) return;
    const auto& summary = result_.workers[w];
    timeline_->add({ctx_.run.name, summary.node, summary.profile, activity, summary.iterations + 1,
                    start, ctx_.sim.now(), bytes, credits});
  }

  void start_iteration(std::size_t w) {
    if (result_.workers[w].iterations >= ctx_.run.iterations) {
      result_.workers[w].finished = ctx_.sim.now();
      result_.workers[w].credits_left = ctx_.nodes[w + 1].credits_at(ctx_.sim.now());
      return;
    }
    const auto host = RunContext::worker_host(w);
    transfer(w, RunContext::kPs, host, work_.chunk_bytes, "recv_chunk", [this, w] { compute(w); });
  }

  void compute(std::size_t w) {
    const engine::SimTime start = ctx_.sim.now();
    auto& node = ctx_.nodes[w + 1];
    node.start({work_.flops, work_.steps}, [this, w, start] {
      record(w, "compute", start, 0, ctx_.nodes[w + 1].credits_at(ctx_.sim.now()));
      result_.workers[w].compute_time += ctx_.sim.now() - start;
      const auto host = RunContext::worker_host(w);
      transfer(w, host, RunContext::kPs, work_.model_bytes, "send_update", [this, w, host] {
        transfer(w, RunContext::kPs, host, work_.model_bytes, "recv_model", [this, w] {
          ++result_.workers[w].iterations;
          start_iteration(w);
        });
      });
    });
  }

  RunContext ctx_;
  IterationWork work_;
  metrics::Timeline* timeline_;
  DemoResult result_;
};

}  // namespace

DemoResult run_demo(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                    metrics::Timeline* timeline) {
  return DemoRun(scenario, run, timeline).run();
}

}  // namespace hermes::protocols
