// Records when each flow's callback ran, for the flow network tests.
#pragma once

#include <vector>

#include "sim/engine/simulator.h"
#include "sim/network/flow_network.h"

namespace hermes::network::testing {

struct Done {
  std::vector<engine::SimTime> at;
  std::vector<int> order;
  std::vector<engine::ActivityOutcome> outcome;
  FlowNetwork::OnEnd mark(engine::Simulator& sim, int tag) {
    return [this, &sim, tag](engine::ActivityOutcome how) {
      at.push_back(sim.now());
      order.push_back(tag);
      outcome.push_back(how);
    };
  }
};

}  // namespace hermes::network::testing
