// The interface between gemm.cc and the per-instruction-set kernels (gemm_avx2.cc,
// gemm_avx512.cc). Plain types only: the kernel files are compiled with their own -m flags, and
// any inline C++ library function they instantiated could be merged by the linker into code that
// runs on every CPU, so they include nothing but the intrinsics and this header.
#pragma once

namespace hermes::nn::detail {

struct GemmCall {
  bool trans_a, trans_b;
  int m, n, k;
  const float* a;
  int lda;
  const float* b;
  int ldb;
  float* c;
  int ldc;
  bool accumulate;
};

// Blocking of the kernels, in elements. kGemmMc is a multiple of both kernels' tile heights (24
// and 48 rows) and bounds the packed block of A. Only kGemmKc (gemm.h) enters the result.
inline constexpr int kGemmMc = 288;
inline constexpr int kGemmKcBlock = 256;  // == kGemmKc, repeated to keep this header standalone

// The workspace of a kernel in floats (a packed block of A); the pointer passed is 64-byte
// aligned.
inline constexpr long kGemmPackAFloats = static_cast<long>(kGemmMc) * kGemmKcBlock;

void gemm_avx2(const GemmCall& g, float* pack_a);
void gemm_avx512(const GemmCall& g, float* pack_a);

}  // namespace hermes::nn::detail
