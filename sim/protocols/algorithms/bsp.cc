// Bulk Synchronous Parallel: every worker trains one iteration from the same global model, pushes
// its update and waits at the barrier; when all n updates are in, the PS averages them into the
// global model, evaluates it, and every worker pulls the new model.
#include "sim/protocols/algorithms/factories.h"

#include "models/nn/param_ops.h"

namespace hermes::protocols {

namespace {

class Bsp final : public ProtocolRun {
 public:
  using ProtocolRun::ProtocolRun;

 private:
  void start() override {
    round_sum_.assign(global_model().num_params(), 0.0f);
    for (std::size_t w = 0; w < worker_count(); ++w) {
      send_model(w, [this, w] { begin_iteration(w); });
    }
  }

  void on_computed(std::size_t w) override {
    auto delta = update(w);
    push_update(w, *delta, [this, delta] {
      // Summed at arrival; the mean is taken once all are in.
      nn::axpy(1.0f, *delta, round_sum_);
      if (++arrived_ < worker_count()) return;
      arrived_ = 0;
      ps_job(aggregation_flops(worker_count()), 0, [this] {
        nn::axpy(1.0f / static_cast<float>(worker_count()), round_sum_, global_model().params());
        std::fill(round_sum_.begin(), round_sum_.end(), 0.0f);
        count_applied(static_cast<std::int64_t>(worker_count()));
        evaluate_global(-1, [this] {
          for (std::size_t k = 0; k < worker_count(); ++k) {
            send_model(k, [this, k] { begin_iteration(k); });
          }
        });
      });
    });
  }

  std::vector<float> round_sum_;
  std::size_t arrived_ = 0;
};

}  // namespace

std::unique_ptr<ProtocolRun> make_bsp(const scenario::Scenario& s, const scenario::RunSpec& r,
                                      const data::TrainTestSplit& d) {
  return std::make_unique<Bsp>(s, r, d);
}

}  // namespace hermes::protocols
