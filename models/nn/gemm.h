// The matrix products of the layers, with a result that depends on nothing but the inputs.
//
// C = op(A) op(B)        (accumulate == false)
// C = C + op(A) op(B)    (accumulate == true)
// column-major, op(A) is m x k, op(B) is k x n, C is m x n, op = identity or transpose.
//
// Every element of C is computed in ONE order, whatever the kernel, vector width, thread or
// cache size: the k terms are taken in blocks of kGemmKc (from k = 0), each block is summed by a
// chain of fused multiply-adds s = fma(A(i,p), B(p,j), s) from s = 0 in increasing p, and the
// blocks are added to C in order: C = (C or first block) + second block + ... . Nothing is summed
// across vector lanes, the block length is a constant (not derived from the cache sizes the way
// Eigen's GEMM derives it), and a fused multiply-add is exactly rounded everywhere, so the AVX2
// kernel, the AVX-512 kernel and the scalar reference give the same bits (tests/nn/gemm_test.cc
// checks it on every shape class the models use).
//
// float runs the process's kernel (default_gemm_kernel): the math profile's (HERMES_MATH: AVX2 in
// the reproducible build, the widest the build targets in the native one) until the command line
// sets another, normally the widest kernel that matched the reference on the run's own products
// (gemm_probe.h). double (only the finite-difference gradient checks use it) runs the scalar
// reference.
#pragma once

#include <string_view>

namespace hermes::nn {

enum class Transpose { kNo, kYes };

// The k-block length of the summation order above. Part of the result's definition: changing it
// changes the last bits of every product with k > kGemmKc.
inline constexpr int kGemmKc = 256;

void gemm(Transpose ta, Transpose tb, int m, int n, int k, const float* a, int lda, const float* b,
          int ldb, float* c, int ldc, bool accumulate);
void gemm(Transpose ta, Transpose tb, int m, int n, int k, const double* a, int lda,
          const double* b, int ldb, double* c, int ldc, bool accumulate);

// The kernels one binary holds. kReference is the definition written as plain loops.
enum class GemmKernel { kReference, kAvx2, kAvx512 };

std::string_view gemm_kernel_name(GemmKernel kernel);
// The math profile's kernel, fixed at compile time: the one every kernel's bytes are defined by
// and checked against (through the reference), and the process's kernel until one is set.
GemmKernel profile_gemm_kernel();
// The kernel gemm<float> uses in this process on every thread without a ScopedGemmKernel.
GemmKernel default_gemm_kernel();
// Sets it (the command line does, after gemm_probe.h's check, before any math runs). Throws
// std::runtime_error if the machine cannot run the kernel.
void set_default_gemm_kernel(GemmKernel kernel);
// The kernels this binary holds, widest first (the order in which they are tried).
inline constexpr GemmKernel kGemmKernelsWidestFirst[] = {GemmKernel::kAvx512, GemmKernel::kAvx2,
                                                         GemmKernel::kReference};
// Whether this machine can execute `kernel` (AVX-512 needs a CPU that has it).
bool gemm_kernel_runs_here(GemmKernel kernel);

// While one lives, gemm() on float on THIS thread runs `kernel` instead of the process's (for
// `bench math`, which times the training loop with each kernel; runs never use it). Throws
// std::runtime_error if the machine cannot run the kernel.
class ScopedGemmKernel {
 public:
  explicit ScopedGemmKernel(GemmKernel kernel);
  ~ScopedGemmKernel();
  ScopedGemmKernel(const ScopedGemmKernel&) = delete;
  ScopedGemmKernel& operator=(const ScopedGemmKernel&) = delete;

 private:
  int previous_;
};

// gemm<float> through a chosen kernel (tests and `bench math`). Throws std::runtime_error if the
// machine cannot run it.
void gemm_with(GemmKernel kernel, Transpose ta, Transpose tb, int m, int n, int k, const float* a,
               int lda, const float* b, int ldb, float* c, int ldc, bool accumulate);

}  // namespace hermes::nn
