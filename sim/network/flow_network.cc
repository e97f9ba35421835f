#include "sim/network/flow_network.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hermes::network {
namespace {

// A flow with at most this fraction of its size left is done: floating-point noise from many
// rate changes must not leave a sliver that costs another event.
constexpr double kDoneFraction = 1e-9;
// Durations within this relative distance above an integer ns count as that ns, so that e.g.
// 1e6 B / 1.25e8 B/s = 8 ms is not pushed to 8 ms + 1 ns by the last bit of a division.
constexpr double kTimeSlack = 1e-12;

std::vector<double> link_capacities(const Topology& t) {
  std::vector<double> c(t.link_count());
  for (LinkId l = 0; l < c.size(); ++l) c[l] = t.link(l).bandwidth;
  return c;
}

// ns to move `bytes` at `rate`, rounded up (at least 1 ns); kTimeInfinity if it overflows or
// if rate is 0 (a flow on a lost link moves only once a recomputation gives it a rate again).
engine::SimTime transfer_ns(double bytes, double rate) {
  if (rate <= 0) return engine::kTimeInfinity;
  const double ns = bytes / rate * 1e9 * (1.0 - kTimeSlack);
  if (!(ns < 9e18)) return engine::kTimeInfinity;
  return std::max(engine::kNanosecond,
                  engine::SimTime::nanoseconds(static_cast<std::int64_t>(std::ceil(ns))));
}

}  // namespace

engine::SimTime lone_transfer_time(const Route& route, double bytes) {
  if (route.links.empty() || bytes <= 0) return route.latency;
  return route.latency + transfer_ns(bytes, route.bottleneck);
}

FlowNetwork::FlowNetwork(engine::Simulator& sim, Topology topology,
                         const std::vector<LinkFault>& faults, MaxMinUpdate update)
    : sim_(sim),
      topology_(std::move(topology)),
      solver_(link_capacities(topology_), update),
      faults_(faults, topology_),
      last_advance_(sim.now()),
      sent_(topology_.host_count(), 0.0),
      received_(topology_.host_count(), 0.0),
      host_on_(topology_.host_count(), true) {}

FlowNetwork::~FlowNetwork() {
  sim_.cancel(completion_event_);
  sim_.cancel(update_event_);
  for (const Flow& f : slots_) {
    if (f.phase == Phase::kLatency) sim_.cancel(f.activation);
  }
}

FlowId FlowNetwork::start(const Transfer& transfer, OnEnd on_end) {
  const auto [src, dst, bytes] = transfer;
  if (!(std::isfinite(bytes) && bytes >= 0)) {
    throw std::invalid_argument("flow size must be finite and >= 0 bytes, got " +
                                std::to_string(bytes));
  }
  const Route& route = topology_.route(src, dst);  // throws on bad index or no route
  if (!host_on_[src] || !host_on_[dst]) {
    std::vector<OnEnd> failed;
    failed.push_back(std::move(on_end));
    fail_later(std::move(failed));
    return next_id_++;
  }
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  const FlowId id = next_id_++;
  Flow& f = slots_[slot];
  f = Flow{};
  f.id = id;
  f.src = src;
  f.dst = dst;
  f.phase = Phase::kLatency;
  f.bytes = bytes;
  f.remaining = bytes;
  f.route = &route;
  f.on_end = std::move(on_end);
  f.activation = sim_.schedule_in(route.latency + faults_.added_latency(route, sim_.now()),
                                  [this, slot] { activate(slot); });
  slot_of_.emplace(id, slot);
  return id;
}

void FlowNetwork::activate(std::uint32_t slot) {
  Flow& f = slots_[slot];
  f.phase = Phase::kActive;
  f.activation = {};
  f.rate = 0;
  f.finish = engine::kTimeInfinity;
  active_.push_back(slot);
  request_update();
}

