// Hermes' aggregation at the PS (docs/paper.md, "Hermes", the PS's loss-weighted aggregation): the
// rule of HermesAggregation on hand-sized vectors, then inside runs: a one-worker reference run
// replayed step by step from the public pieces (its global losses follow G, w0 - lr G and the
// never-reset S_i bit for bit), and where each new global model goes.
#include "sim/protocols/algorithms/hermes_aggregation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "base/random.h"
#include "models/data/chunks.h"
#include "models/nn/param_ops.h"
#include "models/nn/train.h"
#include "models/nn/zoo.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/skeleton/run_context.h"
#include "sim/protocols/skeleton/worker_math.h"
#include "sim/protocols/skeleton/workload.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

using scenario::HermesVariant;
using Vec = std::vector<float>;

// Answers the given losses in turn and keeps every candidate it was asked about.
struct FakeTestSet {
  std::vector<double> losses;
  std::vector<Vec> candidates;
  HermesAggregation::CandidateLoss loss() {
    return [this](std::span<const float> c) {
      candidates.emplace_back(c.begin(), c.end());
      return losses.at(candidates.size() - 1);
    };
  }
};

void expect_floats(std::span<const float> got, const Vec& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << "index " << i;
}

const Vec kW0 = {1, 2, -1};
constexpr float kLr = 0.5f;

// The released code starts G from the first update as it is (spec: "the first update sets
// G = S_i"), not from a weighted average with an empty aggregate, whatever the losses.
TEST(HermesAggregation, FirstReferenceUpdateSetsTheAggregateToTheUpdate) {
  HermesAggregation agg(HermesVariant::kReference, kW0, kLr, true);
  FakeTestSet test{{0.8}, {}};
  Vec global = kW0;
  agg.apply(Vec{2, 4, 6}, 5.0, global, test.loss());  // unequal weights would scale a G = 0 mix
  expect_floats(agg.aggregate(), {2, 4, 6});
  expect_floats(global, {0, 0, -4});  // w0 - lr S
}

// The reference's loss weighting (spec, "PS on a major update"): the probe w0 - lr S_i gives
// L_i, and G <- (G/L_prev + S_i/L_i) / (1/L_prev + 1/L_i); the global model is rebuilt from w0,
// whatever it was before.
TEST(HermesAggregation, LaterReferenceUpdatesWeightAggregateAndUpdateByInverseLosses) {
  HermesAggregation agg(HermesVariant::kReference, kW0, kLr, true);
  FakeTestSet test{{0.8, 1.5}, {}};
  Vec global = kW0;
  agg.apply(Vec{2, 4, 6}, std::nullopt, global, test.loss());
  global = {9, 9, 9};  // not read: the reference rebuilds w from w0 and G
  const auto w = agg.apply(Vec{4, 0, 2}, 0.5, global, test.loss());
  ASSERT_EQ(test.candidates.size(), 2u);
  expect_floats(test.candidates[1], {-1, 2, -2});  // the probe w0 - lr S_2
  EXPECT_DOUBLE_EQ(w.previous, 2.0);               // 1 / L_prev
  EXPECT_DOUBLE_EQ(w.update, 1.0 / 1.5);           // 1 / L_i
  // Normalised weights 0.75 and 0.25: G = 0.75 (2, 4, 6) + 0.25 (4, 0, 2).
  expect_floats(agg.aggregate(), {2.5, 3, 5});
  expect_floats(global, {-0.25, 0.5, -3.5});  // w0 - lr G
}

// The clean variant (hermes.cc's header): the candidate is w + D_i and the new global model the
// inverse-loss average of w and w + D_i; before any global evaluation both weigh the same.
TEST(HermesAggregation, PaperVariantAveragesTheModelWithTheModelMovedByTheUpdate) {
  HermesAggregation agg(HermesVariant::kPaper, kW0, kLr, true);
  FakeTestSet test{{4.0, 1.5}, {}};
  Vec global = kW0;
  agg.apply(Vec{2, -2, 4}, std::nullopt, global, test.loss());
  expect_floats(test.candidates[0], {3, 0, 3});
  expect_floats(global, {2, 1, 1});  // L_prev defaults to L_i: the mean of w and w + D
  agg.apply(Vec{2, -2, 4}, 0.5, global, test.loss());
  expect_floats(test.candidates[1], {4, -1, 5});
  expect_floats(global, {2.5, 0.5, 2});  // 0.75 (2, 1, 1) + 0.25 (4, -1, 5)
  EXPECT_TRUE(agg.aggregate().empty());
}

// loss_weighting = false is plain averaging: it must not cost a test-set evaluation per update.
TEST(HermesAggregation, WithoutLossWeightingNoCandidateIsEvaluatedAndWeightsAreEqual) {
  HermesAggregation agg(HermesVariant::kReference, kW0, kLr, false);
  FakeTestSet test{{}, {}};
  Vec global = kW0;
  agg.apply(Vec{2, 4, 6}, std::nullopt, global, test.loss());
  const auto w = agg.apply(Vec{4, 0, 2}, 0.5, global, test.loss());
  EXPECT_TRUE(test.candidates.empty());
  EXPECT_EQ(w.previous, 1.0);
  EXPECT_EQ(w.update, 1.0);
  expect_floats(agg.aggregate(), {3, 2, 4});
  expect_floats(global, {-0.5, 1, -3});
}

