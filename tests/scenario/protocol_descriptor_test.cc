// The protocols' descriptors (sim/scenario/protocol_descriptor.h) against what derives from them:
// the README's protocols table, names both ways, the trait sets the run keys and the outage check
// take, and the one speedup reference.
#include "sim/scenario/protocol_descriptor.h"

#include <string>

#include <gtest/gtest.h>

#include "sim/scenario/run_params.h"
#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

constexpr std::string_view kBegin = "<!-- protocols: begin";
constexpr std::string_view kEnd = "<!-- protocols: end -->";

// The README's table cannot drift from the descriptors: on a change, paste the table printed.
TEST(ProtocolDescriptors, ReadmeTableIsTheDescriptors) {
  const std::string table = testing::readme_between(kBegin, kEnd);
  EXPECT_EQ(table, protocols_table())
      << "scenarios/README.md's protocols table differs from sim/scenario/protocol_descriptor.cc; "
         "the table the descriptors give:\n"
      << protocols_table();
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
  EXPECT_EQ(protocol_names_with(&ProtocolTraits::applies_on_arrival), "asp, ssp, ebsp");
  EXPECT_EQ(protocol_names_with(&ProtocolTraits::takes_outages), "bsp, asp, ssp, ebsp, hermes");
  EXPECT_FALSE(trains(Protocol::kDemo));
  EXPECT_TRUE(trains(Protocol::kHermes));
  // The baselines' shared keys go to exactly the protocols with the trait.
  for (const ProtocolDescriptor& d : protocol_descriptors()) {
    EXPECT_EQ(param_of(d.id, "update_unit") != nullptr, d.traits.paper_baseline) << d.name;
    EXPECT_EQ(param_of(d.id, "async_update") != nullptr, d.traits.applies_on_arrival) << d.name;
  }
}

}  // namespace
}  // namespace hermes::scenario
