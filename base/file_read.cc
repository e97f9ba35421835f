#include "base/file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/diagnostics.h"
#include "base/number_text.h"

namespace hermes {

namespace {

// Closes the descriptor on every path out, throws included.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

template <typename Buffer>
Buffer read_whole(const std::string& path, std::uint64_t max_bytes, std::string_view what) {
  const std::string label = std::string(what) + " '" + path + "'";
  // O_NONBLOCK: opening a FIFO for reading would otherwise block until some writer opens it.
  const Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) throw InputError("cannot open " + label + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    throw InputError("cannot read " + label + ": " + std::strerror(errno));
  }
  if (const std::string kind = special_file_kind(st.st_mode); !kind.empty()) {
    throw InputError(label + " is " + kind + ", not a regular file");
  }
  const auto too_large = [&](std::uint64_t size, const char* qualifier) {
    const auto text = [](std::uint64_t n) {
      return byte_text(static_cast<double>(n)) +
             (n >= 1000 ? " (" + std::to_string(n) + " bytes)" : std::string());
    };
    return InputError(label + " is " + qualifier + text(size) + ", larger than the limit of " +
                      text(max_bytes) + " for a " + std::string(what));
  };
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) throw too_large(size, "");
  Buffer out;
  out.resize(static_cast<std::size_t>(size));
  std::size_t filled = 0;
  for (;;) {
    // The file may grow while we read: read one byte beyond its size to notice, never past the
    // limit plus one.
    if (filled == out.size()) {
      if (out.size() > max_bytes) throw too_large(out.size(), "at least ");
      out.resize(std::min<std::size_t>(static_cast<std::size_t>(max_bytes) + 1,
                                       std::max<std::size_t>(out.size() * 2, 4096)));
    }
    const ssize_t n = ::read(fd.get(), out.data() + filled, out.size() - filled);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError("cannot read " + label + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  if (filled > max_bytes) throw too_large(filled, "at least ");
  out.resize(filled);
  return out;
}

}  // namespace

std::string special_file_kind(unsigned mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

std::string read_regular_file(const std::string& path, std::uint64_t max_bytes,
                              std::string_view what) {
  return read_whole<std::string>(path, max_bytes, what);
}

std::vector<std::uint8_t> read_regular_file_bytes(const std::string& path, std::uint64_t max_bytes,
                                                  std::string_view what) {
  return read_whole<std::vector<std::uint8_t>>(path, max_bytes, what);
}

}  // namespace hermes
