// Flow-level network simulation (SimGrid's model): a transfer is a flow that first waits its route
// latency without using bandwidth, then moves its bytes at a rate set by max-min fair sharing of
// every directed link it crosses. Rates are recomputed whenever a flow becomes active or finishes,
// and when a link fault changes a link's capacity while flows move; between recomputations rates
// are constant, so remaining bytes advance exactly and the next completion is known: it is one
// simulator event, rescheduled as rates change. A flow crossing a lost link (capacity 0) gets
// rate 0 and no completion until the link comes back; it then resumes where it stopped.
// A host can be turned off (its node goes) and on again: every flow with it at one end then ends
// as failed (engine/activity.h), and the bandwidth those flows held goes to the others.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/engine/activity.h"
#include "sim/engine/simulator.h"
#include "sim/network/incremental_max_min.h"
#include "sim/network/link_faults.h"
#include "sim/network/topology.h"

namespace hermes::network {

using FlowId = engine::ActivityId;  // 1, 2, 3... in start order

// A flow's cost: `bytes` (finite, >= 0) from src to dst.
struct Transfer {
  HostIndex src = 0;
  HostIndex dst = 0;
  double bytes = 0;
};

// Time a flow alone on its route takes, with FlowNetwork's rounding: latency plus bytes over the
// bottleneck, rounded up to the next ns (0 for src == dst or 0 bytes, beyond the latency).
engine::SimTime lone_transfer_time(const Route& route, double bytes);

class FlowNetwork final : public engine::ActivityResource<Transfer> {
 public:
  // `faults`: the links' degradations and losses over the run (link_faults.h); throws
  // std::invalid_argument for a fault LinkFaultSchedule refuses. `update`: how rates are
  // re-solved after a change; both give the same rates to the last bit (incremental_max_min.h).
  FlowNetwork(engine::Simulator& sim, Topology topology, const std::vector<LinkFault>& faults = {},
              MaxMinUpdate update = MaxMinUpdate::kIncremental);
  // Cancels this network's pending simulator events (they refer to it).
  ~FlowNetwork();
  FlowNetwork(const FlowNetwork&) = delete;
  FlowNetwork& operator=(const FlowNetwork&) = delete;

  // Starts sending the transfer's bytes from src to dst; on_end(kDone) runs from a simulator
  // event when the last byte arrives, never from inside start. The latency phase is the route's
  // latency plus that added by the faults in force now on its links. src == dst (loopback) and
  // 0-byte flows finish as soon as their latency has elapsed (0 for loopback) and take no
  // bandwidth. Flows finishing in the same ns complete together, callbacks in start order. A flow
  // with a host that is off at one end moves nothing and fails at once (on_end(kFailed) from an
  // event now). Throws std::out_of_range / std::invalid_argument / std::logic_error (no route) on
  // misuse.
  FlowId start(const Transfer& transfer, OnEnd on_end) override;

  // Host `host` goes now (its node is gone): every flow from or to it fails (their bytes are not
  // delivered, the bandwidth they held goes to the other flows; on_end(kFailed) runs for each from
  // one simulator event scheduled now, in start order), and so do flows started with it at one
  // end until turn_on(host). Returns how many flows failed. Turning off a host that is off is a
  // std::logic_error.
  std::size_t turn_off(HostIndex host);
  // Host `host` is back now: flows from or to it start from now on (std::logic_error if it is on).
  void turn_on(HostIndex host);
  bool host_on(HostIndex host) const { return host_on_.at(host); }

  // Current rate, bytes/s: 0 while in the latency phase, once finished, or for unknown ids.
  double rate(FlowId id) const;
  // Bytes still to move as of now(); 0 once finished or for unknown ids.
  double remaining_bytes(FlowId id) const;
  bool in_flight(FlowId id) const { return slot_of_.contains(id); }

  std::size_t active_flows() const { return active_.size(); }      // moving bytes now
  std::size_t flows_in_flight() const { return slot_of_.size(); }  // started, not finished
  std::uint64_t flows_completed() const { return completed_; }
  std::uint64_t recomputations() const { return recomputations_; }
  // Flows whose rate the recomputations solved again, summed over them (the solver's work).
  std::uint64_t flows_resolved() const { return solver_.flows_resolved(); }

  // Bytes of finished flows (exact sums of their sizes). Loopback flows cross no link and are
  // not counted here nor per host.
  double bytes_delivered() const { return delivered_; }
  // bytes_delivered() plus the progress of flows still moving, as of now().
  double bytes_transferred() const;
  double host_bytes_sent(HostIndex h) const { return sent_.at(h); }
  double host_bytes_received(HostIndex h) const { return received_.at(h); }

  const Topology& topology() const { return topology_; }

 private:
  enum class Phase : std::uint8_t { kLatency, kActive, kFree };
  struct Flow {
    FlowId id = 0;
    HostIndex src = 0;
    HostIndex dst = 0;
    Phase phase = Phase::kFree;
    double bytes = 0;
    double remaining = 0;  // as of last_advance_
    double rate = 0;
    engine::SimTime finish = engine::kTimeInfinity;  // predicted at the last recomputation
    const Route* route = nullptr;
    engine::EventId activation;
    OnEnd on_end;
  };

  void activate(std::uint32_t slot);
  void request_update();
  // Runs `failed` with kFailed, in their order, from one simulator event scheduled now.
  void fail_later(std::vector<OnEnd> failed);
  // Advances bytes to now, retires finished flows, recomputes rates, reschedules the completion
  // event, then runs the finished flows' callbacks (state is consistent when they run).
  void update();
  void advance(engine::SimTime now);
  void retire_finished(engine::SimTime now, std::vector<std::uint32_t>& done);
  // Returns true if some flow is left with nothing to send (finish == now).
  bool recompute(engine::SimTime now);
  // Sets the solver's capacities to those in force at `now` (the fault changes up to now).
  void apply_capacity_changes(engine::SimTime now);
  // The next capacity change after the last one applied; kTimeInfinity if none is left.
  engine::SimTime next_capacity_change() const;
  double remaining_now(const Flow& f) const;

  engine::Simulator& sim_;
  Topology topology_;
  IncrementalMaxMin solver_;  // keyed by slot; holds the active flows that move bytes
  LinkFaultSchedule faults_;
  std::size_t next_change_ = 0;  // index of the first capacity change not yet applied

  std::vector<Flow> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::unordered_map<FlowId, std::uint32_t> slot_of_;
  std::vector<std::uint32_t> active_;  // slots in activation order
  FlowId next_id_ = 1;

  engine::SimTime last_advance_{};
  engine::EventId completion_event_;
  engine::SimTime completion_time_ = engine::kTimeInfinity;
  engine::EventId update_event_;

  std::uint64_t recomputations_ = 0;
  std::uint64_t completed_ = 0;
  double delivered_ = 0;
  std::vector<double> sent_;
  std::vector<double> received_;
  std::vector<bool> host_on_;  // per host: false from turn_off to turn_on
};

}  // namespace hermes::network
