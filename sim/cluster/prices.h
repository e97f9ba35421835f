// What an hour of a node profile costs, by pricing tier: a price list in data
// (scenarios/profiles/azure-prices.json) with the region, the currency and the source and date of
// every figure, so that a run's cost can always be traced to where its prices came from. Code
// never hard-codes a price.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/diagnostics.h"
#include "sim/cluster/size_names.h"

namespace hermes::cluster {

// How a node is bought: at the list price, or as spare capacity that can be evicted.
enum class PricingTier { kPayAsYouGo, kSpot };

// "pay-as-you-go", "spot": the words of scenarios and price lists.
std::string_view pricing_tier_text(PricingTier tier);
std::optional<PricingTier> parse_pricing_tier(std::string_view text);
const std::vector<std::string>& pricing_tier_names();

// Where figures come from: checked so that no figure is without a source and a date.
struct PriceSource {
  std::string key;  // as the price entries name it
  std::string url;
  std::string read;   // the date the figures were read, YYYY-MM-DD
  std::string about;  // what the source is, and what is known of its figures' date
};

// The hourly prices of one profile. A tier without a price (none published, or none found) is
// nullopt, and notes say why.
struct ProfilePrices {
  std::string name;        // short name, as the profile catalog's
  std::string azure_name;  // e.g. "Standard_B1ms"
  std::optional<double> pay_as_you_go;
  std::optional<double> spot;
  std::vector<std::string> sources;  // keys of PriceList::sources()
  std::string notes;

  std::optional<double> of(PricingTier tier) const {
    return tier == PricingTier::kSpot ? spot : pay_as_you_go;
  }
};

class PriceList {
 public:
  // Reads and validates a price list file; throws InputError naming the file and every bad field.
  // With `sha256`, stores there the SHA-256 of the bytes that were parsed (for the record of a
  // run: the file cannot change between hashing and reading).
  static PriceList load(const std::string& path, std::string* sha256 = nullptr);
  // Validates a parsed price list, reporting into diags (paths like /prices/B1ms/spot). Keeps the
  // file's order.
  static PriceList parse(const nlohmann::ordered_json& doc, Diagnostics& diags);

  // Looks up by short or Azure name, ignoring ASCII case (as ProfileCatalog::find); nullptr if the
  // list has no entry.
  const ProfilePrices* find(std::string_view name) const;
  // The price of `name` in `tier`, if the list has one.
  std::optional<double> price(std::string_view name, PricingTier tier) const;
  // Sets a price, adding an entry for a profile the list does not have (a scenario's overrides).
  void set_price(std::string_view name, PricingTier tier, double usd_per_hour);

  const std::string& region() const { return region_; }
  const std::string& currency() const { return currency_; }
  const std::string& operating_system() const { return operating_system_; }
  const std::vector<PriceSource>& sources() const { return sources_; }
  const std::vector<ProfilePrices>& entries() const { return entries_; }

 private:
  std::string region_, currency_, operating_system_;
  std::vector<PriceSource> sources_;
  std::vector<ProfilePrices> entries_;
  NameIndex names_;  // short and Azure names of entries_
};

// Location of the shipped price list inside a source tree:
// <source_dir>/scenarios/profiles/azure-prices.json.
std::string price_list_path_in(const std::string& source_dir);

}  // namespace hermes::cluster
