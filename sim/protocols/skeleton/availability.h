// The cluster's availability over one run (docs/churn.md): the outage schedule of every node (the
// scenario's outages, workers and PS alike), each node's state (up, leaving after an eviction
// notice, down), since when it is down, and its downtime and billing totals. As SimGrid's
// Resource::turn_off and state profiles do, it turns a node's compute (NodeCompute) and its host
// (FlowNetwork) off when it goes, so that the work running there ends as failed, and on when it
// is back; the rules of each outage kind (announced or not, detection, billed while gone, fresh VM)
// are its row in sim/cluster/outage_kind.h.
//
// It knows nothing of a protocol: a subscriber (ProtocolRun) hears of each node's notice, its
// going (before its node is turned off, so that the work it loses can still be counted), the
// moment the PS misses a gone worker (at an eviction's notice, detection_s after a crash, or at
// its return if that is sooner: the failure detector's view) and its return.
//
// Nodes are RunContext host indices: 0 is the PS, i + 1 is worker i.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/protocols/skeleton/run_context.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/protocols/skeleton/run_trace.h"

namespace hermes::protocols {

class AvailabilitySubscriber {
 public:
  virtual ~AvailabilitySubscriber() = default;
  // The outage is on the schedule (at the run's start, before its events are).
  virtual void on_planned(std::size_t /*node*/, const scenario::OutageSpec& /*outage*/) {}
  // An announced outage's notice: the node is leaving.
  virtual void on_notice(std::size_t node) = 0;
  // The node goes now; it is turned off right after this returns.
  virtual void on_down(std::size_t node) = 0;
  // The PS misses worker node `node` (once per outage; never the PS itself).
  virtual void on_missed(std::size_t node) = 0;
  // The node is back, turned on (a fresh process: its incarnation is new).
  virtual void on_up(std::size_t node) = 0;
  // Worker node `node` went (on_down) for good: no return is scheduled. Heard last, once its
  // state is down and the PS was told if it misses it at once.
  virtual void on_gone_for_good(std::size_t /*node*/) {}
};

class Availability {
 public:
  enum class State { kUp, kLeaving, kDown };

  // `ctx` (its simulator, nodes, network and the scenario's outages) and `trace` (the notices and
  // outage spans go there) and `subscriber` outlive it.
  Availability(RunContext& ctx, const RunTrace& trace, AvailabilitySubscriber& subscriber);

  // Puts every outage's events (notice, down, up) on the simulator's queue, in the scenario's
  // order.
  void schedule();
  // Ends the run's outages now (the run ends): the downtime of nodes still down closed, their
  // outage spans reported; later events do nothing.
  void close();

  State state(std::size_t node) const { return nodes_[node].state; }
  bool up(std::size_t node) const { return nodes_[node].state == State::kUp; }
  bool down(std::size_t node) const { return nodes_[node].state == State::kDown; }
  // The PS was told the node is gone (on_missed), for its current outage.
  bool missed(std::size_t node) const { return nodes_[node].missed; }
  // Down with no return scheduled (an outage without an end): it never takes part again.
  bool gone_for_good(std::size_t node) const {
    return down(node) && nodes_[node].outage != nullptr && !nodes_[node].outage->end;
  }
  // +1 each time the node goes: its process. Answers decided for one process are not sent to the
  // next (ProtocolRun::answer_push).
  std::uint32_t incarnation(std::size_t node) const { return nodes_[node].incarnation; }
  // A PS back from an outage counts on the workers it finds up: every other one counts as missed
  // already (its return brings no on_missed).
  void assume_missed_unless_up();

  // Totals per node up to now (or to close()).
  std::int64_t outages(std::size_t node) const { return nodes_[node].outages; }
  engine::SimTime downtime(std::size_t node) const { return nodes_[node].downtime; }
  // Of the downtime, the time the node was not allocated (a kind not billed while gone).
  engine::SimTime deallocated(std::size_t node) const { return nodes_[node].deallocated; }
  // The time the node was allocated in a run that ended at `end`.
  engine::SimTime billed(std::size_t node, engine::SimTime end) const {
    return end - nodes_[node].deallocated;
  }
  // Into a run's result that ended at `end`: each node's outages, downtime and time deallocated
  // (NodeChurn; the lost work there is the run's to count) and its billed time.
  void report(RunResult& result, engine::SimTime end) const;

 private:
  struct Node {
    State state = State::kUp;
    bool missed = false;  // the PS was told (on_missed) of its current outage
    std::uint32_t incarnation = 0;
    engine::SimTime down_since{};
    const scenario::OutageSpec* outage = nullptr;  // the latest outage that took it
    std::int64_t outages = 0;
    engine::SimTime downtime{};
    engine::SimTime deallocated{};
  };

  void notice(std::size_t node, const scenario::OutageSpec& outage);
  void go_down(std::size_t node, const scenario::OutageSpec& outage);
  void come_up(std::size_t node, const scenario::OutageSpec& outage);
  void miss(std::size_t node);
  // Adds the downtime of the node's outage up to now and reports its span.
  void close_downtime(std::size_t node);

  RunContext& ctx_;
  const RunTrace& trace_;
  AvailabilitySubscriber& subscriber_;
  std::vector<Node> nodes_;
  bool closed_ = false;
};

}  // namespace hermes::protocols
