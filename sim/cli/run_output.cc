#include "sim/cli/run_output.h"

#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <system_error>

#include "sim/common/diagnostics.h"

namespace hermes::cli {

namespace fs = std::filesystem;

RunOutputDir::RunOutputDir(std::string target, bool force)
    : target_(std::move(target)), force_(force) {
  std::error_code ec;
  if (fs::exists(target_, ec) && !fs::is_empty(target_, ec) && !force_) {
    throw InputError("output directory '" + target_ +
                     "' exists and is not empty: choose another --out, or pass --force to "
                     "replace it");
  }
  const fs::path parent = fs::absolute(target_).parent_path();
  fs::create_directories(parent, ec);
  if (ec) throw InputError("cannot create '" + parent.string() + "': " + ec.message());
  tmp_ = target_ + ".partial-" + std::to_string(::getpid());
  fs::remove_all(tmp_, ec);
  fs::create_directory(tmp_, ec);
  if (ec) throw InputError("cannot create output directory '" + tmp_ + "': " + ec.message());
}

RunOutputDir::~RunOutputDir() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
}

std::string RunOutputDir::file(const std::string& name) const { return tmp_ + "/" + name; }

void RunOutputDir::commit() {
  std::error_code ec;
  if (fs::exists(target_, ec)) {
    if (!force_ && !fs::is_empty(target_, ec)) {
      throw InputError("output directory '" + target_ +
                       "' appeared during the run; results "
                       "are kept in '" +
                       tmp_ + "'");
    }
    fs::remove_all(target_, ec);
  }
  fs::rename(tmp_, target_, ec);
  if (ec)
    throw std::runtime_error("cannot rename '" + tmp_ + "' to '" + target_ + "': " + ec.message());
  committed_ = true;
}

std::string default_output_dir(const std::string& base, const std::string& scenario_name) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  return base + "/results/" + scenario_name + "-" + stamp;
}

}  // namespace hermes::cli
