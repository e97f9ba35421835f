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
      "hermes-sim bench network [options]\n\nFlow-level network throughput: workers on a star "
      "push and pull model-sized flows to one PS; prints max-min recomputations per second");
  std::size_t rounds = 0;
  double bytes = 0;
  desc.add_options()("help,h", "show this help")(
      "rounds", po::value<std::size_t>(&rounds)->default_value(40), "push/pull rounds per worker")(
      "bytes", po::value<double>(&bytes)->default_value(437544.0, "437544"),
      "bytes per flow (default: the MNIST MLP as float32)");
  po::variables_map vm;
  if (!parse_options("bench network", args, desc, vm)) return 0;
  for (std::size_t workers : {12u, 100u, 1000u})
    network::bench_flows(workers, rounds, bytes, std::cout);
  return 0;
}
}  // namespace

int cmd_bench(const Args& args) {
  const char* usage =
      "usage: hermes-sim bench <what> [options]\n\n"
      "  engine   events per second of the event core\n"
      "  math     Eigen GEMM GFLOP/s and training throughput of the MLP and CNN\n"
      "  network  max-min bandwidth recomputations per second of the flow network\n"
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
