// hermes-sim bench <what>: speed measurements that print figures (never timed tests).
#include <boost/program_options.hpp>

#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/network/bench.h"

namespace hermes::cli {

namespace {
int bench_network(const Args& args) {
  po::options_description desc(
      "hermes-sim bench network [options]\n\nFlow-level network: workers on a star keep one "
      "model-sized flow each in flight to and from the PS; prints the full and the incremental "
      "max-min update side by side at 10, 100, 600 and 2000 workers (about as many flows moving "
      "at once) and checks that both give the same completions");
  std::size_t flows = 0;
  double bytes = 0;
  desc.add_options()("help,h", "show this help")(
      "flows", po::value<std::size_t>(&flows)->default_value(10000),
      "flows per line (at least 10 per worker)")(
      "bytes", po::value<double>(&bytes)->default_value(437544.0, "437544"),
      "bytes per flow (default: the MNIST MLP as float32)");
  po::variables_map vm;
  if (!parse_options("bench network", args, desc, vm)) return 0;
  if (flows == 0 || !(bytes > 0 && bytes < 1e15)) {
    std::cerr << "hermes-sim bench network: --flows must be >= 1 and --bytes in (0, 1e15)\n";
    return 2;
  }
  network::bench_solvers({10, 100, 600, 2000}, flows, bytes, std::cout);
  return 0;
}
}  // namespace

int cmd_bench(const Args& args) {
  const char* usage =
      "usage: hermes-sim bench <what> [options]\n\n"
      "  engine   events per second of the event core\n"
      "  math     Eigen GEMM GFLOP/s and training throughput of the MLP and CNN\n"
      "  network  the flow network's full and incremental max-min update, side by side\n"
      "  run      a scenario's wall time by thread count, math share, limit, memory, scaling\n\n"
      "hermes-sim bench <what> --help shows the options of each.\n";
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout) << usage;
    return args.empty() ? 2 : 0;
  }
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "engine") return bench_engine(rest);
  if (args[0] == "math") return bench_math(rest);
  if (args[0] == "network") return bench_network(rest);
  if (args[0] == "run") return bench_run(rest);
  std::cerr << "hermes-sim bench: unknown benchmark '" << args[0]
            << "' (accepted: engine, math, network, run)\n\n"
            << usage;
  return 2;
}

}  // namespace hermes::cli
