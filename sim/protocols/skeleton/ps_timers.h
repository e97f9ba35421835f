// The PS process's timers (a protocol's ProtocolRun::schedule_in, the checkpoints'): they live in
// its memory, so its failure cancels every pending one (cancel_all). They are no resource
// activities: nothing else would end them. Fired ones are pruned as new ones come.
#pragma once

#include <utility>
#include <vector>

#include "sim/engine/simulator.h"

namespace hermes::protocols {

class PsTimers {
 public:
  explicit PsTimers(engine::Simulator& sim) : sim_(sim) {}
  engine::EventId schedule_in(engine::SimTime delay, engine::Simulator::Callback f) {
    std::erase_if(pending_, [this](engine::EventId id) { return !sim_.is_pending(id); });
    const engine::EventId id = sim_.schedule_in(delay, std::move(f));
    pending_.push_back(id);
    return id;
  }
  void cancel_all() {
    for (const engine::EventId id : pending_) sim_.cancel(id);
    pending_.clear();
  }

 private:
  engine::Simulator& sim_;
  std::vector<engine::EventId> pending_;
};

}  // namespace hermes::protocols
