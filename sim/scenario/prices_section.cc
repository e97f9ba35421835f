// "prices": which price list a run's cost is computed with, and the scenario's own figures
// (scenarios/README.md, "prices"). Every node gets the hourly price of its group's pricing tier
// here, so that a tier without a price is an error before anything runs, not a cost of 0.
#include <algorithm>
#include <string>
#include <vector>

#include "base/number_text.h"
#include "base/suggest.h"
#include "sim/config/json_pointer.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

using cluster::PricingTier;

// As the price list's own bound: far above any VM's hourly price.
const Range kPricePerHour = Range::above(0).up_to(1e6);

// "prices.overrides": {PROFILE: {"pay-as-you-go": N, "spot": N}}, applied to `list`. A profile is
// named as in the cluster (short or Azure name, ignoring case); the list holds it under the
// catalog's short name, which is what nodes are priced by.
void apply_price_overrides(const Json& value, const std::string& path,
                           const cluster::ProfileCatalog* catalog, cluster::PriceList& list,
                           Diagnostics& diags) {
  if (!value.is_object()) {
    diags.error(path,
                "wrong type: expected an object of {\"pay-as-you-go\", \"spot\"} keyed by "
                "profile, got " +
                    describe_value(value));
    return;
  }
  for (const auto& [name, prices] : value.items()) {
    const std::string entry_path = pointer_append(path, name);
    std::string profile = name;
    if (catalog != nullptr) {
      const cluster::NodeProfile* found = catalog->find(name);
      if (found == nullptr) {
        diags.error(entry_path,
                    "unknown profile '" + name +
                        "' (accepted: a profile of the catalog: " + join_strings(catalog->names()) +
                        ")" + did_you_mean(name, catalog->names()));
        continue;
      }
      profile = found->name;
    }
    Json ignored;
    ObjectReader r(prices, entry_path, diags, ignored);
    for (const PricingTier tier : {PricingTier::kPayAsYouGo, PricingTier::kSpot}) {
      const std::string key(cluster::pricing_tier_text(tier));
      if (!r.has(key)) {
        r.accept(key);
        continue;
      }
      if (const auto price = r.number(key, std::nullopt, kPricePerHour)) {
        list.set_price(profile, tier, *price);
      }
    }
    r.finish();
  }
}

// The pointer of a node group's "pricing" key: where a missing price is reported.
std::string pricing_path(int group) {
  return group < 0
             ? "/cluster/ps/pricing"
             : pointer_append(pointer_append("/cluster/workers", static_cast<std::size_t>(group)),
                              "pricing");
}

// Gives each node its tier's price; reports each group whose tier has none, once.
void price_nodes(const cluster::PriceList& list, const std::string& file, ClusterResult& cluster,
                 Diagnostics& diags) {
  std::vector<int> reported = cluster.unknown_profile_groups;  // their error is already out
  for (NodeSpec& node : cluster.nodes) {
    if (const auto price = list.price(node.profile.name, node.pricing)) {
      node.price_per_hour = *price;
      continue;
    }
    if (std::find(reported.begin(), reported.end(), node.group) != reported.end()) continue;
    reported.push_back(node.group);
    const std::string tier(cluster::pricing_tier_text(node.pricing));
    const cluster::ProfilePrices* entry = list.find(node.profile.name);
    std::string why = entry == nullptr ? "the price list " + file + " has no entry for it"
                                       : "the price list " + file + " has none";
    if (entry != nullptr && !entry->notes.empty()) why += ": " + entry->notes;
    std::vector<std::string> accepted;
    for (const PricingTier t : {PricingTier::kPayAsYouGo, PricingTier::kSpot}) {
      if (list.price(node.profile.name, t)) accepted.emplace_back(cluster::pricing_tier_text(t));
    }
    accepted.push_back("a price in prices.overrides." + node.profile.name + "." + tier);
    diags.error(pricing_path(node.group),
                "no " + tier + " price for profile " + node.profile.name + " (" + why +
                    ") (accepted: " + join_strings(accepted, ", or ") + ")");
  }
}

}  // namespace

const ObjectDecl& prices_decl() {
  using config::KeyType;
  static const ObjectDecl decl{
      "prices",
      {{.key = "file",
        .type = KeyType::kString,
        .default_text = std::string(kDefaultPriceList),
        .accepted = "a price list, looked for beside the scenario, then in the home",
        .help = "what an hour of each profile costs, per pricing tier"},
       {.key = "sha256",
        .type = KeyType::kString,
        .default_text = "none",
        .accepted = "64 hex digits",
        .help = "the list's SHA-256; a file with other bytes is an error"},
       {.key = "overrides",
        .type = KeyType::kObject,
        .default_text = "none",
        .accepted = "per profile: {\"pay-as-you-go\": N, \"spot\": N}, USD per hour in (0, 1e6]",
        .help = "prices that replace or add to the list's for this scenario"}}};
  return decl;
}

PricesSpec read_prices(const Json* value, const FileBase& base,
                       const cluster::ProfileCatalog* catalog, ClusterResult& cluster,
                       Diagnostics& diags, Json& out) {
  PricesSpec spec;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/prices", diags, out, prices_decl());
  const auto file = r.string("file", std::string(kDefaultPriceList));
  // Recorded in the resolved document: a rerun from it fails if the list changed since.
  const Json* recorded = r.accept("sha256");
  const Json* overrides = r.accept("overrides");
  r.finish();
  if (!file) return spec;
  spec.file = *file;
  const ResolvedFile resolved = resolve_scenario_file(*file, base);
  spec.resolved_path = resolved.path;
  // A list found beside the scenario is recorded by its absolute path: the resolved document is
  // loaded again from the run directory.
  if (resolved.beside_scenario) out["file"] = resolved.path;
  cluster::PriceList list;
  try {
    list = cluster::PriceList::load(spec.resolved_path, &spec.sha256);
  } catch (const std::exception& e) {
    std::string detail = e.what();
    while (!detail.empty() && detail.back() == '\n') detail.pop_back();
    r.error("file", cannot_load_text("price list", *file, resolved) + ":\n" + detail);
    return spec;
  }
  check_recorded_sha256(r, recorded, "price list", *file, spec.sha256);
  out["sha256"] = spec.sha256;
  if (overrides != nullptr) {
    apply_price_overrides(*overrides, r.path_of("overrides"), catalog, list, diags);
    out["overrides"] = *overrides;
  }
  price_nodes(list, *file, cluster, diags);
  return spec;
}

}  // namespace hermes::scenario
