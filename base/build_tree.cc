#include "base/build_tree.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace hermes {

namespace fs = std::filesystem;

std::string executable_dir() {
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
