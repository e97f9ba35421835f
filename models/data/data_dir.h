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
// Roots, in order: the --data-dir flag (if non-empty), $HERMES_DATA_DIR (if set and non-empty),
// <repo>/data, <repo>/../shared/data, and for fashion-mnist /usr/share/datasets. <repo> is the
// source tree hermes_data was compiled from (HERMES_SOURCE_DIR). A root counts only if ALL the
// dataset's files are in its subdirectory; otherwise the next one is tried (a half-downloaded
// directory is skipped, and the error says what each place lacks).
#pragma once

#include <string>
#include <vector>

namespace hermes::data {

struct DatasetFiles {
  std::string name;                      // "mnist", "fashion-mnist", "cifar10"
  std::string subdir;                    // directory under a data root: "mnist", "cifar-10"...
  std::vector<std::string> train_files;  // base names, without the optional ".gz"
  std::vector<std::string> test_files;
};

// The accepted dataset names, in a stable order: mnist, fashion-mnist, cifar10.
std::vector<std::string> dataset_names();

// Throws hermes::InputError listing the accepted names if `dataset` is not one of them.
const DatasetFiles& dataset_files(const std::string& dataset);

struct DataRootCandidate {
  std::string origin;  // "--data-dir", "$HERMES_DATA_DIR", "<repo>/data", ...
  std::string root;    // empty if that source is not set
};

// Every source of a data root for `dataset`, in resolution order (unset ones with an empty root,
// so that error messages can say they were not given).
std::vector<DataRootCandidate> data_root_candidates(const std::string& dataset,
                                                    const std::string& data_dir_flag);

// `dir`/`base` if it is a regular file, else `dir`/`base`.gz if it is, else "".
std::string find_data_file(const std::string& dir, const std::string& base);

// The first candidate whose dataset subdirectory holds all the files; returns that subdirectory
// (lexically normalised). Throws InputError listing every candidate and what it lacks.
std::string resolve_data_dir_among(const std::string& dataset,
                                   const std::vector<DataRootCandidate>& candidates);

}  // namespace hermes::data
