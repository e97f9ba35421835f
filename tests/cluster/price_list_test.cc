// The shipped price list and the validation of price list files.
#include <gtest/gtest.h>

#include <string>

#include "sim/cluster/prices.h"
#include "sim/cluster/profile.h"

namespace hermes::cluster {
namespace {

using OJson = nlohmann::ordered_json;

const PriceList& shipped() {
  static const PriceList list = PriceList::load(price_list_path_in(HERMES_SOURCE_DIR));
  return list;
}

// A small valid list to break one field at a time.
OJson valid_doc() {
  return OJson::parse(R"({
    "region": "East US", "currency": "USD", "operating_system": "Linux",
    "sources": {"api": {"url": "https://prices.example", "read": "2026-12-01", "about": "test"}},
    "prices": {
      "DS2_v2": {"azure_name": "Standard_DS2_v2", "pay-as-you-go": 0.146, "spot": 0.016,
                 "sources": ["api"]},
      "B1ms": {"azure_name": "Standard_B1ms", "pay-as-you-go": 0.0207, "spot": null,
               "sources": ["api"], "notes": "not offered as Spot"}
    }
  })");
}

// The error paths and messages of parsing `doc`.
Diagnostics problems(const OJson& doc) {
  Diagnostics diags("prices.json");
  PriceList::parse(doc, diags);
  return diags;
}

// Whether `d` has an error at `path` whose message contains `part`.
::testing::AssertionResult error_at(const Diagnostics& d, const std::string& path,
                                    const std::string& part) {
  for (const auto& item : d.items()) {
    if (item.json_path == path && item.message.find(part) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure()
         << "no error at " << path << " containing \"" << part << "\"; got:\n"
         << d.format();
}

TEST(PriceList, TiersKeepTheirWords) {
  EXPECT_EQ(pricing_tier_text(PricingTier::kPayAsYouGo), "pay-as-you-go");
  EXPECT_EQ(pricing_tier_text(PricingTier::kSpot), "spot");
  EXPECT_EQ(parse_pricing_tier("spot"), PricingTier::kSpot);
  EXPECT_EQ(parse_pricing_tier("pay-as-you-go"), PricingTier::kPayAsYouGo);
  EXPECT_FALSE(parse_pricing_tier("Spot").has_value());
  EXPECT_EQ(pricing_tier_names(), (std::vector<std::string>{"pay-as-you-go", "spot"}));
}

// Every profile of the shipped catalog has a pay-as-you-go price; Spot is below it, and missing
// exactly for the B-series, which Azure does not offer as Spot.
TEST(PriceList, ShippedListPricesEveryProfileOfTheCatalog) {
  const ProfileCatalog catalog = ProfileCatalog::load(default_catalog_path());
  EXPECT_EQ(shipped().currency(), "USD");
  EXPECT_FALSE(shipped().region().empty());
  EXPECT_EQ(shipped().operating_system(), "Linux");
  for (const NodeProfile& p : catalog.profiles()) {
    const ProfilePrices* e = shipped().find(p.name);
    ASSERT_NE(e, nullptr) << p.name;
    EXPECT_EQ(e->azure_name, p.azure_name);
    ASSERT_TRUE(e->pay_as_you_go.has_value()) << p.name;
    EXPECT_FALSE(e->sources.empty()) << p.name;
    const bool burstable = p.burst.has_value();
    EXPECT_EQ(e->spot.has_value(), !burstable) << p.name;
    if (e->spot) {
      EXPECT_LT(*e->spot, *e->pay_as_you_go) << p.name;
    } else {
      EXPECT_FALSE(e->notes.empty()) << p.name;
    }
  }
  for (const PriceSource& s : shipped().sources()) {
    EXPECT_FALSE(s.url.empty()) << s.key;
    EXPECT_EQ(s.read.size(), 10u) << s.key;
  }
}

TEST(PriceList, ShippedFiguresOfThePapersCluster) {
  EXPECT_EQ(shipped().price("B1ms", PricingTier::kPayAsYouGo), 0.0207);
  EXPECT_FALSE(shipped().price("B1ms", PricingTier::kSpot).has_value());
  EXPECT_EQ(shipped().price("DS2_v2", PricingTier::kPayAsYouGo), 0.146);
  EXPECT_EQ(shipped().price("DS2_v2", PricingTier::kSpot), 0.01606);
  EXPECT_EQ(shipped().price("F4s_v2", PricingTier::kPayAsYouGo), 0.169);
  EXPECT_EQ(shipped().price("DS3_v2", PricingTier::kPayAsYouGo), 0.293);
}

TEST(PriceList, LookupTakesShortOrAzureNameIgnoringCase) {
  EXPECT_EQ(shipped().find("standard_ds2_V2"), shipped().find("DS2_v2"));
  EXPECT_EQ(shipped().find("ds2_v2")->name, "DS2_v2");
  EXPECT_EQ(shipped().find("Standard_X9"), nullptr);
  EXPECT_FALSE(shipped().price("X9", PricingTier::kPayAsYouGo).has_value());
}

TEST(PriceList, SetPriceOverridesOrAddsAnEntry) {
  Diagnostics diags;
  PriceList list = PriceList::parse(valid_doc(), diags);
  ASSERT_TRUE(diags.ok()) << diags.format();
  list.set_price("b1ms", PricingTier::kSpot, 0.005);
  EXPECT_EQ(list.price("B1ms", PricingTier::kSpot), 0.005);
  EXPECT_EQ(list.price("B1ms", PricingTier::kPayAsYouGo), 0.0207);
  list.set_price("X9", PricingTier::kPayAsYouGo, 1.5);
  EXPECT_EQ(list.price("X9", PricingTier::kPayAsYouGo), 1.5);
  EXPECT_FALSE(list.price("X9", PricingTier::kSpot).has_value());
}

TEST(PriceList, UnknownKeysAreErrorsListingTheAcceptedOnes) {
  OJson doc = valid_doc();
  doc["prise"] = 1;
  doc["prices"]["DS2_v2"]["reserved"] = 0.1;
  doc["sources"]["api"]["date"] = "2026-12-01";
  const Diagnostics d = problems(doc);
  EXPECT_EQ(d.count(), 3u) << d.format();
  EXPECT_TRUE(error_at(d, "/prise", "accepted: about, notes, region, currency"));
  EXPECT_TRUE(error_at(d, "/prices/DS2_v2/reserved", "pay-as-you-go, spot, sources, notes"));
  EXPECT_TRUE(error_at(d, "/sources/api/date", "url, read, about"));
}

TEST(PriceList, BadPricesNameWhatIsAccepted) {
  OJson doc = valid_doc();
  doc["prices"]["DS2_v2"]["pay-as-you-go"] = -0.1;
  doc["prices"]["DS2_v2"]["spot"] = "0.016";
  doc["prices"]["B1ms"].erase("pay-as-you-go");
  const Diagnostics d = problems(doc);
  EXPECT_EQ(d.count(), 3u) << d.format();
  EXPECT_TRUE(error_at(d, "/prices/DS2_v2/pay-as-you-go", "accepted: a number in (0, "));
  EXPECT_TRUE(error_at(d, "/prices/DS2_v2/spot", "or null when none is published"));
  EXPECT_TRUE(error_at(d, "/prices/B1ms/pay-as-you-go", "missing required key"));
}

TEST(PriceList, ANullPriceNeedsNotesSayingWhy) {
  OJson doc = valid_doc();
  doc["prices"]["B1ms"].erase("notes");
  const Diagnostics d = problems(doc);
  EXPECT_EQ(d.count(), 1u) << d.format();
  EXPECT_TRUE(error_at(d, "/prices/B1ms/notes", "needs notes saying why"));
}

TEST(PriceList, EveryFigureNamesAKnownSourceWithADate) {
  OJson doc = valid_doc();
  doc["prices"]["DS2_v2"]["sources"] = OJson::array({"api", "vantage"});
  doc["prices"]["B1ms"]["sources"] = OJson::array();
  doc["sources"]["api"]["read"] = "Dec 2026";
  const Diagnostics d = problems(doc);
  EXPECT_TRUE(error_at(d, "/prices/DS2_v2/sources/1", "unknown source 'vantage'"));
  EXPECT_TRUE(error_at(d, "/prices/B1ms/sources", "a non-empty array of keys of /sources"));
  EXPECT_TRUE(error_at(d, "/sources/api/read", "accepted: YYYY-MM-DD"));
}

TEST(PriceList, CurrencyRegionAndNamesAreChecked) {
  OJson doc = valid_doc();
  doc["currency"] = "EUR";
  doc.erase("region");
  doc["prices"]["b1MS"] = doc["prices"]["B1ms"];
  const Diagnostics d = problems(doc);
  EXPECT_TRUE(error_at(d, "/currency", "accepted: USD"));
  EXPECT_TRUE(error_at(d, "/region", "missing required key"));
  EXPECT_TRUE(error_at(d, "/prices/b1MS", "clashes with the entry B1ms"));
}

TEST(PriceList, AFileThatCannotBeReadIsNamed) {
  try {
    PriceList::load("/nonexistent/prices.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("price list '/nonexistent/prices.json'"),
              std::string::npos)
        << e.what();
  }
}

TEST(PriceList, LoadRecordsTheSha256OfTheBytesRead) {
  std::string sha;
  PriceList::load(price_list_path_in(HERMES_SOURCE_DIR), &sha);
  EXPECT_EQ(sha.size(), 64u);
  EXPECT_EQ(sha.find_first_not_of("0123456789abcdef"), std::string::npos);
}

}  // namespace
}  // namespace hermes::cluster
