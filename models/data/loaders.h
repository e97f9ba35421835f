// Dataset loaders and data-directory resolution.
#pragma once

#include <string>

#include "models/data/dataset.h"

namespace hermes::data {

// Accepted dataset names: "mnist", "fashion-mnist", "cifar10".
// Resolves the directory holding `dataset`'s files, in this order: the --data-dir flag (if
// non-empty), $HERMES_DATA_DIR, <repo>/data, <repo>/../shared/data (and for fashion-mnist also
// /usr/share/datasets/fashion-mnist). A candidate counts only if the dataset's files are there.
// Throws InputError listing every place tried.
std::string resolve_data_dir(const std::string& dataset, const std::string& data_dir_flag);

// Loads the train and test sets of `dataset` from the resolved directory (gzip or raw files).
// MNIST/Fashion-MNIST: 1x28x28 floats in [0,1]. CIFAR-10: 3x32x32, [0,1] then per-channel
// standardised with the training set's mean and std.
TrainTestSplit load_dataset(const std::string& dataset, const std::string& data_dir_flag);

}  // namespace hermes::data
