// One interface for everything that takes simulated time on a resource (SimGrid's Action): a
// resource starts an activity of some cost and calls on_done when the activity ends in simulated
// time. A node's compute (cost: FLOPs and steps) and the network (cost: bytes between two hosts)
// both implement it, so a protocol chains work the same way whatever resource it runs on, and the
// resource, not its caller, schedules the end.
#pragma once

#include <cstdint>
#include <functional>

namespace hermes::engine {

// Names one activity of one resource: 1, 2, 3... in start order.
using ActivityId = std::uint64_t;

template <typename Cost>
class ActivityResource {
 public:
  using OnDone = std::function<void()>;

  virtual ~ActivityResource() = default;

  // Starts an activity costing `cost`. on_done runs from a simulator event when the activity ends,
  // never from inside start; activities ending at the same instant finish in start order.
  virtual ActivityId start(const Cost& cost, OnDone on_done) = 0;
};

}  // namespace hermes::engine
