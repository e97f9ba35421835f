// The event core: a simulated clock and a queue of timed callbacks. It knows nothing of models.
//
// Ordering is deterministic: events fire by time, and events at the same time fire in the order
// they were scheduled (insertion order), so a run never depends on heap internals or addresses.
// Cancellation is lazy: a cancelled event stays in the heap and is skipped when it surfaces.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/engine/sim_time.h"

namespace hermes::engine {

// Handle of a scheduled event. Default-constructed handles refer to no event.
struct EventId {
  std::uint32_t slot = UINT32_MAX;
  std::uint64_t seq = 0;
  bool valid() const { return slot != UINT32_MAX; }
};

class Simulator {
 public:
  using Callback = std::function<void()>;

  Simulator() = default;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  SimTime now() const { return now_; }

  // Schedules cb at absolute time t (t >= now(), else std::logic_error).
  EventId schedule_at(SimTime t, Callback cb);
  // Schedules cb after delay dt >= 0.
  EventId schedule_in(SimTime dt, Callback cb) { return schedule_at(now_ + dt, std::move(cb)); }
  // Cancels a pending event. Returns false if it already fired, was cancelled, or is invalid.
  bool cancel(EventId id);
  bool is_pending(EventId id) const;

  // Runs the next live event. Returns false when the queue is empty.
  bool step();
  // Runs until the queue is empty or stop() is called from a callback.
  void run();
  // Runs every event with time <= t, then sets the clock to t (if the run was not stopped).
  void run_until(SimTime t);
  // Makes run()/run_until() return after the current event.
  void stop() { stopped_ = true; }

  std::uint64_t events_processed() const { return processed_; }
  std::size_t pending() const { return live_; }
  // Time of the next live event, or kTimeInfinity.
  SimTime next_event_time();

 private:
  // A heap entry is 16 bytes: the time and one key that orders ties by insertion (the sequence
  // number in the high bits) and names the slot (low bits). Small entries and a 4-ary heap keep
  // the queue in cache: see `hermes-sim bench engine`.
  static constexpr int kSlotBits = 24;  // up to 16.7 M pending events
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  struct Entry {
    SimTime time;
    std::uint64_t key;  // seq << kSlotBits | slot
    std::uint32_t slot() const { return static_cast<std::uint32_t>(key & kSlotMask); }
    std::uint64_t seq() const { return key >> kSlotBits; }
  };
  struct Slot {
    Callback cb;
    std::uint64_t seq = 0;
    bool live = false;
  };
  static bool before(const Entry& a, const Entry& b) {
    return a.time != b.time ? a.time < b.time : a.key < b.key;
  }
  void heap_push(Entry e);
  void heap_pop();
  void drop_dead_top();

  SimTime now_{};
  std::uint64_t next_seq_ = 1;
  std::uint64_t processed_ = 0;
  std::size_t live_ = 0;
  bool stopped_ = false;
  std::vector<Entry> heap_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
};

}  // namespace hermes::engine