// Flows activated at the same instant (a BSP round's pushes) share one recomputation: the update
// event is scheduled at now, after every event already queued for now.
void FlowNetwork::request_update() {
  if (sim_.is_pending(update_event_)) return;
  update_event_ = sim_.schedule_in(engine::SimTime{}, [this] {
    update_event_ = {};
    update();
  });
}

void FlowNetwork::advance(engine::SimTime now) {
  const double dt = engine::to_seconds(now - last_advance_);
  if (dt > 0) {
    for (const std::uint32_t s : active_) {
      Flow& f = slots_[s];
      f.remaining = std::max(0.0, f.remaining - f.rate * dt);
    }
  }
  last_advance_ = now;
}

void FlowNetwork::retire_finished(engine::SimTime now, std::vector<std::uint32_t>& done) {
  std::size_t keep = 0;
  for (const std::uint32_t s : active_) {
    if (slots_[s].finish <= now) {
      if (solver_.contains(s)) solver_.remove(s);
      done.push_back(s);
    } else {
      active_[keep++] = s;
    }
  }
  active_.resize(keep);
}

void FlowNetwork::apply_capacity_changes(engine::SimTime now) {
  const auto& changes = faults_.capacity_changes();
  for (; next_change_ < changes.size() && changes[next_change_].at <= now; ++next_change_) {
    const auto& c = changes[next_change_];
    // From the link's own bandwidth each time (not the last capacity scaled): a link is back at
    // exactly its bandwidth when its fault ends.
    solver_.set_capacity(c.link, topology_.link(c.link).bandwidth * c.factor);
  }
}

engine::SimTime FlowNetwork::next_capacity_change() const {
  const auto& changes = faults_.capacity_changes();
  return next_change_ < changes.size() ? changes[next_change_].at : engine::kTimeInfinity;
}

bool FlowNetwork::recompute(engine::SimTime now) {
  ++recomputations_;
  apply_capacity_changes(now);
  bool finishes_now = false;
  for (const std::uint32_t s : active_) {
    Flow& f = slots_[s];
    if (f.route->links.empty() || f.remaining <= kDoneFraction * f.bytes) {
      if (solver_.contains(s)) solver_.remove(s);
      f.rate = 0;
      f.finish = now;
      finishes_now = true;
    } else if (!solver_.contains(s)) {
      solver_.add(s, &f.route->links);
    }
  }
  solver_.solve();
  // Every moving flow's end is predicted again from its bytes left, its rate changed or not.
  for (const std::uint32_t s : active_) {
    if (!solver_.contains(s)) continue;
    Flow& f = slots_[s];
    f.rate = solver_.rate(s);
    const engine::SimTime dt = transfer_ns(f.remaining, f.rate);
    // Saturating: a rate slowed by a fault may put the end beyond the clock's range.
    f.finish = dt > engine::kTimeInfinity - now ? engine::kTimeInfinity : now + dt;
  }
  return finishes_now;
}

void FlowNetwork::update() {
  sim_.cancel(update_event_);
  update_event_ = {};
  const engine::SimTime now = sim_.now();
  advance(now);

  std::vector<std::uint32_t> done;
  retire_finished(now, done);
  while (recompute(now)) retire_finished(now, done);

  engine::SimTime next = engine::kTimeInfinity;
  for (const std::uint32_t s : active_) next = std::min(next, slots_[s].finish);
  // While flows move, a capacity change is an event of its own (their rates change there); while
  // none moves, it waits to be applied by the next recomputation, so a fault that no flow meets
  // schedules nothing.
  if (!active_.empty()) next = std::min(next, next_capacity_change());
  if (next != completion_time_ || !sim_.is_pending(completion_event_)) {
    sim_.cancel(completion_event_);
    completion_event_ = {};
    completion_time_ = next;
    if (next != engine::kTimeInfinity) {
      completion_event_ = sim_.schedule_at(next, [this] {
        completion_event_ = {};
        update();
      });
    }
  }

  // Start order among flows finishing together, whatever order they were retired in.
  std::sort(done.begin(), done.end(),
            [this](std::uint32_t a, std::uint32_t b) { return slots_[a].id < slots_[b].id; });
  std::vector<OnEnd> callbacks;
  callbacks.reserve(done.size());
  for (const std::uint32_t s : done) {
    Flow& f = slots_[s];
    if (!f.route->links.empty()) {
      delivered_ += f.bytes;
      sent_[f.src] += f.bytes;
      received_[f.dst] += f.bytes;
    }
    ++completed_;
    callbacks.push_back(std::move(f.on_end));
    slot_of_.erase(f.id);
    f = Flow{};
    free_slots_.push_back(s);
  }
  // Callbacks may start new flows (reusing the slots freed above): they run last.
  for (auto& cb : callbacks) {
    if (cb) cb(engine::ActivityOutcome::kDone);
  }
}

