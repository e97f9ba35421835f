#include "sim/common/interrupt_cleanup.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace hermes {

namespace {

struct Registry {
  std::recursive_mutex mutex;
  std::map<std::uint64_t, std::string> paths;
  std::uint64_t next_id = 1;
  std::string epilogue;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: the signal thread may outlive main
  return *r;
}

// Set by the signal thread, read by the work loops.
std::atomic<bool> deferring{false};
std::atomic<int> stop_requested{0};

void write_stderr(const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

[[noreturn]] void handle(const std::string& command, int sig) {
  Registry& r = registry();
  r.mutex.lock();  // held until _exit: no commit or registration can start any more
  std::string removed;
  for (const auto& [id, path] : r.paths) {
    std::error_code ec;
    // Another thread may still be writing into a directory: retry until it stays gone.
    for (int attempt = 0; attempt < 5; ++attempt) {
      std::filesystem::remove_all(path, ec);
      if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) break;
    }
    removed += (removed.empty() ? "" : ", ") + path;
  }
  const std::string again = stop_requested.load() != 0 ? " (after a request to stop)" : "";
  write_stderr("\nhermes-sim " + command + ": interrupted by " + signal_name(sig) + again +
               (removed.empty() ? std::string(": nothing to clean up")
                                : ": removed its unfinished outputs " + removed) +
               "\n" + r.epilogue);
  ::_exit(128 + sig);
}

// Records `sig` as the request to stop unless one was recorded already; whether it did.
bool request_stop(int sig) {
  int none = 0;
  return stop_requested.compare_exchange_strong(none, sig);
}

}  // namespace

void install_interrupt_cleanup(const std::string& command, bool sigusr1_stops) {
  static std::once_flag once;
  std::call_once(once, [&command, sigusr1_stops] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (sigusr1_stops) sigaddset(&set, SIGUSR1);
    if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) return;
    std::thread([set, command] {
      while (true) {
        int sig = 0;
        if (sigwait(&set, &sig) != 0) continue;
        if (sig == SIGUSR1) {
          request_stop(sig);  // never exits: a later SIGINT or SIGTERM still can
        } else if (!deferring.load() || !request_stop(sig)) {
          handle(command, sig);
        }
      }
    }).detach();
  });
}

void defer_first_interrupt() { deferring.store(true); }

int stop_signal() { return stop_requested.load(); }

void set_interrupt_epilogue(std::string text) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  r.epilogue = std::move(text);
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGUSR1:
      return "SIGUSR1";
    default:
      return "signal " + std::to_string(sig);
  }
}

CleanupRegistration::CleanupRegistration(std::string path) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  id_ = r.next_id++;
  r.paths.emplace(id_, std::move(path));
}

CleanupRegistration::~CleanupRegistration() {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  r.paths.erase(id_);
}

InterruptGuard::InterruptGuard() { registry().mutex.lock(); }
InterruptGuard::~InterruptGuard() { registry().mutex.unlock(); }

}  // namespace hermes
