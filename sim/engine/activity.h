// One interface for everything that takes simulated time on a resource (SimGrid's Action): a
// resource starts an activity of some cost and calls on_end when the activity ends in simulated
// time, with how it ended. A node's compute (cost: FLOPs and steps) and the network (cost: bytes
// between two hosts) both implement it, so a protocol chains work the same way whatever resource
// it runs on, and the resource, not its caller, schedules the end.
//
// An activity ends once, as done or as failed (SimGrid's Activity::State FINISHED / FAILED). It
// fails when the resource it runs on is turned off (the node or host goes: NodeCompute::turn_off,
// FlowNetwork::turn_off) while it runs or waits, or when it is started on a resource that is off.
// A failed activity delivers nothing (no result, no bytes); its caller hears of it through the
// outcome and drops what depended on it, rather than checking afterwards whether the resource
// went meanwhile.
#pragma once

#include <cstdint>
#include <functional>

namespace hermes::engine {

// Names one activity of one resource: 1, 2, 3... in start order.
using ActivityId = std::uint64_t;

// How an activity ended.
enum class ActivityOutcome : std::uint8_t {
  kDone,    // its whole cost was served: its result is there
  kFailed,  // its resource was turned off before it ended, or was off when it started
};

template <typename Cost>
class ActivityResource {
 public:
  using OnEnd = std::function<void(ActivityOutcome)>;

  virtual ~ActivityResource() = default;

  // Starts an activity costing `cost`. on_end runs once, from a simulator event, never from inside
  // start or from inside the call that turns the resource off:
  //   - kDone when the activity ends in simulated time; activities ending at the same instant end
  //     in start order;
  //   - kFailed at the instant the resource is turned off (from an event scheduled then, after
  //     the events already queued for that instant), for every activity not ended by then, in
  //     start order; an activity started while the resource is off fails at its start instant.
  virtual ActivityId start(const Cost& cost, OnEnd on_end) = 0;
};

}  // namespace hermes::engine
