#include "sim/cluster/prices.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/file_read.h"
#include "base/number_text.h"
#include "base/string_join.h"
#include "sim/cluster/size_names.h"
#include "sim/common/sha256.h"
#include "sim/config/json_pointer.h"
#include "sim/config/object_reader.h"

namespace hermes::cluster {

namespace {

// Read with the configuration reader, like the profile catalog: "<pointer>: <problem> (accepted:
// <values>)".
using config::describe_value;
using config::non_empty_string;
using config::ObjectReader;
using config::read_string_list;
using OJson = nlohmann::ordered_json;

// The summary's column is cost_usd: a list in another currency would be summed as dollars.
constexpr const char* kCurrency = "USD";
// Far above any VM's hourly price (the largest Azure sizes cost a few hundred dollars an hour):
// a larger figure is a typo, and costs stay finite however long a run is billed.
constexpr double kMaxPricePerHour = 1e6;

const std::string kPriceRule = "a number in (0, " + format_number(kMaxPricePerHour) +
                               "], the list's currency per hour, or null when none is published";

// YYYY-MM-DD with a plausible month and day: a source's date must be one a reader can check.
bool is_date(const std::string& s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (const std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  const int month = (s[5] - '0') * 10 + (s[6] - '0');
  const int day = (s[8] - '0') * 10 + (s[9] - '0');
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

std::optional<PriceSource> read_source(const std::string& key, const OJson& obj,
                                       const std::string& path, Diagnostics& diags) {
  return config::read_object(obj, path, diags, [&](ObjectReader& r) {
    PriceSource s;
    s.key = key;
    if (auto v = non_empty_string(r, "url")) s.url = std::move(*v);
    if (auto v = r.string("read", std::nullopt)) {
      if (is_date(*v)) {
        s.read = std::move(*v);
      } else {
        r.error("read", "not a date '" + *v + "' (accepted: YYYY-MM-DD, the day it was read)");
      }
    }
    if (auto v = non_empty_string(r, "about")) s.about = std::move(*v);
    return s;
  });
}

// A tier's price: required, a positive number or null (none published). Returns whether it was
// valid; `target` holds the price, or nullopt for null.
bool read_price(ObjectReader& r, std::string_view key, std::optional<double>& target) {
  const OJson* v = r.accept(key);
  if (!r.is_object()) return false;
  if (v == nullptr) {
    r.missing(key);
    return false;
  }
  if (v->is_null()) return true;
  if (v->is_number()) {
    const double d = v->get<double>();
    if (std::isfinite(d) && d > 0 && d <= kMaxPricePerHour) {
      target = d;
      return true;
    }
  }
  r.error(key, "not an hourly price: " + describe_value(*v) + " (accepted: " + kPriceRule + ")");
  return false;
}

// The entry's "sources": a non-empty array of keys of the list's sources (`known`: every key
// declared, valid or not: a source with errors of its own is not reported again here).
void read_source_keys(ObjectReader& r, const std::vector<std::string>& known,
                      std::vector<std::string>& out) {
  const OJson* v = r.accept("sources");
  if (!r.is_object()) return;
  const std::string accepted = "a non-empty array of keys of /sources: " + join_strings(known);
  if (v == nullptr) {
    r.missing("sources");
    return;
  }
  if (!v->is_array() || v->empty()) {
    r.wrong_type("sources", accepted, *v);
    return;
  }
  for (std::size_t i = 0; i < v->size(); ++i) {
    const OJson& item = (*v)[i];
    if (!item.is_string()) {
      r.diags().error(pointer_append(r.path_of("sources"), i),
                      "wrong type: expected a key of /sources, got " + describe_value(item) +
                          " (accepted: " + join_strings(known) + ")");
    } else if (std::find(known.begin(), known.end(), item.get<std::string>()) == known.end()) {
      r.diags().error(pointer_append(r.path_of("sources"), i),
                      "unknown source '" + item.get<std::string>() +
                          "' (accepted: " + join_strings(known) + ")");
    } else {
      out.push_back(item.get<std::string>());
    }
  }
}

std::optional<ProfilePrices> read_entry(const std::string& name, const OJson& obj,
                                        const std::string& path,
                                        const std::vector<std::string>& sources,
                                        Diagnostics& diags) {
  return config::read_object(obj, path, diags, [&](ObjectReader& r) {
    ProfilePrices p;
    p.name = name;
    if (auto v = non_empty_string(r, "azure_name")) p.azure_name = std::move(*v);
    const bool payg_ok =
        read_price(r, pricing_tier_text(PricingTier::kPayAsYouGo), p.pay_as_you_go);
    const bool spot_ok = read_price(r, pricing_tier_text(PricingTier::kSpot), p.spot);
    read_source_keys(r, sources, p.sources);
    if (auto notes = r.string("notes", "")) p.notes = std::move(*notes);
    // A missing figure must say why: not offered (B-series Spot), or not found.
    if (payg_ok && spot_ok && (!p.pay_as_you_go || !p.spot) && p.notes.empty()) {
      r.error("notes",
              "missing: a price that is null needs notes saying why (accepted: a non-empty "
              "string, e.g. 'no Spot price: the size is not offered as Spot')");
    }
    return p;
  });
}

}  // namespace

std::string_view pricing_tier_text(PricingTier tier) {
  return tier == PricingTier::kSpot ? "spot" : "pay-as-you-go";
}

std::optional<PricingTier> parse_pricing_tier(std::string_view text) {
  if (text == "pay-as-you-go") return PricingTier::kPayAsYouGo;
  if (text == "spot") return PricingTier::kSpot;
  return std::nullopt;
}

const std::vector<std::string>& pricing_tier_names() {
  static const std::vector<std::string> names = {"pay-as-you-go", "spot"};
  return names;
}

PriceList PriceList::load(const std::string& path, std::string* sha256) {
  std::string text;
  PriceList list = config::load_data_file(
      path, kMaxPriceListBytes, "price list",
      [](const OJson& doc, Diagnostics& diags) { return parse(doc, diags); }, &text);
  if (sha256 != nullptr) *sha256 = sha256_hex(text);
  return list;
}

PriceList PriceList::parse(const nlohmann::ordered_json& doc, Diagnostics& diags) {
  PriceList list;
  OJson resolved;
  ObjectReader r(doc, "", diags, resolved);
  if (!r.is_object()) return list;
  std::vector<std::string> ignored;  // documentation of the file, for humans only
  if (const OJson* about = r.accept("about")) read_string_list(*about, "/about", ignored, diags);
  if (const OJson* notes = r.accept("notes")) read_string_list(*notes, "/notes", ignored, diags);
  if (auto v = non_empty_string(r, "region")) list.region_ = std::move(*v);
  if (auto v = r.choice("currency", {kCurrency}, std::nullopt)) list.currency_ = std::move(*v);
  if (auto v = non_empty_string(r, "operating_system")) list.operating_system_ = std::move(*v);
  // Sources first: the entries name them.
  const OJson* sources = r.accept("sources");
  std::vector<std::string> source_keys;
  if (sources == nullptr) {
    r.missing("sources");
  } else if (!sources->is_object() || sources->empty()) {
    r.wrong_type("sources", "a non-empty object of sources {\"url\", \"read\", \"about\"}",
                 *sources);
  } else {
    for (const auto& [key, body] : sources->items()) {
      source_keys.push_back(key);
      if (auto s = read_source(key, body, pointer_append("/sources", key), diags)) {
        list.sources_.push_back(std::move(*s));
      }
    }
  }
  const OJson* prices = r.accept("prices");
  r.finish();
  if (prices == nullptr) {
    r.missing("prices");
    return list;
  }
  if (!prices->is_object() || prices->empty()) {
    r.wrong_type("prices", "a non-empty object of prices keyed by profile short name", *prices);
    return list;
  }
  for (const auto& [name, body] : prices->items()) {
    const std::string path = pointer_append("/prices", name);
    if (name.empty() || name.find_first_of(" \t\r\n") != std::string::npos) {
      diags.error(path, "profile names must be non-empty and contain no whitespace");
      continue;
    }
    auto entry = read_entry(name, body, path, source_keys, diags);
    if (!entry) continue;
    // Lookup accepts both names, case-insensitively, so all of them must be distinct.
    for (const auto& [mine, other] :
         list.names_.add_entry(entry->name, entry->azure_name, list.entries_.size())) {
      diags.error(path, "name \"" + mine + "\" clashes with the entry " +
                            list.entries_[other].name +
                            " (short and Azure names must be unique, ignoring case)");
    }
    list.entries_.push_back(std::move(*entry));
  }
  return list;
}

const ProfilePrices* PriceList::find(std::string_view name) const {
  const auto at = names_.find(name);
  return at ? &entries_[*at] : nullptr;
}

std::optional<double> PriceList::price(std::string_view name, PricingTier tier) const {
  const ProfilePrices* e = find(name);
  return e == nullptr ? std::nullopt : e->of(tier);
}

void PriceList::set_price(std::string_view name, PricingTier tier, double usd_per_hour) {
  const auto at = names_.find(name);
  ProfilePrices* e = at ? &entries_[*at] : nullptr;
  if (e == nullptr) {
    names_.add(name, entries_.size());
    e = &entries_.emplace_back();
    e->name = std::string(name);
  }
  (tier == PricingTier::kSpot ? e->spot : e->pay_as_you_go) = usd_per_hour;
}

std::string price_list_path_in(const std::string& source_dir) {
  return source_dir + "/scenarios/profiles/azure-prices.json";
}

}  // namespace hermes::cluster
