// Speed measurements behind `hermes-sim bench math`: GEMM throughput on a model's own shapes (the
// project's kernels, and Eigen's GEMM as a yardstick) versus the throughput of the real training
// loop on synthetic data. Times are the
// calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), robust to other load on a shared host.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/nn/gemm.h"
#include "models/nn/model_spec.h"

namespace hermes::nn {

struct GemmShape {
  int m = 0, k = 0, n = 0;  // (m x k) * (k x n)
  enum Op { kForward, kWeightGrad, kInputGrad } op = kForward;
  double flops() const { return 2.0 * m * k * n; }
};

// The GEMMs one training step of `spec` at mini-batch `batch` runs, in order: per dense/conv
// layer the forward Y = W X, then backwards dW = dY X^T and (all but the first layer)
// dX = W^T dY. Conv layers use their im2col shapes (m = filters, k = k*k*C, n = batch*Ho*Wo).
std::vector<GemmShape> training_gemms(const ModelSpec& spec, int batch);

struct Timing {
  double seconds = 0.0;  // median seconds of one unit (one step / one run)
  double flops = 0.0;    // FLOPs of one unit
  double gflops() const { return seconds > 0.0 ? flops / seconds * 1e-9 : 0.0; }
};

// Who computes the products: one of the project's kernels, or Eigen's GEMM (noalias products, its
// blocking chosen from the detected cache sizes) for comparison.
enum class GemmEngine { kEigen, kAvx2, kAvx512 };
std::string gemm_engine_name(GemmEngine engine);
bool gemm_engine_runs_here(GemmEngine engine);
// The engine of the process's kernel (default_gemm_kernel: what runs use); kAvx2 for the
// reference, which no engine times.
GemmEngine default_gemm_engine();

// Times all of training_gemms(spec, batch) back to back on random matrices (the products the
// layers run, without the bias and activation work): one warm-up, then `repeats` timed runs of at
// least `min_seconds` each; the median per step.
Timing bench_gemms(const ModelSpec& spec, int batch, int repeats, double min_seconds,
                   GemmEngine engine);

struct TrainTiming {
  Timing step;  // median seconds per optimizer step; flops = training FLOPs per step
  double samples_per_second = 0.0;
  std::uint64_t params_hash = 0;  // FNV-1a of the parameters' bytes after the last epoch
};

// Times train_epochs (1 epoch, no shuffle, lr 0.01) over a synthetic dataset of `samples`
// random samples shaped for `spec`: one warm-up epoch, then `repeats` timed epochs; the median.
// FLOPs are Model::flops_train_per_sample() (the SGD update is not counted). The products run on
// `kernel` (ScopedGemmKernel); the same arguments give the same params_hash with any kernel.
TrainTiming bench_training(const ModelSpec& spec, int batch, int samples, int repeats,
                           GemmKernel kernel, std::uint64_t seed = 1);

// "Eigen 3.4.0, SIMD: AVX512, FMA, ..." (what Eigen's yardstick GEMM was compiled for).
std::string eigen_build_info();

}  // namespace hermes::nn
