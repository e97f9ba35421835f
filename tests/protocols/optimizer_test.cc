// training.momentum and training.weight_decay (docs/optimizer.md): validated, plain SGD by
// default, and the workers' optimiser when given.
#include <gtest/gtest.h>

#include <string>

#include "sim/protocols/registry.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

std::string text(const std::string& training) {
  return R"({"name": "opt", "seed": 5,
    "cluster": {"ps": {"profile": "DS3_v2"}, "workers": [{"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16,
                 "stop": {"max_iterations": 8})" +
         training + R"(},
    "runs": [{"protocol": "bsp"}, {"protocol": "asp", "update_unit": "steps", "steps_per_update": 3}]})";
}

std::vector<RunResult> run_all(const std::string& training) {
  const auto sc = hermes::testing::scenario_from_text(text(training), "opt");
  const auto data = testing::blocks_split();
  std::vector<RunResult> out;
  for (const auto& r : sc.runs) out.push_back(run_protocol(sc, r, data));
  return out;
}

TEST(Optimizer, ZeroMomentumAndDecayArePlainSgd) {
  const auto plain = run_all("");
  const auto zero = run_all(R"(, "momentum": 0, "weight_decay": 0)");
  for (std::size_t i = 0; i < plain.size(); ++i) {
    ASSERT_EQ(plain[i].global.size(), zero[i].global.size());
    for (std::size_t k = 0; k < plain[i].global.size(); ++k) {
      EXPECT_EQ(plain[i].global[k].loss, zero[i].global[k].loss);
    }
  }
}

TEST(Optimizer, MomentumAndDecayChangeTheWorkersSteps) {
  const auto plain = run_all("");
  for (const char* extra : {R"(, "momentum": 0.9)", R"(, "weight_decay": 0.01)"}) {
    const auto other = run_all(extra);
    for (std::size_t i = 0; i < plain.size(); ++i) {
      ASSERT_FALSE(other[i].global.empty());
      EXPECT_NE(plain[i].global[0].loss, other[i].global[0].loss) << extra;
      // The time of the first round is the same: the optimiser's extra vector operations are
      // not charged (docs/optimizer.md).
      EXPECT_EQ(plain[i].global[0].time, other[i].global[0].time) << extra;
    }
  }
}

std::string errors_of(const std::string& training) {
  Diagnostics diags("opt");
  (void)scenario::check_scenario_text(text(training), {}, HERMES_SOURCE_DIR, diags);
  return diags.format();
}

TEST(Optimizer, AMomentumOfOneOrMoreIsRefused) {
  for (const char* bad : {R"(, "momentum": 1)", R"(, "momentum": 1.5)", R"(, "momentum": -0.1)"}) {
    const std::string e = errors_of(bad);
    EXPECT_NE(e.find("/training/momentum"), std::string::npos) << e;
    EXPECT_NE(e.find("momentum in [0, 1)"), std::string::npos) << e;
  }
  const std::string e = errors_of(R"(, "weight_decay": -0.5)");
  EXPECT_NE(e.find("/training/weight_decay"), std::string::npos) << e;
  EXPECT_NE(e.find("weight_decay in [0, 1)"), std::string::npos) << e;
  EXPECT_EQ(errors_of(R"(, "momentum": 0.9, "weight_decay": 0.0005)"), "");
}

}  // namespace
}  // namespace hermes::protocols
