// The demo protocol composes the compute model, burst credits and the flow network; these tests
// check that composition against the components' own predictions, exactly in nanoseconds.
#include "sim/protocols/algorithms/demo.h"
#include "tests/support/scenario_text.h"

#include <gtest/gtest.h>

#include <sstream>

#include "sim/cluster/compute_model.h"
#include "sim/network/flow_network.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/demo_csv.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::protocols {
namespace {

scenario::Scenario load(const std::string& workers_json, int iterations) {
  const std::string text = R"({
    "name": "demo-test", "seed": 7,
    "cluster": {"ps": {"profile": "DS3_v2", "overrides": {"compute": {"jitter_cv": 0}}},
                "workers": )" +
                           workers_json + R"(},
    "network": {"topology": "star", "latency_us": 100},
    "training": {"chunk_size": 100, "train_fraction": 0.8, "batch_size": 16, "local_epochs": 2},
    "runs": [{"name": "d", "protocol": "demo", "iterations": )" +
                           std::to_string(iterations) + R"(}],
    "outputs": {"timeline": true}})";
  return hermes::testing::scenario_from_text(text, "demo-test");
}

TEST(Workload, IterationWorkFollowsTheTrainingSettings) {
  const auto sc = load(R"([{"profile": "DS2_v2"}])", 1);
  const ModelCost cost = model_cost(sc);
  EXPECT_EQ(cost.params, 109386);
  EXPECT_EQ(cost.sample_floats, 784);
  const IterationWork w = iteration_work(sc.training, cost, 100);
  EXPECT_EQ(w.train, 80);
  EXPECT_EQ(w.test, 20);
  EXPECT_EQ(w.steps, 10);  // ceil(80 / 16) = 5 batches x 2 epochs
  EXPECT_DOUBLE_EQ(w.flops, 80.0 * 2 * cost.flops_train_per_sample +
                                10 * cost.flops_update_per_step +
                                20 * cost.flops_forward_per_sample);
  EXPECT_DOUBLE_EQ(w.chunk_bytes, 100.0 * (784 * 4 + 1));
  EXPECT_DOUBLE_EQ(w.model_bytes, 109386.0 * 4);
  // The default chunk: 2500 samples -> 2125 train, 5 epochs at 16 -> 665 steps (the reference).
  const IterationWork d = iteration_work(scenario::TrainingSpec{}, cost, 2500);
  EXPECT_EQ(d.train, 2125);
  EXPECT_EQ(d.steps, 665);
}

// The profile catalog is calibrated on a reference job (DS2_v2 trains the default MNIST chunk in
// 7.3 s). That job must be exactly the work the simulator charges for that chunk, or the
// calibration silently drifts when the model's FLOP counting or the iteration changes.
TEST(Workload, CatalogReferenceJobIsTheSimulatedDefaultChunk) {
  const auto catalog = cluster::ProfileCatalog::load(std::string(HERMES_SOURCE_DIR) +
                                                     "/scenarios/profiles/azure.json");
  ASSERT_TRUE(catalog.reference_job().has_value());
  const auto sc = load(R"([{"profile": "DS2_v2"}])", 1);
  const IterationWork w = iteration_work(scenario::TrainingSpec{}, model_cost(sc), 2500);
  EXPECT_DOUBLE_EQ(catalog.reference_job()->flops, w.flops);
  EXPECT_EQ(catalog.reference_job()->steps, w.steps);
  const auto* ds2 = catalog.find(catalog.reference_job()->target_profile);
  ASSERT_NE(ds2, nullptr);
  EXPECT_NEAR(cluster::full_speed_seconds(ds2->compute, w.flops, w.steps),
              catalog.reference_job()->target_seconds, 0.01);
}

