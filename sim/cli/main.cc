// hermes-sim: entry point. Dispatches to one subcommand per file (see commands.h).
#include <exception>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

#include "base/diagnostics.h"
#include "sim/cli/commands.h"
#include "sim/cli/gemm_kernel_choice.h"
#include "sim/cli/provenance.h"
#include "sim/common/build_info.h"
#include "sim/sweep/mpi_session.h"

namespace {

struct Command {
  int (*fn)(const hermes::cli::Args&);
  const char* summary;
};

const std::map<std::string, Command>& commands() {
  static const std::map<std::string, Command> table = {
      {"run", {hermes::cli::cmd_run, "run a scenario file and write its results"}},
      {"validate", {hermes::cli::cmd_validate, "check scenario files without running them"}},
      {"profiles", {hermes::cli::cmd_profiles, "print the node profile catalog"}},
      {"train",
       {hermes::cli::cmd_train, "train a model centrally (no cluster), per-epoch accuracy"}},
      {"bench",
       {hermes::cli::cmd_bench,
        "measure speed: engine, math, network (throughputs), run (a scenario's wall time)"}},
      {"compare", {hermes::cli::cmd_compare, "print a run's summary beside the paper's table"}},
      {"keys",
       {hermes::cli::cmd_keys,
        "print every scenario key: type, default, accepted values, help (PREFIX filters)"}},
      {"sweep",
       {hermes::cli::cmd_sweep, "run a scenario over a grid of parameters and seeds (resumable)"}},
  };
  return table;
}

void usage(std::ostream& os) {
  os << "hermes-sim " << hermes::build_info().version
     << ": discrete-event simulator of heterogeneous parameter-server training\n\n"
        "usage: hermes-sim <command> [options]\n       hermes-sim <command> --help\n"
        "       hermes-sim --version    version, commit, math profile, Eigen, compiler, host "
        "CPU, MPI, home\n\n"
        "commands:\n";
  for (const auto& [name, cmd] : commands()) {
    os << "  " << name << std::string(12 - name.size(), ' ') << cmd.summary << '\n';
  }
  os << "\nenvironment:\n"
        "  HERMES_HOME      where scenarios/ and results/reference/ are read from (default: the\n"
        "                   install's share/hermes-sim beside the binary, else the source tree it\n"
        "                   was built from; --version says which)\n"
        "  HERMES_DATA_DIR  the datasets' directory when --data-dir is not given\n"
        "\nexit status:\n"
        "  0    done\n"
        "  1    validate found errors, or the work failed (a file could not be written, a\n"
        "       point of a sweep failed)\n"
        "  2    the command line or an input file was refused; nothing was run or written\n"
        "  3    an internal error: a defect of hermes-sim, to report with the command line\n"
        "  130, 143  interrupted (SIGINT, SIGTERM); a sweep can be resumed\n";
}

// `--version`: the build, the host's CPU and the home with the reason it was chosen.
int print_version() {
  std::cout << hermes::version_text(hermes::build_info())
            << "host cpu: " << hermes::host_cpu_model() << '\n'
            << "mpi: " << hermes::sweep::mpi_text() << '\n'
            << "gemm kernel: " << hermes::cli::version_gemm_text() << '\n';
  try {
    const hermes::HomeDir home = hermes::cli::home_dir();
    std::cout << "home: " << home.path << " (" << home.why << ")\n";
  } catch (const hermes::InputError& e) {
    std::cerr << "hermes-sim --version: error:\n" << e.what() << '\n';
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // `mpirun -n K hermes-sim ...`: this binary has no MPI (its package needs no MPI library); the
  // ranks run hermes-sim-mpi, the same program built with MPI, if it is beside it.
  hermes::sweep::exec_mpi_binary_if_launched(argv);
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  hermes::cli::set_command_line(argc, argv);  // for provenance.json
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return 0;
  }
  if (name == "--version") return print_version();
  const auto it = commands().find(name);
  if (it == commands().end()) {
    std::cerr << "hermes-sim: unknown command '" << name << "'\n\n";
    usage(std::cerr);
    return 2;
  }
  try {
    return it->second.fn(hermes::cli::Args(argv + 2, argv + argc));
  } catch (const hermes::InputError& e) {
    // A one-line message stays on the error's line (what `2>&1 | head -1` or a log's grep shows);
    // a list of problems starts on the next.
    std::string message = e.what();
    while (!message.empty() && message.back() == '\n') message.pop_back();
    const bool one_line = message.find('\n') == std::string::npos;
    std::cerr << "hermes-sim " << name << ": error:" << (one_line ? " " : "\n") << message << '\n';
    return 2;
  } catch (const std::logic_error& e) {
    // A broken invariant of the code (std::invalid_argument, std::out_of_range, ... included):
    // input that reaches one got past a check that should have refused it. Said as a defect to
    // report, so that the code's own names in the text are not mistaken for advice on the input.
    std::cerr << "hermes-sim " << name << ": internal error (a defect of hermes-sim; please report "
              << "it with the command line and its input files): " << e.what() << '\n';
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "hermes-sim " << name << ": error: " << e.what() << '\n';
    return 1;
  }
}
