#include "sim/engine/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hermes::engine {

EventId Simulator::schedule_at(SimTime t, Callback cb) {
  if (t < now_) {
    throw std::logic_error("event scheduled in the past: t=" + std::to_string(t) +
                           " ns < now=" + std::to_string(now_) + " ns");
  }
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  const std::uint64_t seq = next_seq_++;
  Slot& s = slots_[slot];
  s.cb = std::move(cb);
  s.seq = seq;
  s.live = true;
  heap_.push_back(Entry{t, seq, slot});
  std::push_heap(heap_.begin(), heap_.end(), later);
  ++live_;
  return EventId{slot, seq};
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
    const Slot& s = slots_[top.slot];
    if (s.live && s.seq == top.seq) return;
    const std::uint32_t slot = top.slot;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
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
  std::pop_heap(heap_.begin(), heap_.end(), later);
  heap_.pop_back();
  Slot& s = slots_[top.slot];
  Callback cb = std::move(s.cb);
  s.cb = nullptr;
  s.live = false;
  --live_;
  free_slots_.push_back(top.slot);
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
