// What a scenario says about the network, before it is built into a Boost.Graph topology.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "sim/engine/sim_time.h"

namespace hermes::network {

// A full-duplex link; each direction has the full bandwidth.
struct LinkSpec {
  std::string a;  // host or switch name
  std::string b;
  std::optional<double> bandwidth_mbps;  // unset: the NIC speed of the host end (host-switch links)
  engine::SimTime latency{};             // one-way propagation + switching latency
};

struct NetworkSpec {
  // "star": every host is linked to one switch ("switch0") at its NIC speed with
  // `star_latency`. "custom": the switches and links below, nothing implied.
  std::string topology = "star";
  engine::SimTime star_latency = 100 * engine::kMicrosecond;
  std::vector<std::string> switches;
  std::vector<LinkSpec> links;
};

// A fault of the links of one host for an interval (scenarios/README.md, "events"; applied by
// FlowNetwork, link_faults.h): every link with the host at one end (a star host has one, to
// switch0; a custom host has those the scenario lists for it), both directions.
struct LinkFault {
  std::string host;  // "ps", "w0", ...
  engine::SimTime start{};
  engine::SimTime end{};            // exclusive, > start
  double bandwidth_factor = 1;      // [0, 1]: capacity = bandwidth x factor; 0 = link down
  engine::SimTime added_latency{};  // >= 0, for flows that start in [start, end)
};

// A host as the network sees it.
struct HostSpec {
  std::string name;  // unique: "ps", "w0", "w1", ...
  double nic_mbps = 0;
};

// Spec bandwidths are Mbit/s (1 Mbit = 1e6 bits); the model works in bytes/s.
inline constexpr double mbps_to_bytes_per_second(double mbps) { return mbps * 1e6 / 8.0; }

// Checks a spec against the hosts: link endpoints that name no host or switch, duplicate names,
// unknown topology, links without bandwidth between two switches, non-positive bandwidth, negative
// latency, links or switches given with topology "star" (they would be silently ignored), and
// workers that cannot reach hosts[0] (the PS). Hosts never forward traffic: a path may only pass
// through switches. Reports every problem in one pass into diags, never throws for user errors.
// Paths follow the scenario JSON: base_path/... (e.g. /network/links/2/b, /network/links/0/
// bandwidth_mbps, /network/links/0/latency_us, /network/switches/1, /network/topology,
// /network/latency_us for star_latency); host problems (unreachable
// worker, duplicate host name, unusable NIC speed) at cluster_path/workers/<i-1> for hosts[i],
// i >= 1, and cluster_path/ps for hosts[0].
void check_network_spec(const NetworkSpec& spec, const std::vector<HostSpec>& hosts,
                        const std::string& base_path, Diagnostics& diags,
                        const std::string& cluster_path = "/cluster");

}  // namespace hermes::network
