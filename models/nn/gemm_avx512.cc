// The AVX-512 GEMM kernel: 16 floats a vector, tiles of 48 rows x 8 columns (24 accumulators of
// the 32 zmm registers). Compiled into every build (CMake sets -mavx512f on this file only) so
// that tests and `bench math` can hold it against the AVX2 kernel, and that runs take it wherever
// the CPU has AVX-512 and it gives the reference's bits on their products (gemm_probe.h). See
// gemm_kernels.h for why this file includes nothing but the intrinsics.
#include <immintrin.h>

#include "models/nn/gemm_kernels.h"

#if !defined(__AVX512F__)
#error "gemm_avx512.cc must be compiled with AVX-512F (CMake sets -mavx512f on it)"
#endif

namespace {

// Always inlined, as in gemm_avx2.cc.
struct Isa {
  using V = __m512;
  static constexpr int kW = 16;
  static constexpr int kMv = 3;
  static constexpr int kNr = 8;
  [[gnu::always_inline]] static V zero() { return _mm512_setzero_ps(); }
  [[gnu::always_inline]] static V loadu(const float* p) { return _mm512_loadu_ps(p); }
  [[gnu::always_inline]] static void store(float* p, V v) { _mm512_store_ps(p, v); }
  [[gnu::always_inline]] static void storeu(float* p, V v) { _mm512_storeu_ps(p, v); }
  [[gnu::always_inline]] static V bcast(const float* p) { return _mm512_set1_ps(*p); }
  [[gnu::always_inline]] static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  [[gnu::always_inline]] static V add(V a, V b) { return _mm512_add_ps(a, b); }
};

#include "models/nn/gemm_kernel_impl.h"

}  // namespace

namespace hermes::nn::detail {

void gemm_avx512(const GemmCall& g, float* pack_a) { gemm_blocked(g, pack_a); }

}  // namespace hermes::nn::detail
