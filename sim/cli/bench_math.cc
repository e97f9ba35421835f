// hermes-sim bench math: the GEMM kernels side by side, and how close the training loop runs to
// their speed.
//
// For each model: (1) the GEMMs of one training step at the given mini-batch, timed alone on
// random matrices (forward Y = W X per layer, backward dW = dY X^T and dX = W^T dY), with each
// kernel this machine can run (AVX2: the reproducible profile's; AVX-512: the native profile's
// on such a CPU) and with Eigen's GEMM as a yardstick; (2) the real training loop (train_epochs:
// gather, forward, loss, backward, SGD update) on synthetic data with each kernel, and whether the
// parameters it ends with are the same bytes. The ratio (2)/(1) in GFLOP/s is the share of the
// kernel's speed the whole step keeps.
#include <boost/program_options.hpp>

#include <iomanip>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "models/nn/bench.h"
#include "models/nn/model.h"
#include "models/nn/zoo.h"
#include "sim/cli/commands.h"
#include "sim/cli/gemm_kernel_choice.h"
#include "sim/cli/options.h"

namespace hermes::cli {

int bench_math(const Args& args) {
  po::options_description desc(
      "hermes-sim bench math [options]\n\nGEMM GFLOP/s of each kernel this CPU runs (and of Eigen "
      "as a yardstick) on the MLP's and CNN's own training-step shapes, versus training samples/s "
      "and GFLOP/s with each kernel (synthetic data, one core)");
  int batch = 0, repeats = 0, mlp_samples = 0, cnn_samples = 0;
  double min_time = 0.0;
  desc.add_options()("help,h", "show this help")("batch", po::value<int>(&batch)->default_value(16),
                                                 "mini-batch size")(
      "repeats", po::value<int>(&repeats)->default_value(5),
      "timed runs per figure (the median is reported), after one warm-up")(
      "min-time", po::value<double>(&min_time)->default_value(0.2, "0.2"),
      "minimum seconds of one timed GEMM run")("mlp-samples",
                                               po::value<int>(&mlp_samples)->default_value(8000),
                                               "synthetic samples per timed MLP training epoch")(
      "cnn-samples", po::value<int>(&cnn_samples)->default_value(2125),
      "synthetic samples per timed CNN training epoch (2125 = one Hermes training chunk)");
  po::variables_map vm;
  if (!parse_options("bench math", args, desc, vm)) return 0;
  std::string errors;  // one line per bad option, all reported at once
  if (batch < 1) errors += "--batch must be >= 1\n";
  if (repeats < 1) errors += "--repeats must be >= 1\n";
  if (mlp_samples < 1 || cnn_samples < 1)
    errors += "--mlp-samples and --cnn-samples must be >= 1\n";
  if (!(min_time >= 0.0)) errors += "--min-time must be >= 0\n";
  if (!errors.empty()) throw InputError(errors);

  const nn::GemmKernel run_kernel = preset_gemm_choice().kernel;
  std::vector<nn::GemmKernel> kernels;
  for (nn::GemmKernel k : {nn::GemmKernel::kAvx2, nn::GemmKernel::kAvx512}) {
    if (nn::gemm_kernel_runs_here(k)) kernels.push_back(k);
  }
  std::cout << "math bench: one core, thread CPU time; math profile " << HERMES_MATH_PROFILE << " ("
            << HERMES_MATH_ARCH
            << "), its kernel: " << nn::gemm_kernel_name(nn::profile_gemm_kernel())
            << "\nruns use (--gemm-kernel auto): " << version_gemm_text()
            << "\nyardstick: " << nn::eigen_build_info() << "\nmini-batch " << batch
            << ", median of " << repeats
            << " timed runs after a warm-up; FLOPs: multiply-add = 2, bias add = 1\n\n";

  std::cout << "GEMMs of one training step, GFLOP/s\n" << std::left << std::setw(6) << "model";
  std::vector<nn::GemmEngine> engines;
  for (nn::GemmEngine e :
       {nn::GemmEngine::kAvx2, nn::GemmEngine::kAvx512, nn::GemmEngine::kEigen}) {
    if (!nn::gemm_engine_runs_here(e)) continue;
    engines.push_back(e);
    std::cout << std::right << std::setw(10) << nn::gemm_engine_name(e);
  }
  std::cout << '\n';
  struct Row {
    nn::ModelSpec spec;
    int samples;
  };
  const Row rows[] = {{nn::mlp_spec(), mlp_samples}, {nn::cnn_spec(), cnn_samples}};
  std::vector<std::vector<double>> gemm_gflops;
  for (const Row& row : rows) {
    std::cout << std::left << std::setw(6) << row.spec.name << std::right << std::fixed;
    gemm_gflops.emplace_back();
    for (nn::GemmEngine e : engines) {
      const double g = nn::bench_gemms(row.spec, batch, repeats, min_time, e).gflops();
      gemm_gflops.back().push_back(g);
      std::cout << std::setw(10) << std::setprecision(1) << g << std::flush;
    }
    std::cout << '\n';
  }

  std::cout << "\ntraining loop (\"=\": ends with the same parameter bytes as the first kernel)\n"
            << std::left << std::setw(6) << "model" << std::setw(8) << "kernel" << std::right
            << std::setw(10) << "params" << std::setw(13) << "FLOP/sample" << std::setw(12)
            << "samples/s" << std::setw(11) << "train GF/s" << std::setw(8) << "%GEMM"
            << std::setw(10) << "us/step" << std::setw(7) << "bytes" << '\n';
  for (std::size_t r = 0; r < std::size(rows); ++r) {
    const Row& row = rows[r];
    const nn::Model model(row.spec);
    std::uint64_t first_hash = 0;
    double run_seconds_per_sample = 0.0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      const nn::TrainTiming train =
          nn::bench_training(row.spec, batch, row.samples, repeats, kernels[i]);
      if (i == 0) first_hash = train.params_hash;
      if (kernels[i] == run_kernel) {
        run_seconds_per_sample = 1.0 / train.samples_per_second;
      }
      const double train_gflops = train.step.gflops();
      std::cout << std::left << std::setw(6) << row.spec.name << std::setw(8)
                << nn::gemm_kernel_name(kernels[i]) << std::right << std::setw(10)
                << model.num_params() << std::setw(13) << std::setprecision(0)
                << model.flops_train_per_sample() << std::setw(12) << train.samples_per_second
                << std::setw(11) << std::setprecision(1) << train_gflops << std::setw(7)
                << std::setprecision(0) << 100.0 * train_gflops / gemm_gflops[r][i] << '%'
                << std::setw(10) << std::setprecision(1) << train.step.seconds * 1e6 << std::setw(7)
                << (train.params_hash == first_hash ? "=" : "DIFFER") << '\n';
    }
    if (row.spec.name == "cnn" && run_seconds_per_sample > 0.0) {
      std::cout << "one Hermes chunk (2125 samples x 5 epochs) takes about " << std::setprecision(2)
                << 2125.0 * 5.0 * run_seconds_per_sample << " s with the kernel runs use ("
                << nn::gemm_kernel_name(run_kernel) << ")\n";
    }
  }
  return 0;
}

}  // namespace hermes::cli
