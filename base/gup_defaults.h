// The defaults of Hermes' generalized update policy (GUP), those of the Hermes reference
// (/work/shared/spec/hermes-reference.md). They live here, below both users, because the policy
// (sim/protocols/policies/hermes_gup.h) may include nothing above base/ and the scenario schema
// (sim/scenario/run_params.cc) nothing of the protocols: each takes them from this one place.
#pragma once

namespace hermes::gup_defaults {

inline constexpr double kAlpha = -1.3;  // initial z-score threshold
inline constexpr double kBeta = 0.1;    // threshold decay per minor update after lambda
inline constexpr int kLambda = 5;       // minor-update streak before the threshold decays
inline constexpr int kWindow = 10;      // losses kept for the z-score

}  // namespace hermes::gup_defaults