// A diverged probe must not poison G (hermes.cc: "a diverged candidate gets no weight").
TEST(HermesAggregation, ACandidateWithANonFiniteLossGetsNoWeight) {
  HermesAggregation agg(HermesVariant::kReference, kW0, kLr, true);
  FakeTestSet test{{0.8, std::numeric_limits<double>::infinity()}, {}};
  Vec global = kW0;
  agg.apply(Vec{2, 4, 6}, std::nullopt, global, test.loss());
  const auto w = agg.apply(Vec{4, 0, 2}, 0.5, global, test.loss());
  EXPECT_EQ(w.update, 0.0);
  expect_floats(agg.aggregate(), {2, 4, 6});
  expect_floats(global, {0, 0, -4});
}

// --- Inside runs -------------------------------------------------------------------------------

scenario::Scenario cluster(const std::string& workers, const std::string& run, int max_iterations) {
  const std::string text = R"({
    "name": "aggregation-test", "seed": 3,
    "cluster": {"ps": {"profile": "DS3_v2"}, "workers": )" +
                           workers + R"(},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16,
                 "stop": {"patience": 1000, "max_iterations": )" +
                           std::to_string(max_iterations) + R"(}},
    "runs": [)" + run + "]}";
  return hermes::testing::scenario_from_text(text, "aggregation-test");
}

const data::TrainTestSplit& blocks() {
  static const data::TrainTestSplit d = testing::blocks_split();
  return d;
}

// What a replay does to the worker's gradient sum S: the released code never resets it; the
// other two are what a reset would give, so that the test can tell them apart.
enum class SumReset { kNever, kAtMajorUpdate, kEveryIteration };

struct Replay {
  std::vector<double> local_losses;   // per iteration
  std::vector<double> global_losses;  // per major update: the new global model's test loss
};

// Replays worker 0 of a one-worker reference Hermes run from the public pieces: its chunks from
// its own streams (as the skeleton draws them), train_on_chunk with the gradient sum, and at
// each major update of the run's workers.csv the PS's rule written out here: G = S on the first,
// then the probe w0 - lr S gives L_i, L_prev is the loss of the previous global evaluation,
// G <- weighted_average(G, 1/L_prev, S, 1/L_i), w = w0 - lr G, evaluated on the test set and
// installed in the (only) worker.
Replay replay_one_worker(const scenario::Scenario& sc, const RunResult& r, SumReset reset) {
  const auto& d = blocks();
  nn::Model model = nn::make_model(nn::model_spec(sc.model.name, *d.train), sc.seed);
  const Vec w0(model.params().begin(), model.params().end());
  nn::Model probe = model;
  const ModelCost cost = model_cost(model);
  RandomStream chunks = RandomStream::named(sc.seed, "chunk", 0);
  RandomStream shuffle = RandomStream::named(sc.seed, "shuffle", 0);
  const auto lr = static_cast<float>(sc.training.learning_rate);
  Vec s(w0.size(), 0.0f), g, global;
  std::optional<double> l_prev;
  Replay out;
  for (const WorkerIterationRecord& rec : r.local_iteration_log) {
    const auto chunk =
        data::sample_chunk(d.train->size(), static_cast<std::size_t>(rec.chunk_size), chunks);
    if (reset == SumReset::kEveryIteration) std::fill(s.begin(), s.end(), 0.0f);
    const ChunkResult res = train_on_chunk(model, *d.train, chunk, sc.training, cost, shuffle, s);
    out.local_losses.push_back(res.local_test_loss);
    if (rec.update != UpdateKind::kMajor) continue;
    if (g.empty()) {
      g = s;
    } else {
      Vec candidate = w0;
      nn::axpy(-lr, s, candidate);
      probe.set_params(candidate);
      const double l_i = nn::evaluate(probe, *d.test).loss;
      nn::weighted_average(g, 1.0 / *l_prev, s, 1.0 / l_i, g);
    }
    global = w0;
    nn::axpy(-lr, g, global);
    probe.set_params(global);
    l_prev = nn::evaluate(probe, *d.test).loss;
    out.global_losses.push_back(*l_prev);
    model.set_params(global);
    if (reset == SumReset::kAtMajorUpdate) std::fill(s.begin(), s.end(), 0.0f);
  }
  return out;
}

scenario::Scenario one_worker() {
  return cluster(R"([{"profile": "F4s_v2"}])",
                 R"({"name": "h", "protocol": "hermes", "alpha": -0.5})", 4);
}

