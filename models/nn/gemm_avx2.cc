// The AVX2 + FMA GEMM kernel: 8 floats a vector, tiles of 24 rows x 4 columns (12 accumulators of
// the 16 ymm registers). The math of the reproducible profile on every x86-64-v3 machine.
// See gemm_kernels.h for why this file includes nothing but the intrinsics.
#include <immintrin.h>

#include "models/nn/gemm_kernels.h"

#if !defined(__AVX2__) || !defined(__FMA__)
#error "gemm_avx2.cc must be compiled with AVX2 and FMA (CMake sets -mavx2 -mfma on it)"
#endif

namespace {

struct Isa {
  using V = __m256;
  static constexpr int kW = 8;
  static constexpr int kMv = 3;
  static constexpr int kNr = 4;
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const float* p) { return _mm256_load_ps(p); }
  static V loadu(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_store_ps(p, v); }
  static void storeu(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V bcast(const float* p) { return _mm256_broadcast_ss(p); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
};

#include "models/nn/gemm_kernel_impl.h"

}  // namespace

namespace hermes::nn::detail {

void gemm_avx2(const GemmCall& g, float* pack_a, float* pack_b) { gemm_blocked(g, pack_a, pack_b); }

}  // namespace hermes::nn::detail
