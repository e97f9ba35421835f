// Ctrl-C and kill during `hermes-sim run` or `sweep`: the temporaries this process is writing
// (a run's OUT.partial-PID directory, a trace's TRACE.tmp-PID, a sweep point's partial directory)
// are removed before it exits, so an interrupted command leaves nothing behind. kill -9 cannot be
// caught: its leftovers are cleaned by the next start (owned_dirs.h).
//
// SIGINT, SIGTERM and SIGHUP are blocked in every thread and taken by one thread waiting in
// sigwait(2), so the cleanup runs as ordinary code (no async-signal-safety limits) while the other
// threads are stopped only by the process exit that follows.
#pragma once

#include <cstdint>
#include <string>

namespace hermes {

// Starts the thread that handles the signals for the whole process; on one it removes every
// registered path, says so on stderr ("<command>: interrupted by SIGTERM: removed ..."), and
// exits with status 128 + the signal number. Call first thing in main's command, before any other
// thread starts (threads inherit the blocked signal mask). Later calls do nothing.
void install_interrupt_cleanup(const std::string& command);

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
