// hermes-sim bench <what>: speed measurements that print figures (never timed tests).
#include <iostream>

#include "sim/cli/commands.h"

namespace hermes::cli {

int cmd_bench(const Args& args) {
  const char* usage =
      "usage: hermes-sim bench <what> [options]\n\n"
      "  engine   events per second of the event core\n"
      "  math     Eigen GEMM GFLOP/s and training throughput of the MLP and CNN\n\n"
      "hermes-sim bench <what> --help shows the options of each.\n";
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout) << usage;
    return args.empty() ? 2 : 0;
  }
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "engine") return bench_engine(rest);
  if (args[0] == "math") return bench_math(rest);
  std::cerr << "hermes-sim bench: unknown benchmark '" << args[0]
            << "' (accepted: engine, math)\n\n"
            << usage;
  return 2;
}

}  // namespace hermes::cli
