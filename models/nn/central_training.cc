#include "models/nn/central_training.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "base/random.h"
#include "models/data/dataset.h"
#include "models/nn/train.h"
#include "models/nn/zoo.h"

namespace hermes::nn {

std::vector<EpochResult> train_central(const ModelSpec& spec, const CentralTrainConfig& config,
                                       const data::Dataset& train, const data::Dataset& test,
                                       const std::function<void(const EpochResult&)>& on_epoch) {
  if (config.epochs < 1) throw std::invalid_argument("epochs must be >= 1");
  if (config.batch < 1 || config.eval_batch < 1) throw std::invalid_argument("batch must be >= 1");
  if (!(config.lr > 0.0f) || !std::isfinite(config.lr)) {
    throw std::invalid_argument("learning rate must be > 0");
  }
  Model model = make_model(spec, config.seed);
  RandomStream shuffle = RandomStream::named(config.seed, "nn-shuffle");
  std::vector<std::uint32_t> all(train.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint32_t>(i);

  std::vector<EpochResult> results;
  for (int e = 1; e <= config.epochs; ++e) {
    const auto start = std::chrono::steady_clock::now();
    const TrainStats ts = train_epochs(model, train, all, 1, config.batch, config.lr,
                                       config.shuffle ? &shuffle : nullptr);
    EpochResult r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const EvalStats es = evaluate(model, test, config.eval_batch);
    r.epoch = e;
    r.steps = ts.steps;
    r.train_loss = ts.mean_loss;
    r.test_loss = es.loss;
    r.test_accuracy = es.accuracy;
    results.push_back(r);
    if (on_epoch) on_epoch(r);
  }
  return results;
}

}  // namespace hermes::nn
