// The "prices" section and each node group's "pricing" tier: every node gets its tier's hourly
// price before anything runs, and the resolved document records where the prices came from.
#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;

// The minimal scenario: PS DS3_v2, workers 2 x B1ms, 1 x DS2_v2.
TEST(Prices, WithoutTheSectionEveryNodeIsPayAsYouGoAtTheShippedPrice) {
  Diagnostics diags;
  const auto sc = check_doc(minimal_doc(), diags);
  ASSERT_TRUE(sc) << diags.format();
  ASSERT_EQ(sc->nodes.size(), 4u);
  EXPECT_EQ(sc->nodes[0].price_per_hour, 0.293);   // DS3_v2
  EXPECT_EQ(sc->nodes[1].price_per_hour, 0.0207);  // B1ms
  EXPECT_EQ(sc->nodes[2].price_per_hour, 0.0207);
  EXPECT_EQ(sc->nodes[3].price_per_hour, 0.146);  // DS2_v2
  for (const auto& n : sc->nodes) EXPECT_EQ(n.pricing, cluster::PricingTier::kPayAsYouGo);
  EXPECT_EQ(sc->prices.file, kDefaultPriceList);
  // The resolved document records every value used: each group's tier, the list and its bytes.
  EXPECT_EQ(sc->document["cluster"]["ps"]["pricing"], "pay-as-you-go");
  EXPECT_EQ(sc->document["cluster"]["workers"][1]["pricing"], "pay-as-you-go");
  EXPECT_EQ(sc->document["prices"]["file"], kDefaultPriceList);
  EXPECT_EQ(sc->document["prices"]["sha256"].get<std::string>().size(), 64u);
  EXPECT_EQ(sc->document["prices"]["sha256"], sc->prices.sha256);
  EXPECT_FALSE(sc->document["prices"].contains("overrides"));
}

TEST(Prices, ASpotGroupIsPricedAtTheSpotPrice) {
  Diagnostics diags;
  const auto sc = with_patch(
      R"({"cluster": {"workers": [{"profile": "B1ms", "count": 2},
                                  {"profile": "DS2_v2", "pricing": "spot"}]}})",
      diags);
  ASSERT_TRUE(sc) << diags.format();
  EXPECT_EQ(sc->nodes[3].pricing, cluster::PricingTier::kSpot);
  EXPECT_EQ(sc->nodes[3].price_per_hour, 0.01606);
  EXPECT_EQ(sc->nodes[1].price_per_hour, 0.0207);
}

// B-series has no Spot price: an error at the group's tier, once for the group, saying why and
// what would do.
TEST(Prices, ATierWithoutAPriceIsAnErrorBeforeAnythingRuns) {
  Diagnostics diags;
  EXPECT_FALSE(with_patch(
      R"({"cluster": {"workers": [{"profile": "B1ms", "count": 2, "pricing": "spot"},
                                  {"profile": "DS2_v2"}]}})",
      diags));
  const std::string msg = only_message(diags);
  EXPECT_EQ(diags.items().at(0).json_path, "/cluster/workers/0/pricing");
  EXPECT_TRUE(Contains(msg, "no spot price for profile B1ms"));
  EXPECT_TRUE(Contains(msg, "not offered as Spot"));
  EXPECT_TRUE(Contains(msg, "accepted: pay-as-you-go, or a price in prices.overrides.B1ms.spot"));
}

TEST(Prices, UnknownTiersListTheAcceptedOnes) {
  Diagnostics diags;
  EXPECT_FALSE(
      with_patch(R"({"cluster": {"ps": {"profile": "DS3_v2", "pricing": "reserved"}}})", diags));
  EXPECT_EQ(error_paths(diags), (Paths{"/cluster/ps/pricing"}));
  EXPECT_TRUE(Contains(only_message(diags), "accepted: pay-as-you-go, spot"));
}

TEST(Prices, OverridesGiveAPriceTheListLacks) {
  Diagnostics diags;
  const auto sc = with_patch(
      R"({"cluster": {"workers": [{"profile": "B1ms", "count": 2, "pricing": "spot"}]},
          "prices": {"overrides": {"Standard_B1ms": {"spot": 0.005},
                                   "DS3_v2": {"pay-as-you-go": 0.3}}}})",
      diags);
  ASSERT_TRUE(sc) << diags.format();
  EXPECT_EQ(sc->nodes[0].price_per_hour, 0.3);
  EXPECT_EQ(sc->nodes[1].price_per_hour, 0.005);
  // Recorded as written.
  EXPECT_EQ(sc->document["prices"]["overrides"]["Standard_B1ms"]["spot"], 0.005);
}

TEST(Prices, BadOverridesAndKeysAreReportedAtTheirPointers) {
  Diagnostics diags;
  EXPECT_FALSE(with_patch(
      R"({"prices": {"overrides": {"X9": {"spot": 1}, "B1ms": {"spot": -1, "reserved": 1},
                                   "DS2_v2": 3},
                     "currency": "EUR"}})",
      diags));
  EXPECT_EQ(error_paths(diags),
            (Paths{"/prices/currency", "/prices/overrides/X9", "/prices/overrides/B1ms/spot",
                   "/prices/overrides/B1ms/reserved", "/prices/overrides/DS2_v2"}))
      << diags.format();
  EXPECT_TRUE(Contains(diags.items()[0].message, "accepted: file, sha256, overrides"));
  EXPECT_TRUE(Contains(diags.items()[1].message, "unknown profile 'X9'"));
  EXPECT_TRUE(Contains(diags.items()[2].message, "accepted: spot in (0, 1000000]"));
  EXPECT_TRUE(Contains(diags.items()[3].message, "accepted: pay-as-you-go, spot"));
}

TEST(Prices, AListThatCannotBeLoadedIsNamed) {
  Diagnostics diags;
  EXPECT_FALSE(with_patch(R"({"prices": {"file": "scenarios/profiles/nope.json"}})", diags));
  EXPECT_EQ(error_paths(diags), (Paths{"/prices/file"}));
  EXPECT_TRUE(Contains(only_message(diags),
                       "cannot load the price list "
                       "'scenarios/profiles/nope.json'"));
}

// A rerun from the resolved document finds the same list, or says that it changed.
TEST(Prices, TheRecordedSha256MustMatchTheList) {
  Diagnostics diags;
  const auto sc = check_doc(minimal_doc(), diags);
  ASSERT_TRUE(sc) << diags.format();
  const auto again = check_doc(sc->document, diags);
  ASSERT_TRUE(again) << diags.format();
  EXPECT_EQ(again->document, sc->document);

  Json doc = sc->document;
  doc["prices"]["sha256"] = std::string(64, '0');
  Diagnostics changed;
  EXPECT_FALSE(check_doc(doc, changed));
  EXPECT_EQ(error_paths(changed), (Paths{"/prices/sha256"}));
  EXPECT_TRUE(Contains(only_message(changed), "the file changed since"));
}

// A group whose profile is unknown is reported once, for its profile, not again for its price.
TEST(Prices, AnUnknownProfileIsNotReportedAgainAsUnpriced) {
  EXPECT_EQ(errors_after(R"({"cluster": {"workers": [{"profile": "X9", "pricing": "spot"}]}})"),
            (Paths{"/cluster/workers/0/profile"}));
}

}  // namespace
}  // namespace hermes::scenario
