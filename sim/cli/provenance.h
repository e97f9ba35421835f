// provenance.json: what produced a run directory, written into it with the other files. Format:
// {
//   "format": 1,
//   "build": {"version", "commit", "math_profile", "math_arch", "eigen", "compiler"},
//   "host": {"name": "node7", "cpu": "Intel(R) Xeon(R) ..."},     (recorded, never compared)
//   "command_line": ["build/hermes-sim", "run", ...], "working_directory": "/abs",
//   "threads": 2,                                   (threads of the math: --threads)
//   "gemm": {"kernel": "avx512", "requested": "auto", "products": 19, "kernels": [...]}
//                          (the matrix-product kernel: --gemm-kernel, sim/cli/gemm_kernel_choice.h)
//   "datasets": [{"name": "mnist", "dir": "/abs/mnist", "origin": "--data-dir",
//                 "files": [{"name": "train-images-idx3-ubyte.gz", "bytes": 9912422,
//                            "sha256": "440fcabf..."}, ...]}],    (empty for demo runs)
//   "sweep": {"dir": "/abs/sweep", "point": "0003", "jobs": 2, "rank": 0, "ranks": 1}
//                                                               (only in a sweep's points)
// }
// The simulation's own outputs never depend on any of this; two run directories are
// byte-comparable when their build.math_profile and build.math_arch agree.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "models/data/data_dir.h"

namespace hermes::cli {

using ProvenanceJson = nlohmann::ordered_json;

// The process's command line (main() records it before dispatching).
void set_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();

// A dataset's entry: its name, directory, origin, and each file's name, size and SHA-256 (every
// file is read in full). Throws InputError naming a file that cannot be read.
ProvenanceJson dataset_provenance(const data::DataLocation& location);

struct Provenance {
  int threads = 1;
  ProvenanceJson gemm;                                // null, or gemm_provenance()
  ProvenanceJson datasets = ProvenanceJson::array();  // dataset_provenance() entries
  ProvenanceJson sweep;                               // null, or the "sweep" object
};

// The text of provenance.json (2-space indented, ending in a newline).
std::string provenance_json(const Provenance& p);

}  // namespace hermes::cli
