// Running a shell command from a test and capturing what it prints and its exit status, or
// starting it in the background.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace hermes::testing {

// The whole text of the file at `path` ("" if it cannot be read: the test's comparison fails).
inline std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `compare`'s text with its wrapped prose joined back ("\n  " continues a line).
inline std::string unwrapped(std::string text) {
  for (std::size_t at; (at = text.find("\n  ")) != std::string::npos;) text.replace(at, 3, " ");
  return text;
}

struct CommandResult {
  int status;          // exit status; -1 if it did not exit normally
  std::string output;  // run_command: stdout and stderr together
};

// The exit status and stdout of the shell command line `cmd`, as written.
inline CommandResult read_command_stdout(const std::string& cmd) {
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int raw = ::pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, out};
}

inline CommandResult run_command(const std::string& command) {
  return read_command_stdout(command + " 2>&1");
}

// `command`'s stdout and stderr apart (progress on stderr, results on stdout).
struct SplitResult {
  int status;  // exit status; -1 if it did not exit normally
  std::string out, err;
};

inline SplitResult run_command_split(const std::string& command) {
  char path[] = "/tmp/hermes-test-stderr-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return {-1, "", "mkstemp failed"};
  ::close(fd);
  // The command in a subshell, so that the redirection applies to all of it.
  const CommandResult r = read_command_stdout("(" + command + ") 2>" + path);
  std::string err = file_text(path);
  ::unlink(path);
  return {r.status, r.output, std::move(err)};
}

// Starts `command` in the background (through sh, exec'd so that the PID is the command's own,
// for signals) with its stdout and stderr in the file `log`. Wait for it with waitpid(2).
inline pid_t spawn_command(const std::string& command, const std::string& log) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const std::string full = "exec " + command + " >" + log + " 2>&1";
    ::execl("/bin/sh", "sh", "-c", full.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

}  // namespace hermes::testing
