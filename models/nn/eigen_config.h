// The one place where the project includes Eigen. The model math does not use Eigen (its products
// are models/nn/gemm.h, whose sums do not depend on the host); Eigen's GEMM is the yardstick of
// `bench math` and the control of the cache-size regression test, and they include this header
// instead of <Eigen/...> so that both see the same configuration.
//
// Why the stack limit: Eigen's GEMM packs its operands into blocking buffers. Buffers up to
// EIGEN_STACK_ALLOCATION_LIMIT bytes live on the stack (alloca), larger ones are malloc'ed on
// every product call. The default 128 KiB sends the MLP's 784x128 products and the CNN's
// conv GEMMs to the heap at every training step; 1 MiB keeps every GEMM of a batch-16 step of
// both zoo models on the stack (checked by the no-allocation test). Worst case is two such
// buffers (2 MiB) of stack in a GEMM call, well inside the 8 MiB default thread stack.
#pragma once

#ifdef EIGEN_CORE_H
#error "models/nn/eigen_config.h must be included before any other Eigen header"
#endif

#define EIGEN_STACK_ALLOCATION_LIMIT (1 << 20)

// GCC 12 reports -W(maybe-)uninitialized inside its own avx512fintrin.h (_mm512_undefined_pd) when
// Eigen's AVX-512 packet code is inlined (GCC bug 105593, fixed in GCC 13). The pragma covers
// only the system headers included here; the warning stays on for our code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <Eigen/Core>
#pragma GCC diagnostic pop

namespace hermes::nn {

template <typename T>
using MatrixMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>>;
template <typename T>
using ConstMatrixMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>>;
template <typename T>
using VectorMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstVectorMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <typename T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

}  // namespace hermes::nn
