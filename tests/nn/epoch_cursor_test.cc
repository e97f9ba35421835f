// EpochCursor: the local epochs of a chunk taken a few mini-batches at a time (update_unit
// "steps") must be train_epochs cut into pieces, bit for bit, whatever the cut.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "models/nn/train.h"
#include "models/nn/zoo.h"
#include "tests/nn/synthetic_data.h"

namespace hermes::nn {
namespace {

bool same_bits(std::span<const float> a, std::span<const float> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

TEST(EpochCursor, PiecesOfAnyLengthAreTrainEpochsBitForBit) {
  // 45 samples at batch 16: batches of 16, 16, 13 per epoch, 3 epochs, reshuffled each epoch.
  const data::Dataset ds = testing::blobs(1, 4, 4, 3, 45, 0.3, 2);
  const auto idx = testing::iota(ds.size());
  const ModelSpec spec = mlp_spec({1, 4, 4}, 3);
  Model whole = make_model(spec, 5);
  std::vector<float> whole_sum(whole.num_params(), 0.0f);
  RandomStream whole_rng(7, 0);
  const TrainStats all = train_epochs(whole, ds, idx, 3, 16, 0.1f, &whole_rng, whole_sum);
  ASSERT_EQ(all.steps, 9);
  for (const std::int64_t piece : {1, 2, 4, 9, 100}) {
    Model m = make_model(spec, 5);
    std::vector<float> sum(m.num_params(), 0.0f);
    RandomStream rng(7, 0);
    EpochCursor pass(idx, 3, 16);
    EXPECT_EQ(pass.total_steps(), 9);
    std::int64_t steps = 0;
    while (!pass.done()) {
      const std::int64_t expected = pass.samples_in_next(piece);
      const TrainStats s = pass.train(m, ds, piece, 0.1f, &rng, sum);
      EXPECT_EQ(s.samples, expected) << "piece " << piece;
      steps += s.steps;
    }
    EXPECT_EQ(steps, 9);
    EXPECT_TRUE(same_bits(m.params(), whole.params())) << "piece " << piece;
    EXPECT_TRUE(same_bits(sum, whole_sum)) << "piece " << piece;
    EXPECT_EQ(pass.completed_loss_sum() / (3.0 * 45.0), all.mean_loss);
    EXPECT_EQ(pass.train(m, ds, 1, 0.1f, &rng).steps, 0) << "a finished pass takes no step";
  }
}

TEST(EpochCursor, CountsTheSamplesOfTheStepsAhead) {
  // 20 samples at batch 16, 2 epochs: steps of 16, 4, 16, 4.
  const EpochCursor pass(testing::iota(20), 2, 16);
  EXPECT_EQ(pass.total_steps(), 4);
  EXPECT_EQ(pass.samples_in_next(1), 16);
  EXPECT_EQ(pass.samples_in_next(2), 20);
  EXPECT_EQ(pass.samples_in_next(3), 36);
  EXPECT_EQ(pass.samples_in_next(10), 40);  // no more than the pass holds
}

}  // namespace
}  // namespace hermes::nn
