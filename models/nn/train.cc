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
        Shape{dataset.channels, dataset.height, dataset.width, Layout::kCHW}.str() + " and " +
        std::to_string(dataset.num_classes));
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

EpochCursor::EpochCursor(std::span<const std::uint32_t> indices, int epochs, int batch)
    : order_(indices.begin(), indices.end()), epochs_(epochs), batch_(batch) {
  if (epochs < 0) throw std::invalid_argument("train_epochs: epochs must be >= 0");
  if (batch <= 0) throw std::invalid_argument("train_epochs: batch must be > 0");
  const auto count = static_cast<std::int64_t>(order_.size());
  steps_per_epoch_ = (count + batch - 1) / batch;
}

std::int64_t EpochCursor::samples_in_next(std::int64_t steps) const {
  const auto count = order_.size();
  std::int64_t samples = 0;
  std::size_t pos = pos_;
  for (std::int64_t s = steps_done_; s < std::min(steps_done_ + steps, total_steps()); ++s) {
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(batch_), count - pos);
    samples += static_cast<std::int64_t>(n);
    pos = pos + n == count ? 0 : pos + n;
  }
  return samples;
}

TrainStats EpochCursor::train(Model& model, const data::Dataset& dataset, std::int64_t steps,
                              float lr, RandomStream* shuffle, std::span<float> grad_sum) {
  return train(model, dataset, steps, Sgd{.lr = lr}, shuffle, grad_sum);
}

TrainStats EpochCursor::train(Model& model, const data::Dataset& dataset, std::int64_t steps,
                              const Sgd& sgd, RandomStream* shuffle, std::span<float> grad_sum) {
  if (!grad_sum.empty() && grad_sum.size() != model.num_params()) {
    throw std::invalid_argument("train_epochs: grad_sum size != model parameters");
  }
  TrainStats stats;
  const std::size_t count = order_.size();
  if (count == 0 || done() || steps <= 0) return stats;
  if (steps_done_ == 0) {
    check_compatible(model, dataset);
    check_indices(order_, dataset);
  }
  model.reserve_batch(std::min<int>(batch_, static_cast<int>(count)));
  std::vector<std::uint8_t> labels(static_cast<std::size_t>(batch_));
  double loss = 0.0;
  for (std::int64_t taken = 0; taken < steps && !done(); ++taken) {
    if (pos_ == 0 && shuffle != nullptr) {  // an epoch begins: a new order (Fisher-Yates)
      for (std::size_t i = count - 1; i > 0; --i) {
        std::swap(order_[i], order_[shuffle->uniform_int(i + 1)]);
      }
    }
    const int n = static_cast<int>(std::min<std::size_t>(batch_, count - pos_));
    gather(model, dataset, order_.data() + pos_, n, labels.data());
    const double batch_loss = model.forward_backward(labels.data(), n).loss_sum;
    epoch_loss_ += batch_loss;
    loss += batch_loss;
    model.sgd_step(sgd.lr, sgd.momentum, sgd.weight_decay);
    if (!grad_sum.empty()) axpy(1.0f, model.grads(), grad_sum);
    ++stats.steps;
    ++steps_done_;
    stats.samples += n;
    pos_ += static_cast<std::size_t>(n);
    if (pos_ == count) {  // the epoch is complete
      completed_loss_ += epoch_loss_;
      last_epoch_loss_ = epoch_loss_ / static_cast<double>(count);
      epoch_loss_ = 0.0;
      pos_ = 0;
    }
  }
  stats.mean_loss = loss / static_cast<double>(stats.samples);
  stats.last_epoch_loss = last_epoch_loss_;
  return stats;
}

TrainStats train_epochs(Model& model, const data::Dataset& dataset,
                        std::span<const std::uint32_t> indices, int epochs, int batch, float lr,
                        RandomStream* shuffle, std::span<float> grad_sum) {
  return train_epochs(model, dataset, indices, epochs, batch, Sgd{.lr = lr}, shuffle, grad_sum);
}

TrainStats train_epochs(Model& model, const data::Dataset& dataset,
                        std::span<const std::uint32_t> indices, int epochs, int batch,
                        const Sgd& sgd, RandomStream* shuffle, std::span<float> grad_sum) {
  EpochCursor pass(indices, epochs, batch);  // checks epochs and batch
  if (!grad_sum.empty() && grad_sum.size() != model.num_params()) {
    throw std::invalid_argument("train_epochs: grad_sum size != model parameters");
  }
  check_compatible(model, dataset);
  check_indices(indices, dataset);
  TrainStats stats;
  if (indices.empty() || epochs == 0) return stats;
  const TrainStats all = pass.train(model, dataset, pass.total_steps(), sgd, shuffle, grad_sum);
  stats.steps = all.steps;
  stats.samples = static_cast<std::int64_t>(indices.size()) * epochs;
  stats.last_epoch_loss = all.last_epoch_loss;
  // Summed epoch by epoch, as the loss of each epoch is reported.
  stats.mean_loss = pass.completed_loss_sum() / static_cast<double>(stats.samples);
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
