// The "dataset" section: a built-in dataset by name, or one of your own described by its files,
// their format, one sample's shape and the class count (docs/data.md, "Your own dataset").
#include <algorithm>
#include <string>

#include "models/data/data_dir.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/run_names.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

using config::KeyType;

namespace {

constexpr int kMaxSide = 1 << 14;         // as IDX's largest dimension (models/data/idx.cc)
constexpr double kMaxSampleValues = 1e8;  // as a layer's largest output (models/nn/layer_plan.h)

const std::vector<std::string>& format_words() {
  static const std::vector<std::string> words = {"idx", "cifar-binary", "npz"};
  return words;
}

data::DataFormat format_of(const std::string& word) {
  if (word == "cifar-binary") return data::DataFormat::kCifarBinary;
  if (word == "npz") return data::DataFormat::kNpz;
  return data::DataFormat::kIdx;
}

// How many files one part of `format` takes: exactly (idx, npz) or at least (cifar-binary).
std::pair<std::size_t, bool> file_count(data::DataFormat format) {
  if (format == data::DataFormat::kIdx) return {2, true};
  if (format == data::DataFormat::kNpz) return {1, true};
  return {1, false};
}

std::string files_accepted(data::DataFormat format) {
  if (format == data::DataFormat::kIdx) return "a list of two file names: [images, labels]";
  if (format == data::DataFormat::kNpz) return "a list of one file name: [archive.npz]";
  return "a non-empty list of batch file names";
}

// A part's files when the scenario does not list them: MNIST's names for IDX, one archive named
// after the dataset for both parts of an .npz, none (required) for CIFAR-binary batches.
std::vector<std::string> default_files(const data::DatasetFiles& d, const std::string& part) {
  if (d.format == data::DataFormat::kIdx) {
    const data::DatasetFiles& mnist = data::dataset_files("mnist");
    return part == "train" ? mnist.train_files : mnist.test_files;
  }
  if (d.format == data::DataFormat::kNpz) return {d.name + ".npz"};
  return {};
}

// A part's file list ("train" or "test"); nullopt (reported) if it is not one.
std::optional<std::vector<std::string>> read_files(ObjectReader& r, const std::string& key,
                                                   data::DataFormat format,
                                                   std::vector<std::string> fallback) {
  const Json* list = r.accept(key);
  if (list == nullptr) {
    if (fallback.empty()) {
      r.missing(key);
      return std::nullopt;
    }
    r.out()[key] = fallback;
    return fallback;
  }
  const auto [count, exact] = file_count(format);
  const bool count_ok = list->is_array() && (exact ? list->size() == count : list->size() >= count);
  if (!count_ok) {
    r.wrong_type(key, files_accepted(format), *list);
    return std::nullopt;
  }
  std::vector<std::string> files;
  for (const Json& f : *list) {
    const bool base_name = f.is_string() && !f.get<std::string>().empty() &&
                           f.get<std::string>().find('/') == std::string::npos &&
                           f.get<std::string>() != "." && f.get<std::string>() != "..";
    if (!base_name) {
      r.error(key, "file " + config::describe_value(f) +
                       " is no file name (accepted: a name inside dataset.dir, without '/'; "
                       "the file may also be there gzipped, as <name>.gz)");
      return std::nullopt;
    }
    files.push_back(f.get<std::string>());
  }
  r.out()[key] = *list;
  return files;
}

std::optional<data::SampleShape> read_shape(ObjectReader& r) {
  const Json* shape = r.accept("shape");
  if (shape == nullptr) {
    r.missing("shape");
    return std::nullopt;
  }
  const std::string accepted = "[channels, height, width], each an integer from 1 to " +
                               std::to_string(kMaxSide) + ", e.g. [1, 28, 28]";
  bool ok = shape->is_array() && shape->size() == 3;
  for (std::size_t i = 0; ok && i < 3; ++i) {
    const Json& v = (*shape)[i];
    ok = v.is_number_integer() && v.get<std::int64_t>() >= 1 && v.get<std::int64_t>() <= kMaxSide;
  }
  if (!ok) {
    r.wrong_type("shape", accepted, *shape);
    return std::nullopt;
  }
  const data::SampleShape s{(*shape)[0].get<int>(), (*shape)[1].get<int>(), (*shape)[2].get<int>()};
  if (double(s.channels) * s.height * s.width > kMaxSampleValues) {
    r.error("shape", "one sample of " + shape->dump() + " holds more than " +
                         format_number(kMaxSampleValues) + " values (accepted: at most that)");
    return std::nullopt;
  }
  r.out()["shape"] = *shape;
  return s;
}

// The keys only a dataset of your own takes.
const std::vector<std::string> kOwnKeys = {"dir",   "train",   "test",
                                           "shape", "classes", "standardize"};

}  // namespace

