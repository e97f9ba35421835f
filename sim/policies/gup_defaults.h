// The defaults of Hermes' generalized update policy (GUP), those of the Hermes reference
// (summarised in docs/paper.md). The policies are the lowest layer of sim/protocols/,
// below the scenario schema (tools/check-layers): the policy (hermes_gup.h) and the schema
// (sim/scenario/run_params.cc) both take them from this one place.
#pragma once

namespace hermes::gup_defaults {

inline constexpr double kAlpha = -1.3;  // initial z-score threshold
inline constexpr double kBeta = 0.1;    // threshold decay per minor update after lambda
inline constexpr int kLambda = 5;       // minor-update streak before the threshold decays
inline constexpr int kWindow = 10;      // losses kept for the z-score

}  // namespace hermes::gup_defaults
