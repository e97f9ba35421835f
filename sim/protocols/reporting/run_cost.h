// What a run cost: each node's billed time (RunResult::billed_time: the time it was allocated)
// times the hourly price of its pricing tier (NodeSpec::price_per_hour, from the scenario's
// "prices" section), summed over the nodes. In USD, the price list's currency.
#pragma once

#include "sim/protocols/skeleton/run_result.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

// Throws std::logic_error if the run's billed times are not one per node of the scenario.
double run_cost_usd(const scenario::Scenario& scenario, const RunResult& result);

}  // namespace hermes::protocols
