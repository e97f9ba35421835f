// An in-memory labelled image dataset, loaded once and shared read-only by every worker.
// Workers never copy pixels: they hold index lists (chunks) into one Dataset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hermes::data {

struct Dataset {
  std::string name;  // e.g. "mnist/train"
  int channels = 1;
  int height = 0;
  int width = 0;
  int num_classes = 10;
  // size() * sample_dim() floats; sample i starts at pixels[i * sample_dim()], layout CHW.
  std::vector<float> pixels;
  std::vector<std::uint8_t> labels;
  // Per-channel standardisation applied after scaling bytes to [0,1]: x' = (x - mean[c]) /
  // stddev[c]. Empty when none was applied (MNIST, Fashion-MNIST). For CIFAR-10 these are the
  // TRAINING set's statistics, recorded on the train and the test set alike.
  std::vector<double> channel_mean;
  std::vector<double> channel_stddev;

  std::size_t size() const { return labels.size(); }
  std::size_t sample_dim() const {
    return static_cast<std::size_t>(channels) * static_cast<std::size_t>(height) *
           static_cast<std::size_t>(width);
  }
  const float* sample(std::size_t i) const { return pixels.data() + i * sample_dim(); }
};

using DatasetPtr = std::shared_ptr<const Dataset>;

struct TrainTestSplit {
  DatasetPtr train;
  DatasetPtr test;
};

}  // namespace hermes::data
