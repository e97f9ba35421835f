// A sweep's points are comparable byte for byte only if one math profile computed them all
// (CMakeLists.txt, HERMES_MATH). sweep.json records the build that started the sweep ("build")
// and, after resumes with --allow-mixed-math, every other math that computed points in it
// ("mixed_math"). This file holds the checks: a resume by a binary with another math, and MPI
// ranks whose binaries differ from rank 0's, are refused unless --allow-mixed-math.
#pragma once

#include <string>
#include <vector>

#include "sim/common/build_info.h"
#include "sim/sweep/grid.h"

namespace hermes::sweep {

struct MathBuild {
  std::string profile;  // "reproducible", "native"
  std::string arch;     // "x86-64-v3", "native (rocketlake)"

  static MathBuild of(const BuildInfo& build) { return {build.math_profile, build.math_arch}; }
  std::string text() const { return profile + " (" + arch + ")"; }
  bool operator==(const MathBuild&) const = default;
};

// The maths a manifest says computed its points: its "build"'s, then each "mixed_math" entry.
// Empty for a manifest written before builds were recorded (it has only "code_version").
std::vector<MathBuild> recorded_maths(const Json& manifest);

// The refusal of a resume by a binary whose math is `current` when `recorded` (non-empty) holds
// another: names both, why it matters and the ways out. "" if every recorded math is `current`.
std::string resume_math_error(const std::vector<MathBuild>& recorded, const MathBuild& current);

// Adds `math` to `manifest`'s "mixed_math" list unless the manifest records it already.
// Returns whether it added it.
bool add_mixed_math(Json& manifest, const MathBuild& math);

// One MPI rank's math, host and code version, as text for MPI (encode) and back (decode: throws
// std::runtime_error on a malformed text).
struct RankMath {
  int rank = 0;
  std::string host;
  MathBuild math;
  std::string code_version;  // BuildInfo::code_version()
};
std::string encode_rank_math(const RankMath& r);
RankMath decode_rank_math(const std::string& text);

// The refusal of an MPI sweep whose ranks (index 0: rank 0) do not all have rank 0's math: names
// rank 0's and each differing rank with its host and math. "" if all agree.
std::string rank_math_error(const std::vector<RankMath>& ranks);

// A note naming the ranks whose code version differs from rank 0's (only reported, like a resume
// by another code version); "" if all agree.
std::string rank_version_note(const std::vector<RankMath>& ranks);

// The maths of `ranks` that differ from rank 0's, each once.
std::vector<MathBuild> other_maths(const std::vector<RankMath>& ranks);

}  // namespace hermes::sweep
