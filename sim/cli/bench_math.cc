// hermes-sim bench math: how close the training loop runs to plain Eigen GEMM speed.
//
// For each model: (1) the GEMMs of one training step at the given mini-batch, timed alone on
// random matrices (forward X*W per layer, backward dW = X^T dY and dX = dY W^T); (2) the real
// training loop (train_epochs: gather, forward, loss, backward, SGD update) on synthetic data.
// The ratio (2)/(1) in GFLOP/s is the share of GEMM speed the whole step keeps.
#include <boost/program_options.hpp>

#include <iomanip>
#include <iostream>
#include <string>

#include "models/nn/bench.h"
#include "models/nn/model.h"
#include "models/nn/zoo.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/common/diagnostics.h"

namespace hermes::cli {

int bench_math(const Args& args) {
  po::options_description desc(
      "hermes-sim bench math [options]\n\nPlain Eigen GEMM GFLOP/s on the MLP's and CNN's own "
      "training-step shapes versus training samples/s and GFLOP/s (synthetic data, one core)");
  int batch = 0, repeats = 0, mlp_samples = 0, cnn_samples = 0;
  double min_time = 0.0;
  desc.add_options()("help,h", "show this help")("batch", po::value<int>(&batch)->default_value(16),
                                                 "mini-batch size")(
      "repeats", po::value<int>(&repeats)->default_value(5),
      "timed runs per figure (the median is reported), after one warm-up")(
      "min-time", po::value<double>(&min_time)->default_value(0.2),
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

  std::cout << "math bench: one core (EIGEN_DONT_PARALLELIZE), thread CPU time, "
            << nn::eigen_build_info() << "\nmini-batch " << batch << ", median of " << repeats
            << " timed runs after a warm-up; FLOPs: multiply-add = 2, bias add = 1\n\n";
  std::cout << std::left << std::setw(6) << "model" << std::right << std::setw(10) << "params"
            << std::setw(13) << "FLOP/sample" << std::setw(11) << "GEMM GF/s" << std::setw(12)
            << "samples/s" << std::setw(11) << "train GF/s" << std::setw(8) << "ratio"
            << std::setw(10) << "us/step" << '\n';
  struct Row {
    nn::ModelSpec spec;
    int samples;
  };
  for (const Row& row : {Row{nn::mlp_spec(), mlp_samples}, Row{nn::cnn_spec(), cnn_samples}}) {
    const nn::Model model(row.spec);
    const nn::Timing gemm = nn::bench_gemms(row.spec, batch, repeats, min_time);
    const nn::TrainTiming train = nn::bench_training(row.spec, batch, row.samples, repeats);
    const double train_gflops = train.step.gflops();
    std::cout << std::left << std::setw(6) << row.spec.name << std::right << std::setw(10)
              << model.num_params() << std::setw(13) << std::fixed << std::setprecision(0)
              << model.flops_train_per_sample() << std::setw(11) << std::setprecision(1)
              << gemm.gflops() << std::setw(12) << std::setprecision(0) << train.samples_per_second
              << std::setw(11) << std::setprecision(1) << train_gflops << std::setw(7)
              << std::setprecision(0) << 100.0 * train_gflops / gemm.gflops() << '%'
              << std::setw(10) << std::setprecision(1) << train.step.seconds * 1e6 << '\n';
    if (row.spec.name == "cnn") {
      std::cout << "       one Hermes chunk (2125 samples x 5 epochs) takes about "
                << std::setprecision(2) << 2125.0 * 5.0 / train.samples_per_second << " s\n";
    }
  }
  return 0;
}

}  // namespace hermes::cli
