// What built this binary, for `hermes-sim --version`, every run directory's provenance.json and a
// sweep's sweep.json: the one place these facts come from. Two outputs are byte-comparable only
// if their math profile and math arch agree (CMakeLists.txt, HERMES_MATH); the commit, Eigen and
// compiler are recorded so that a difference can be explained.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hermes {

struct BuildInfo {
  std::string version;       // hermes-sim's version: "0.1.0"
  std::string commit;        // `git describe --always --dirty` at build time, or "unknown"
  std::string math_profile;  // "reproducible" or "native" (HERMES_MATH)
  std::string math_arch;     // the instruction set the math was built for: "x86-64-v3"
  std::string eigen;         // "3.4.0"
  std::string compiler;      // "GCC 12.2.0"

  // The fields by their names in provenance.json and sweep.json, in this order: version, commit,
  // math_profile, math_arch, eigen, compiler.
  std::vector<std::pair<std::string, std::string>> fields() const;
  // "reproducible (x86-64-v3)": what must agree for outputs to be the same bytes.
  std::string math() const { return math_profile + " (" + math_arch + ")"; }
  // "0.1.0 (7a3769d-dirty)": the code version a sweep records.
  std::string code_version() const { return version + " (" + commit + ")"; }
};

// This binary's build.
const BuildInfo& build_info();

// `hermes-sim --version`: "hermes-sim 0.1.0", then "commit: ...", "math: ...", "eigen: ...",
// "compiler: ...", one per line, each ending in '\n'.
std::string version_text(const BuildInfo& build);

// One line for logs: "hermes-sim 0.1.0 (7a3769d), math reproducible (x86-64-v3), Eigen 3.4.0,
// GCC 12.2.0" (no newline).
std::string build_line(const BuildInfo& build);

// Run-time facts about the machine, recorded beside the build but never compared.
// The "model name" of the first processor in /proc/cpuinfo, or "unknown".
std::string host_cpu_model();
// The host name (gethostname), or "unknown".
std::string host_name();

}  // namespace hermes
