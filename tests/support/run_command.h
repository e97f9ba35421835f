// Running a shell command from a test and capturing what it prints and its exit status.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace hermes::testing {

struct CommandResult {
  int status;          // exit status; -1 if it did not exit normally
  std::string output;  // stdout and stderr together
};

inline CommandResult run_command(const std::string& command) {
  const std::string cmd = command + " 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int raw = ::pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, out};
}

}  // namespace hermes::testing
