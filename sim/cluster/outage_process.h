// Outages drawn from a model (scenarios/README.md, "availability"): a node fails at a constant
// rate (exponential times between failures, the memoryless model behind an MTBF or Azure's
// per-hour eviction probability) and stays gone for a length drawn from a distribution. Pure
// arithmetic on the node's own random stream: the same stream and model give the same outages
// on every platform (base/random.h, base/portable_math.h).
#pragma once

#include <cstdint>
#include <vector>

#include "base/random.h"
#include "sim/engine/sim_time.h"

namespace hermes::cluster {

enum class OutageLength { kFixed, kExponential, kLognormal };

struct OutageModel {
  double failures_per_s = 0;  // > 0: the rate while the node is up
  OutageLength length = OutageLength::kExponential;
  double mean_s = 0;  // > 0: mean outage length
  double cv = 1;      // lognormal: coefficient of variation of the length (> 0)
};

// The rate of a constant-rate process with probability `p` (in (0, 1)) of a failure within an
// hour: -ln(1 - p) / 3600 per second (Azure states Spot eviction rates this way).
double rate_from_hourly_probability(double p);

struct OutageInterval {
  engine::SimTime start;  // the node goes
  engine::SimTime end;    // it is back (> start)
};

// The node's outages that start before `horizon`, in order and disjoint: up time ~ Exp(rate),
// then an outage of the model's length (at least 1 ns), then up again. Stops with more than
// `max_count` outages (std::length_error: the caller reports the model as unreasonable).
std::vector<OutageInterval> draw_outages(const OutageModel& model, RandomStream& rng,
                                         engine::SimTime horizon, std::size_t max_count);

}  // namespace hermes::cluster
