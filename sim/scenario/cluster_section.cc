// "cluster": the PS and the worker groups, expanded into one NodeSpec per machine.
#include <optional>
#include <string>

#include "base/suggest.h"
#include "sim/config/json_pointer.h"
#include "sim/config/object_reader.h"
#include "sim/policies/ps_sharding.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

using config::KeyType;

namespace {

constexpr int kMaxGroupCount = 10000;

}  // namespace

const ObjectDecl& cluster_decl() {
  static const ObjectDecl decl{
      "cluster",
      {{.key = "ps",
        .type = KeyType::kObject,
        .default_text = "required",
        .help = "the parameter server's machine (cluster.ps.*)"},
       {.key = "workers",
        .type = KeyType::kArray,
        .default_text = "required",
        .accepted = "a list of worker groups, at most 10000 workers in all",
        .help = "the worker groups, each expanded into count machines w0, w1, ... "
                "(cluster.workers[].*)"}}};
  return decl;
}

const ObjectDecl& node_group_decl(bool ps) {
  const auto keys = [](bool with_count) {
    std::vector<config::KeyDecl> k = {
        {.key = "profile",
         .type = KeyType::kString,
         .default_text = "required",
         .accepted = "a profile of the catalog (hermes-sim profiles), short or Azure name",
         .help = "the machine's profile"}};
    if (with_count) {
      k.push_back({.key = "count",
                   .type = KeyType::kInteger,
                   .default_text = "1",
                   .range = Range::at_least(0).up_to(kMaxGroupCount),
                   .help = "machines in the group"});
    }
    if (!with_count) {  // the PS
      k.push_back({.key = "shards",
                   .type = KeyType::kInteger,
                   .default_text = "1",
                   .range = Range::at_least(1).up_to(limits::kMaxPsShards),
                   .help = "parameter-server shards, each a machine of this profile: ps, ps1, ... "
                           "(docs/sharding.md)"});
      k.push_back({.key = "sharding",
                   .type = KeyType::kChoice,
                   .default_text = "bytes",
                   .choices = {"bytes", "layers"},
                   .help = "how the model's parameters are split over the shards: equal byte "
                           "ranges, or whole layers, largest first (docs/sharding.md)"});
    }
    k.push_back(
        {.key = "pricing",
         .type = KeyType::kChoice,
         .default_text = std::string(cluster::pricing_tier_text(cluster::PricingTier::kPayAsYouGo)),
         .choices = cluster::pricing_tier_names(),
         .help = "the pricing tier of its machines (prices)"});
    k.push_back({.key = "overrides",
                 .type = KeyType::kObject,
                 .default_text = "none",
                 .accepted = "keys of a catalog profile",
                 .help = "changes to the profile's figures for this scenario"});
    return k;
  };
  static const ObjectDecl ps_decl{"cluster.ps", keys(false)};
  static const ObjectDecl workers_decl{"cluster.workers[]", keys(true)};
  return ps ? ps_decl : workers_decl;
}

namespace {

struct Group {
  cluster::NodeProfile profile;
  int count = 1;
  bool count_known = true;
  bool profile_known = false;  // found in the catalog
  PsSharding sharding;         // the PS only
  cluster::PricingTier pricing = cluster::PricingTier::kPayAsYouGo;
};

// Reads {"profile", "count" (workers only), "pricing", "overrides"} at `path`.
Group read_group(const Json& value, const std::string& path, bool is_ps,
                 const cluster::ProfileCatalog* catalog, const std::string& catalog_label,
                 Diagnostics& diags, Json& out) {
  Group group;
  ObjectReader r(value, path, diags, out, node_group_decl(is_ps));
  const auto profile_name = r.string("profile", std::nullopt);
  if (!is_ps) {
    const auto count = r.int32("count", 1, Range::at_least(0).up_to(kMaxGroupCount));
    group.count = count.value_or(1);
    group.count_known = count.has_value();
  }
  // Recorded only when given: a scenario of one PS resolves as it did before shards existed.
  if (is_ps && r.has("shards")) {
    const auto shards = r.int32("shards", 1, Range::at_least(1).up_to(limits::kMaxPsShards));
    group.sharding.shards = shards.value_or(1);
    group.count_known = shards.has_value();
  }
  if (is_ps && r.has("sharding")) {
    const auto how = r.choice("sharding", {"bytes", "layers"}, std::string("bytes"));
    if (how == "layers") group.sharding.sharding = protocols::Sharding::kLayers;
  }
  const auto pricing =
      r.choice("pricing", cluster::pricing_tier_names(),
               std::string(cluster::pricing_tier_text(cluster::PricingTier::kPayAsYouGo)));
  if (pricing) group.pricing = *cluster::parse_pricing_tier(*pricing);
  const Json* overrides = r.accept("overrides");
  if (overrides != nullptr) out["overrides"] = *overrides;
  r.finish();

  // Placeholder for an unknown profile: a positive NIC speed keeps the network check from
  // reporting consequences of the profile error.
  group.profile.name = profile_name.value_or("?");
  group.profile.nic_mbps = 1000;
  if (!profile_name || catalog == nullptr) return group;
  const cluster::NodeProfile* found = catalog->find(*profile_name);
  if (found == nullptr) {
    r.error("profile", "unknown profile '" + *profile_name + "' (catalog " + catalog_label +
                           " has: " + join_strings(catalog->names()) + ")" +
                           did_you_mean(*profile_name, catalog->names()));
    return group;
  }
  group.profile = *found;
  group.profile_known = true;
  if (overrides != nullptr) {
    // Reports non-objects, unknown keys and bad values itself.
    cluster::apply_overrides(group.profile, nlohmann::json(*overrides), r.path_of("overrides"),
                             diags);
  }
  return group;
}

}  // namespace

