#include "sim/engine/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hermes::engine {

EventId Simulator::schedule_at(SimTime t, Callback cb) {
  if (t < now_) {
    throw std::logic_error("event scheduled in the past: t=" + std::to_string(t.ns()) +
                           " ns < now=" + std::to_string(now_.ns()) + " ns");
  }
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    if (slots_.size() > kSlotMask) {
      throw std::length_error("more than 16.7 million pending events");
    }
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  const std::uint64_t seq = next_seq_++;
  Slot& s = slots_[slot];
  s.cb = std::move(cb);
  s.seq = seq;
  s.live = true;
  heap_push(Entry{t, (seq << kSlotBits) | slot});
  ++live_;
  return EventId{slot, seq};
}

// 4-ary min-heap on (time, key): half the depth of a binary heap, and the four children of a
// node share a cache line.
void Simulator::heap_push(Entry e) {
  std::size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!before(e, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void Simulator::heap_pop() {
  const Entry last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return;
  std::size_t i = 0;
  while (true) {
    const std::size_t first = 4 * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t end = std::min(first + 4, n);
    for (std::size_t c = first + 1; c < end; ++c) {
      if (before(heap_[c], heap_[best])) best = c;
    }
    if (!before(heap_[best], last)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
}

bool Simulator::is_pending(EventId id) const {
  return id.valid() && id.slot < slots_.size() && slots_[id.slot].live &&
         slots_[id.slot].seq == id.seq;
}

bool Simulator::cancel(EventId id) {
  if (!is_pending(id)) return false;
  Slot& s = slots_[id.slot];
  s.live = false;
  s.cb = nullptr;  // release captured state now, not when the entry surfaces
  --live_;
  // The heap entry stays; its slot is recycled only when the entry is popped (drop_dead_top), so
  // a stale entry can never be confused with a new event reusing the slot (seq differs anyway).
  return true;
}

void Simulator::drop_dead_top() {
  while (!heap_.empty()) {
    const Entry& top = heap_.front();
    const std::uint32_t slot = top.slot();
    const Slot& s = slots_[slot];
    if (s.live && s.seq == top.seq()) return;
    heap_pop();
    if (!slots_[slot].live) free_slots_.push_back(slot);
  }
}

SimTime Simulator::next_event_time() {
  drop_dead_top();
  return heap_.empty() ? kTimeInfinity : heap_.front().time;
}

bool Simulator::step() {
  drop_dead_top();
  if (heap_.empty()) return false;
  const Entry top = heap_.front();
  heap_pop();
  Slot& s = slots_[top.slot()];
  Callback cb = std::move(s.cb);
  s.cb = nullptr;
  s.live = false;
  --live_;
  free_slots_.push_back(top.slot());
  now_ = top.time;
  ++processed_;
  cb();
  return true;
}

void Simulator::run() {
  stopped_ = false;
  while (!stopped_ && step()) {
  }
}

void Simulator::run_until(SimTime t) {
  stopped_ = false;
  while (!stopped_ && next_event_time() <= t) step();
  if (!stopped_ && t > now_) now_ = t;
}

}  // namespace hermes::engine
