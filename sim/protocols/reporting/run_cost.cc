#include "sim/protocols/reporting/run_cost.h"

#include <stdexcept>
#include <string>

namespace hermes::protocols {

double run_cost_usd(const scenario::Scenario& sc, const RunResult& result) {
  if (result.billed_time.size() != sc.nodes.size()) {
    throw std::logic_error("run_cost_usd: " + std::to_string(result.billed_time.size()) +
                           " billed times for " + std::to_string(sc.nodes.size()) + " nodes");
  }
  double usd = 0;
  for (std::size_t h = 0; h < sc.nodes.size(); ++h) {
    usd += engine::to_seconds(result.billed_time[h]) / 3600.0 * sc.nodes[h].price_per_hour;
  }
  return usd;
}

}  // namespace hermes::protocols
