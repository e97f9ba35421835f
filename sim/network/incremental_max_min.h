// Max-min fair rates kept up to date as flows come and go, re-solving only what a change can
// affect. Two flows influence each other's rates only through chains of shared links, so the
// allocation splits into connected components (flows joined when they share a link); a flow's
// arrival or departure, or a link's new capacity, can change the rates of its component alone.
// This is SimGrid's selective update (lmm's modified-constraint set): after changes, the
// components holding a changed link are solved again from scratch with MaxMinSolver and every
// other flow keeps its rate.
//
// Same bits as a full solve: progressive filling on a union of disjoint components performs, on
// each component, the very sequence of (share, link)-ordered fixings and subtractions it performs
// on that component alone (a component's heap entries only ever depend on its own links), and
// within one fixing step every flow gets the same share, so the order flows are listed in does
// not matter either. tests/network/incremental_max_min_test.cc checks this on random flow sets.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/network/max_min.h"

namespace hermes::network {

enum class MaxMinUpdate : std::uint8_t {
  kIncremental,  // re-solve the components a change touches (the default)
  kFull,         // re-solve every flow at each solve(), as a reference and for `bench network`
};

class IncrementalMaxMin {
 public:
  using FlowKey = std::uint32_t;  // the caller's small dense index (FlowNetwork's slot)

  IncrementalMaxMin(std::vector<double> capacity, MaxMinUpdate update);

  // Changes one link's capacity (>= 0); its component is re-solved at the next solve().
  void set_capacity(LinkId link, double capacity);
  // `route` (non-empty, each link once) must stay alive until remove(key). Adding a key present
  // or removing one absent is a std::logic_error.
  void add(FlowKey key, const std::vector<LinkId>* route);
  void remove(FlowKey key);
  bool contains(FlowKey key) const { return key < routes_.size() && routes_[key] != nullptr; }

  // Brings every present flow's rate up to date. Returns the keys whose rate was recomputed
  // (valid until the next call); the others kept theirs.
  const std::vector<FlowKey>& solve();
  // The rate from the last solve() that covered `key`, bytes/s.
  double rate(FlowKey key) const { return rates_.at(key); }

  std::size_t flows() const { return flows_; }
  // Flows re-solved over all solve() calls: the work done, for `bench network`.
  std::uint64_t flows_resolved() const { return flows_resolved_; }

 private:
  void mark_dirty(LinkId link);
  void collect_component_flows();

  MaxMinUpdate update_;
  MaxMinSolver solver_;
  std::vector<const std::vector<LinkId>*> routes_;  // by key; nullptr when absent
  std::vector<double> rates_;                       // by key
  // Per link, the present flows crossing it; per key, its position in each of its links' lists
  // (route order), so that a removal swaps the last entry in, in O(route length).
  std::vector<std::vector<FlowKey>> on_link_;
  std::vector<std::vector<std::uint32_t>> position_;
  std::size_t flows_ = 0;

  std::vector<LinkId> dirty_;
  std::vector<char> link_seen_;  // dirty or reached by the current walk
  std::vector<char> flow_seen_;  // by key, reached by the current walk
  std::vector<FlowKey> component_;
  std::vector<const std::vector<LinkId>*> component_routes_;
  std::vector<double> component_rates_;
  std::vector<LinkId> walk_;
  std::uint64_t flows_resolved_ = 0;
};

}  // namespace hermes::network
