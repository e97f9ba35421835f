#include "sim/network/network_spec.h"

#include <cmath>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "sim/network/link_graph.h"

namespace hermes::network {
namespace {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string format_mbps(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// "accepted: s1, s2, ps, w0, ... (40 names)": switches first, since a dangling endpoint is most
// often a mistyped switch, and a few names only, since a cluster may have a thousand hosts.
std::string accepted_names(const NetworkSpec& spec, const std::vector<HostSpec>& hosts) {
  constexpr std::size_t kShown = 8;
  std::vector<std::string> names(spec.switches.begin(), spec.switches.end());
  for (const auto& h : hosts) names.push_back(h.name);
  if (names.empty()) return "there are no hosts or switches";
  std::string out = "accepted: ";
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  if (names.size() > kShown) out += ", ... (" + std::to_string(names.size()) + " names)";
  return out;
}

bool usable_mbps(double v) { return std::isfinite(v) && v > 0; }

}  // namespace

void check_network_spec(const NetworkSpec& spec, const std::vector<HostSpec>& hosts,
                        const std::string& base_path, Diagnostics& diags,
                        const std::string& cluster_path) {
  auto host_path = [&](std::size_t i) {
    return i == 0 ? cluster_path + "/ps" : cluster_path + "/workers/" + std::to_string(i - 1);
  };
  const bool star = spec.topology == "star";
  const bool custom = spec.topology == "custom";
  if (!star && !custom) {
    diags.error(base_path + "/topology",
                "unknown topology " + quoted(spec.topology) + "; accepted: star, custom");
  }

  // Names: the first holder of a name keeps it; every later one is reported.
  std::unordered_map<std::string, std::string> holder;  // name -> where it was first declared
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const std::string& name = hosts[i].name;
    if (name.empty()) {
      diags.error(host_path(i), "host has an empty name");
    } else if (auto [it, fresh] = holder.emplace(name, host_path(i)); !fresh) {
      diags.error(host_path(i),
                  "duplicate host name " + quoted(name) + " (also " + it->second + ")");
    }
  }

  std::unordered_set<std::size_t> hosts_without_nic;  // already reported; not also "unreachable"
  if (star) {
    if (spec.star_latency < engine::SimTime{}) {
      diags.error(base_path + "/latency_us",
                  "latency must be >= 0, got " + std::to_string(spec.star_latency.ns()) + " ns");
    }
    if (!spec.switches.empty()) {
      diags.error(base_path + "/switches",
                  "switches are only used with topology \"custom\" (star has its own switch0)");
    }
    if (!spec.links.empty()) {
      diags.error(base_path + "/links",
                  "links are only used with topology \"custom\" (star links every host to "
                  "switch0 at its NIC speed)");
    }
    if (const auto it = holder.find("switch0"); it != holder.end()) {
      diags.error(it->second, "host name \"switch0\" is the star topology's switch; rename it");
    }
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      if (!usable_mbps(hosts[i].nic_mbps)) {
        hosts_without_nic.insert(i);
        diags.error(host_path(i), "host " + quoted(hosts[i].name) +
                                      " needs a NIC speed > 0 Mbit/s for its star link, got " +
                                      format_mbps(hosts[i].nic_mbps));
      }
    }
  } else {
    for (std::size_t i = 0; i < spec.switches.size(); ++i) {
      const std::string& name = spec.switches[i];
      const std::string path = base_path + "/switches/" + std::to_string(i);
      if (name.empty()) {
        diags.error(path, "switch has an empty name");
      } else if (auto [it, fresh] = holder.emplace(name, path); !fresh) {
        diags.error(path, "duplicate name " + quoted(name) + " (also " + it->second + ")");
      }
    }
    std::unordered_map<std::string, std::size_t> host_index;
    for (std::size_t i = 0; i < hosts.size(); ++i) host_index.emplace(hosts[i].name, i);
    std::unordered_set<std::string> switch_names(spec.switches.begin(), spec.switches.end());

    for (std::size_t i = 0; i < spec.links.size(); ++i) {
      const LinkSpec& l = spec.links[i];
      const std::string path = base_path + "/links/" + std::to_string(i);
      bool ends_ok = true;
      for (const auto& [end, field] : {std::pair{&l.a, "/a"}, std::pair{&l.b, "/b"}}) {
        if (!host_index.contains(*end) && !switch_names.contains(*end)) {
          ends_ok = false;
          diags.error(path + field,
                      quoted(*end) + " names no host or switch; " + accepted_names(spec, hosts));
        }
      }
      if (ends_ok && l.a == l.b) diags.error(path, "link connects " + quoted(l.a) + " to itself");
      if (l.latency < engine::SimTime{}) {
        diags.error(path + "/latency_us",
                    "latency must be >= 0, got " + std::to_string(l.latency.ns()) + " ns");
      }
      if (l.bandwidth_mbps) {
        if (!usable_mbps(*l.bandwidth_mbps)) {
          diags.error(path + "/bandwidth_mbps",
                      "bandwidth must be > 0 Mbit/s, got " + format_mbps(*l.bandwidth_mbps));
        }
        continue;
      }
      if (!ends_ok) continue;
      const auto ha = host_index.find(l.a);
      const auto hb = host_index.find(l.b);
      if (ha == host_index.end() && hb == host_index.end()) {
        diags.error(path + "/bandwidth_mbps",
                    "a link between two switches (" + quoted(l.a) + ", " + quoted(l.b) +
                        ") needs bandwidth_mbps; only a host end implies its NIC speed");
        continue;
      }
      for (const auto& h : {ha, hb}) {
        if (h != host_index.end() && !usable_mbps(hosts[h->second].nic_mbps)) {
          diags.error(path + "/bandwidth_mbps",
                      "no bandwidth_mbps given and host " + quoted(h->first) +
                          " has no usable NIC speed (" + format_mbps(hosts[h->second].nic_mbps) +
                          " Mbit/s)");
        }
      }
    }
  }

  // Reachability on the links that are usable; broken ones were reported above.
  if ((star || custom) && hosts.size() > 1) {
    const BuiltGraph g = build_link_graph(spec, hosts);
    const ShortestRoutes from_ps = shortest_routes(g, 0);
    for (std::size_t i = 1; i < hosts.size(); ++i) {
      if (from_ps.cost[i].finite() || hosts_without_nic.contains(i)) continue;
      diags.error(host_path(i), "host " + quoted(hosts[i].name) + " cannot reach the PS " +
                                    quoted(hosts[0].name) +
                                    " (routes pass through switches only; hosts do not forward)");
    }
  }
}

}  // namespace hermes::network
