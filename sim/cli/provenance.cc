// provenance.json: the build and host facts, the command line, and the datasets' checksums.
#include "sim/cli/provenance.h"

#include <filesystem>
#include <system_error>

#include "sim/common/build_info.h"
#include "sim/common/sha256.h"

namespace hermes::cli {

namespace fs = std::filesystem;

namespace {

constexpr int kFormat = 1;

std::vector<std::string>& recorded_command_line() {
  static std::vector<std::string> args;
  return args;
}

}  // namespace

void set_command_line(int argc, char** argv) { recorded_command_line().assign(argv, argv + argc); }

const std::vector<std::string>& command_line() { return recorded_command_line(); }

ProvenanceJson dataset_provenance(const data::DataLocation& location) {
  ProvenanceJson files = ProvenanceJson::array();
  for (const auto* list : {&location.train_files, &location.test_files}) {
    for (const auto& path : *list) {
      const FileDigest d = sha256_file(path);
      files.push_back(
          {{"name", fs::path(path).filename().string()}, {"bytes", d.bytes}, {"sha256", d.sha256}});
    }
  }
  ProvenanceJson entry = {{"name", location.dataset},
                          {"dir", location.dir},
                          {"origin", location.origin},
                          {"files", files}};
  // A scenario's own dataset: what its files were read as (a built-in's is its name).
  if (!location.spec.builtin) {
    const data::SampleShape& s = location.spec.shape;
    entry["format"] = data::format_name(location.spec.format);
    entry["shape"] = {s.channels, s.height, s.width};
    entry["classes"] = location.spec.classes;
    entry["standardize"] = location.spec.standardize;
  }
  return entry;
}

std::string provenance_json(const Provenance& p) {
  ProvenanceJson doc = ProvenanceJson::object();
  doc["format"] = kFormat;
  ProvenanceJson build = ProvenanceJson::object();
  for (const auto& [key, value] : build_info().fields()) build[key] = value;
  doc["build"] = build;
  doc["host"] = {{"name", host_name()}, {"cpu", host_cpu_model()}};
  doc["command_line"] = command_line();
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  doc["working_directory"] = ec ? std::string("unknown") : cwd.string();
  doc["threads"] = p.threads;
  if (!p.gemm.is_null()) doc["gemm"] = p.gemm;
  doc["datasets"] = p.datasets;
  if (!p.sweep.is_null()) doc["sweep"] = p.sweep;
  // The command line and working directory are bytes, not necessarily UTF-8: replace what is not
  // (a record for people; the run must not fail over it).
  return doc.dump(2, ' ', false, ProvenanceJson::error_handler_t::replace) + "\n";
}

}  // namespace hermes::cli
