// Staleness-aware ASP and SSP (docs/staleness.md): the weight of an update by its staleness tau,
// FedBuff's buffer, their defaults (ASP's and SSP's rule, bit for bit), their summary columns and
// the errors of their keys. The weights themselves and tau's count are pinned in
// tests/policies/staleness_weight_test.cc; here, that the protocols apply them.
#include <gtest/gtest.h>

#include <string>

#include "sim/protocols/registry.h"
#include "tests/protocols/run_key_checks.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

// Four workers of four speeds (the B1ms without credits far behind): updates arrive stale.
scenario::Scenario four(const std::string& runs, int max_iterations = 60) {
  return hermes::testing::scenario_from_text(R"({
    "name": "stale", "seed": 9,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms", "overrides": {"burst": {"baseline_pct": 20,
                               "credits_per_hour": 12, "max_credits": 288, "initial_credits": 0}}},
                            {"profile": "DS2_v2"}, {"profile": "F4s_v2"}, {"profile": "F8s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16,
                 "stop": {"patience": 1000, "max_iterations": )" +
                                                 std::to_string(max_iterations) + R"(}},
    "runs": [)" + runs + "]}",
                                             "stale");
}

// One worker: it pulls after each of its updates is applied, so every tau is 0.
scenario::Scenario one(const std::string& runs) {
  return hermes::testing::scenario_from_text(R"({
    "name": "one", "seed": 3,
    "cluster": {"ps": {"profile": "DS3_v2"}, "workers": [{"profile": "DS2_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "stop": {"max_iterations": 12}},
    "runs": [)" + runs + "]}",
                                             "one");
}

std::vector<RunResult> run_all(const scenario::Scenario& sc) {
  const auto data = testing::blocks_split();
  std::vector<RunResult> out;
  for (const auto& r : sc.runs) out.push_back(run_protocol(sc, r, data));
  return out;
}

void expect_same_losses(const RunResult& a, const RunResult& b, const std::string& what) {
  ASSERT_EQ(a.global.size(), b.global.size()) << what;
  for (std::size_t i = 0; i < a.global.size(); ++i) {
    EXPECT_EQ(a.global[i].loss, b.global[i].loss) << what << " evaluation " << i;
  }
  EXPECT_EQ(a.sim_time, b.sim_time) << what;
}

// The defaults are ASP's and SSP's rule: given explicitly, the same run bit for bit.
TEST(Staleness, DefaultsGiveTheRunOfBefore) {
  for (const char* p : {"asp", "ssp"}) {
    const std::string protocol = std::string(R"("protocol": ")") + p + R"(")";
    const auto sc = four("{" + protocol + "}, {" + protocol +
                         R"(, "name": "explicit", "staleness_weight": "constant",
                             "buffer_size": 1})");
    const auto r = run_all(sc);
    expect_same_losses(r[0], r[1], p);
  }
}

// With one worker every update has tau 0, weight 1 under every weighting: a tau counted from
// anything but the pull of the model the update was computed from (or a weight that is not 1 at
// tau 0) makes these runs part.
TEST(Staleness, WithOneWorkerNoUpdateIsStale) {
  const auto sc = one(R"({"protocol": "asp"},
    {"protocol": "asp", "staleness_weight": "inverse"},
    {"protocol": "asp", "staleness_weight": "polynomial", "staleness_exponent": 3},
    {"protocol": "ssp", "staleness": 0, "staleness_weight": "inverse"})");
  const auto r = run_all(sc);
  ASSERT_EQ(r[0].global.size(), 12u);
  for (std::size_t i = 1; i < r.size(); ++i) expect_same_losses(r[0], r[i], sc.runs[i].name);
}

// Four workers all pull w0: the first update applied has tau 0 (the same model as ASP's), the
// ones after are stale and damped (the runs part). Exponent 0 is the constant weight.
TEST(Staleness, StaleUpdatesAreDampedFromTheSecondOn) {
  const auto sc = four(R"({"name": "asp", "protocol": "asp"},
    {"name": "inv", "protocol": "asp", "staleness_weight": "inverse"},
    {"name": "poly", "protocol": "asp", "staleness_weight": "polynomial"},
    {"name": "poly0", "protocol": "asp", "staleness_weight": "polynomial",
     "staleness_exponent": 0})");
  const auto r = run_all(sc);
  for (const RunResult* x : {&r[1], &r[2]}) {
    ASSERT_GT(x->global.size(), 2u);
    EXPECT_EQ(x->global[0].loss, r[0].global[0].loss);
    EXPECT_NE(x->global[1].loss, r[0].global[1].loss);
    EXPECT_EQ(x->updates, r[0].updates);
  }
  EXPECT_NE(r[1].global[1].loss, r[2].global[1].loss);  // 1/(1+tau) is not 1/sqrt(1+tau)
  expect_same_losses(r[0], r[3], "exponent 0");
}

// FedBuff: K arrivals make one global update; the PS evaluates after each (evaluate_every 1),
// which then holds K more updates.
TEST(Staleness, ABufferAppliesOncePerKArrivals) {
  for (int k : {2, 3, 5}) {
    const auto sc = four(R"({"protocol": "asp", "buffer_size": )" + std::to_string(k) + "}");
    const RunResult r = run_all(sc)[0];
    ASSERT_GT(r.global.size(), 3u) << k;
    EXPECT_EQ(r.updates % k, 0) << k;
    EXPECT_EQ(r.aggregations, r.updates / k) << k;
    for (std::size_t i = 0; i < r.global.size(); ++i) {
      EXPECT_EQ(r.global[i].updates, static_cast<std::int64_t>(k) * (i + 1)) << k;
    }
    // Every arrival was pushed and answered: pushes are not held by the buffer.
    EXPECT_GE(r.requests.pushes, r.updates) << k;
  }
}

// K 1 is no buffer; a buffer changes the run.
TEST(Staleness, ABufferOfOneIsNone) {
  const auto sc = four(R"({"protocol": "ssp", "staleness": 2},
    {"protocol": "ssp", "staleness": 2, "buffer_size": 1, "name": "buf-1"},
    {"protocol": "ssp", "staleness": 2, "buffer_size": 2, "name": "buf-2"})");
  const auto r = run_all(sc);
  expect_same_losses(r[0], r[1], "buffer 1");
  EXPECT_NE(r[0].global[0].loss, r[2].global[0].loss);
}

// The buffer is PS memory: a PS failure loses the arrivals in it, counted as dropped.
TEST(Staleness, BufferedArrivalsDieWithThePs) {
  const auto sc = hermes::testing::scenario_from_text(R"({
    "name": "ps", "seed": 11,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "DS2_v2"}, {"profile": "F4s_v2"}, {"profile": "F8s_v2"}]},
    "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
                 "stop": {"patience": 6, "max_iterations": 60, "max_sim_time_s": 2}},
    "availability": {"checkpoint_interval_s": 1000},
    "events": [{"kind": "crash", "node": "ps", "at_s": 0.45, "duration_s": 0.3}],
    "runs": [{"protocol": "asp", "buffer_size": 1000}]})",
                                                      "ps");
  const RunResult r = run_all(sc)[0];
  // Nothing is ever applied (the buffer never fills): every update that reached the PS before
  // its failure was in the buffer.
  EXPECT_EQ(r.updates, 0);
  EXPECT_GT(r.churn[0].dropped_updates, 0);
}

