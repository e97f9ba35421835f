// The hybrid protocol (docs/hybrid.md): sync groups inside, asynchrony between them. The workers
// are partitioned into groups (sim/policies/sync_groups.h); a group runs BSP's rounds among its
// members, and each group's mean update is applied by the PS when the group's last member is in,
// without waiting for the other groups, with the server step and staleness weight of ASP
// (docs/staleness.md). Registered as "hybrid" (sim/scenario/protocols.def; its descriptor and
// parameters in sim/scenario/protocol_hybrid.cc); run_hybrid (factories.h) runs it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/policies/staleness_weight.h"
#include "sim/policies/sync_groups.h"
#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

struct HybridParams {
  Grouping grouping = static_cast<Grouping>(hybrid_defaults::kGrouping);
  int sync_group_size = hybrid_defaults::kSyncGroupSize;  // read by kSize and kSpeed only
  StalenessWeight weighting = static_cast<StalenessWeight>(hybrid_defaults::kStalenessWeight);
  double exponent = staleness_defaults::kExponent;  // read by kPolynomial only
};

// The parameters of a run of protocol hybrid (its keys grouping, sync_group_size,
// staleness_weight, staleness_exponent).
HybridParams hybrid_params(const scenario::RunSpec& run);

// A hybrid run of `run` on `scenario`, with the run's parameters or with `params` (tests: any run,
// whatever its protocol). Groups that do not partition the workers: std::invalid_argument, before
// anything runs.
std::unique_ptr<ProtocolRun> make_hybrid(const scenario::Scenario& scenario,
                                         const scenario::RunSpec& run,
                                         const data::TrainTestSplit& data);
std::unique_ptr<ProtocolRun> make_hybrid(const scenario::Scenario& scenario,
                                         const scenario::RunSpec& run,
                                         const data::TrainTestSplit& data,
                                         const HybridParams& params);

// One group update as the PS applied it: for tests, which check the rule against the groups.
struct HybridApplyRecord {
  int group = 0;
  std::vector<int> averaged;  // whose updates the mean holds, in arrival order
  std::int64_t tau = 0;       // global updates applied since the oldest of their pulls
  float weight = 0;           // the server step times s(tau), divided by the count averaged
  std::int64_t version = 0;   // the global updates applied before it
};

// From now on, every group update `run` (made by make_hybrid; else std::invalid_argument)
// applies is appended to `sink` (not owned; null stops).
void record_hybrid_applies(ProtocolRun& run, std::vector<HybridApplyRecord>* sink);
// The group of each worker in `run` now (grouping by speed: after its measuring round, the groups
// it formed).
std::vector<int> hybrid_groups(const ProtocolRun& run);

}  // namespace hermes::protocols
