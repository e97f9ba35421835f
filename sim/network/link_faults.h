// Link faults: for an interval of simulated time, a host's links carry a fraction of their
// bandwidth (0: the links are down) and flows that start meanwhile wait an added latency.
// Scenarios declare them as "link" events (scenarios/README.md, "events"); FlowNetwork applies
// the capacity changes as simulator events and adds the latency when a flow starts.
#pragma once

#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/network/network_spec.h"
#include "sim/network/topology.h"

namespace hermes::network {

// The faults (LinkFault, network_spec.h) resolved to directed links.
class LinkFaultSchedule {
 public:
  // A change of one directed link's capacity at `at`, to its bandwidth x `factor`.
  struct CapacityChange {
    engine::SimTime at;
    LinkId link = 0;
    double factor = 1;
  };

  LinkFaultSchedule() = default;  // no faults
  // Throws std::invalid_argument for an unknown host, an interval that is empty or starts before
  // 0, a factor outside [0, 1], a negative latency, or two faults that overlap on one link (the
  // scenario loader reports these as input errors first; here they are programming errors).
  LinkFaultSchedule(const std::vector<LinkFault>& faults, const Topology& topology);

  // Sorted by time; at one instant a fault's end comes before the next one's start, so touching
  // faults of one link leave it at the later factor.
  const std::vector<CapacityChange>& capacity_changes() const { return changes_; }

  // What a flow starting at t on `route` waits beyond the route's own latency: the added latency
  // of each of its links' faults in force at t.
  engine::SimTime added_latency(const Route& route, engine::SimTime t) const;

 private:
  struct LatencyInterval {
    engine::SimTime start;
    engine::SimTime end;
    engine::SimTime added;
  };
  std::vector<CapacityChange> changes_;
  // Per LinkId, sorted by start and disjoint; empty (not sized) when no fault adds latency.
  std::vector<std::vector<LatencyInterval>> latency_;
};

}  // namespace hermes::network
