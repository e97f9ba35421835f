#include "sim/metrics/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace hermes::metrics {

namespace {
[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(errno));
}
}  // namespace

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), tmp_path_(path_ + ".tmp-" + std::to_string(::getpid())) {
  cleanup_.emplace(tmp_path_);
  out_.open(tmp_path_, std::ios::binary | std::ios::trunc);
  if (!out_) fail("cannot create", tmp_path_);
  lock_ = FileLock::try_lock(tmp_path_, false);
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.close();
    std::remove(tmp_path_.c_str());
  }
}

void AtomicFile::commit() {
  out_.flush();
  if (!out_) fail("cannot write", tmp_path_);
  out_.close();
  // fsync before rename so that after a power cut the name never points at an empty file.
  const int fd = ::open(tmp_path_.c_str(), O_RDONLY);
  if (fd < 0) fail("cannot reopen", tmp_path_);
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) fail("cannot sync", tmp_path_);
  InterruptGuard guard;  // an interruption sees the temporary or the renamed file, never neither
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) fail("cannot rename into", path_);
  committed_ = true;
  cleanup_.reset();
}

void write_file_atomically(const std::string& path, const std::string& content) {
  AtomicFile f(path);
  f.stream() << content;
  f.commit();
}

}  // namespace hermes::metrics
