// The table `hermes-sim validate` prints for a scenario's own layer list (model.layers), Keras'
// model.summary() in spirit: each layer's output shape and parameters, and the totals that the
// simulated compute and transfer times follow from (FLOPs per sample, model bytes).
#pragma once

#include <ostream>
#include <string>

#include "sim/scenario/scenario.h"

namespace hermes::cli {

// Lines prefixed with `prefix` ("my.json: "). Nothing for a preset.
void print_model_summary(std::ostream& os, const scenario::Scenario& sc, const std::string& prefix);

}  // namespace hermes::cli
