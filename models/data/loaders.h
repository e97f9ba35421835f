// Dataset loaders and data-directory resolution.
#pragma once

#include <cstdint>
#include <string>

#include "models/data/data_dir.h"
#include "models/data/dataset.h"

namespace hermes::data {

// Accepted dataset names: "mnist", "fashion-mnist", "cifar10".
// Resolves the directory holding `dataset`'s files: the --data-dir flag if non-empty, alone; else
// $HERMES_DATA_DIR if set and non-empty, alone; else, in this order, <repo>/data,
// <repo>/../shared/data (and for fashion-mnist also /usr/share/datasets/fashion-mnist), where a
// candidate counts only if the dataset's files are there. Throws InputError naming the explicit
// choice and what it lacks, or listing every default place tried.
// Each place is a data ROOT: the files must be in its subdirectory mnist/, fashion-mnist/ or
// cifar-10/ (see data_dir.h for the file names; each may carry a .gz suffix). The returned path is
// that subdirectory, e.g. "/work/shared/data/mnist".
std::string resolve_data_dir(const std::string& dataset, const std::string& data_dir_flag);

// Loads the train and test sets of `dataset` from the resolved directory (gzip or raw files).
// MNIST/Fashion-MNIST: 1x28x28 floats in [0,1]. CIFAR-10: 3x32x32, [0,1] then per-channel
// standardised with the training set's mean and std.
// Names: "<dataset>/train" and "<dataset>/test". Throws hermes::InputError naming the file on any
// missing or malformed input (see idx.h, cifar10.h, file_bytes.h).
// Shared and cached per process (thread-safe): while any caller still holds a returned set, a
// further load of the same files (same canonical paths, sizes and modification times) returns
// the very same pointers instead of reading again; once nobody holds it, it is freed.
TrainTestSplit load_dataset(const std::string& dataset, const std::string& data_dir_flag);
// The same from an already resolved location (locate_dataset), so that a caller can report and
// record the very files it loads.
TrainTestSplit load_dataset(const DataLocation& location);

// The sample counts of a located dataset's train and test sets without loading it: a built-in
// dataset's official counts, else what its files tell (count_part_samples, dataset_format.h).
// Throws InputError as loading would for what it reads.
struct SampleCounts {
  std::uint64_t train = 0;
  std::uint64_t test = 0;
};
SampleCounts count_samples(const DataLocation& location);

}  // namespace hermes::data
