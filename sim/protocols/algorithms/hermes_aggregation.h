// Hermes' loss-weighted aggregation at the PS (docs/paper.md, "Hermes": the PS
// aggregates each major update weighted by loss), the math of Hermes::aggregate() (hermes.cc) on
// flat parameter vectors: no time, no network, no model. The candidate's test-set loss L_i comes
// from the caller (a PS evaluation in a run, any function in a test).
//
//   reference variant (the released code): the update is S_i, the sum of every mini-batch gradient
//     worker i ever computed. The candidate is w0 - lr S_i. The first update sets G = S_i, later
//     ones G <- (G/L_prev + S_i/L_i) / (1/L_prev + 1/L_i); the global model is rebuilt from the
//     initial weights: w = w0 - lr G.
//   paper variant: the update is D_i = w_local - w_sync. The candidate is w + D_i and the new
//     global model the weighted average w <- (w/L_prev + (w + D_i)/L_i) / (1/L_prev + 1/L_i).
// L_prev is the loss of the latest global evaluation (before the first one: L_i, i.e. equal
// weights). A candidate whose loss is not finite and positive gets no weight. Without loss
// weighting both weights are 1 and no candidate is evaluated.
//
// Declared here, apart from hermes.cc, so that tests can check the rule without a run. It lives
// in algorithms/, not policies/: it is vector math on models/nn's parameter operations, which the
// policies (base/ only, below the scenario schema) do not link.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "sim/scenario/scenario.h"

namespace hermes::protocols {

class HermesAggregation {
 public:
  // The test-set loss of a candidate model given by its parameters.
  using CandidateLoss = std::function<double(std::span<const float> candidate)>;

  // The weights an aggregation gave the current model (or G) and the update, before their
  // normalisation: 1/L_prev and 1/L_i with loss weighting, else 1 and 1.
  struct Weights {
    double previous = 1;
    double update = 1;
  };

  // `w0`: the initial global model (the reference variant rebuilds from it); `lr`: the learning
  // rate the reference variant scales G and S_i with.
  HermesAggregation(scenario::HermesVariant variant, std::span<const float> w0, float lr,
                    bool loss_weighting);

  // Aggregates one major update into `global` (the PS's model, changed in place). `l_prev`: the
  // loss of the latest global evaluation, nullopt before the first. `candidate_loss` is called
  // once with the candidate, with loss weighting only.
  Weights apply(std::span<const float> update, std::optional<double> l_prev,
                std::span<float> global, const CandidateLoss& candidate_loss);

  // G, the reference variant's running aggregate: empty before the first update (and always in
  // the paper variant).
  std::span<const float> aggregate() const { return aggregate_; }

 private:
  scenario::HermesVariant variant_;
  std::vector<float> w0_;
  float lr_;
  bool loss_weighting_;
  std::vector<float> aggregate_;  // G (reference variant)
  std::vector<float> candidate_;  // the model moved by the update alone
};

}  // namespace hermes::protocols
