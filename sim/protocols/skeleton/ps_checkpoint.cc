#include "sim/protocols/skeleton/ps_checkpoint.h"

#include <stdexcept>

namespace hermes::protocols {

std::int64_t PsCheckpoint::restore(nn::Model& global) const {
  if (!taken_) throw std::logic_error("the PS restored a checkpoint it never took");
  global.set_params(params_);
  return updates_;
}

}  // namespace hermes::protocols
