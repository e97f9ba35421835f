// The table of outage kinds: each kind's row is found by its value and by its name, the names are
// listed in the table's order (the order the readers' messages list them in), and the rows say
// what docs/churn.md says of a crash and of an eviction.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/cluster/outage_kind.h"

namespace hermes::cluster {
namespace {

TEST(OutageKind, EveryRowIsFoundByItsValueAndItsName) {
  for (const OutageKindRow& row : kOutageKinds) {
    EXPECT_EQ(&outage_kind(row.kind), &row);
    EXPECT_EQ(outage_kind_named(row.name), row.kind);
  }
  EXPECT_EQ(outage_kind_named("reboot"), std::nullopt);
  EXPECT_EQ(outage_kind_named(""), std::nullopt);
  EXPECT_EQ(outage_kind_named("Crash"), std::nullopt);  // words are exact, as every choice
}

TEST(OutageKind, NamesInTheTablesOrder) {
  EXPECT_EQ(outage_kind_names(), (std::vector<std::string>{"crash", "eviction"}));
}

TEST(OutageKind, ACrashIsUnannouncedBilledAndTheSameVm) {
  const OutageKindRow& crash = outage_kind(OutageKind::kCrash);
  EXPECT_FALSE(crash.announced);
  EXPECT_EQ(crash.detection, Detection::kHeartbeatTimeout);
  EXPECT_TRUE(crash.billed_while_gone);
  EXPECT_FALSE(crash.fresh_vm_on_return);
}

TEST(OutageKind, AnEvictionIsAnnouncedDeallocatedAndANewVm) {
  const OutageKindRow& eviction = outage_kind(OutageKind::kEviction);
  EXPECT_TRUE(eviction.announced);
  EXPECT_EQ(eviction.detection, Detection::kAtNotice);
  EXPECT_FALSE(eviction.billed_while_gone);
  EXPECT_TRUE(eviction.fresh_vm_on_return);
}

}  // namespace
}  // namespace hermes::cluster
