// Where each dataset's files live, and how its directory is found.
//
// Layout: every candidate place is a data ROOT holding one subdirectory per dataset, exactly the
// layout tools/fetch-data writes and /work/shared/data has:
//   <root>/mnist/          train-images-idx3-ubyte, train-labels-idx1-ubyte,
//                          t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte
//   <root>/fashion-mnist/  the same four IDX names
//   <root>/cifar-10/       data_batch_1.bin .. data_batch_5.bin, test_batch.bin
// Each file may also be named with a `.gz` suffix (the content decides whether it is gunzipped);
// when both `x` and `x.gz` exist, `x` is used. Files placed directly in <root> do NOT count: MNIST
// and Fashion-MNIST share file names, so a root holding loose IDX files would silently serve the
// wrong dataset. (The Debian package's /usr/share/datasets/fashion-mnist is the subdirectory
// fashion-mnist of the root /usr/share/datasets.)
//
// Roots: an explicit choice is the only place looked at. If the --data-dir flag is given
// (non-empty), only it; else if $HERMES_DATA_DIR is set and non-empty, only it; if it lacks the
// dataset's files, that is an error naming the choice and what it lacks (no silent fallback to
// another copy). Only when neither is given are the defaults tried, in order: <repo>/data,
// <repo>/../shared/data, and for fashion-mnist /usr/share/datasets. <repo> is the source tree of a
// build-tree binary (base/build_tree.h: its build directory's hermes-source-tree.txt); an
// installed binary has no <repo> defaults. A default root counts only if ALL the
// dataset's files are in its subdirectory; otherwise the next one is tried (a half-downloaded
// directory is skipped, and the error says what each place lacks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/data/dataset_format.h"

namespace hermes::data {

// A dataset's description: its files, their format and what one sample is. The built-in
// datasets are entries of a table (dataset_files); a scenario's own dataset is one more such
// description (sim/scenario: the "dataset" section, docs/data.md).
struct DatasetFiles {
  std::string name;  // "mnist", "fashion-mnist", "cifar10", or a scenario's own name
  // The directory under a data root ("mnist", "cifar-10"), or an absolute directory (then the only
  // place looked at).
  std::string subdir;
  std::vector<std::string> train_files;  // base names, without the optional ".gz"
  std::vector<std::string> test_files;
  DataFormat format = DataFormat::kIdx;
  SampleShape shape;  // one sample, stored CHW
  int classes = 10;
  // Per-channel standardisation with the training set's mean and std (cifar10.h), after scaling.
  bool standardize = false;
  // The official files' sample counts (built-in datasets); 0 when only the files tell.
  std::int64_t train_size = 0;
  std::int64_t test_size = 0;
  bool builtin = false;
};

// One line that differs whenever two descriptions would load differently: what caches and sweeps
// key a loaded dataset by.
std::string description_key(const DatasetFiles& spec);

// The accepted dataset names, in a stable order: mnist, fashion-mnist, cifar10.
std::vector<std::string> dataset_names();

// Throws hermes::InputError listing the accepted names if `dataset` is not one of them.
const DatasetFiles& dataset_files(const std::string& dataset);

struct DataRootCandidate {
  std::string origin;  // "--data-dir", "$HERMES_DATA_DIR", "<repo>/data", ...
  std::string root;    // as given; empty if that source is not set
  // The user's explicit choice (--data-dir, $HERMES_DATA_DIR): if it lacks the dataset, the
  // resolution stops there with an error instead of trying the next candidate.
  bool explicit_choice = false;
};

// The places to look for `dataset`, in resolution order: [--data-dir] alone if `data_dir_flag` is
// non-empty; else [$HERMES_DATA_DIR] alone if it is set and non-empty (both explicit choices);
// else the flag and the variable as unset entries (empty root, so that error messages can say
// they were not given) followed by the defaults.
std::vector<DataRootCandidate> data_root_candidates(const std::string& dataset,
                                                    const std::string& data_dir_flag);
// The same for any description; an absolute `subdir` is the only candidate ("dataset.dir").
std::vector<DataRootCandidate> data_root_candidates(const DatasetFiles& spec,
                                                    const std::string& data_dir_flag);

// `dir`/`base` if it is a regular file, else `dir`/`base`.gz if it is, else "".
std::string find_data_file(const std::string& dir, const std::string& base);

// The first candidate whose dataset subdirectory holds all the files; returns that subdirectory
// (lexically normalised). Throws InputError: for an explicit candidate that lacks the files, naming
// it and what it lacks (the candidates after it are not tried); otherwise listing every candidate
// tried and what it lacks.
std::string resolve_data_dir_among(const std::string& dataset,
                                   const std::vector<DataRootCandidate>& candidates);
std::string resolve_data_dir_among(const DatasetFiles& spec,
                                   const std::vector<DataRootCandidate>& candidates);

// Where a dataset was found, and its files: what a run loads and records in provenance.json.
struct DataLocation {
  DatasetFiles spec;                     // what was looked for
  std::string dataset;                   // "mnist"
  std::string dir;                       // absolute, lexically normal: "/data/mnist"
  std::string origin;                    // the candidate that held it: "--data-dir", "<repo>/data"
  std::vector<std::string> train_files;  // full paths of the files found (raw or .gz), in the
  std::vector<std::string> test_files;   // order of DatasetFiles
};

// Resolves `dataset` as resolve_data_dir does and lists its files. Throws InputError as above.
DataLocation locate_dataset(const std::string& dataset, const std::string& data_dir_flag);
DataLocation locate_dataset(const DatasetFiles& spec, const std::string& data_dir_flag);

// "mnist from /work/shared/data/mnist (<repo>/../shared/data)": the line `run`, `train` and
// `sweep` print before they start.
std::string location_text(const DataLocation& location);

}  // namespace hermes::data
