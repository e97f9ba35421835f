// The measurement helpers behind `hermes-sim bench math` (tiny runs: shapes and sanity only).
#include "models/nn/bench.h"

#include <gtest/gtest.h>

#include <array>

#include "models/nn/model.h"
#include "models/nn/zoo.h"

namespace hermes::nn {
namespace {

TEST(Bench, MlpTrainingGemmsAreTheStepsProducts) {
  const auto g = training_gemms(mlp_spec(), 16);
  ASSERT_EQ(g.size(), 8u);  // 3 forward, 3 weight-gradient, 2 input-gradient
  EXPECT_EQ(g[0].op, GemmShape::kForward);
  EXPECT_EQ((std::array{g[0].m, g[0].k, g[0].n}), (std::array{128, 784, 16}));
  EXPECT_EQ((std::array{g[2].m, g[2].k, g[2].n}), (std::array{10, 64, 16}));
  EXPECT_EQ(g[3].op, GemmShape::kWeightGrad);  // backward starts at the top layer
  EXPECT_EQ(g[3].m, 10);
  EXPECT_EQ(g[4].op, GemmShape::kInputGrad);
  EXPECT_EQ(g[7].op, GemmShape::kWeightGrad);  // no dX for the first dense layer
  EXPECT_EQ(g[7].k, 784);
  double flops = 0;
  for (const auto& s : g) flops += s.flops();
  // The GEMM share of the model's own training FLOP count (which adds the bias work).
  const Model m(mlp_spec());
  EXPECT_DOUBLE_EQ(flops, 16 * (m.flops_train_per_sample() - 2 * 202));
}

TEST(Bench, CnnGemmsUseIm2colShapes) {
  const auto g = training_gemms(cnn_spec(), 16);
  ASSERT_EQ(g.size(), 4u + 4u + 3u);
  EXPECT_EQ((std::array{g[0].m, g[0].k, g[0].n}), (std::array{32, 27, 16 * 900}));
  EXPECT_EQ((std::array{g[1].m, g[1].k, g[1].n}), (std::array{64, 288, 16 * 169}));
}

TEST(Bench, TimingsArePositiveAndConsistent) {
  for (GemmEngine e : {GemmEngine::kEigen, GemmEngine::kAvx2, GemmEngine::kAvx512}) {
    if (!gemm_engine_runs_here(e)) continue;
    const Timing gemm = bench_gemms(mlp_spec(), 16, 1, 0.01, e);
    EXPECT_GT(gemm.seconds, 0.0) << gemm_engine_name(e);
    EXPECT_GT(gemm.gflops(), 0.1) << gemm_engine_name(e);
  }
  const TrainTiming train = bench_training(mlp_spec(), 16, 64, 1, GemmKernel::kAvx2);
  EXPECT_GT(train.samples_per_second, 0.0);
  EXPECT_NEAR(train.step.flops, 16 * Model(mlp_spec()).flops_train_per_sample(), 1.0);
  EXPECT_NEAR(train.samples_per_second * train.step.seconds, 16.0, 1e-6);
}

// The kernels differ in speed only: one epoch ends with the same parameter bytes.
TEST(Bench, EveryKernelTrainsToTheSameBytes) {
  const TrainTiming ref = bench_training(cnn_spec(), 16, 20, 1, GemmKernel::kReference);
  for (GemmKernel k : {GemmKernel::kAvx2, GemmKernel::kAvx512}) {
    if (!gemm_kernel_runs_here(k)) continue;
    EXPECT_EQ(bench_training(cnn_spec(), 16, 20, 1, k).params_hash, ref.params_hash)
        << gemm_kernel_name(k);
  }
}

}  // namespace
}  // namespace hermes::nn