TEST(Demo, LoneWorkerIterationIsTransfersPlusComputeExactly) {
  const auto sc = load(R"([{"profile": "DS2_v2", "overrides": {"compute": {"jitter_cv": 0}}}])", 3);
  DemoTimeline tl;
  const RunResult r = run_demo(sc, sc.runs[0], tl.recorder(sc, sc.runs[0]).get());
  ASSERT_EQ(r.activity.size(), 1u);
  EXPECT_EQ(r.local_iterations[0], 3);

  const IterationWork w = iteration_work(sc.training, model_cost(sc), 100);
  const auto topo = network::Topology::build(sc.network, scenario::network_hosts(sc.nodes));
  const engine::SimTime chunk = network::lone_transfer_time(topo.route(0, 1), w.chunk_bytes);
  const engine::SimTime up = network::lone_transfer_time(topo.route(1, 0), w.model_bytes);
  const engine::SimTime down = network::lone_transfer_time(topo.route(0, 1), w.model_bytes);
  const engine::SimTime compute = engine::from_seconds(
      cluster::full_speed_seconds(sc.nodes[1].profile.compute, w.flops, w.steps));
  // DS2_v2 at 1500 Mbit/s: 313,700 chunk bytes take 1.673 ms plus 2 x 100 us of latency.
  EXPECT_EQ(chunk, engine::SimTime::nanoseconds(200'000 + 1'673'067));
  EXPECT_EQ(r.sim_time, 3 * (chunk + compute + up + down));
  EXPECT_EQ(r.activity[0].compute_time, 3 * compute);
  EXPECT_EQ(r.activity[0].transfer_time, 3 * (chunk + up + down));
  EXPECT_DOUBLE_EQ(r.activity[0].bytes, 3 * (w.chunk_bytes + 2 * w.model_bytes));
  ASSERT_EQ(tl.spans().size(), 12u);  // 4 spans per iteration
  EXPECT_EQ(tl.spans()[0].activity, "recv_chunk");
  EXPECT_EQ(tl.spans()[1].activity, "compute");
  EXPECT_EQ(tl.spans()[1].end - tl.spans()[1].start, compute);
  EXPECT_FALSE(r.activity[0].credits_left.has_value());
}

TEST(Demo, B1msWithoutCreditsComputesAtItsBaselineFifthOfFullSpeed) {
  const auto sc = load(R"([{"profile": "B1ms", "overrides": {"compute": {"jitter_cv": 0},
                          "burst": {"baseline_pct": 20, "credits_per_hour": 12,
                                    "max_credits": 288, "initial_credits": 0}}},
                         {"profile": "B1ms", "overrides": {"compute": {"jitter_cv": 0}}}])",
                       1);
  DemoTimeline tl;
  const RunResult r = run_demo(sc, sc.runs[0], tl.recorder(sc, sc.runs[0]).get());
  ASSERT_EQ(r.activity.size(), 2u);
  // Worker 1 has a full bank: its compute time W is the full-speed time. Worker 0 starts with an
  // empty bank but accrues 0.2 credits/min while its chunk arrives (until t0); at full speed it
  // burns 0.8/min, so it runs t0/4 at full speed and the rest at 20%:
  //   (W - t0/4) * 5 + t0/4 = 5W - t0.
  const engine::SimTime W = r.activity[1].compute_time;
  engine::SimTime t0 = -engine::kNanosecond;
  for (const auto& s : tl.spans()) {
    if (s.node == "w0" && s.activity == "compute") t0 = s.start;
  }
  ASSERT_GT(t0, engine::SimTime{});
  EXPECT_NEAR(static_cast<double>(r.activity[0].compute_time.ns()),
              static_cast<double>((5 * W - t0).ns()), 3.0);
  ASSERT_TRUE(r.activity[1].credits_left.has_value());
  EXPECT_LT(*r.activity[1].credits_left, 30.0);  // the full bank spent some
  EXPECT_NEAR(*r.activity[0].credits_left, 0.0, 1e-3);
}

TEST(Demo, SameScenarioGivesTheSameTimelineByteForByte) {
  const auto sc =
      load(R"([{"profile": "B1ms", "count": 2}, {"profile": "F4s_v2", "count": 2}])", 4);
  auto csv = [&] {
    DemoTimeline tl;
    run_demo(sc, sc.runs[0], tl.recorder(sc, sc.runs[0]).get());
    std::ostringstream os;
    tl.write_csv(os);
    return os.str();
  };
  const std::string a = csv();
  EXPECT_EQ(a, csv());
  EXPECT_GT(a.size(), 1000u);
}

// The demo is an ordinary run: run_protocol dispatches to it (no data needed) and a fan-out of
// observers gives each the same events, so a trace and timeline.csv can watch one run together.
TEST(Demo, RunsThroughRunProtocolAndFeedsEveryObserver) {
  const auto sc = load(R"([{"profile": "B1ms"}, {"profile": "DS2_v2"}])", 2);
  DemoTimeline direct, first, second;
  const RunResult a = run_demo(sc, sc.runs[0], direct.recorder(sc, sc.runs[0]).get());
  const auto r1 = first.recorder(sc, sc.runs[0]);
  const auto r2 = second.recorder(sc, sc.runs[0]);
  ObserverFanOut both({r1.get(), r2.get()});
  const RunResult b = run_protocol(sc, sc.runs[0], data::TrainTestSplit{}, {}, nullptr, &both);
  EXPECT_EQ(a.local_iterations, b.local_iterations);
  EXPECT_EQ(a.sim_time, b.sim_time);
  EXPECT_EQ(a.events, b.events);
  ASSERT_EQ(b.activity.size(), 2u);
  EXPECT_EQ(a.activity[1].compute_time, b.activity[1].compute_time);
  EXPECT_EQ(a.activity[0].credits_left, b.activity[0].credits_left);
  auto csv = [](const DemoTimeline& tl) {
    std::ostringstream os;
    tl.write_csv(os);
    return os.str();
  };
  EXPECT_EQ(csv(direct), csv(first));
  EXPECT_EQ(csv(first), csv(second));
  EXPECT_EQ(first.spans().size(), 2u * 2u * 4u);  // 2 workers x 2 iterations x 4 spans
}

}  // namespace
}  // namespace hermes::protocols
