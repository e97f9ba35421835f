// The PS's global evaluation is charged as one large-batch inference call (the released code's
// model(x_test)): eval_overhead_us plus the test set's forward FLOPs at the PS profile's
// inference_gflops, not at its batch-16 training rate.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/protocols/registry.h"
#include "sim/protocols/skeleton/workload.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

scenario::Scenario cluster(const std::string& ps_compute) {
  const std::string text = R"({
    "name": "ps-eval-test", "seed": 3,
    "cluster": {"ps": {"profile": "DS3_v2", "overrides": {"compute": )" +
                           ps_compute + R"(}},
                "workers": [{"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16,
                 "stop": {"patience": 1000, "max_iterations": 6}},
    "runs": [{"name": "asp", "protocol": "asp"}]})";
  return hermes::testing::scenario_from_text(text, "ps-eval-test");
}

const data::TrainTestSplit& blocks() {
  static const data::TrainTestSplit d = testing::blocks_split();
  return d;
}

struct EvalSpans : RunObserver {
  std::vector<engine::SimTime> durations;
  void on_span(std::size_t node, SpanKind kind, engine::SimTime start, engine::SimTime end,
               const EventArgs&) override {
    if (node == RunContext::kPs && kind == SpanKind::kEvaluate) durations.push_back(end - start);
  }
};

std::vector<engine::SimTime> eval_durations(const scenario::Scenario& sc) {
  EvalSpans spans;
  const RunResult r = run_protocol(sc, sc.runs[0], blocks(), {}, nullptr, &spans);
  EXPECT_EQ(r.global.size(), spans.durations.size());
  EXPECT_FALSE(spans.durations.empty());
  return spans.durations;
}

TEST(PsEvaluation, TakesTheOverheadPlusTheTestSetsForwardFlopsAtTheInferenceRate) {
  const auto sc =
      cluster(R"({"jitter_cv": 0, "gflops": 1, "inference_gflops": 2, "eval_overhead_us": 3000})");
  const double flops =
      static_cast<double>(blocks().test->size()) * model_cost(sc).flops_forward_per_sample;
  const engine::SimTime want =
      engine::from_seconds(3000 * 1e-6 + flops / (2.0 * 1e9));  // as the model sums
  for (const engine::SimTime d : eval_durations(sc)) EXPECT_EQ(d, want);
}

// Without the inference keys (a profile file of an earlier version) the evaluation runs at the
// training rate, with no overhead: what it was charged before they existed.
TEST(PsEvaluation, WithoutInferenceKeysRunsAtTheTrainingRate) {
  auto sc = cluster(R"({"jitter_cv": 0, "gflops": 1})");
  sc.nodes[0].profile.compute.inference_gflops = 0;
  sc.nodes[0].profile.compute.eval_overhead_us = 0;
  const double flops =
      static_cast<double>(blocks().test->size()) * model_cost(sc).flops_forward_per_sample;
  const engine::SimTime want = engine::from_seconds(flops / 1e9);
  for (const engine::SimTime d : eval_durations(sc)) EXPECT_EQ(d, want);
}

}  // namespace
}  // namespace hermes::protocols
