// Comparing the math of a sweep's recorded builds, of this binary and of every MPI rank.
#include "sim/sweep/math_check.h"

#include <map>
#include <sstream>
#include <stdexcept>

#include "base/string_join.h"

namespace hermes::sweep {

namespace {

const char* const kAllow = "pass --allow-mixed-math to continue anyway";

std::string string_field(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string texts(const std::vector<MathBuild>& maths) {
  std::vector<std::string> out;
  for (const auto& m : maths) out.push_back(m.text());
  return join_strings(out, " and ");
}

}  // namespace

std::vector<MathBuild> recorded_maths(const Json& manifest) {
  std::vector<MathBuild> out;
  if (!manifest.is_object()) return out;
  const auto add = [&](const Json& entry) {
    if (!entry.is_object()) return;
    const MathBuild m{string_field(entry, "math_profile"), string_field(entry, "math_arch")};
    if (m.profile.empty()) return;
    for (const auto& seen : out) {
      if (seen == m) return;
    }
    out.push_back(m);
  };
  if (const auto it = manifest.find("build"); it != manifest.end()) add(*it);
  if (const auto it = manifest.find("mixed_math"); it != manifest.end() && it->is_array()) {
    for (const auto& entry : *it) add(entry);
  }
  return out;
}

std::string resume_math_error(const std::vector<MathBuild>& recorded, const MathBuild& current) {
  bool differs = false;
  for (const auto& m : recorded) differs = differs || !(m == current);
  if (!differs) return "";
  const MathBuild& first = recorded.front();
  bool already_mixed = false;
  for (const auto& m : recorded) already_mixed = already_mixed || m == current;
  std::string fix;
  if (already_mixed) {
    fix =
        "The sweep is mixed already (resumed with --allow-mixed-math); pass --force to recompute "
        "every point with this binary";
  } else if (first.profile != current.profile) {
    fix = "Rebuild with -DHERMES_MATH=" + first.profile +
          " (HERMES_CMAKE_ARGS=-DHERMES_MATH=" + first.profile + " tools/build)";
  } else {
    fix = "Resume it with a binary whose math is " + first.text() +
          " (a native build on a machine with that CPU), or start a new sweep with "
          "-DHERMES_MATH=reproducible (the same bytes on every x86-64-v3 machine)";
  }
  return std::string("this sweep's points were computed by math profile") +
         (recorded.size() > 1 ? "s " : " ") + texts(recorded) + "; this binary is " +
         current.text() + ": their outputs are not comparable byte for byte. " + fix + ", or " +
         kAllow + " (sweep.json then records every math)";
}

bool add_mixed_math(Json& manifest, const MathBuild& math) {
  for (const auto& m : recorded_maths(manifest)) {
    if (m == math) return false;
  }
  if (!manifest.contains("mixed_math") || !manifest["mixed_math"].is_array()) {
    manifest["mixed_math"] = Json::array();
  }
  manifest["mixed_math"].push_back({{"math_profile", math.profile}, {"math_arch", math.arch}});
  return true;
}

std::string encode_rank_math(const RankMath& r) {
  return std::to_string(r.rank) + '\n' + r.host + '\n' + r.math.profile + '\n' + r.math.arch +
         '\n' + r.code_version;
}

RankMath decode_rank_math(const std::string& text) {
  std::istringstream in(text);
  std::string rank;
  RankMath r;
  if (!std::getline(in, rank) || !std::getline(in, r.host) || !std::getline(in, r.math.profile) ||
      !std::getline(in, r.math.arch) || !std::getline(in, r.code_version)) {
    throw std::runtime_error("malformed rank math '" + text + "'");
  }
  r.rank = std::stoi(rank);
  return r;
}

std::string rank_math_error(const std::vector<RankMath>& ranks) {
  if (ranks.empty()) return "";
  const RankMath& root = ranks.front();
  std::map<std::string, std::vector<std::string>> differing;  // math text -> "rank N (host)"
  for (const auto& r : ranks) {
    if (!(r.math == root.math)) {
      differing[r.math.text()].push_back("rank " + std::to_string(r.rank) + " (" + r.host + ")");
    }
  }
  if (differing.empty()) return "";
  std::string msg = "the MPI ranks of this sweep do not share one math: rank 0 (" + root.host +
                    ") is " + root.math.text();
  for (const auto& [math, who] : differing)
    msg += "; " + join_strings(who, ", ") + " " + (who.size() > 1 ? "are " : "is ") + math;
  return msg +
         ": their points would not be comparable byte for byte. Build hermes-sim with the same "
         "-DHERMES_MATH on every host (reproducible gives the same bytes on every x86-64-v3 "
         "machine), or " +
         kAllow + " (sweep.json then records every math)";
}

std::string rank_version_note(const std::vector<RankMath>& ranks) {
  std::vector<std::string> differing;
  for (const auto& r : ranks) {
    if (r.code_version != ranks.front().code_version) {
      differing.push_back("rank " + std::to_string(r.rank) + " (" + r.host + ") runs " +
                          r.code_version);
    }
  }
  if (differing.empty()) return "";
  return "note: the MPI ranks run different code versions: rank 0 (" + ranks.front().host +
         ") runs " + ranks.front().code_version + "; " + join_strings(differing, "; ");
}

std::vector<MathBuild> other_maths(const std::vector<RankMath>& ranks) {
  std::vector<MathBuild> out;
  for (const auto& r : ranks) {
    bool seen = r.math == ranks.front().math;
    for (const auto& m : out) seen = seen || m == r.math;
    if (!seen) out.push_back(r.math);
  }
  return out;
}

}  // namespace hermes::sweep
