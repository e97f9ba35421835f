// Ctrl-C and kill during `hermes-sim run` or `sweep`: the temporaries this process is writing
// (a run's OUT.partial-PID directory, a trace's TRACE.tmp-PID, a sweep point's partial directory)
// are removed before it exits, so an interrupted command leaves nothing behind. kill -9 cannot be
// caught: its leftovers are cleaned by the next start (owned_dirs.h).
//
// SIGINT, SIGTERM and SIGHUP are blocked in every thread and taken by one thread waiting in
// sigwait(2), so the cleanup runs as ordinary code (no async-signal-safety limits) while the other
// threads are stopped only by the process exit that follows. No signal handler runs at all: the
// signal thread only sets atomic flags or exits, and the work loops read the flags.
//
// Work made of units worth finishing (a sweep's points) can ask for a gentler first signal
// (defer_first_interrupt): the first SIGINT, SIGTERM or SIGHUP then only asks it to stop
// (stop_signal()), and the second one cleans up and exits as above, adding the text of
// set_interrupt_epilogue (what is done, how to resume). SIGUSR1, when taken
// (install_interrupt_cleanup's `sigusr1_stops`), only ever asks to stop: Open MPI's mpirun
// forwards SIGUSR1 to every rank as it is, whereas it turns SIGINT and SIGTERM into a SIGTERM to
// every rank followed a second later by SIGKILL.
#pragma once

#include <cstdint>
#include <string>

namespace hermes {

// Starts the thread that handles the signals for the whole process; on one it removes every
// registered path, says so on stderr ("<command>: interrupted by SIGTERM: removed ..."), and
// exits with status 128 + the signal number. With `sigusr1_stops` it also takes SIGUSR1, as a
// request to stop (stop_signal()). Call first thing in main's command, before any other thread
// starts (threads inherit the blocked signal mask). Later calls do nothing.
void install_interrupt_cleanup(const std::string& command, bool sigusr1_stops = false);

// From now on the first SIGINT, SIGTERM or SIGHUP only asks to stop (stop_signal() returns it);
// the next one (or the first, if a stop was asked already) cleans up and exits as above.
void defer_first_interrupt();

// The signal that asked this process to stop, or 0 if none did.
int stop_signal();

// Text written to stderr after the cleanup message when a signal ends the process (replacing the
// previous text; empty: none). Cheap enough to update at every change of what it describes.
void set_interrupt_epilogue(std::string text);

// "SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1" (else "signal N").
std::string signal_name(int sig);

// A path (file or directory, removed recursively) to remove if the process is interrupted, for as
// long as this object lives.
class CleanupRegistration {
 public:
  explicit CleanupRegistration(std::string path);
  ~CleanupRegistration();
  CleanupRegistration(const CleanupRegistration&) = delete;
  CleanupRegistration& operator=(const CleanupRegistration&) = delete;

 private:
  std::uint64_t id_;
};

// Holds back an interruption's cleanup while alive (recursive; registering is allowed inside):
// a commit's renames happen either entirely before the cleanup or not at all.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

}  // namespace hermes
