#include "sim/sweep/sweep_stop.h"

#include <signal.h>

#include "base/string_join.h"
#include "sim/common/interrupt_cleanup.h"

namespace hermes::sweep {

namespace {

bool plain(const std::string& arg) {
  if (arg.empty()) return false;
  for (const char c : arg) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

std::string done_text(const SweepState& s) {
  return std::to_string(s.done) + "/" + std::to_string(s.total) + " points done";
}

}  // namespace

std::string shell_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& arg : argv) {
    if (!out.empty()) out += ' ';
    if (plain(arg)) {
      out += arg;
      continue;
    }
    out += '\'';
    for (const char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string resume_text(const std::vector<std::string>& argv, const std::string& working_dir,
                        int ranks) {
  const std::string mpirun = ranks > 1 ? "mpirun -n " + std::to_string(ranks) + " " : "";
  return "To resume, run the same command again (in " + shell_command({working_dir}) + "):\n  " +
         mpirun + shell_command(argv) + "\n" +
         (ranks > 1 ? "  (with the other options you gave mpirun)\n" : "");
}

std::string stopping_notice(int sig, const SweepState& state, bool distributed,
                            const std::string& resume) {
  std::string out = "hermes-sim sweep: " + signal_name(sig) + ": no new point starts";
  if (!state.running.empty()) {
    const bool one = state.running.size() == 1;
    out += std::string("; the ") +
           (one ? "running point (" : std::to_string(state.running.size()) + " running points (") +
           join_strings(state.running, ", ") + ") " + (one ? "finishes" : "finish") +
           " first (SIGINT or SIGTERM " + (sig == SIGUSR1 ? "" : "again ") + "abandons " +
           (one ? "it" : "them") + ")";
  }
  out += "\n";
  if (distributed) {
    // mpirun may kill this rank before the sweep's end says how to resume: say it now.
    if (sig != SIGUSR1) {
      out +=
          "Under mpirun, send SIGUSR1 to mpirun to stop this way: Open MPI's mpirun turns "
          "SIGINT and SIGTERM into a SIGTERM to every rank and kills them all a second later.\n";
    }
    out += resume;
  }
  return out;
}

std::string stopped_report(int sig, const SweepState& state, const std::string& resume) {
  const std::size_t left = state.total - state.done;
  std::string out = "hermes-sim sweep: stopped by " + signal_name(sig) + ": " + done_text(state) +
                    ", " + std::to_string(state.not_started) + " not started";
  if (left > state.not_started) {
    out += ", " + std::to_string(left - state.not_started) + " failed or timed out";
  }
  return out + ", none abandoned (the running points finished)\n" + resume;
}

std::string abort_epilogue(const SweepState& state, const std::string& resume) {
  std::string out = "sweep " + state.dir + ": " + done_text(state) + ", " +
                    std::to_string(state.running.size()) + " abandoned";
  if (!state.running.empty()) out += " (" + join_strings(state.running, ", ") + ")";
  return out + ", " + std::to_string(state.not_started) + " not started\n" + resume;
}

}  // namespace hermes::sweep
