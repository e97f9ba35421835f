// Small builders shared by the network tests.
#pragma once

#include <string>
#include <vector>

#include "sim/network/network_spec.h"

namespace hermes::network::testing {

// hosts[0] = "ps" at nics[0] Mbit/s, then "w0", "w1", ... at nics[1], nics[2], ...
inline std::vector<HostSpec> make_hosts(const std::vector<double>& nics) {
  std::vector<HostSpec> hosts;
  for (std::size_t i = 0; i < nics.size(); ++i) {
    hosts.push_back({i == 0 ? "ps" : "w" + std::to_string(i - 1), nics[i]});
  }
  return hosts;
}

inline NetworkSpec star_spec(engine::SimTime latency) {
  NetworkSpec s;
  s.topology = "star";
  s.star_latency = latency;
  return s;
}

}  // namespace hermes::network::testing
