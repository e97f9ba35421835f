#include "sim/network/incremental_max_min.h"

#include <stdexcept>
#include <string>

namespace hermes::network {

IncrementalMaxMin::IncrementalMaxMin(std::vector<double> capacity, MaxMinUpdate update)
    : update_(update),
      solver_(std::move(capacity)),
      on_link_(solver_.link_count()),
      link_seen_(solver_.link_count(), 0) {}

void IncrementalMaxMin::mark_dirty(LinkId link) {
  if (link_seen_[link]) return;
  link_seen_[link] = 1;
  dirty_.push_back(link);
}

void IncrementalMaxMin::set_capacity(LinkId link, double capacity) {
  solver_.set_capacity(link, capacity);
  mark_dirty(link);
}

void IncrementalMaxMin::add(FlowKey key, const std::vector<LinkId>* route) {
  if (contains(key)) {
    throw std::logic_error("IncrementalMaxMin: flow " + std::to_string(key) + " added twice");
  }
  if (route == nullptr || route->empty()) {
    throw std::logic_error("IncrementalMaxMin: flow " + std::to_string(key) + " has no links");
  }
  if (key >= routes_.size()) {
    routes_.resize(key + 1, nullptr);
    rates_.resize(key + 1, 0.0);
    position_.resize(key + 1);
    flow_seen_.resize(key + 1, 0);
  }
  routes_[key] = route;
  rates_[key] = 0;
  position_[key].clear();
  for (const LinkId l : *route) {
    position_[key].push_back(static_cast<std::uint32_t>(on_link_.at(l).size()));
    on_link_[l].push_back(key);
    mark_dirty(l);
  }
  ++flows_;
}

void IncrementalMaxMin::remove(FlowKey key) {
  if (!contains(key)) {
    throw std::logic_error("IncrementalMaxMin: flow " + std::to_string(key) + " is not present");
  }
  const std::vector<LinkId>& route = *routes_[key];
  for (std::size_t i = 0; i < route.size(); ++i) {
    const LinkId l = route[i];
    std::vector<FlowKey>& list = on_link_[l];
    const std::uint32_t at = position_[key][i];
    const FlowKey moved = list.back();
    list[at] = moved;
    list.pop_back();
    if (moved != key) {
      // The moved flow's entry for link l: find l in its (short) route.
      const std::vector<LinkId>& moved_route = *routes_[moved];
      for (std::size_t j = 0; j < moved_route.size(); ++j) {
        if (moved_route[j] == l) position_[moved][j] = at;
      }
    }
    mark_dirty(l);
  }
  routes_[key] = nullptr;
  rates_[key] = 0;
  --flows_;
}

// The flows reachable from the dirty links through shared links, each once; leaves link_seen_
// set on every link reached (cleared by solve()).
void IncrementalMaxMin::collect_component_flows() {
  component_.clear();
  walk_.assign(dirty_.begin(), dirty_.end());
  for (std::size_t i = 0; i < walk_.size(); ++i) {
    for (const FlowKey f : on_link_[walk_[i]]) {
      if (flow_seen_[f]) continue;
      flow_seen_[f] = 1;
      component_.push_back(f);
      for (const LinkId m : *routes_[f]) {
        if (!link_seen_[m]) {
          link_seen_[m] = 1;
          walk_.push_back(m);
        }
      }
    }
  }
}

const std::vector<IncrementalMaxMin::FlowKey>& IncrementalMaxMin::solve() {
  if (update_ == MaxMinUpdate::kFull) {
    component_.clear();
    for (FlowKey f = 0; f < routes_.size(); ++f) {
      if (routes_[f] != nullptr) component_.push_back(f);
    }
    walk_.assign(dirty_.begin(), dirty_.end());
  } else {
    collect_component_flows();
  }
  component_routes_.clear();
  for (const FlowKey f : component_) component_routes_.push_back(routes_[f]);
  solver_.solve(component_routes_, component_rates_);
  for (std::size_t i = 0; i < component_.size(); ++i) {
    rates_[component_[i]] = component_rates_[i];
    flow_seen_[component_[i]] = 0;
  }
  for (const LinkId l : walk_) link_seen_[l] = 0;
  dirty_.clear();
  flows_resolved_ += component_.size();
  return component_;
}

}  // namespace hermes::network
