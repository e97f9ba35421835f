#include "models/data/data_dir.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <system_error>
#include <utility>

#include "base/build_tree.h"
#include "base/diagnostics.h"
#include "models/data/loaders.h"

namespace hermes::data {
namespace fs = std::filesystem;
namespace {

// The origin of the one candidate of an absolute dataset.dir.
const std::string kAbsoluteDirOrigin = "dataset.dir";

const std::vector<DatasetFiles>& all_datasets() {
  static const std::vector<DatasetFiles> specs = [] {
    const std::vector<std::string> idx_train = {"train-images-idx3-ubyte",
                                                "train-labels-idx1-ubyte"};
    const std::vector<std::string> idx_test = {"t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};
    const auto idx = [&](std::string name) {
      DatasetFiles d;
      d.name = d.subdir = name;
      d.train_files = idx_train;
      d.test_files = idx_test;
      d.format = DataFormat::kIdx;
      d.shape = {1, 28, 28};
      d.train_size = 60000;
      d.test_size = 10000;
      d.builtin = true;
      return d;
    };
    DatasetFiles cifar;
    cifar.name = "cifar10";
    cifar.subdir = "cifar-10";
    cifar.train_files = {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                         "data_batch_4.bin", "data_batch_5.bin"};
    cifar.test_files = {"test_batch.bin"};
    cifar.format = DataFormat::kCifarBinary;
    cifar.shape = {3, 32, 32};
    cifar.standardize = true;
    cifar.train_size = 50000;
    cifar.test_size = 10000;
    cifar.builtin = true;
    return std::vector<DatasetFiles>{idx("mnist"), idx("fashion-mnist"), cifar};
  }();
  return specs;
}

bool is_file_noexcept(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// What stands at dir/base (or base.gz) that is not a data file: "train-images-idx3-ubyte is a
// directory", "... is a character device (a symlink to /dev/zero)"; "" if nothing does.
std::string not_a_data_file(const std::string& dir, const std::string& base) {
  for (const std::string& name : {base, base + ".gz"}) {
    const fs::path p = fs::path(dir) / name;
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (!fs::exists(st)) {
      if (fs::is_symlink(fs::symlink_status(p, ec))) return name + " is a dangling symbolic link";
      continue;
    }
    std::string kind = fs::is_directory(st)        ? "a directory"
                       : fs::is_character_file(st) ? "a character device"
                       : fs::is_block_file(st)     ? "a block device"
                       : fs::is_fifo(st)           ? "a FIFO"
                       : fs::is_socket(st)         ? "a socket"
                                                   : "a special file";
    if (fs::is_symlink(fs::symlink_status(p, ec))) {
      kind += " (a symbolic link to " + fs::read_symlink(p, ec).string() + ")";
    }
    return name + " is " + kind + ", not a regular file";
  }
  return "";
}

// "" if every file is there, else what is missing or in the way (for the error message).
std::string missing_files(const DatasetFiles& spec, const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return "no such directory";
  std::string missing;
  std::string wrong;
  for (const auto* list : {&spec.train_files, &spec.test_files}) {
    for (const std::string& base : *list) {
      if (!find_data_file(dir, base).empty()) continue;
      if (const std::string why = not_a_data_file(dir, base); !why.empty()) {
        wrong += (wrong.empty() ? "" : ", ") + why;
      } else {
        missing += (missing.empty() ? "missing " : ", ") + base + "[.gz]";
      }
    }
  }
  return missing + (missing.empty() || wrong.empty() ? "" : "; ") + wrong;
}

std::string file_list(const DatasetFiles& spec) {
  std::string out;
  const std::size_t total = spec.train_files.size() + spec.test_files.size();
  std::size_t i = 0;
  for (const auto* list : {&spec.train_files, &spec.test_files}) {
    for (const std::string& base : *list) {
      out += (i == 0 ? "" : i + 1 == total ? " and " : ", ") + base;
      ++i;
    }
  }
  return out;
}

// The default places of `spec`, for the advice of an explicit choice's error.
std::string default_places(const DatasetFiles& spec) {
  std::string out = build_source_tree().empty() ? "" : "<repo>/data, <repo>/../shared/data";
  if (spec.name == "fashion-mnist") {
    out += (out.empty() ? "" : ", ") + std::string("/usr/share/datasets (dataset-fashion-mnist)");
  }
  return out.empty() ? "none outside a build tree" : out;
}

// The error for an explicit choice that lacks the dataset: names the choice as given, the
// directory looked at and what it lacks, and how to fix it. No other place was tried.
std::string explicit_choice_error(const DatasetFiles& spec, const DataRootCandidate& c,
                                  const std::string& dir, const std::string& missing) {
  const bool flag = c.origin == "--data-dir";
  const std::string abs = fs::absolute(dir).lexically_normal().string();
  if (c.origin == kAbsoluteDirOrigin) {
    return "dataset \"" + spec.name + "\" not found: its dataset.dir " + abs + ": " + missing +
           ". An absolute dataset.dir is the only place looked at (accepted: a directory holding " +
           file_list(spec) + ", each may be gzipped, .gz).";
  }
  const std::string given = flag ? c.origin + " " + c.root : c.origin + "=" + c.root;
  std::string msg =
      "dataset \"" + spec.name + "\" not found: " + given + ": " + abs + ": " + missing + ".\n" +
      c.origin +
      (flag ? " is the only place looked at when it is given"
            : " is the only place looked at when it is set and --data-dir is not "
              "given") +
      " (no fallback to another copy). Point it at a directory holding " + spec.subdir + "/ with " +
      file_list(spec) + " (each may be gzipped, .gz), or " +
      (flag ? "leave out --data-dir to use $HERMES_DATA_DIR or" : "unset HERMES_DATA_DIR to use") +
      " the default places (" + default_places(spec) + ").";
  if (spec.builtin && spec.name != "fashion-mnist") {
    msg += "\ntools/fetch-data (in the source tree) downloads MNIST and CIFAR-10 into " +
           std::string(build_source_tree().empty() ? "data/" : "<repo>/data") + ".";
  }
  return msg;
}

std::string hint_for(const DatasetFiles& spec) {
  if (!spec.builtin) {
    return "Put " + spec.subdir +
           "/ under one of these places, or pass --data-dir / set "
           "HERMES_DATA_DIR to a directory holding it, or give dataset.dir as an absolute path.";
  }
  if (spec.name == "fashion-mnist") {
    return "Install the Debian package dataset-fashion-mnist (tools/deps), or pass --data-dir / "
           "set HERMES_DATA_DIR to a directory holding fashion-mnist/.";
  }
  if (build_source_tree().empty()) {  // an installed binary: no default place of its own
    return "Pass --data-dir or set HERMES_DATA_DIR to a directory holding " + spec.subdir +
           "/ (an installed hermes-sim has no default place for it; the source tree's "
           "tools/fetch-data downloads MNIST and CIFAR-10).";
  }
  return "Run tools/fetch-data to download MNIST and CIFAR-10 into <repo>/data, or pass "
         "--data-dir / set HERMES_DATA_DIR to a directory holding " +
         spec.subdir + "/.";
}

}  // namespace

std::vector<std::string> dataset_names() {
  std::vector<std::string> names;
  for (const auto& spec : all_datasets()) names.push_back(spec.name);
  return names;
}

const DatasetFiles& dataset_files(const std::string& dataset) {
  for (const auto& spec : all_datasets()) {
    if (spec.name == dataset) return spec;
  }
  std::string accepted;
  for (const auto& name : dataset_names()) accepted += (accepted.empty() ? "" : ", ") + name;
  throw InputError("unknown dataset \"" + dataset + "\": accepted values are " + accepted);
}

std::vector<DataRootCandidate> data_root_candidates(const std::string& dataset,
                                                    const std::string& data_dir_flag) {
  return data_root_candidates(dataset_files(dataset), data_dir_flag);
}

std::vector<DataRootCandidate> data_root_candidates(const DatasetFiles& spec,
                                                    const std::string& data_dir_flag) {
  // fs::path(root) / subdir is subdir itself when subdir is absolute.
  if (fs::path(spec.subdir).is_absolute()) return {{kAbsoluteDirOrigin, spec.subdir, true}};
  if (!data_dir_flag.empty()) return {{"--data-dir", data_dir_flag, true}};
  const char* env = std::getenv("HERMES_DATA_DIR");
  if (env != nullptr && *env != '\0') return {{"$HERMES_DATA_DIR", env, true}};
  std::vector<DataRootCandidate> out;
  out.push_back({"--data-dir", ""});
  out.push_back({"$HERMES_DATA_DIR", ""});
  // A build-tree binary's source tree (base/build_tree.h); an installed binary has none.
  if (const std::string& repo = build_source_tree(); !repo.empty()) {
    out.push_back({"<repo>/data", (fs::path(repo) / "data").lexically_normal().string()});
    out.push_back({"<repo>/../shared/data",
                   (fs::path(repo) / ".." / "shared" / "data").lexically_normal().string()});
  }
  if (spec.builtin && spec.name == "fashion-mnist") {
    out.push_back({"Debian package dataset-fashion-mnist", "/usr/share/datasets"});
  }
  return out;
}

std::string find_data_file(const std::string& dir, const std::string& base) {
  const fs::path raw = fs::path(dir) / base;
  if (is_file_noexcept(raw)) return raw.string();
  const fs::path gz = fs::path(dir) / (base + ".gz");
  if (is_file_noexcept(gz)) return gz.string();
  return "";
}

namespace {

// resolve_data_dir_among, also returning which candidate held the dataset.
std::pair<std::string, const DataRootCandidate*> resolve_among(
    const DatasetFiles& spec, const std::vector<DataRootCandidate>& candidates) {
  std::ostringstream tried;
  for (const auto& c : candidates) {
    tried << "\n  " << c.origin << ": ";
    if (c.root.empty()) {
      tried << "(not set)";
      continue;
    }
    const std::string dir = (fs::path(c.root) / spec.subdir).lexically_normal().string();
    const std::string missing = missing_files(spec, dir);
    if (missing.empty()) return {dir, &c};
    if (c.explicit_choice) throw InputError(explicit_choice_error(spec, c, dir, missing));
    tried << dir << " (" << missing << ")";
  }
  throw InputError("dataset \"" + spec.name + "\" not found: no data directory holds " +
                   spec.subdir + "/ with all its files. Places tried, in order:" + tried.str() +
                   "\n" + hint_for(spec));
}

}  // namespace

std::string resolve_data_dir_among(const std::string& dataset,
                                   const std::vector<DataRootCandidate>& candidates) {
  return resolve_among(dataset_files(dataset), candidates).first;
}

std::string resolve_data_dir_among(const DatasetFiles& spec,
                                   const std::vector<DataRootCandidate>& candidates) {
  return resolve_among(spec, candidates).first;
}

std::string resolve_data_dir(const std::string& dataset, const std::string& data_dir_flag) {
  return resolve_data_dir_among(dataset, data_root_candidates(dataset, data_dir_flag));
}

DataLocation locate_dataset(const std::string& dataset, const std::string& data_dir_flag) {
  return locate_dataset(dataset_files(dataset), data_dir_flag);
}

DataLocation locate_dataset(const DatasetFiles& spec, const std::string& data_dir_flag) {
  const auto candidates = data_root_candidates(spec, data_dir_flag);
  const auto [dir, candidate] = resolve_among(spec, candidates);
  DataLocation loc{
      spec, spec.name, fs::absolute(dir).lexically_normal().string(), candidate->origin, {}, {}};
  for (const auto& base : spec.train_files)
    loc.train_files.push_back(find_data_file(loc.dir, base));
  for (const auto& base : spec.test_files) loc.test_files.push_back(find_data_file(loc.dir, base));
  return loc;
}

std::string description_key(const DatasetFiles& spec) {
  std::string key = spec.name + "|" + spec.subdir + "|" + format_name(spec.format) + "|" +
                    spec.shape.str() + "|" + std::to_string(spec.classes) + "|" +
                    (spec.standardize ? "standardize" : "scale");
  for (const auto* list : {&spec.train_files, &spec.test_files}) {
    key += "|";
    for (const auto& f : *list) key += f + ",";
  }
  return key;
}

std::string location_text(const DataLocation& location) {
  return location.dataset + " from " + location.dir + " (" + location.origin + ")";
}

}  // namespace hermes::data
