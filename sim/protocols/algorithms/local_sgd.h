// Local SGD / FedAvg with periodic averaging (docs/local_sgd.md): each round a fraction of the
// available workers pulls the global model, takes H local mini-batch steps and pushes its change;
// the PS averages the changes and applies the mean, plainly (McMahan et al. 2017, Lin et al.
// 2020) or as DiLoCo's outer gradient with Nesterov momentum and an outer learning rate
// (Douillard et al. 2023). The PS-side math is sim/policies/local_sgd_rule.h.
// Registered as "local_sgd" (sim/scenario/protocols.def; its descriptor and parameters in
// sim/scenario/protocol_local_sgd.cc); run_local_sgd (factories.h) runs it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/policies/local_sgd_rule.h"
#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

// The parameters of a run of protocol local_sgd (its keys local_steps, participation, outer_lr,
// outer_momentum).
LocalSgdParams local_sgd_params(const scenario::RunSpec& run);

// A local SGD run of `run` on `scenario`, with the run's parameters or with `params` (tests: any
// run, whatever its protocol). `params` out of their ranges: std::invalid_argument, before
// anything runs. Whatever `run`'s update_unit, an iteration is H = local_steps mini-batches.
std::unique_ptr<ProtocolRun> make_local_sgd(const scenario::Scenario& scenario,
                                            const scenario::RunSpec& run,
                                            const data::TrainTestSplit& data);
std::unique_ptr<ProtocolRun> make_local_sgd(const scenario::Scenario& scenario,
                                            const scenario::RunSpec& run,
                                            const data::TrainTestSplit& data,
                                            const LocalSgdParams& params);

// One round as the PS saw it: for tests, which check the rule on the models themselves.
struct LocalSgdRoundRecord {
  std::int64_t round = 0;                  // 1-based, in the order rounds opened
  std::size_t available = 0;               // the workers it could draw from
  std::vector<int> participants;           // drawn for it, ascending
  bool applied = false;                    // it ended with an outer step (not lost with the PS)
  std::vector<int> averaged;               // whose changes the mean holds, in arrival order
  std::vector<float> before;               // the global model it started from
  std::vector<std::vector<float>> models;  // per averaged worker: the model it ended with
  std::vector<float> after;                // the global model after its outer step
  std::vector<float> momentum_after;       // the outer step's momentum after it (empty if plain)
};

// From now on, `run` (made by make_local_sgd; else std::invalid_argument) appends every round it
// opens to `sink` (not owned; null stops). Each holds model copies: for small models only.
void record_local_sgd_rounds(ProtocolRun& run, std::vector<LocalSgdRoundRecord>* sink);

}  // namespace hermes::protocols
