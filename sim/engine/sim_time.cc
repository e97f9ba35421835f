// Printing a simulated time in test failures, kept out of the header so that it needs no <ostream>.
#include "sim/engine/sim_time.h"

#include <ostream>

namespace hermes::engine {

void PrintTo(SimTime t, std::ostream* out) { *out << t.ns() << " ns"; }

}  // namespace hermes::engine
