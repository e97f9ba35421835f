#include "sim/network/link_faults.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <tuple>

namespace hermes::network {
namespace {

void check_fault(const LinkFault& f) {
  const std::string what = "link fault of " + f.host + ": ";
  if (f.start < engine::SimTime{} || f.end <= f.start) {
    throw std::invalid_argument(what + "interval [" + std::to_string(f.start.ns()) + ", " +
                                std::to_string(f.end.ns()) + ") ns is empty or starts before 0");
  }
  if (!(std::isfinite(f.bandwidth_factor) && f.bandwidth_factor >= 0 && f.bandwidth_factor <= 1)) {
    throw std::invalid_argument(what + "bandwidth factor " + std::to_string(f.bandwidth_factor) +
                                " is outside [0, 1]");
  }
  if (f.added_latency < engine::SimTime{}) {
    throw std::invalid_argument(what + "negative added latency");
  }
}

}  // namespace

LinkFaultSchedule::LinkFaultSchedule(const std::vector<LinkFault>& faults,
                                     const Topology& topology) {
  if (faults.empty()) return;
  struct Use {
    engine::SimTime start;
    engine::SimTime end;
  };
  struct Change {
    CapacityChange change;
    bool starts = false;
  };
  std::vector<std::vector<Use>> uses(topology.link_count());
  std::vector<Change> changes;
  for (const LinkFault& f : faults) {
    check_fault(f);
    const auto host = topology.find_host(f.host);
    if (!host) throw std::invalid_argument("link fault of unknown host " + f.host);
    for (LinkId l = 0; l < topology.link_count(); ++l) {
      const DirectedLink& link = topology.link(l);
      if (link.from != *host && link.to != *host) continue;
      uses[l].push_back({f.start, f.end});
      // A fault that only adds latency leaves capacities alone: no event, no recomputation.
      if (f.bandwidth_factor != 1) {
        changes.push_back({{f.start, l, f.bandwidth_factor}, true});
        changes.push_back({{f.end, l, 1}, false});
      }
      if (f.added_latency > engine::SimTime{}) {
        latency_.resize(topology.link_count());
        latency_[l].push_back({f.start, f.end, f.added_latency});
      }
    }
  }
  for (LinkId l = 0; l < uses.size(); ++l) {
    auto& list = uses[l];
    std::sort(list.begin(), list.end(),
              [](const Use& a, const Use& b) { return a.start < b.start; });
    for (std::size_t i = 1; i < list.size(); ++i) {
      if (list[i - 1].end > list[i].start) {
        throw std::invalid_argument("two link faults overlap on " + topology.link_name(l));
      }
    }
  }
  for (auto& list : latency_) {
    std::sort(list.begin(), list.end(),
              [](const LatencyInterval& a, const LatencyInterval& b) { return a.start < b.start; });
  }
  // Ends before starts at one instant; the link order among simultaneous changes does not matter
  // (all are applied before the next recomputation) but is fixed for reproducibility.
  std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
    return std::tuple(a.change.at, a.starts, a.change.link) <
           std::tuple(b.change.at, b.starts, b.change.link);
  });
  changes_.reserve(changes.size());
  for (const Change& c : changes) changes_.push_back(c.change);
}

engine::SimTime LinkFaultSchedule::added_latency(const Route& route, engine::SimTime t) const {
  engine::SimTime added{};
  if (latency_.empty()) return added;
  for (const LinkId l : route.links) {
    const auto& list = latency_[l];
    // The last interval starting at or before t is the only one that may contain it.
    const auto after = std::upper_bound(
        list.begin(), list.end(), t,
        [](engine::SimTime time, const LatencyInterval& i) { return time < i.start; });
    if (after != list.begin() && std::prev(after)->end > t) added += std::prev(after)->added;
  }
  return added;
}

}  // namespace hermes::network