std::size_t FlowNetwork::turn_off(HostIndex host) {
  if (!host_on_.at(host)) {
    throw std::logic_error("FlowNetwork: host " + std::to_string(host) + " turned off twice");
  }
  host_on_[host] = false;
  // Bytes of the flows that stay are advanced to now before the set of flows changes.
  advance(sim_.now());
  std::vector<std::uint32_t> gone;
  for (std::uint32_t s = 0; s < slots_.size(); ++s) {
    const Flow& f = slots_[s];
    if (f.phase != Phase::kFree && (f.src == host || f.dst == host)) gone.push_back(s);
  }
  // Start order, whatever slots the flows reused.
  std::sort(gone.begin(), gone.end(),
            [this](std::uint32_t a, std::uint32_t b) { return slots_[a].id < slots_[b].id; });
  std::vector<OnEnd> failed;
  failed.reserve(gone.size());
  for (const std::uint32_t s : gone) {
    Flow& f = slots_[s];
    if (f.phase == Phase::kLatency) sim_.cancel(f.activation);
    if (solver_.contains(s)) solver_.remove(s);
    std::erase(active_, s);
    slot_of_.erase(f.id);
    failed.push_back(std::move(f.on_end));
    f = Flow{};
    free_slots_.push_back(s);
  }
  if (!gone.empty()) request_update();
  fail_later(std::move(failed));
  return gone.size();
}

void FlowNetwork::turn_on(HostIndex host) {
  if (host_on_.at(host)) {
    throw std::logic_error("FlowNetwork: host " + std::to_string(host) + " turned on while on");
  }
  host_on_[host] = true;
}

void FlowNetwork::fail_later(std::vector<OnEnd> failed) {
  if (failed.empty()) return;
  // The event holds the callbacks alone, not this network: it may run after the network is gone.
  sim_.schedule_in(engine::SimTime{}, [failed = std::move(failed)] {
    for (const OnEnd& f : failed) {
      if (f) f(engine::ActivityOutcome::kFailed);
    }
  });
}

double FlowNetwork::remaining_now(const Flow& f) const {
  if (f.phase == Phase::kLatency) return f.bytes;
  const double dt = engine::to_seconds(sim_.now() - last_advance_);
  return std::max(0.0, f.remaining - f.rate * dt);
}

double FlowNetwork::rate(FlowId id) const {
  const auto it = slot_of_.find(id);
  if (it == slot_of_.end()) return 0;
  const Flow& f = slots_[it->second];
  return f.phase == Phase::kActive ? f.rate : 0;
}

double FlowNetwork::remaining_bytes(FlowId id) const {
  const auto it = slot_of_.find(id);
  return it == slot_of_.end() ? 0 : remaining_now(slots_[it->second]);
}

double FlowNetwork::bytes_transferred() const {
  double total = delivered_;
  for (const std::uint32_t s : active_) {
    const Flow& f = slots_[s];
    if (!f.route->links.empty()) total += f.bytes - remaining_now(f);
  }
  return total;
}

}  // namespace hermes::network
