#include "sim/common/owned_dirs.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace hermes {

namespace fs = std::filesystem;

namespace {

// The markers' text: the first line identifies the kind; the rest says why the file is there.
const char* marker_text(DirKind kind) {
  return kind == DirKind::kRun
             ? "hermes-sim run directory\n"
               "Written by hermes-sim into every run directory it writes. `hermes-sim run "
               "--force`\n"
               "replaces only directories holding this file and nothing but the files listed\n"
               "after \"files:\" (the list is added when the run is complete), and removes stale\n"
               "leftovers of killed runs only if they hold it.\n"
             : "hermes-sim sweep directory\n"
               "Written by hermes-sim into every sweep directory it writes. `hermes-sim sweep`\n"
               "resumes or (with --force) discards only directories holding this file or a\n"
               "sweep.json it wrote.\n";
}

std::string first_line(const char* text) {
  const std::string s(text);
  return s.substr(0, s.find('\n') + 1);
}

// Whether `inner` is `outer` or lies inside it (both absolute and normal).
bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // a trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

fs::path canonical_or_normal(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
  if (ec) return fs::absolute(p).lexically_normal();
  return c;
}

bool is_empty_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(fs::symlink_status(p, ec)) && fs::is_empty(p, ec) && !ec;
}

}  // namespace

const char* marker_name(DirKind kind) {
  return kind == DirKind::kRun ? ".hermes-run" : ".hermes-sweep";
}

void write_marker(const std::string& dir, DirKind kind) {
  const std::string path = dir + "/" + marker_name(kind);
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  const std::string text = marker_text(kind);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw std::runtime_error("cannot create '" + tmp + "': " + std::strerror(errno));
  }
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int err = n == static_cast<ssize_t>(text.size()) ? 0 : errno;
  ::close(fd);
  if (err != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = err != 0 ? err : errno;
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(e));
  }
}

bool has_marker(const std::string& dir, DirKind kind) {
  const std::string path = dir + "/" + marker_name(kind);
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec))) return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  const std::string want = first_line(marker_text(kind));
  std::string got(want.size(), '\0');
  const ssize_t n = ::read(fd, got.data(), got.size());
  ::close(fd);
  return n == static_cast<ssize_t>(want.size()) && got == want;
}

namespace {
constexpr const char* kManifestLine = "files:\n";
constexpr std::size_t kMaxMarkerBytes = 16u << 20;  // a run writes a handful of files
}  // namespace

void append_run_manifest(const std::string& dir, const std::vector<std::string>& files) {
  std::vector<std::string> sorted = files;
  std::sort(sorted.begin(), sorted.end());
  std::string text = kManifestLine;
  for (const auto& f : sorted) text += f + "\n";
  // Appended in place: the marker's inode, which the run's lock is held on, stays.
  const std::string path = dir + "/" + marker_name(DirKind::kRun);
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  const ssize_t n = fd < 0 ? -1 : ::write(fd, text.data(), text.size());
  const int err = n == static_cast<ssize_t>(text.size()) ? 0 : errno;
  if (fd >= 0) ::close(fd);
  if (fd < 0 || err != 0) {
    throw std::runtime_error("cannot write the list of files to '" + path +
                             "': " + std::strerror(err != 0 ? err : EIO));
  }
}

std::optional<std::vector<std::string>> read_run_manifest(const std::string& dir) {
  if (!has_marker(dir, DirKind::kRun)) return std::nullopt;
  const std::string path = dir + "/" + marker_name(DirKind::kRun);
  std::error_code ec;
  if (fs::file_size(path, ec) > kMaxMarkerBytes || ec) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  bool listed = false;
  std::vector<std::string> files;
  while (std::getline(in, line)) {
    if (listed) {
      if (!line.empty()) files.push_back(line);
    } else if (line + "\n" == kManifestLine) {
      listed = true;
    }
  }
  if (!listed) return std::nullopt;
  return files;
}

bool is_own_plots_dir(const std::string& dir) {
  const std::string marker = dir + "/.hermes-plots";
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(marker, ec)) ||
      fs::file_size(marker, ec) > kMaxMarkerBytes || ec) {
    return false;
  }
  std::ifstream in(marker, std::ios::binary);
  std::string line;
  if (!std::getline(in, line) || line != "hermes-sim figures") return false;
  std::vector<std::string> listed;
  while (std::getline(in, line)) listed.push_back(line);
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == ".hermes-plots") continue;
    const bool is_file = entry.is_regular_file(ec) && !entry.is_symlink(ec);
    if (!is_file || std::find(listed.begin(), listed.end(), name) == listed.end()) return false;
  }
  return !ec;
}

std::string quoted_names(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) {
    text += (i ? ", '" : "'") + names[i] + "'";
  }
  if (names.size() > 5) text += " and " + std::to_string(names.size() - 5) + " more";
  return text;
}

std::vector<std::string> unlisted_entries(const std::string& dir) {
  const auto listed = read_run_manifest(dir);
  std::vector<std::string> unlisted;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == marker_name(DirKind::kRun)) continue;
    if (name == "plots" && entry.is_directory(ec) && !entry.is_symlink(ec) &&
        is_own_plots_dir(entry.path().string())) {
      continue;  // tools/plot's figures of this run
    }
    const bool is_file = entry.is_regular_file(ec) && !entry.is_symlink(ec);
    if (listed && is_file && std::find(listed->begin(), listed->end(), name) != listed->end()) {
      continue;
    }
    unlisted.push_back(name + (entry.is_directory(ec) && !entry.is_symlink(ec) ? "/" : ""));
  }
  std::sort(unlisted.begin(), unlisted.end());
  return unlisted;
}

