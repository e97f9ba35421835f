#include "models/nn/gemm_probe.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "base/random.h"
#include "models/nn/bench.h"
#include "models/nn/gemm_kernels.h"

namespace hermes::nn {
namespace {

// The dimensions as probed. m and n do not enter the order of any element's sum (gemm.h): they
// decide only which elements a kernel computes together, in register tiles of 24 or 48 rows and
// 4 or 8 columns inside blocks of kGemmMc rows. So a long m is cut to one block plus the same
// remainder, and a long n to 64 columns (a multiple of every tile width) plus the same
// remainder: the same edge tiles. The sum over k is a chain of FMAs per block of kGemmKc, the
// blocks added in order; a long k is cut to two full blocks plus the same last block, which runs
// every step of that order (first block, a block added, the short last one). A CNN's weight
// gradient sums over mini-batch x output pixels, so uncut it would cost seconds.
int probe_cut(int x, int block) { return x <= 3 * block ? x : 2 * block + x % block; }

using ProductKey = std::tuple<int, int, int, int, int, bool>;
ProductKey key_of(const GemmProduct& p) {
  return {static_cast<int>(p.ta), static_cast<int>(p.tb), p.m, p.n, p.k, p.accumulate};
}

bool kernel_matches(GemmKernel kernel, const GemmProduct& p) {
  return equals_reference(p, [kernel](const GemmProduct& s, const float* a, int lda, const float* b,
                                      int ldb, float* c, int ldc) {
    gemm_with(kernel, s.ta, s.tb, s.m, s.n, s.k, a, lda, b, ldb, c, ldc, s.accumulate);
  });
}

// Checks already made in this process: (kernel, product) -> matches.
std::mutex g_cache_mutex;
std::map<std::pair<int, ProductKey>, bool> g_cache;

bool cached_matches(GemmKernel kernel, const GemmProduct& p) {
  const auto key = std::make_pair(static_cast<int>(kernel), key_of(p));
  {
    const std::lock_guard lock(g_cache_mutex);
    if (const auto it = g_cache.find(key); it != g_cache.end()) return it->second;
  }
  const bool matches = kernel_matches(kernel, p);
  const std::lock_guard lock(g_cache_mutex);
  g_cache[key] = matches;
  return matches;
}

}  // namespace

bool equals_reference(const GemmProduct& p, const GemmCompute& compute) {
  GemmProduct cut = p;
  cut.m = probe_cut(p.m, detail::kGemmMc);
  cut.n = probe_cut(p.n, 64);
  cut.k = probe_cut(p.k, kGemmKc);
  const int m = cut.m, n = cut.n, k = cut.k;
  const int lda = p.ta == Transpose::kNo ? m : k, ldb = p.tb == Transpose::kNo ? k : n;
  RandomStream rng = RandomStream::named(static_cast<std::uint64_t>(m) * 1000003u + n, "gemm-probe",
                                         static_cast<std::uint64_t>(k));
  // Magnitudes spread over 2^-10..2^9, so that any other order of the sums changes low bits.
  const auto fill = [&rng](std::vector<float>& v) {
    for (float& x : v) {
      const double mag = std::ldexp(1.0, static_cast<int>(rng.uniform_int(20)) - 10);
      x = static_cast<float>(rng.uniform(-1.0, 1.0) * mag);
    }
  };
  std::vector<float> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k) * n),
      c0(static_cast<std::size_t>(m) * n);
  fill(a);
  fill(b);
  fill(c0);
  std::vector<float> want = c0, got = c0;
  gemm_with(GemmKernel::kReference, p.ta, p.tb, m, n, k, a.data(), lda, b.data(), ldb, want.data(),
            m, p.accumulate);
  compute(cut, a.data(), lda, b.data(), ldb, got.data(), m);
  return std::memcmp(want.data(), got.data(), want.size() * sizeof(float)) == 0;
}

std::vector<GemmProduct> model_gemm_products(const ModelSpec& spec,
                                             const std::vector<int>& training_batches,
                                             const std::vector<int>& evaluation_batches) {
  std::vector<GemmProduct> out;
  const auto add = [&out](const GemmProduct& p) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  const auto add_batch = [&spec, &add](int batch, bool backward) {
    if (batch <= 0) throw std::invalid_argument("model_gemm_products: batch must be > 0");
    for (const GemmShape& s : training_gemms(spec, batch)) {
      switch (s.op) {
        case GemmShape::kForward:  // Y (m x n) = bias + W (m x k) X (k x n)
          add({Transpose::kNo, Transpose::kNo, s.m, s.n, s.k, true});
          break;
        case GemmShape::kWeightGrad:  // dW (m x k) = dY (m x n) X^T
          if (backward) add({Transpose::kNo, Transpose::kYes, s.m, s.k, s.n, false});
          break;
        case GemmShape::kInputGrad:  // dX (k x n) = W^T dY
          if (backward) add({Transpose::kYes, Transpose::kNo, s.k, s.n, s.m, false});
          break;
      }
    }
  };
  for (const int batch : training_batches) add_batch(batch, true);
  for (const int batch : evaluation_batches) add_batch(batch, false);
  return out;
}

std::string GemmChoice::text(std::string_view whose) const {
  const std::string name(gemm_kernel_name(kernel));
  if (forced) return name + " (--gemm-kernel)";
  const std::string of = std::string(whose) + " " + std::to_string(products) + " products";
  for (const KernelCheck& c : checks) {
    if (c.kernel == kernel && c.matches) {
      return name + " (the widest of this CPU's kernels equal to the reference on " + of + ")";
    }
  }
  if (kernel == GemmKernel::kReference) {
    return name + " (no vector kernel this CPU runs equalled the reference on " + of + ")";
  }
  return name + " (the profile's: no kernel equalled the reference on " + of + ")";
}

GemmChoice choose_gemm_kernel(const std::vector<GemmProduct>& products) {
  GemmChoice choice;
  choice.products = static_cast<int>(products.size());
  // The fallback: the profile's kernel, whose bytes the reference files were made with, or the
  // scalar reference itself on a CPU without AVX2 and FMA (which only a native build runs on).
  choice.kernel =
      gemm_kernel_runs_here(profile_gemm_kernel()) ? profile_gemm_kernel() : GemmKernel::kReference;
  bool chosen = false;
  for (const GemmKernel kernel : kGemmKernelsWidestFirst) {
    if (kernel == GemmKernel::kReference) continue;  // the yardstick, far slower than any kernel
    KernelCheck check{kernel, gemm_kernel_runs_here(kernel), false, false};
    if (check.runs_here && !chosen) {
      check.checked = true;
      check.matches = std::all_of(products.begin(), products.end(), [kernel](const GemmProduct& p) {
        return cached_matches(kernel, p);
      });
      if (check.matches) {
        choice.kernel = kernel;
        chosen = true;
      }
    }
    choice.checks.push_back(check);
  }
  return choice;
}

std::optional<GemmKernel> gemm_kernel_from_name(std::string_view name) {
  for (const GemmKernel kernel : kGemmKernelsWidestFirst) {
    if (gemm_kernel_name(kernel) == name) return kernel;
  }
  return std::nullopt;
}

}  // namespace hermes::nn
