// SelSync (Tyagi and Swany, IEEE CLUSTER 2023, arXiv 2307.07950; docs/selsync.md): each worker
// takes one step, votes with the relative change of its gradient norm (policies/selsync_rule.h),
// and all the workers either average their models at the PS (some worker voted to sync) or go
// on from their own (nobody did).
// Registered as "selsync" (sim/scenario/protocols.def; its descriptor and parameters in
// sim/scenario/protocol_selsync.cc); run_selsync (factories.h) runs it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/policies/selsync_rule.h"
#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

// The rule's parameters of a run of protocol selsync (its keys delta, smoothing, window_size).
SelSyncParams selsync_params(const scenario::RunSpec& run);

// A SelSync run of `run` on `scenario`, with the run's parameters or with `params` (tests: any
// run, whatever its protocol). `params` out of their ranges (SelSyncParams):
// std::invalid_argument, before anything runs. Whatever `run`'s update_unit, an iteration is one
// mini-batch (the paper's step).
std::unique_ptr<ProtocolRun> make_selsync(const scenario::Scenario& scenario,
                                          const scenario::RunSpec& run,
                                          const data::TrainTestSplit& data);
std::unique_ptr<ProtocolRun> make_selsync(const scenario::Scenario& scenario,
                                          const scenario::RunSpec& run,
                                          const data::TrainTestSplit& data,
                                          const SelSyncParams& params);

// One worker step as the rule saw it, and what the workers did after it.
struct SelSyncStepRecord {
  int worker = 0;
  std::int64_t step = 0;     // the worker's steps so far (1-based; its rule's count)
  double gradient_norm = 0;  // L2 norm of the step's gradient (the sum of its mini-batch gradients)
  SelSyncStep rule;          // the rule's reading, and the worker's vote (rule.sync)
  bool synced = false;       // the step ended with an averaging at the PS
  bool counted = true;       // false: the worker had left the step (its vote came too late)
};

// From now on, `run` (made by make_selsync; else std::invalid_argument) appends every worker step
// to `sink` (not owned; null stops). For tests and timelines: a long run's steps are many.
void record_selsync_steps(ProtocolRun& run, std::vector<SelSyncStepRecord>* sink);

}  // namespace hermes::protocols
