// The AVX2 + FMA GEMM kernel: 8 floats a vector, tiles of 24 rows x 4 columns (12 accumulators of
// the 16 ymm registers). The math of the reproducible profile on every x86-64-v3 machine.
// See gemm_kernels.h for why this file includes nothing but the intrinsics.
#include <immintrin.h>

#include "models/nn/gemm_kernels.h"

#if !defined(__AVX2__) || !defined(__FMA__)
#error "gemm_avx2.cc must be compiled with AVX2 and FMA (CMake sets -mavx2 -mfma on it)"
#endif

namespace {

// Always inlined: also into the panel loop that a sanitizer build leaves unchecked
// (gemm_kernel_impl.h), where a checked call would be both slower and checked.
struct Isa {
  using V = __m256;
  static constexpr int kW = 8;
  static constexpr int kMv = 3;
  static constexpr int kNr = 4;
  [[gnu::always_inline]] static V zero() { return _mm256_setzero_ps(); }
  [[gnu::always_inline]] static V loadu(const float* p) { return _mm256_loadu_ps(p); }
  [[gnu::always_inline]] static void store(float* p, V v) { _mm256_store_ps(p, v); }
  [[gnu::always_inline]] static void storeu(float* p, V v) { _mm256_storeu_ps(p, v); }
  [[gnu::always_inline]] static V bcast(const float* p) { return _mm256_broadcast_ss(p); }
  [[gnu::always_inline]] static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  [[gnu::always_inline]] static V add(V a, V b) { return _mm256_add_ps(a, b); }
};

#include "models/nn/gemm_kernel_impl.h"

}  // namespace

namespace hermes::nn::detail {

void gemm_avx2(const GemmCall& g, float* pack_a) { gemm_blocked(g, pack_a); }

}  // namespace hermes::nn::detail
