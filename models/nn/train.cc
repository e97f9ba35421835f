#include "models/nn/train.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/random.h"
#include "models/data/dataset.h"
#include "models/nn/param_ops.h"

namespace hermes::nn {

namespace {

void check_compatible(const Model& model, const data::Dataset& dataset) {
  if (dataset.sample_dim() != model.input_dim() || dataset.num_classes != model.num_classes()) {
    throw std::invalid_argument(
        "model '" + model.spec().name + "' expects " + model.input_shape().str() + " samples and " +
        std::to_string(model.num_classes()) + " classes; dataset '" + dataset.name + "' has " +
        std::to_string(dataset.channels) + "x" + std::to_string(dataset.height) + "x" +
        std::to_string(dataset.width) + " and " + std::to_string(dataset.num_classes));
  }
  if (dataset.pixels.size() != dataset.size() * dataset.sample_dim()) {
    throw std::invalid_argument("dataset '" + dataset.name +
                                "': pixel count does not match labels");
  }
}

void check_indices(std::span<const std::uint32_t> indices, const data::Dataset& dataset) {
  for (const std::uint32_t i : indices) {
    if (i >= dataset.size()) {
      throw std::invalid_argument("sample index " + std::to_string(i) + " out of range for '" +
                                  dataset.name + "' (" + std::to_string(dataset.size()) +
                                  " samples)");
    }
  }
}

// Copies samples idx[0..n) into the model's input buffer and their labels into `labels`.
void gather(Model& model, const data::Dataset& dataset, const std::uint32_t* idx, int n,
            std::uint8_t* labels) {
  const std::size_t dim = dataset.sample_dim();
  float* dst = model.input();
  for (int j = 0; j < n; ++j) {
    std::copy_n(dataset.sample(idx[j]), dim, dst + static_cast<std::size_t>(j) * dim);
    labels[j] = dataset.labels[idx[j]];
  }
}

}  // namespace

TrainStats train_epochs(Model& model, const data::Dataset& dataset,
                        std::span<const std::uint32_t> indices, int epochs, int batch, float lr,
                        RandomStream* shuffle, std::span<float> grad_sum) {
  if (epochs < 0) throw std::invalid_argument("train_epochs: epochs must be >= 0");
  if (batch <= 0) throw std::invalid_argument("train_epochs: batch must be > 0");
  if (!grad_sum.empty() && grad_sum.size() != model.num_params()) {
    throw std::invalid_argument("train_epochs: grad_sum size != model parameters");
  }
  check_compatible(model, dataset);
  check_indices(indices, dataset);
  TrainStats stats;
  if (indices.empty() || epochs == 0) return stats;

  model.reserve_batch(std::min<int>(batch, static_cast<int>(indices.size())));
  std::vector<std::uint32_t> order;
  if (shuffle != nullptr) order.assign(indices.begin(), indices.end());
  std::vector<std::uint8_t> labels(static_cast<std::size_t>(batch));
  const std::size_t count = indices.size();
  double total_loss = 0.0;
  for (int e = 0; e < epochs; ++e) {
    const std::uint32_t* idx = indices.data();
    if (shuffle != nullptr) {
      for (std::size_t i = count - 1; i > 0; --i) {
        std::swap(order[i], order[shuffle->uniform_int(i + 1)]);
      }
      idx = order.data();
    }
    double epoch_loss = 0.0;
    for (std::size_t begin = 0; begin < count; begin += static_cast<std::size_t>(batch)) {
      const int n = static_cast<int>(std::min<std::size_t>(batch, count - begin));
      gather(model, dataset, idx + begin, n, labels.data());
      epoch_loss += model.forward_backward(labels.data(), n).loss_sum;
      model.sgd_step(lr);
      if (!grad_sum.empty()) axpy(1.0f, model.grads(), grad_sum);
      ++stats.steps;
    }
    total_loss += epoch_loss;
    stats.last_epoch_loss = epoch_loss / static_cast<double>(count);
  }
  stats.samples = static_cast<std::int64_t>(count) * epochs;
  stats.mean_loss = total_loss / static_cast<double>(stats.samples);
  return stats;
}

EvalStats evaluate(Model& model, const data::Dataset& dataset,
                   std::span<const std::uint32_t> indices, int batch) {
  if (batch <= 0) throw std::invalid_argument("evaluate: batch must be > 0");
  check_compatible(model, dataset);
  check_indices(indices, dataset);
  EvalStats stats;
  if (indices.empty()) return stats;
  model.reserve_batch(std::min<int>(batch, static_cast<int>(indices.size())));
  std::vector<std::uint8_t> labels(static_cast<std::size_t>(batch));
  double loss = 0.0;
  for (std::size_t begin = 0; begin < indices.size(); begin += static_cast<std::size_t>(batch)) {
    const int n = static_cast<int>(std::min<std::size_t>(batch, indices.size() - begin));
    gather(model, dataset, indices.data() + begin, n, labels.data());
    const SoftmaxCeResult r = model.forward_loss(labels.data(), n);
    loss += r.loss_sum;
    stats.correct += static_cast<std::size_t>(r.correct);
  }
  stats.samples = indices.size();
  stats.loss = loss / static_cast<double>(stats.samples);
  stats.accuracy = static_cast<double>(stats.correct) / static_cast<double>(stats.samples);
  return stats;
}

EvalStats evaluate(Model& model, const data::Dataset& dataset, int batch) {
  std::vector<std::uint32_t> all(dataset.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint32_t>(i);
  return evaluate(model, dataset, all, batch);
}

}  // namespace hermes::nn
