#include "models/nn/bench.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include "base/random.h"
#include "models/data/dataset.h"
#include "models/nn/conv2d.h"
#include "models/nn/dense.h"
#include "models/nn/eigen_config.h"
#include "models/nn/train.h"
#include "models/nn/zoo.h"

namespace hermes::nn {

namespace {

// Timed on the calling thread's CPU clock, not wall time: on a shared machine other processes
// then inflate the figures much less (they still compete for caches). Both figures of a ratio
// use the same clock.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
using MatrixF = Eigen::MatrixXf;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

MatrixF random_matrix(int rows, int cols, RandomStream& rng) {
  MatrixF m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(rng.uniform(-1, 1));
  return m;
}

// Operands of one GEMM: A (m x k) weights, B (k x n) activations, C (m x n) outputs.
struct GemmOperands {
  GemmShape shape;
  MatrixF w, x, y, dw, dx;
};

void run_eigen_gemm(GemmOperands& g) {
  switch (g.shape.op) {
    case GemmShape::kForward:
      g.y.noalias() = g.w * g.x;
      break;
    case GemmShape::kWeightGrad:
      g.dw.noalias() = g.y * g.x.transpose();
      break;
    case GemmShape::kInputGrad:
      g.dx.noalias() = g.w.transpose() * g.y;
      break;
  }
}

// The same products as run_eigen_gemm, through the project's gemm() as the layers call it.
void run_kernel_gemm(GemmKernel kernel, GemmOperands& g) {
  const GemmShape& s = g.shape;
  switch (s.op) {
    case GemmShape::kForward:  // y (m x n) = w (m x k) x (k x n)
      gemm_with(kernel, Transpose::kNo, Transpose::kNo, s.m, s.n, s.k, g.w.data(), s.m, g.x.data(),
                s.k, g.y.data(), s.m, false);
      break;
    case GemmShape::kWeightGrad:  // dw (m x k) = y (m x n) x^T
      gemm_with(kernel, Transpose::kNo, Transpose::kYes, s.m, s.k, s.n, g.y.data(), s.m, g.x.data(),
                s.k, g.dw.data(), s.m, false);
      break;
    case GemmShape::kInputGrad:  // dx (k x n) = w^T y
      gemm_with(kernel, Transpose::kYes, Transpose::kNo, s.k, s.n, s.m, g.w.data(), s.m, g.y.data(),
                s.m, g.dx.data(), s.k, false);
      break;
  }
}

std::uint64_t fnv1a(const void* data, std::size_t bytes) {
  std::uint64_t h = 14695981039346656037ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

}  // namespace

std::string gemm_engine_name(GemmEngine engine) {
  switch (engine) {
    case GemmEngine::kEigen:
      return "eigen";
    case GemmEngine::kAvx2:
      return std::string(gemm_kernel_name(GemmKernel::kAvx2));
    case GemmEngine::kAvx512:
      return std::string(gemm_kernel_name(GemmKernel::kAvx512));
  }
  return "?";
}

bool gemm_engine_runs_here(GemmEngine engine) {
  switch (engine) {
    case GemmEngine::kEigen:
      return true;
    case GemmEngine::kAvx2:
      return gemm_kernel_runs_here(GemmKernel::kAvx2);
    case GemmEngine::kAvx512:
      return gemm_kernel_runs_here(GemmKernel::kAvx512);
  }
  return false;
}

GemmEngine default_gemm_engine() {
  return default_gemm_kernel() == GemmKernel::kAvx512 ? GemmEngine::kAvx512 : GemmEngine::kAvx2;
}

std::vector<GemmShape> training_gemms(const ModelSpec& spec, int batch) {
  if (batch <= 0) throw std::invalid_argument("training_gemms: batch must be > 0");
  const Model model(spec);
  std::vector<GemmShape> fwd, bwd;
  bool first_weighted = true;
  for (std::size_t i = 0; i < model.num_layers(); ++i) {
    const Layer<float>& layer = model.layer(i);
    GemmShape s;
    if (const auto* d = dynamic_cast<const Dense<float>*>(&layer)) {
      s = {d->units(), d->in_features(), batch, GemmShape::kForward};
    } else if (const auto* c = dynamic_cast<const Conv2D<float>*>(&layer)) {
      const Shape& in = c->in_shape();
      const Shape& out = c->out_shape();
      s = {c->filters(), c->kernel() * c->kernel() * in.c, batch * out.h * out.w,
           GemmShape::kForward};
    } else {
      continue;
    }
    fwd.push_back(s);
    // Backward runs in reverse layer order; like the model, skip dX below the first layer
    // with parameters (nothing there needs a gradient).
    std::vector<GemmShape> b{{s.m, s.k, s.n, GemmShape::kWeightGrad}};
    if (!first_weighted) b.push_back({s.m, s.k, s.n, GemmShape::kInputGrad});
    bwd.insert(bwd.begin(), b.begin(), b.end());
    first_weighted = false;
  }
  fwd.insert(fwd.end(), bwd.begin(), bwd.end());
  return fwd;
}

Timing bench_gemms(const ModelSpec& spec, int batch, int repeats, double min_seconds,
                   GemmEngine engine) {
  RandomStream rng = RandomStream::named(1, "bench-gemm");
  std::vector<GemmOperands> ops;
  Timing t;
  for (const GemmShape& s : training_gemms(spec, batch)) {
    GemmOperands g{s,
                   random_matrix(s.m, s.k, rng),
                   random_matrix(s.k, s.n, rng),
                   random_matrix(s.m, s.n, rng),
                   MatrixF(s.m, s.k),
                   MatrixF(s.k, s.n)};
    ops.push_back(std::move(g));
    t.flops += s.flops();
  }
  auto step = [&ops, engine] {
    for (GemmOperands& g : ops) {
      if (engine == GemmEngine::kEigen) {
        run_eigen_gemm(g);
      } else {
        run_kernel_gemm(engine == GemmEngine::kAvx2 ? GemmKernel::kAvx2 : GemmKernel::kAvx512, g);
      }
    }
  };
  step();  // warm-up: caches, page faults
  std::vector<double> runs;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    long iters = 0;
    const double start = cpu_seconds();
    double elapsed = 0.0;
    do {
      step();
      ++iters;
      elapsed = cpu_seconds() - start;
    } while (elapsed < min_seconds);
    runs.push_back(elapsed / static_cast<double>(iters));
  }
  t.seconds = median(runs);
  return t;
}

std::string eigen_build_info() {
  return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." +
         std::to_string(EIGEN_MAJOR_VERSION) + "." + std::to_string(EIGEN_MINOR_VERSION) +
         ", SIMD: " + Eigen::SimdInstructionSetsInUse();
}

TrainTiming bench_training(const ModelSpec& spec, int batch, int samples, int repeats,
                           GemmKernel kernel, std::uint64_t seed) {
  const ScopedGemmKernel use_kernel(kernel);
  if (samples <= 0) throw std::invalid_argument("bench_training: samples must be > 0");
  data::Dataset ds;
  ds.name = "synthetic";
  ds.channels = spec.input.c;
  ds.height = spec.input.h;
  ds.width = spec.input.w;
  ds.num_classes = spec.num_classes;
  RandomStream rng = RandomStream::named(seed, "bench-data");
  ds.pixels.resize(static_cast<std::size_t>(samples) * ds.sample_dim());
  for (float& p : ds.pixels) p = static_cast<float>(rng.uniform01());
  ds.labels.resize(static_cast<std::size_t>(samples));
  for (auto& l : ds.labels) {
    l = static_cast<std::uint8_t>(rng.uniform_int(static_cast<std::uint64_t>(spec.num_classes)));
  }
  std::vector<std::uint32_t> idx(static_cast<std::size_t>(samples));
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<std::uint32_t>(i);

  Model model = make_model(spec, seed);
  const double steps = std::ceil(static_cast<double>(samples) / batch);
  train_epochs(model, ds, idx, 1, batch, 0.01f);  // warm-up
  std::vector<double> runs;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    const double start = cpu_seconds();
    train_epochs(model, ds, idx, 1, batch, 0.01f);
    runs.push_back(cpu_seconds() - start);
  }
  const double epoch = median(runs);
  TrainTiming t;
  t.step.seconds = epoch / steps;
  t.step.flops = model.flops_train_per_sample() * samples / steps;
  t.samples_per_second = samples / epoch;
  t.params_hash = fnv1a(model.params().data(), model.params().size_bytes());
  return t;
}

}  // namespace hermes::nn