// The reference aggregation inside a run (spec, "PS on a major update"): every global loss of the
// run is the replayed w0 - lr G's, with G = S_1 first, then the inverse-loss mix with the probe
// w0 - lr S_i and L_prev = the latest global evaluation, and the worker continuing from it.
TEST(HermesAggregationInARun, GlobalModelIsW0MinusLrTimesTheInverseLossWeightedAggregate) {
  const auto sc = one_worker();
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  ASSERT_EQ(r.stop_reason, StopReason::kMaxIterations);
  ASSERT_EQ(r.global.size(), 4u);
  const Replay replay = replay_one_worker(sc, r, SumReset::kNever);
  ASSERT_EQ(replay.local_losses.size(), r.local_iteration_log.size());
  for (std::size_t i = 0; i < replay.local_losses.size(); ++i) {
    EXPECT_EQ(replay.local_losses[i], r.local_iteration_log[i].local_loss) << "iteration " << i;
  }
  ASSERT_EQ(replay.global_losses.size(), r.global.size());
  for (std::size_t k = 0; k < r.global.size(); ++k) {
    EXPECT_EQ(replay.global_losses[k], r.global[k].loss) << "major update " << k + 1;
  }
}

// The released code never resets sum_grads (spec, "Quirks of the released code"): what a worker
// pushes at its second major update still holds the gradients of the iterations up to its first.
// The run matches the never-reset replay bit for bit, and neither a reset at each major update
// (which first differs at the second major update) nor at each iteration (at the first, which
// always follows a minor iteration: GUP's first decision is minor).
TEST(HermesAggregationInARun, CumulativeGradientSumIsNeverReset) {
  const auto sc = one_worker();
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  ASSERT_GE(r.global.size(), 2u);
  ASSERT_EQ(r.local_iteration_log.front().update, UpdateKind::kMinor);
  const auto losses = [&](SumReset reset) { return replay_one_worker(sc, r, reset).global_losses; };
  const std::vector<double> never = losses(SumReset::kNever);
  const std::vector<double> at_major = losses(SumReset::kAtMajorUpdate);
  const std::vector<double> every = losses(SumReset::kEveryIteration);
  for (std::size_t k = 0; k < r.global.size(); ++k) EXPECT_EQ(never[k], r.global[k].loss) << k;
  EXPECT_EQ(at_major[0], r.global[0].loss);  // the same S until the first push
  EXPECT_NE(at_major[1], r.global[1].loss);
  EXPECT_NE(every[0], r.global[0].loss);
}

// Records where models go and which worker's update each aggregation applied.
struct ModelRoutes : RunObserver {
  std::vector<int> pushers;                          // kMajorUpdate instants, in order
  std::vector<engine::SimTime> aggregations;         // ends of the PS's aggregate jobs, in order
  std::multimap<engine::SimTime, std::size_t> sent;  // model transfers: start -> worker host
  void on_span(std::size_t node, SpanKind kind, engine::SimTime start, engine::SimTime end,
               const EventArgs&) override {
    if (kind == SpanKind::kAggregate) aggregations.push_back(end);
    if (kind == SpanKind::kModel) sent.emplace(start, node);
  }
  void on_instant(std::size_t, InstantKind kind, engine::SimTime, const EventArgs& args) override {
    if (kind == InstantKind::kMajorUpdate) pushers.push_back(*args.worker);
  }
};

// "Send it back only to worker i" (spec, "PS on a major update"): the others keep training on
// their own models. Each aggregation sends exactly one model (pulls = the n initial ones + one
// per update applied), and every model sent after t = 0 leaves at the end of an aggregation, to
// the worker whose update it applied (the PS's jobs run in arrival order).
TEST(HermesAggregationInARun, EachMajorUpdateSendsTheNewModelOnlyToItsPusher) {
  const auto sc = cluster(R"([{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}])",
                          R"({"name": "h", "protocol": "hermes", "alpha": -0.5})", 15);
  ModelRoutes routes;
  const RunResult r = run_protocol(sc, sc.runs[0], blocks(), {}, nullptr, &routes);
  ASSERT_EQ(r.updates, 15);
  EXPECT_EQ(r.api.pulls, 3 + r.updates);
  ASSERT_EQ(routes.aggregations.size(), 15u);
  ASSERT_GE(routes.pushers.size(), routes.aggregations.size());
  std::set<int> pushers(routes.pushers.begin(), routes.pushers.end());
  EXPECT_EQ(pushers.size(), 3u);  // every worker pushed: the others could have received a model
  EXPECT_EQ(routes.sent.count(engine::SimTime{}), 3u);  // the initial models
  std::size_t routed = 0;
  for (std::size_t k = 0; k < routes.aggregations.size(); ++k) {
    const auto [first, last] = routes.sent.equal_range(routes.aggregations[k]);
    const auto n = std::distance(first, last);
    EXPECT_LE(n, 1) << "aggregation " << k;
    if (n == 0) continue;  // still in transfer when the run stopped
    EXPECT_EQ(first->second, RunContext::worker_host(static_cast<std::size_t>(routes.pushers[k])))
        << "aggregation " << k;
    ++routed;
  }
  EXPECT_EQ(routed + 3, routes.sent.size());  // no model left at any other moment
  EXPECT_GE(routed, routes.aggregations.size() - 1);
}

}  // namespace
}  // namespace hermes::protocols
