// The file formats a dataset can come in, and reading one part (train or test) of a dataset from
// its files into a Dataset: the one reader behind the built-in datasets (MNIST and Fashion-MNIST
// are IDX, CIFAR-10 is CIFAR-binary) and a scenario's own (docs/data.md, "Your own dataset").
//
// What each format holds (files may be gzip-compressed, except .npz, see file_bytes.h):
// - kIdx: paths = {images, labels}. Images: IDX with element type unsigned byte (0x08, scaled to
//   [0, 1] as byte / 255), float32 (0x0D) or float64 (0x0E, rounded to float) taken as they are;
//   dimensions [N, H, W] (one channel), [N, C, H, W] (channels first) or [N, D] with D = C*H*W (a
//   flat vector per sample, taken in CHW order). Labels: IDX unsigned byte, [N].
// - kCifarBinary: paths = batch files, read in order and concatenated. Each record is one label
//   byte then C*H*W pixel bytes as C planes of H x W, row-major (CIFAR-10's layout), scaled to
//   [0, 1].
// - kNpz: paths = {file}, a NumPy .npz archive (np.savez or np.savez_compressed) holding the
//   images as "x_<part>" (else "x") and the labels as "y_<part>" (else "y"), where <part> is
//   "train" or "test", so that one file can serve both parts (Keras' mnist.npz layout). Images:
//   dtype uint8 (scaled to [0, 1]), float32 or float64 (taken as they are), little-endian, C
//   order; shape (N, H, W) (one channel), (N, H, W, C) (channels last, NumPy's and Keras'
//   convention) or (N, C, H, W) (channels first), told apart by the declared shape (when both
//   fit, C == H == W, channels last). Labels: any integer dtype (int8..int64, uint8..uint64), shape
//   (N,) or (N, 1).
// Every format: image and label counts agree, N >= 1, every label is in [0, classes), and the
// samples have the declared shape; the result's pixels are CHW floats, not standardised.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/data/dataset.h"

namespace hermes::data {

enum class DataFormat { kIdx, kCifarBinary, kNpz };

// "idx", "cifar-binary", "npz".
std::string format_name(DataFormat format);

struct SampleShape {
  int channels = 1;
  int height = 28;
  int width = 28;
  bool operator==(const SampleShape&) const = default;
  std::string str() const;  // "3x32x32": channels x height x width, as a scenario writes it
};

// A dataset named `name` of no sample yet, of `shape` and `classes`: what each reader fills.
Dataset empty_dataset(std::string name, SampleShape shape, int classes);

// The largest file of a scenario's own dataset, or what it decompresses to: 2 GiB (8 GiB of
// floats in memory for uint8 images).
inline constexpr std::uint64_t kMaxOwnDataFileBytes = 2ULL << 30;

// One part ("train" or "test") of a dataset from `paths` (full paths, as the format above says).
// `name` becomes Dataset::name ("fashion-mnist-3/train"). `classes` in [1, 256]. A file larger
// than `max_file_bytes` (or decompressing to more) is refused. Throws hermes::InputError naming
// the file and the reason: missing or unreadable, corrupt, another format, element type or
// dtype, dimensions that do not give `shape`, counts that differ, a label out of range (its
// index and value).
Dataset read_dataset_part(DataFormat format, const std::vector<std::string>& paths,
                          const std::string& part, std::string name, SampleShape shape, int classes,
                          std::uint64_t max_file_bytes);

// How many samples read_dataset_part would give for the same files, read from what tells it without
// the images: IDX, the labels file; CIFAR-binary, the batches' sizes (gzip ones inflated and
// counted); npz, the labels array. What the memory estimate of a scenario's own dataset is made
// of, before anything is loaded. Throws as read_dataset_part does for what it reads.
std::uint64_t count_part_samples(DataFormat format, const std::vector<std::string>& paths,
                                 const std::string& part, SampleShape shape,
                                 std::uint64_t max_file_bytes);

}  // namespace hermes::data
