#include "models/nn/gemm.h"

#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "base/enum_text.h"
#include "models/nn/gemm_kernels.h"

static_assert(hermes::nn::kGemmKc == hermes::nn::detail::kGemmKcBlock);

namespace hermes::nn {
namespace {

// The definition of gemm.h as plain loops: per element, zero-started FMA chains over k-blocks of
// kGemmKc, added to C in order.
template <typename T>
void gemm_reference(Transpose ta, Transpose tb, int m, int n, int k, const T* a, int lda,
                    const T* b, int ldb, T* c, int ldc, bool accumulate) {
  const auto at = [&](int i, int p) {
    return ta == Transpose::kNo ? a[i + static_cast<std::ptrdiff_t>(p) * lda]
                                : a[p + static_cast<std::ptrdiff_t>(i) * lda];
  };
  const auto bt = [&](int p, int j) {
    return tb == Transpose::kNo ? b[p + static_cast<std::ptrdiff_t>(j) * ldb]
                                : b[j + static_cast<std::ptrdiff_t>(p) * ldb];
  };
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      T& cij = c[i + static_cast<std::ptrdiff_t>(j) * ldc];
      if (!accumulate) cij = T(0);
      for (int p0 = 0; p0 < k; p0 += kGemmKc) {
        const int p1 = p0 + kGemmKc < k ? p0 + kGemmKc : k;
        T s = T(0);
        for (int p = p0; p < p1; ++p) s = std::fma(at(i, p), bt(p, j), s);
        cij = (p0 == 0 && !accumulate) ? s : cij + s;
      }
    }
  }
}

// Per-thread packing buffer, 64-byte aligned, allocated on a thread's first product and kept
// (a training step then never allocates; workers' math runs on several threads at once).
class PackBuffer {
 public:
  float* a() {
    if (!storage_) {
      storage_ = std::make_unique<float[]>(static_cast<std::size_t>(detail::kGemmPackAFloats) + 16);
      const auto addr = reinterpret_cast<std::uintptr_t>(storage_.get());
      a_ = storage_.get() + ((64 - addr % 64) % 64) / sizeof(float);
    }
    return a_;
  }

 private:
  std::unique_ptr<float[]> storage_;
  float* a_ = nullptr;
};

thread_local PackBuffer t_pack;
// -1: the process's kernel; else a GemmKernel set by ScopedGemmKernel on this thread.
thread_local int t_kernel_override = -1;
// The process's kernel (a GemmKernel); -1 until set: the profile's.
std::atomic<int> g_default_kernel{-1};

bool cpu_has_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

bool cpu_has_avx2_fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

void run_kernel(GemmKernel kernel, const detail::GemmCall& g) {
  switch (kernel) {
    case GemmKernel::kReference:
      gemm_reference<float>(g.trans_a ? Transpose::kYes : Transpose::kNo,
                            g.trans_b ? Transpose::kYes : Transpose::kNo, g.m, g.n, g.k, g.a, g.lda,
                            g.b, g.ldb, g.c, g.ldc, g.accumulate);
      return;
    case GemmKernel::kAvx2:
      detail::gemm_avx2(g, t_pack.a());
      return;
    case GemmKernel::kAvx512:
      detail::gemm_avx512(g, t_pack.a());
      return;
  }
}

detail::GemmCall make_call(Transpose ta, Transpose tb, int m, int n, int k, const float* a, int lda,
                           const float* b, int ldb, float* c, int ldc, bool accumulate) {
  return {
      ta == Transpose::kYes, tb == Transpose::kYes, m, n, k, a, lda, b, ldb, c, ldc, accumulate};
}

}  // namespace

std::string_view gemm_kernel_name(GemmKernel kernel) {
  constexpr std::array<std::string_view, 3> kNames{"reference", "avx2", "avx512"};
  static_assert(kNames.size() == enum_count(GemmKernel::kAvx512));
  return enum_text(kernel, kNames);
}

GemmKernel profile_gemm_kernel() {
#if defined(__AVX512F__)
  // Only a native build on an AVX-512 CPU defines this for the whole program; the reproducible
  // profile targets x86-64-v3 and always takes the AVX2 kernel.
  return GemmKernel::kAvx512;
#else
  return GemmKernel::kAvx2;
#endif
}

bool gemm_kernel_runs_here(GemmKernel kernel) {
  switch (kernel) {
    case GemmKernel::kReference:
      return true;
    case GemmKernel::kAvx2:
      return cpu_has_avx2_fma();
    case GemmKernel::kAvx512:
      return cpu_has_avx512();
  }
  return false;
}

GemmKernel default_gemm_kernel() {
  const int k = g_default_kernel.load(std::memory_order_relaxed);
  return k < 0 ? profile_gemm_kernel() : static_cast<GemmKernel>(k);
}

void set_default_gemm_kernel(GemmKernel kernel) {
  if (!gemm_kernel_runs_here(kernel)) {
    throw std::runtime_error("gemm: this CPU cannot run the " +
                             std::string(gemm_kernel_name(kernel)) + " kernel");
  }
  g_default_kernel.store(static_cast<int>(kernel), std::memory_order_relaxed);
}

ScopedGemmKernel::ScopedGemmKernel(GemmKernel kernel) : previous_(t_kernel_override) {
  if (!gemm_kernel_runs_here(kernel)) {
    throw std::runtime_error("gemm: this CPU cannot run the " +
                             std::string(gemm_kernel_name(kernel)) + " kernel");
  }
  t_kernel_override = static_cast<int>(kernel);
}

ScopedGemmKernel::~ScopedGemmKernel() { t_kernel_override = previous_; }

void gemm_with(GemmKernel kernel, Transpose ta, Transpose tb, int m, int n, int k, const float* a,
               int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
  if (!gemm_kernel_runs_here(kernel)) {
    throw std::runtime_error("gemm: this CPU cannot run the " +
                             std::string(gemm_kernel_name(kernel)) + " kernel");
  }
  run_kernel(kernel, make_call(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, accumulate));
}

void gemm(Transpose ta, Transpose tb, int m, int n, int k, const float* a, int lda, const float* b,
          int ldb, float* c, int ldc, bool accumulate) {
  const GemmKernel kernel =
      t_kernel_override < 0 ? default_gemm_kernel() : static_cast<GemmKernel>(t_kernel_override);
  run_kernel(kernel, make_call(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, accumulate));
}

void gemm(Transpose ta, Transpose tb, int m, int n, int k, const double* a, int lda,
          const double* b, int ldb, double* c, int ldc, bool accumulate) {
  gemm_reference<double>(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

}  // namespace hermes::nn
