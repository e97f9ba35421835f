// A sharded PS (docs/sharding.md): one shard given explicitly is the unsharded PS bit for bit;
// with S shards every push and pull is S flows, one per shard, with the shard's share of the
// bytes, and every aggregation S jobs, one on each shard's node with its share of the FLOPs, while
// the chunks and the evaluations stay on shard 0; so a PS whose NIC is the bottleneck serves the
// same iterations sooner with 2 shards by bytes, and barely sooner by layers when one layer holds
// most of the model. Bad shard counts and outages of a sharded PS are refused before anything
// runs.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/api_counting.h"
#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

// Four workers behind a PS whose 20 Mbit/s NIC carries the model (0.44 MB) of every pull and
// push: small chunks of 20 samples, so the model transfers are what take the time.
std::string cluster_text(const std::string& ps_extra, const std::string& runs,
                         const std::string& extra = "") {
  return R"({
    "name": "sharding", "seed": 3,
    "cluster": {"ps": {"profile": "DS3_v2", "overrides": {"nic_mbps": 20})" +
         ps_extra + R"(},
                "workers": [{"profile": "DS2_v2", "count": 2}, {"profile": "F4s_v2", "count": 2}]},
    "training": {"chunk_size": 20, "local_epochs": 1, "batch_size": 10, "learning_rate": 0.1,
                 "stop": {"patience": 1000, "max_iterations": 8}},
    "runs": [)" +
         runs + "]" + extra + "}";
}

const std::string kRuns = R"({"name": "bsp", "protocol": "bsp"},
                             {"name": "asp", "protocol": "asp"},
                             {"name": "hermes", "protocol": "hermes", "alpha": -1.3},
                             {"name": "local", "protocol": "local_sgd", "local_steps": 2})";

// The PS jobs (aggregations) and their FLOPs per node.
class AggregationLog final : public RunObserver {
 public:
  void on_span(std::size_t node, SpanKind kind, engine::SimTime, engine::SimTime,
               const EventArgs& args) override {
    if (kind == SpanKind::kAggregate) flops[node].push_back(args.flops.value_or(-1));
    if (kind == SpanKind::kEvaluate) ++evaluations[node];
  }
  std::map<std::size_t, std::vector<double>> flops;
  std::map<std::size_t, int> evaluations;
};

TEST(Sharding, OneShardGivenIsTheUnshardedPsBitForBit) {
  const auto plain = testing::scenario_from_text(cluster_text("", kRuns));
  const auto one = testing::scenario_from_text(cluster_text(R"(, "shards": 1)", kRuns));
  EXPECT_EQ(testing::full_output(one), testing::full_output(plain));
  // Recorded only when given: the resolved document of a one-PS scenario is as before.
  EXPECT_FALSE(plain.document["cluster"]["ps"].contains("shards"));
  EXPECT_EQ(one.document["cluster"]["ps"]["shards"], 1);
}

TEST(Sharding, ShardsAreNodesAfterTheWorkers) {
  const auto sc = testing::scenario_from_text(cluster_text(R"(, "shards": 3)", kRuns));
  ASSERT_EQ(sc.nodes.size(), 7u);
  EXPECT_EQ(sc.worker_count(), 4u);
  EXPECT_EQ(sc.nodes[0].host, "ps");
  EXPECT_EQ(sc.nodes[4].host, "w3");
  EXPECT_EQ(sc.nodes[5].host, "ps1");
  EXPECT_EQ(sc.nodes[6].host, "ps2");
  EXPECT_EQ(sc.nodes[6].profile.nic_mbps, 20);  // the PS's profile, overrides included
  EXPECT_EQ(sc.ps_shard_host(0), 0u);
  EXPECT_EQ(sc.ps_shard_host(2), 6u);
}

TEST(Sharding, EveryAggregationIsSplitOverTheShardsByTheirShare) {
  const auto data = testing::blocks_split();
  for (const char* how : {"bytes", "layers"}) {
    const auto sc = testing::scenario_from_text(
        cluster_text(std::string(R"(, "shards": 2, "sharding": ")") + how + "\"",
                     R"({"name": "bsp", "protocol": "bsp"})"));
    AggregationLog log;
    const RunResult r = run_protocol(sc, sc.runs[0], data, {}, nullptr, &log);
    ASSERT_EQ(r.status, RunStatus::kOk) << how;
    const std::size_t ps1 = sc.ps_shard_host(1);
    ASSERT_EQ(log.flops.size(), 2u) << how;  // on ps and ps1 only
    ASSERT_EQ(log.flops[0].size(), log.flops[ps1].size()) << how;
    ASSERT_FALSE(log.flops[0].empty()) << how;
    // The MLP's layers hold 100480, 8256 and 650 parameters: by bytes two halves; by layers the
    // first layer alone on shard 0, the other two on shard 1.
    const double expected = std::string(how) == "bytes" ? 1.0 : 100480.0 / 8906.0;
    for (std::size_t i = 0; i < log.flops[0].size(); ++i) {
      EXPECT_NEAR(log.flops[0][i] / log.flops[ps1][i], expected, 1e-9) << how;
    }
    EXPECT_GT(log.evaluations[0], 0) << how;
    EXPECT_EQ(log.evaluations.count(ps1), 0u) << how;  // evaluations on shard 0 only
  }
}

