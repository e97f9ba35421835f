#include "sim/common/interrupt_cleanup.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

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
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: the signal thread may outlive main
  return *r;
}

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
  const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
  write_stderr("\nhermes-sim " + command + ": interrupted by " + name +
               (removed.empty() ? std::string(": nothing to clean up")
                                : ": removed its unfinished outputs " + removed) +
               "\n");
  ::_exit(128 + sig);
}

}  // namespace

void install_interrupt_cleanup(const std::string& command) {
  static std::once_flag once;
  std::call_once(once, [&command] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) return;
    std::thread([set, command] {
      int sig = 0;
      while (sigwait(&set, &sig) != 0) {
      }
      handle(command, sig);
    }).detach();
  });
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
