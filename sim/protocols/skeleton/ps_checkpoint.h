// The PS's latest checkpoint (docs/churn.md, "A PS outage"): the global model and the number of
// updates applied to it. A PS back from an outage restores it; the updates applied since are lost.
// In a run with PS outages, the PS (ProtocolRun, protocol_run_ps_outage.cc) saves one (with a
// protocol's own PS state: Hermes' G) at time 0, every availability.checkpoint_interval_s of
// simulated time while it serves (counted from its start or its latest return), and at its
// eviction notice. Without checkpoint_interval_s the only checkpoint is the initial model. A
// checkpoint takes no simulated time: the model is a few MB at most beside a disk's hundreds of
// MB/s, and the PS keeps serving while it writes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "models/nn/model.h"

namespace hermes::protocols {

class PsCheckpoint {
 public:
  bool taken() const { return taken_; }
  void save(const nn::Model& global, std::int64_t updates) {
    const auto params = global.params();
    params_.assign(params.begin(), params.end());
    updates_ = updates;
    taken_ = true;
  }
  // Puts the checkpoint's model into `global`; returns the updates applied to it. Only once
  // taken() (std::logic_error otherwise: a PS outage always has a checkpoint, the initial model).
  std::int64_t restore(nn::Model& global) const;

 private:
  std::vector<float> params_;
  std::int64_t updates_ = 0;
  bool taken_ = false;
};

}  // namespace hermes::protocols