TEST(Sharding, EveryPushAndPullIsARequestToEachShardWithTheSameBytesInAll) {
  const auto data = testing::blocks_split();
  const auto one =
      testing::scenario_from_text(cluster_text("", R"({"name": "asp", "protocol": "asp"})"));
  const auto two = testing::scenario_from_text(
      cluster_text(R"(, "shards": 2)", R"({"name": "asp", "protocol": "asp"})"));
  const RunResult a = run_protocol(one, one.runs[0], data);
  const RunResult b = run_protocol(two, two.runs[0], data);
  EXPECT_EQ(b.requests.pushes, 2 * b.major_updates);
  EXPECT_EQ(a.requests.pushes, a.major_updates);
  EXPECT_GT(b.requests.pulls, 0);
  EXPECT_EQ(b.requests.pulls % 2, 0);
  // Two halves of every transfer: the same bytes per update as one PS.
  EXPECT_NEAR(b.bytes / static_cast<double>(b.updates), a.bytes / static_cast<double>(a.updates),
              1e-6 * a.bytes / static_cast<double>(a.updates));
}

TEST(Sharding, ShardsByBytesRelieveTheBottleneckNicAndShardsByLayersBarely) {
  // Breaking the split (every flow to shard 0, or whole bytes to every shard) fails this.
  const auto data = testing::blocks_split();
  const std::string bsp = R"({"name": "bsp", "protocol": "bsp"})";
  std::int64_t updates = -1;
  const auto time_of = [&](const std::string& ps) {
    const auto sc = testing::scenario_from_text(cluster_text(ps, bsp));
    const RunResult r = run_protocol(sc, sc.runs[0], data);
    if (updates < 0) updates = r.updates;
    EXPECT_EQ(r.updates, updates) << ps;  // the same work, in less time
    return engine::to_seconds(r.sim_time);
  };
  const double one = time_of("");
  const double bytes = time_of(R"(, "shards": 2)");
  const double layers = time_of(R"(, "shards": 2, "sharding": "layers")");
  EXPECT_LT(bytes, 0.7 * one) << bytes << " vs " << one;
  EXPECT_GT(layers, 0.85 * one) << layers << " vs " << one;
  EXPECT_LT(layers, one);
}

TEST(Sharding, BadShardsAndOutagesOfAShardedPsAreRefusedBeforeAnythingRuns) {
  const auto problem = [](const std::string& text) {
    Diagnostics diags("s.json");
    scenario::check_scenario_text(text, {}, HERMES_SOURCE_DIR, diags);
    return diags.format();
  };
  const std::string bsp = R"({"name": "bsp", "protocol": "bsp"})";
  EXPECT_NE(problem(cluster_text(R"(, "shards": 0)", bsp)).find("/cluster/ps/shards"),
            std::string::npos);
  EXPECT_NE(problem(cluster_text(R"(, "shards": 65)", bsp)).find("[1, 64]"), std::string::npos);
  const std::string how = problem(cluster_text(R"(, "shards": 2, "sharding": "rows")", bsp));
  EXPECT_NE(how.find("/cluster/ps/sharding"), std::string::npos) << how;
  EXPECT_NE(how.find("layers"), std::string::npos) << how;
  for (const char* node : {"ps", "ps1"}) {
    const std::string outage =
        problem(cluster_text(R"(, "shards": 2)", bsp,
                             std::string(R"(, "events": [{"kind": "crash", "node": ")") + node +
                                 R"(", "at_s": 1, "duration_s": 5}])"));
    EXPECT_NE(outage.find("a shard of a sharded PS, is not modelled"), std::string::npos) << outage;
  }
  // In a custom network a shard needs its link like any host; reported at the PS, naming it.
  const std::string unlinked =
      problem(cluster_text(R"(, "shards": 2)", bsp,
                           R"(, "network": {"topology": "custom", "switches": ["s0"],
                       "links": [{"a": "ps", "b": "s0"}, {"a": "w0", "b": "s0"},
                                 {"a": "w1", "b": "s0"}, {"a": "w2", "b": "s0"},
                                 {"a": "w3", "b": "s0"}]})"));
  EXPECT_NE(unlinked.find("/cluster/ps: host \"ps1\" cannot reach the PS"), std::string::npos)
      << unlinked;
  // A slowdown of a shard is a host like any other.
  EXPECT_EQ(problem(cluster_text(
                R"(, "shards": 2)", bsp,
                R"(, "events": [{"kind": "slowdown", "node": "ps1", "at_s": 1, "duration_s": 5,
                                 "speed_factor": 0.5}])")),
            "");
}

}  // namespace
}  // namespace hermes::protocols