// The new keys' columns are only in summaries with a run that uses them: the shipped summaries
// of ASP and SSP runs keep their columns.
TEST(Staleness, SummaryColumnsOnlyWhereARunUsesThem) {
  const auto plain = four(R"({"protocol": "asp"}, {"protocol": "ssp"})");
  const std::string h = testing::summary_header(plain);
  EXPECT_EQ(h.find("staleness_weight"), std::string::npos) << h;
  EXPECT_EQ(h.find("buffer_size"), std::string::npos) << h;
  const auto inverse =
      four(R"({"protocol": "asp"}, {"protocol": "ssp", "staleness_weight": "inverse"})");
  const std::string hi = testing::summary_header(inverse);
  EXPECT_NE(hi.find(",staleness_weight,"), std::string::npos) << hi;
  EXPECT_EQ(hi.find("staleness_exponent"), std::string::npos) << hi;
  EXPECT_EQ(hi.find("buffer_size"), std::string::npos) << hi;
  const auto poly =
      four(R"({"protocol": "asp", "staleness_weight": "polynomial", "buffer_size": 4})");
  const std::string hp = testing::summary_header(poly);
  EXPECT_NE(hp.find(",staleness_weight,staleness_exponent,buffer_size,"), std::string::npos) << hp;
}

TEST(Staleness, DefaultNamesShowTheWeightingAndTheBuffer) {
  const auto sc = four(R"({"protocol": "asp", "staleness_weight": "inverse"},
    {"protocol": "asp", "staleness_weight": "polynomial", "staleness_exponent": 1.5},
    {"protocol": "ssp", "staleness": 3, "buffer_size": 4})");
  EXPECT_EQ(sc.runs[0].name, "asp-inv");
  EXPECT_EQ(sc.runs[1].name, "asp-poly-a1.5");
  EXPECT_EQ(sc.runs[2].name, "ssp-3-buf4");
}

TEST(Staleness, BadKeysAreNamedWithWhatIsAccepted) {
  const std::string negative = testing::run_errors(
      R"({"protocol": "asp", "staleness_weight": "polynomial", "staleness_exponent": -0.5})");
  EXPECT_NE(negative.find("staleness_exponent"), std::string::npos) << negative;
  EXPECT_NE(negative.find("in [0, 100]"), std::string::npos) << negative;
  const std::string word =
      testing::run_errors(R"({"protocol": "ssp", "staleness_weight": "linear"})");
  EXPECT_NE(word.find("staleness_weight"), std::string::npos) << word;
  EXPECT_NE(word.find("polynomial"), std::string::npos) << word;
  const std::string zero = testing::run_errors(R"({"protocol": "asp", "buffer_size": 0})");
  EXPECT_NE(zero.find("buffer_size"), std::string::npos) << zero;
  const std::string lonely = testing::run_errors(R"({"protocol": "asp", "staleness_exponent": 2})");
  EXPECT_NE(lonely.find("used only with \"staleness_weight\": \"polynomial\""), std::string::npos)
      << lonely;
  // Other protocols do not take them.
  const std::string bsp = testing::run_errors(R"({"protocol": "bsp", "buffer_size": 2})");
  EXPECT_NE(bsp.find("buffer_size"), std::string::npos) << bsp;
  EXPECT_EQ(testing::run_errors(R"({"protocol": "ssp", "staleness_weight": "polynomial",
                         "staleness_exponent": 0.25, "buffer_size": 3})"),
            "");
}

}  // namespace
}  // namespace hermes::protocols
