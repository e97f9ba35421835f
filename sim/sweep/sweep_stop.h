// What a sweep says when a signal stops it early (interrupt_cleanup.h): at the first signal, that
// it starts no new point and waits for the running ones; at its end, what is done; and, should a
// second signal abort it, what was done and abandoned. Each names the command that resumes it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hermes::sweep {

// The command line as a POSIX shell reads it back: each argument as is if it holds only
// [A-Za-z0-9_@%+=:,./-], else in single quotes (a quote inside as '\'').
std::string shell_command(const std::vector<std::string>& argv);

// "To resume, run the same command again (in /work):\n  <command>\n". Under MPI (`ranks` > 1)
// the command is preceded by "mpirun -n <ranks> " and followed by a reminder of mpirun's other
// options.
std::string resume_text(const std::vector<std::string>& argv, const std::string& working_dir,
                        int ranks);

struct SweepState {
  std::string dir;
  std::size_t total = 0;             // points of the sweep
  std::size_t done = 0;              // with their directory
  std::size_t not_started = 0;       // of those this invocation was to run
  std::vector<std::string> running;  // names of the points running now
};

// At the first signal: "hermes-sim sweep: SIGINT: no new point starts; the 2 running points
// (0004, 0005) finish first (SIGINT or SIGTERM again abandons them)". Under MPI it adds `resume`
// (mpirun may kill the ranks before the end prints it) and, unless `sig` is SIGUSR1, how to stop
// gently through mpirun.
std::string stopping_notice(int sig, const SweepState& state, bool distributed,
                            const std::string& resume);

// At the end of a sweep a signal stopped: "hermes-sim sweep: stopped by SIGINT: 6/9 points done,
// 3 not started, none abandoned (the running points finished)" and `resume`.
std::string stopped_report(int sig, const SweepState& state, const std::string& resume);

// After the cleanup message of a second signal: "sweep DIR: 4/9 points done, 2 abandoned (0004,
// 0005), 3 not started" and `resume`.
std::string abort_epilogue(const SweepState& state, const std::string& resume);

}  // namespace hermes::sweep
