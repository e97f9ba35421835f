#include "models/data/cifar10.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "base/diagnostics.h"
#include "models/data/file_bytes.h"
#include "models/data/idx.h"

namespace hermes::data {
namespace {

// The number of records in `bytes` bytes of `path`, which must be a non-zero multiple of them.
std::size_t record_count(std::uint64_t bytes, const std::string& path, SampleShape shape,
                         std::size_t record_bytes) {
  if (bytes == 0 || bytes % record_bytes != 0) {
    throw InputError(path + ": not a CIFAR-binary batch of " + shape.str() +
                     " images: " + std::to_string(bytes) +
                     " bytes (after gunzip), expected a non-zero multiple of " +
                     std::to_string(record_bytes) + " (1 label byte + " +
                     std::to_string(record_bytes - 1) + " pixel bytes per image)");
  }
  return static_cast<std::size_t>(bytes / record_bytes);
}

}  // namespace

std::uint64_t count_cifar_binary_samples(const std::vector<std::string>& paths, SampleShape shape,
                                         std::uint64_t max_file_bytes) {
  const std::size_t record_bytes = 1 + empty_dataset("", shape, 1).sample_dim();
  std::uint64_t samples = 0;
  for (const std::string& path : paths) {
    samples += record_count(content_size(path, max_file_bytes), path, shape, record_bytes);
  }
  return samples;
}

Dataset read_cifar_binary_part(const std::vector<std::string>& paths, std::string name,
                               SampleShape shape, int classes, std::uint64_t max_file_bytes) {
  Dataset ds = empty_dataset(std::move(name), shape, classes);
  const std::size_t pixel_bytes = ds.sample_dim();
  const std::size_t record_bytes = 1 + pixel_bytes;
  const float* unit = byte_to_unit_table();
  for (std::size_t f = 0; f < paths.size(); ++f) {
    const std::string& path = paths[f];
    const std::vector<std::uint8_t> bytes = read_file_maybe_gzip(path, max_file_bytes);
    const std::size_t n = record_count(bytes.size(), path, shape, record_bytes);
    // Official batches all hold 10000 records: reserve for all files once the first is known,
    // so ~600 MB of floats are not reallocated batch after batch.
    if (f == 0) {
      ds.labels.reserve(n * paths.size());
      ds.pixels.reserve(n * paths.size() * pixel_bytes);
    }
    const std::size_t first = ds.labels.size();
    ds.pixels.resize((first + n) * pixel_bytes);
    for (std::size_t r = 0; r < n; ++r) {
      const std::uint8_t* rec = bytes.data() + r * record_bytes;
      if (rec[0] >= classes) {
        throw InputError(path + ": label " + std::to_string(rec[0]) + " of record " +
                         std::to_string(r) + " is out of range, expected 0.." +
                         std::to_string(classes - 1));
      }
      ds.labels.push_back(rec[0]);
      float* out = ds.pixels.data() + (first + r) * pixel_bytes;
      for (std::size_t i = 0; i < pixel_bytes; ++i) out[i] = unit[rec[1 + i]];
    }
  }
  return ds;
}

ChannelStats compute_channel_stats(const Dataset& ds) {
  const std::size_t channels = static_cast<std::size_t>(ds.channels);
  const std::size_t plane = static_cast<std::size_t>(ds.height) * ds.width;
  ChannelStats stats;
  stats.mean.assign(channels, 0.0);
  stats.stddev.assign(channels, 0.0);
  if (ds.size() == 0 || plane == 0) return stats;
  const double count = static_cast<double>(ds.size() * plane);
  // Two passes (mean, then squared deviations) in double: no cancellation of sum(x^2)-n*mean^2.
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const float* s = ds.sample(i);
    for (std::size_t c = 0; c < channels; ++c) {
      double sum = 0.0;
      for (std::size_t p = 0; p < plane; ++p) sum += s[c * plane + p];
      stats.mean[c] += sum;
    }
  }
  for (double& m : stats.mean) m /= count;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const float* s = ds.sample(i);
    for (std::size_t c = 0; c < channels; ++c) {
      double sq = 0.0;
      for (std::size_t p = 0; p < plane; ++p) {
        const double d = s[c * plane + p] - stats.mean[c];
        sq += d * d;
      }
      stats.stddev[c] += sq;
    }
  }
  for (double& v : stats.stddev) v = std::sqrt(v / count);
  return stats;
}

void standardize_channels(Dataset& ds, const ChannelStats& stats) {
  const std::size_t channels = static_cast<std::size_t>(ds.channels);
  if (stats.mean.size() != channels || stats.stddev.size() != channels) {
    throw std::invalid_argument("standardize_channels: stats for " +
                                std::to_string(stats.mean.size()) + " channels, dataset has " +
                                std::to_string(channels));
  }
  const std::size_t plane = static_cast<std::size_t>(ds.height) * ds.width;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    float* s = ds.pixels.data() + i * ds.sample_dim();
    for (std::size_t c = 0; c < channels; ++c) {
      const double mean = stats.mean[c];
      const double inv = stats.stddev[c] > 0.0 ? 1.0 / stats.stddev[c] : 1.0;
      for (std::size_t p = 0; p < plane; ++p) {
        s[c * plane + p] = static_cast<float>((s[c * plane + p] - mean) * inv);
      }
    }
  }
  ds.channel_mean = stats.mean;
  ds.channel_stddev = stats.stddev;
}

}  // namespace hermes::data
