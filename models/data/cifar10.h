// CIFAR-10, binary version (https://www.cs.toronto.edu/~kriz/cifar.html).
//
// A batch file is a sequence of 3073-byte records: 1 label byte (0..9), then 3072 pixel bytes as
// three 32x32 planes R, G, B, each row-major. That is already the CHW layout of Dataset, so a
// record converts in one pass. Files may be gzip-compressed or raw (see file_bytes.h).
//
// Normalisation (what load_dataset("cifar10") applies, in this order):
//   1. x = byte / 255, in [0, 1] (same scaling as MNIST);
//   2. per channel c: x' = (x - mean[c]) / std[c], where mean and std are computed over the
//      TRAINING set only (all 50000 images x 1024 pixels of channel c; population std, i.e.
//      divided by N, in double precision). The test set is standardised with the same training
//      statistics, so no test information leaks into the inputs. A channel with std 0 (only in
//      degenerate synthetic data) is only centred, never divided by 0.
// The statistics used are recorded in Dataset::channel_mean / channel_stddev of both sets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/data/dataset.h"
#include "models/data/dataset_format.h"

namespace hermes::data {

struct ChannelStats {
  std::vector<double> mean;    // one per channel
  std::vector<double> stddev;  // population standard deviation, one per channel
};

// One part of a CIFAR-binary dataset (dataset_format.h, kCifarBinary): reads the batch files in
// the given order and concatenates their records, each 1 label byte (< `classes`) then C*H*W pixel
// bytes as `shape` says (CIFAR-10: 3x32x32, 3073-byte records), into one dataset with pixels in
// [0, 1] (not standardised). Throws hermes::InputError naming the file if it is missing, corrupt
// gzip, empty, not a multiple of the record size, larger than `max_file_bytes` (or decompressing
// to more), or holds a label >= `classes`.
Dataset read_cifar_binary_part(const std::vector<std::string>& paths, std::string name,
                               SampleShape shape, int classes, std::uint64_t max_file_bytes);

// How many records the batch files hold, from their sizes (gzip files are inflated and counted,
// not kept: file_bytes.h, content_size). Throws hermes::InputError naming the file as
// read_cifar_binary_part does for a size that is not a non-zero multiple of the record.
std::uint64_t count_cifar_binary_samples(const std::vector<std::string>& paths, SampleShape shape,
                                         std::uint64_t max_file_bytes);

// Per-channel mean and population std of ds's pixels over every sample and pixel position.
ChannelStats compute_channel_stats(const Dataset& ds);

// In place: x' = (x - mean[c]) / std[c] (std 0 treated as 1); records the stats in ds.
void standardize_channels(Dataset& ds, const ChannelStats& stats);

}  // namespace hermes::data