ClusterResult read_cluster(const Json* value, const cluster::ProfileCatalog* catalog,
                           const std::string& catalog_label, Diagnostics& diags, Json& out) {
  ClusterResult result;
  if (value == nullptr) {
    diags.error("/cluster",
                "missing required key 'cluster' (accepted: {\"ps\": {...}, "
                "\"workers\": [...]})");
    result.hosts_known = false;
    return result;
  }
  ObjectReader r(*value, "/cluster", diags, out, cluster_decl());
  if (!r.is_object()) {
    result.hosts_known = false;
    return result;
  }

  std::optional<Group> ps_group;
  const Json* ps = r.accept("ps");
  if (ps == nullptr) {
    r.missing("ps");
    result.hosts_known = false;
  } else {
    Group g = read_group(*ps, "/cluster/ps", true, catalog, catalog_label, diags, out["ps"]);
    if (!g.profile_known) result.unknown_profile_groups.push_back(-1);
    if (!g.count_known) result.hosts_known = false;
    result.ps = g.sharding;
    result.nodes.push_back({"ps", g.profile, -1, g.pricing, 0});
    ps_group = std::move(g);
  }

  const Json* workers = r.accept("workers");
  if (workers == nullptr) {
    r.missing("workers");
    result.hosts_known = false;
  } else if (!workers->is_array()) {
    r.wrong_type("workers", "an array of {\"profile\", \"count\", \"overrides\"}", *workers);
    result.hosts_known = false;
  } else {
    Json& out_workers = out["workers"] = Json::array();
    int next_worker = 0;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < workers->size(); ++i) {
      Json& out_group = out_workers.emplace_back(Json::object());
      const std::string path = pointer_append("/cluster/workers", i);
      Group g = read_group((*workers)[i], path, false, catalog, catalog_label, diags, out_group);
      if (!g.count_known) result.hosts_known = false;
      if (!g.profile_known) result.unknown_profile_groups.push_back(static_cast<int>(i));
      total += g.count;
      // Beyond the limit no host is expanded: validating 10 million hosts would itself take
      // gigabytes (the total is reported below).
      for (int c = 0; c < g.count && total <= limits::kMaxWorkers; ++c) {
        result.nodes.push_back(
            {"w" + std::to_string(next_worker++), g.profile, static_cast<int>(i), g.pricing, 0});
      }
    }
    if (total > limits::kMaxWorkers) {
      r.error("workers", "the cluster has " + std::to_string(total) +
                             " workers in all groups together (accepted: at most " +
                             std::to_string(limits::kMaxWorkers) + ")");
      result.hosts_known = false;
    }
    if (next_worker == 0 && result.hosts_known) {
      r.error("workers",
              "the cluster has no workers (accepted: at least one worker group with count >= 1)");
    }
  }
  // The other shards after the workers, so that a worker's host index (and random streams) do
  // not depend on the shard count.
  if (ps_group) {
    for (int s = 1; s < ps_group->sharding.shards; ++s) {
      result.nodes.push_back(
          {"ps" + std::to_string(s), ps_group->profile, -1, ps_group->pricing, 0});
    }
  }
  r.finish();
  return result;
}

std::vector<network::HostSpec> network_hosts(const std::vector<NodeSpec>& nodes) {
  std::vector<network::HostSpec> hosts;
  hosts.reserve(nodes.size());
  for (const auto& n : nodes) hosts.push_back({n.host, n.profile.nic_mbps});
  return hosts;
}

}  // namespace hermes::scenario