const ObjectDecl& dataset_decl() {
  static const ObjectDecl decl{
      "dataset",
      {{.key = "name",
        .type = KeyType::kString,
        .default_text = "mnist",
        .accepted = "mnist, fashion-mnist, cifar10; with format, your dataset's own name",
        .help = "the dataset every run trains on"},
       {.key = "format",
        .type = KeyType::kChoice,
        .default_text = "none (a built-in dataset)",
        .choices = format_words(),
        .help = "your own dataset's file format: IDX, CIFAR-10's binary records, or NumPy .npz",
        .computed_default = true},
       {.key = "dir",
        .type = KeyType::kString,
        .default_text = "the name",
        .accepted = "a directory under a data root (as mnist/ is), or an absolute path",
        .help = "where your dataset's files are",
        .computed_default = true},
       {.key = "train",
        .type = KeyType::kArray,
        .default_text = "idx: MNIST's names; npz: [<name>.npz]",
        .accepted = "idx: [images, labels]; npz: [archive]; cifar-binary: [batch, ...]",
        .help = "the training set's files, inside dir",
        .computed_default = true},
       {.key = "test",
        .type = KeyType::kArray,
        .default_text = "idx: MNIST's names; npz: [<name>.npz]",
        .accepted = "as train",
        .help = "the test set's files, inside dir",
        .computed_default = true},
       {.key = "shape",
        .type = KeyType::kArray,
        .default_text = "required with format",
        .accepted = "[channels, height, width]",
        .help = "one sample's shape, which the files must have",
        .computed_default = true},
       {.key = "classes",
        .type = KeyType::kInteger,
        .default_text = "required with format",
        .range = Range::at_least(2).up_to(256),
        .help = "labels are 0 .. classes-1",
        .computed_default = true},
       {.key = "standardize",
        .type = KeyType::kBoolean,
        .default_text = "false",
        .help = "standardise each channel with the training set's mean and std (as cifar10)"}}};
  return decl;
}

DatasetSpec read_dataset(const Json* value, Diagnostics& diags, Json& out) {
  DatasetSpec d;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/dataset", diags, out,
                 dataset_decl());
  const auto names = data::dataset_names();
  const auto name = r.string("name", "mnist");
  const bool builtin = name && std::find(names.begin(), names.end(), *name) != names.end();
  if (!r.has("format")) {
    if (name && !builtin) {
      r.error("name", "unknown dataset '" + *name + "' (accepted: " + join_strings(names) +
                          ", or your own with \"format\", \"shape\" and \"classes\")");
    } else if (name) {
      d.name = *name;
      d.files = data::dataset_files(*name);
    }
    for (const std::string& key : kOwnKeys) {
      if (!r.has(key)) continue;
      r.accept(key);
      r.error(key, "only a dataset of your own takes " + key +
                       " (accepted: a built-in dataset's name alone, or \"format\" with it)");
    }
    r.finish();
    return d;
  }
  const std::size_t errors_before = diags.count();
  if (name && builtin) {
    r.error("name", "'" + *name + "' is a built-in dataset; yours needs its own name (accepted: " +
                        std::string(kNameRule) + ", other than " + join_strings(names) + ")");
  } else if (name && !is_valid_name(*name)) {
    r.error("name",
            "invalid dataset name '" + *name + "' (accepted: " + std::string(kNameRule) + ")");
  }
  const auto word = r.choice("format", format_words(), std::nullopt);
  data::DatasetFiles files;
  files.name = name.value_or("");
  files.format = format_of(word.value_or("idx"));
  const auto dir = r.string("dir", name.value_or(""));
  if (dir && dir->empty()) {
    r.error("dir", "empty (accepted: " + dataset_decl().find("dir")->accepted + ")");
  }
  files.subdir = dir.value_or("");
  const auto train = read_files(r, "train", files.format, default_files(files, "train"));
  const auto test = read_files(r, "test", files.format, default_files(files, "test"));
  const auto shape = read_shape(r);
  const auto classes = r.int32("classes", std::nullopt, Range::at_least(2).up_to(256));
  files.standardize = r.boolean("standardize", false).value_or(false);
  r.finish();
  if (word && train && test && shape && classes && diags.count() == errors_before) {
    files.train_files = *train;
    files.test_files = *test;
    files.shape = *shape;
    files.classes = *classes;
    d.name = files.name;
    d.files = std::move(files);
  }
  return d;
}

}  // namespace hermes::scenario
