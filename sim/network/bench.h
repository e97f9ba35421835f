// Micro-benchmark of the flow model (wired to the CLI by the lead).
#pragma once

#include <cstddef>
#include <ostream>

namespace hermes::network {

// Star of `workers` workers (NICs cycling 100, 1000, 10000 Mbit/s; PS at 10000) running an
// ASP-like loop `rounds` times each: push `bytes` to the PS, pull `bytes` back, compute for a
// worker-specific time, repeat. Prints flows, recomputations, simulated and wall time to `out` and
// returns recomputations per wall-clock second.
double bench_flows(std::size_t workers, std::size_t rounds, double bytes, std::ostream& out);

}  // namespace hermes::network
