// The start-of-run check that picks the GEMM kernel (models/nn/gemm_probe.h): the products it
// checks are the layers' own, it takes the widest kernel that equals the reference, and its
// comparison catches a product summed in another order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/nn/gemm_probe.h"
#include "models/nn/zoo.h"

namespace hermes::nn {
namespace {

int count_of(const std::vector<GemmProduct>& ps, Transpose ta, Transpose tb) {
  int n = 0;
  for (const GemmProduct& p : ps) n += (p.ta == ta && p.tb == tb) ? 1 : 0;
  return n;
}

TEST(GemmProbe, ProductsAreTheLayersCallsForTrainingAndEvaluation) {
  // MLP 784-128-64-10 at batch 16: three forward products (accumulating into the bias), three
  // weight gradients, two input gradients (none below the first layer).
  const std::vector<GemmProduct> train = model_gemm_products(mlp_spec(), {16}, {});
  ASSERT_EQ(train.size(), 8u);
  EXPECT_EQ(train[0], (GemmProduct{Transpose::kNo, Transpose::kNo, 128, 16, 784, true}));
  EXPECT_EQ(count_of(train, Transpose::kNo, Transpose::kYes), 3);
  EXPECT_EQ(count_of(train, Transpose::kYes, Transpose::kNo), 2);
  const GemmProduct first_weight_grad{Transpose::kNo, Transpose::kYes, 128, 784, 16, false};
  EXPECT_NE(std::find(train.begin(), train.end(), first_weight_grad), train.end());
  // An evaluation batch adds its forward products only; a repeated batch adds nothing.
  const std::vector<GemmProduct> both = model_gemm_products(mlp_spec(), {16, 16}, {64});
  EXPECT_EQ(both.size(), 11u);
  EXPECT_EQ(count_of(both, Transpose::kNo, Transpose::kNo), 6);
  EXPECT_THROW(model_gemm_products(mlp_spec(), {0}, {}), std::invalid_argument);
}

TEST(GemmProbe, ChoosesTheWidestKernelThatRunsHere) {
  const GemmChoice c = choose_gemm_kernel(model_gemm_products(cnn_spec(), {16, 1}, {64}));
  const GemmKernel widest =
      gemm_kernel_runs_here(GemmKernel::kAvx512) ? GemmKernel::kAvx512 : GemmKernel::kAvx2;
  EXPECT_EQ(c.kernel, widest);
  EXPECT_FALSE(c.forced);
  ASSERT_EQ(c.checks.size(), 2u);  // avx512, avx2: the reference is the yardstick, not a choice
  EXPECT_EQ(c.checks[0].kernel, GemmKernel::kAvx512);
  EXPECT_EQ(c.checks[0].runs_here, gemm_kernel_runs_here(GemmKernel::kAvx512));
  EXPECT_EQ(c.checks[0].checked, c.checks[0].runs_here);
  // The narrower kernel is checked only when the wider one could not be used.
  EXPECT_EQ(c.checks[1].checked, !c.checks[0].runs_here);
  EXPECT_NE(c.text().find(std::string(gemm_kernel_name(widest)) + " (the widest"),
            std::string::npos)
      << c.text();
}

// The comparison has teeth: the reference's own order passes, one unblocked FMA chain over all
// of k (another order, the same product within rounding) fails on a k of several blocks, and so
// does a result off by one ulp in one element.
TEST(GemmProbe, ComparisonCatchesAnotherOrderOfTheSums) {
  const GemmProduct p{Transpose::kNo, Transpose::kNo, 30, 20, 3 * kGemmKc + 17, false};
  const auto reference = [](const GemmProduct& s, const float* a, int lda, const float* b, int ldb,
                            float* c, int ldc) {
    gemm_with(GemmKernel::kReference, s.ta, s.tb, s.m, s.n, s.k, a, lda, b, ldb, c, ldc,
              s.accumulate);
  };
  EXPECT_TRUE(equals_reference(p, reference));
  const auto one_chain = [](const GemmProduct& s, const float* a, int lda, const float* b, int ldb,
                            float* c, int ldc) {
    for (int j = 0; j < s.n; ++j) {
      for (int i = 0; i < s.m; ++i) {
        float acc = 0.0f;
        for (int q = 0; q < s.k; ++q) acc = std::fma(a[i + q * lda], b[q + j * ldb], acc);
        c[i + j * ldc] = acc;
      }
    }
  };
  EXPECT_FALSE(equals_reference(p, one_chain));
  const auto off_by_one_ulp = [&reference](const GemmProduct& s, const float* a, int lda,
                                           const float* b, int ldb, float* c, int ldc) {
    reference(s, a, lda, b, ldb, c, ldc);
    c[ldc * (s.n - 1) + s.m - 1] = std::nextafter(c[ldc * (s.n - 1) + s.m - 1], 1e30f);
  };
  EXPECT_FALSE(equals_reference(p, off_by_one_ulp));
}

TEST(GemmProbe, KernelNamesParse) {
  EXPECT_EQ(gemm_kernel_from_name("avx512"), GemmKernel::kAvx512);
  EXPECT_EQ(gemm_kernel_from_name("avx2"), GemmKernel::kAvx2);
  EXPECT_EQ(gemm_kernel_from_name("reference"), GemmKernel::kReference);
  EXPECT_FALSE(gemm_kernel_from_name("auto").has_value());
  EXPECT_FALSE(gemm_kernel_from_name("AVX2").has_value());
}

}  // namespace
}  // namespace hermes::nn
