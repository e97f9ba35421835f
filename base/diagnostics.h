// Collected input errors. Validation reports every problem in one pass, each naming the file,
// the JSON path (RFC 6901 pointer, e.g. /cluster/workers/3/profile) and what is accepted.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hermes {

struct Diagnostic {
  std::string file;       // may be empty for command-line input
  std::string json_path;  // RFC 6901 pointer, "" for the whole document
  std::string message;    // what is wrong and what is accepted
};

class Diagnostics {
 public:
  explicit Diagnostics(std::string file = {}) : file_(std::move(file)) {}

  void error(std::string json_path, std::string message) {
    items_.push_back({file_, std::move(json_path), std::move(message)});
  }
  bool ok() const { return items_.empty(); }
  std::size_t count() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  const std::string& file() const { return file_; }
  void set_file(std::string file) { file_ = std::move(file); }

  // "file: /json/path: message" one per line.
  std::string format() const {
    std::ostringstream os;
    for (const auto& d : items_) {
      if (!d.file.empty()) os << d.file << ": ";
      os << (d.json_path.empty() ? "/" : d.json_path) << ": " << d.message << '\n';
    }
    return os.str();
  }
  // Throws InputError with every collected message if any.
  void throw_if_errors() const;

 private:
  std::string file_;
  std::vector<Diagnostic> items_;
};

// Bad user input (scenario, profile catalog, data file, command line). The CLI prints what() and
// exits non-zero; it is never a crash.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void Diagnostics::throw_if_errors() const {
  if (!ok()) throw InputError(format());
}

}  // namespace hermes
