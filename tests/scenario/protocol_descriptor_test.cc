// The protocols' descriptors (sim/scenario/protocol_descriptor.h) against what derives from them:
// the README's protocols table, names both ways, the trait sets the run keys and the outage check
// take, and the one speedup reference.
#include "sim/scenario/protocol_descriptor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/scenario/run_params.h"
#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

// The README's table cannot drift from the descriptors.
TEST(ProtocolDescriptors, ReadmeTableIsTheDescriptors) {
  testing::expect_readme_table("protocols", protocols_table(),
                               "sim/scenario/protocol_descriptor.cc");
}

TEST(ProtocolDescriptors, NamesGoBothWays) {
  for (const ProtocolDescriptor& d : protocol_descriptors()) {
    EXPECT_EQ(&descriptor_of(d.id), &d);
    EXPECT_EQ(find_protocol(d.name), &d);
    EXPECT_EQ(protocol_name(d.id), d.name);
    EXPECT_EQ(parse_protocol(d.name), d.id);
    EXPECT_FALSE(d.label.empty()) << d.name;
    EXPECT_FALSE(d.source.empty()) << d.name;
  }
  EXPECT_EQ(find_protocol("gossip"), nullptr);
  EXPECT_EQ(parse_protocol("BSP"), std::nullopt);  // names are case-sensitive
}

TEST(ProtocolDescriptors, TraitsGiveTheKeySetsAndChecks) {
  EXPECT_EQ(speedup_reference().id, Protocol::kBsp);
  EXPECT_EQ(protocol_names_with(&ProtocolTraits::paper_baseline), "bsp, asp, ssp, ebsp");
  EXPECT_EQ(protocol_names_with(&ProtocolTraits::applies_on_arrival), "asp, ssp, ebsp, hybrid");
  EXPECT_EQ(protocol_names_with(&ProtocolTraits::takes_outages),
            "bsp, asp, ssp, ebsp, hermes, selsync, local_sgd, hybrid");
  EXPECT_FALSE(trains(Protocol::kDemo));
  EXPECT_TRUE(trains(Protocol::kHermes));
  // The baselines' shared keys go to exactly the protocols with the trait.
  for (const ProtocolDescriptor& d : protocol_descriptors()) {
    EXPECT_EQ(param_of(d.id, "update_unit") != nullptr, d.traits.paper_baseline) << d.name;
    EXPECT_EQ(param_of(d.id, "async_update") != nullptr, d.traits.applies_on_arrival) << d.name;
    EXPECT_EQ(param_of(d.id, "evaluate_every") != nullptr, d.traits.evaluates_by_update_count)
        << d.name;
  }
  EXPECT_EQ(protocol_names_with(&ProtocolTraits::evaluates_by_update_count),
            "bsp, asp, ssp, ebsp, selsync, local_sgd, hybrid");
}

// A protocol registered since SelSync keeps its parameters in RunSpec::own (no RunSpec field),
// and its summary.csv columns appear only in summaries of runs of it.
TEST(ProtocolDescriptors, AParameterWithoutAFieldIsKeptByKey) {
  const RunParam* delta = param_of(Protocol::kSelsync, "delta");
  ASSERT_NE(delta, nullptr);
  RunSpec run = default_run(Protocol::kSelsync);
  EXPECT_EQ(delta->value(run), 0.3);
  delta->assign(run, 0.5);
  EXPECT_EQ(run.own_value("delta"), 0.5);
  EXPECT_EQ(delta->value(run), 0.5);
  EXPECT_THROW((void)run.own_value("lookahead"), std::logic_error);
  const auto without = summary_param_keys(protocols({Protocol::kBsp, Protocol::kHermes}));
  const auto with = summary_param_keys(protocols({Protocol::kBsp, Protocol::kSelsync}));
  const auto has = [](const std::vector<std::string_view>& keys, std::string_view key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  EXPECT_FALSE(has(without, "delta"));
  EXPECT_FALSE(has(without, "window_size"));
  EXPECT_TRUE(has(with, "delta"));
  EXPECT_TRUE(has(with, "window_size"));
  // The columns every summary has had stay, whatever its protocols.
  EXPECT_TRUE(has(with, "alpha"));
  EXPECT_TRUE(has(without, "lookahead"));
  EXPECT_EQ(without.size() + 3, with.size());
}

}  // namespace
}  // namespace hermes::scenario
