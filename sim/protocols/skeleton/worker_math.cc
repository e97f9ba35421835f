#include "sim/protocols/skeleton/worker_math.h"

#include <cmath>

namespace hermes::protocols {

namespace {

// The worker's optimiser (training.learning_rate, momentum, weight_decay; docs/optimizer.md).
nn::Sgd optimiser(const scenario::TrainingSpec& training) {
  return {.lr = static_cast<float>(training.learning_rate),
          .momentum = static_cast<float>(training.momentum),
          .weight_decay = static_cast<float>(training.weight_decay)};
}

}  // namespace

bool ChunkResult::finite() const {
  return std::isfinite(train.mean_loss) && std::isfinite(local_test_loss);
}

ChunkResult train_on_chunk(nn::Model& model, const data::Dataset& train_set,
                           std::span<const std::uint32_t> chunk,
                           const scenario::TrainingSpec& training, const ModelCost& cost,
                           RandomStream& shuffle, std::span<float> grad_sum) {
  ChunkResult r;
  r.work = iteration_work(training, cost, static_cast<std::int64_t>(chunk.size()));
  const auto dropped = static_cast<std::size_t>(r.work.dropped);
  const auto train_part = chunk.subspan(dropped, static_cast<std::size_t>(r.work.train));
  const auto test_part = chunk.subspan(dropped + static_cast<std::size_t>(r.work.train));
  RandomStream* order =
      training.epoch_order == scenario::EpochOrder::kReshuffle ? &shuffle : nullptr;
  r.train = nn::train_epochs(model, train_set, train_part, training.local_epochs,
                             training.batch_size, optimiser(training), order, grad_sum);
  r.local_test_loss =
      test_part.empty() ? r.train.last_epoch_loss : nn::evaluate(model, train_set, test_part).loss;
  return r;
}

ChunkResult train_steps(nn::Model& model, const data::Dataset& train_set,
                        std::span<const std::uint32_t> chunk, nn::EpochCursor& pass,
                        std::int64_t steps, const scenario::TrainingSpec& training,
                        const ModelCost& cost, RandomStream& shuffle, std::span<float> grad_sum) {
  ChunkResult r;
  r.work = steps_work(training, cost, static_cast<std::int64_t>(chunk.size()), pass, steps);
  RandomStream* order =
      training.epoch_order == scenario::EpochOrder::kReshuffle ? &shuffle : nullptr;
  r.train = pass.train(model, train_set, steps, optimiser(training), order, grad_sum);
  r.local_test_loss = r.train.mean_loss;
  if (r.work.ends_chunk) {
    const auto test_part = chunk.subspan(static_cast<std::size_t>(r.work.dropped + r.work.train));
    if (!test_part.empty()) r.local_test_loss = nn::evaluate(model, train_set, test_part).loss;
  }
  return r;
}

}  // namespace hermes::protocols
