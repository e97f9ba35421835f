// Which GEMM kernel a run uses: the widest this CPU executes whose products equal the reference's
// bit for bit on the products the run itself computes.
//
// Every kernel is written to give the reference's bits (gemm.h), and tests/nn/gemm_test.cc checks
// it on every shape class; this probe repeats the check at start, on this CPU and the run's own
// layer shapes, so that a wider kernel is used only where it is shown to give the same bytes as
// the profile's. It takes milliseconds: long dimensions are cut to the same edge tiles and the
// same steps of the order of the sums (probe_cut in the .cc).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/nn/gemm.h"
#include "models/nn/model_spec.h"

namespace hermes::nn {

// One call of gemm() as a layer makes it.
struct GemmProduct {
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  int m = 0, n = 0, k = 0;
  bool accumulate = false;
  bool operator==(const GemmProduct&) const = default;
};

// The products of `spec`'s layers as dense.cc and conv2d.cc call gemm(): for each mini-batch size
// in `training_batches` the forward (which accumulates into the bias), weight-gradient and
// input-gradient products of a training step, and for each in `evaluation_batches` the forward
// ones. Duplicates are dropped. Throws std::invalid_argument for a batch <= 0.
std::vector<GemmProduct> model_gemm_products(const ModelSpec& spec,
                                             const std::vector<int>& training_batches,
                                             const std::vector<int>& evaluation_batches);

// gemm()'s arguments after the product's shape: (a, lda, b, ldb, c, ldc).
using GemmCompute = std::function<void(const GemmProduct& shape, const float* a, int lda,
                                       const float* b, int ldb, float* c, int ldc)>;

// Whether `compute` gives the reference's bits on `p` (its long dimensions cut, see the .cc), on
// operands drawn from a stream fixed by the shape: the same operands on every machine and call.
bool equals_reference(const GemmProduct& p, const GemmCompute& compute);

struct KernelCheck {
  GemmKernel kernel = GemmKernel::kReference;
  bool runs_here = false;  // the CPU has its instruction set
  bool checked = false;    // compared (not when a wider kernel was chosen or it cannot run)
  bool matches = false;    // every product equals the reference's bits
};

struct GemmChoice {
  GemmKernel kernel = GemmKernel::kAvx2;  // what runs use
  bool forced = false;                    // named by the user, not chosen
  int products = 0;                       // products checked
  std::vector<KernelCheck> checks;        // widest first; empty when forced
  // "avx512 (the widest of this CPU's kernels equal to the reference on the run's 9 products)";
  // `whose` names whose products they were.
  std::string text(std::string_view whose = "the run's") const;
};

// Checks each kernel this CPU runs, widest first, against the reference on `products` (operands
// from a fixed counter-based stream) and returns the first that matches them all; if none does,
// the profile's kernel (whose bytes the reference files were made with), or the reference where
// the CPU cannot run that. Results are cached per
// product, so a sweep's points pay once.
GemmChoice choose_gemm_kernel(const std::vector<GemmProduct>& products);

// The kernel a name gives ("reference", "avx2", "avx512"); nullopt for any other text.
std::optional<GemmKernel> gemm_kernel_from_name(std::string_view name);

}  // namespace hermes::nn
