#include "base/build_tree.h"

#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>

namespace hermes {

namespace fs = std::filesystem;

namespace {
std::string& program_dir() {
  static std::string dir;
  return dir;
}
}  // namespace

void set_program_dir(std::string dir) { program_dir() = std::move(dir); }

std::string executable_dir() {
  if (!program_dir().empty()) return program_dir();
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "" : exe.parent_path().string();
}

std::string source_tree_beside(const std::string& exe_dir) {
  if (exe_dir.empty()) return "";
  std::ifstream in(fs::path(exe_dir) / kSourceTreeMarker);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  if (!line.empty() && line.back() == '\r') line.pop_back();
  fs::path tree = fs::path(line).lexically_normal();
  if (!tree.is_absolute()) return "";
  if (tree.filename().empty() && tree != tree.root_path()) tree = tree.parent_path();
  std::error_code ec;
  return fs::is_directory(tree, ec) ? tree.string() : "";
}

const std::string& build_source_tree() {
  static const std::string tree = source_tree_beside(executable_dir());
  return tree;
}

}  // namespace hermes