std::string strip_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string protected_dir_reason(const std::string& path, const std::string& source_dir) {
  if (path.empty()) return "an empty path";
  const fs::path p(strip_trailing_slashes(path));
  const std::string last = p.filename().string();
  const fs::path abs = canonical_or_normal(p);
  if (abs == abs.root_path()) return "the root directory";
  const auto check = [&](const fs::path& other, const std::string& what) -> std::string {
    if (other.empty()) return "";
    const fs::path o = canonical_or_normal(other);
    if (o == abs) return what;
    if (is_within(o, abs)) return "a directory holding " + what + " (" + o.string() + ")";
    return "";
  };
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (!ec) {
    if (auto r = check(cwd, "the current directory"); !r.empty()) return r;
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    if (auto r = check(home, "your home directory ($HOME)"); !r.empty()) return r;
  }
  if (!source_dir.empty()) {
    if (auto r = check(source_dir, "the hermes-sim source tree"); !r.empty()) return r;
  }
  // "x/.." names x's parent, not a directory inside the parent the path shows.
  if (last == "." || last == "..") return "a path ending in '" + last + "' (name the directory)";
  return "";
}

std::string what_is_at(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  switch (st.type()) {
    case fs::file_type::not_found:
    case fs::file_type::none:
      return "";
    case fs::file_type::regular:
      return "a regular file";
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::symlink:
      return "a symbolic link";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::fifo:
      return "a FIFO (named pipe)";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "a special file";
  }
}

std::optional<FileLock> FileLock::try_lock(const std::string& path, bool create) {
  const int flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (create ? O_CREAT : 0);
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) return std::nullopt;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  return FileLock(fd);
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

bool process_alive(long pid) {
  if (pid <= 0) return false;
  if (pid == static_cast<long>(::getpid())) return true;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

std::optional<TemporaryName> parse_temporary_name(const std::string& name) {
  for (const char* kind : {"partial", "old", "tmp"}) {
    const std::string infix = std::string(".") + kind + "-";
    const auto at = name.rfind(infix);
    if (at == std::string::npos || at == 0) continue;
    const std::string digits = name.substr(at + infix.size());
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    return TemporaryName{name.substr(0, at), kind, std::stol(digits)};
  }
  return std::nullopt;
}

std::vector<std::string> clean_stale_leftovers(const std::string& parent, DirKind kind,
                                               const std::vector<std::string>& tmp_bases) {
  std::vector<std::string> notes;
  std::error_code ec;
  fs::directory_iterator it(parent.empty() ? "." : parent, ec);
  if (ec) return notes;
  for (const auto& entry : it) {
    const fs::path path = entry.path();
    const std::string name = path.filename().string();
    const auto t = parse_temporary_name(name);
    if (!t || t->pid == static_cast<long>(::getpid())) continue;  // ours: the caller's business
    const std::string shown = path.string();
    const std::string pid = std::to_string(t->pid);
    const fs::file_status st = fs::symlink_status(path, ec);
    if (t->kind == "tmp") {
      bool ours = false;
      for (const auto& b : tmp_bases) ours = ours || b == t->base;
      if (!ours || !fs::is_regular_file(st)) continue;
      if (process_alive(t->pid)) continue;  // another run writing the same file right now
      if (!FileLock::try_lock(shown, false)) continue;
      if (fs::remove(path, ec)) {
        notes.push_back("removed stale '" + shown + "' (left by process " + pid +
                        ", which no longer runs)");
      }
      continue;
    }
    if (!fs::is_directory(st)) continue;
    const std::string marker = shown + "/" + marker_name(kind);
    // A live process's temporary is another run (or sweep) in progress in the same parent, not a
    // leftover: nothing to do and nothing to say (a note per concurrent run would be noise).
    if (process_alive(t->pid)) continue;
    const bool empty = is_empty_dir(path);
    if (!empty && !has_marker(shown, kind)) {
      notes.push_back("left '" + shown + "' alone: it has no " + std::string(marker_name(kind)) +
                      " marker, so hermes-sim cannot tell that it wrote it");
      continue;
    }
    if (!empty && !FileLock::try_lock(marker, false)) {
      notes.push_back("left '" + shown + "' alone: a process on another host still writes it");
      continue;
    }
    const fs::path base = path.parent_path() / t->base;
    if (t->kind == "old" && !empty && !fs::exists(fs::symlink_status(base, ec))) {
      fs::rename(path, base, ec);
      if (!ec) {
        notes.push_back("restored '" + base.string() + "' from '" + shown + "': process " + pid +
                        " was killed while replacing it");
        continue;
      }
    }
    fs::remove_all(path, ec);
    notes.push_back(ec ? "could not remove stale '" + shown + "': " + ec.message()
                       : "removed stale '" + shown + "' (left by process " + pid +
                             ", which no longer runs)");
  }
  return notes;
}

}  // namespace hermes
