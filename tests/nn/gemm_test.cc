// The GEMM's result is defined element by element (gemm.h): these tests hold every kernel this
// machine can run to the scalar reference, bit for bit, on the shapes the models use and on the
// awkward ones (tails of tiles, k-blocks, transposes, leading dimensions). An AVX-512 machine
// thereby proves that the AVX2 kernel of the reproducible profile and the AVX-512 kernel of the
// native profile give the same bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "base/random.h"
#include "models/nn/gemm.h"

namespace hermes::nn {
namespace {

struct Case {
  int m, n, k;
  Transpose ta, tb;
  bool accumulate;
  int pad = 0;  // extra leading-dimension rows
};

// Operands with a wide spread of magnitudes and signs, so that any other summation order
// changes the last bits.
std::vector<float> random_values(std::size_t count, RandomStream& rng) {
  std::vector<float> v(count);
  for (float& x : v) {
    const double mag = std::ldexp(1.0, static_cast<int>(rng.uniform_int(20)) - 10);
    x = static_cast<float>(rng.uniform(-1.0, 1.0) * mag);
  }
  return v;
}

struct Operands {
  int lda, ldb, ldc;
  std::vector<float> a, b, c0;
};

Operands operands(const Case& t, std::uint64_t seed) {
  RandomStream rng = RandomStream::named(seed, "gemm-test");
  Operands o;
  const int a_rows = t.ta == Transpose::kNo ? t.m : t.k;
  const int a_cols = t.ta == Transpose::kNo ? t.k : t.m;
  const int b_rows = t.tb == Transpose::kNo ? t.k : t.n;
  const int b_cols = t.tb == Transpose::kNo ? t.n : t.k;
  o.lda = a_rows + t.pad;
  o.ldb = b_rows + t.pad;
  o.ldc = t.m + t.pad;
  o.a = random_values(static_cast<std::size_t>(o.lda) * a_cols, rng);
  o.b = random_values(static_cast<std::size_t>(o.ldb) * b_cols, rng);
  o.c0 = random_values(static_cast<std::size_t>(o.ldc) * t.n, rng);
  return o;
}

std::vector<float> run(GemmKernel kernel, const Case& t, const Operands& o) {
  std::vector<float> c = o.c0;
  gemm_with(kernel, t.ta, t.tb, t.m, t.n, t.k, o.a.data(), o.lda, o.b.data(), o.ldb, c.data(),
            o.ldc, t.accumulate);
  return c;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  // The products of the zoo models at batch 16 (forward, weight gradient, input gradient).
  // (m, n, k) of each forward product; the conv layers at batch 2 (n = 2 x output pixels).
  const int shapes[][3] = {{128, 16, 784}, {64, 16, 128},  {10, 16, 64},
                           {32, 1800, 27}, {64, 338, 288}, {64, 16, 1600}};
  for (const auto& s : shapes) {
    out.push_back({s[0], s[1], s[2], Transpose::kNo, Transpose::kNo, true});
    out.push_back({s[0], s[2], s[1], Transpose::kNo, Transpose::kYes, false});
    out.push_back({s[2], s[1], s[0], Transpose::kYes, Transpose::kNo, false});
  }
  // Tails of every tile and block size, k around and beyond the k-block, leading dimensions.
  for (int m : {1, 7, 8, 9, 23, 25, 47, 49, 289, 300}) {
    for (int n : {1, 3, 5, 9, 1025}) {
      for (int k : {1, 255, 256, 257, 700}) {
        if (static_cast<long>(m) * n * k > 4'000'000) continue;
        const bool acc = (m + n + k) % 2 == 0;
        const auto ta = (m + k) % 3 == 0 ? Transpose::kYes : Transpose::kNo;
        const auto tb = (n + k) % 2 == 0 ? Transpose::kYes : Transpose::kNo;
        out.push_back({m, n, k, ta, tb, acc, (m % 3)});
      }
    }
  }
  out.push_back({5, 4, 0, Transpose::kNo, Transpose::kNo, false});  // k = 0: C = 0
  out.push_back({5, 4, 0, Transpose::kNo, Transpose::kNo, true});   // k = 0: C unchanged
  return out;
}

std::string describe(const Case& t) {
  return std::to_string(t.m) + "x" + std::to_string(t.n) + "x" + std::to_string(t.k) +
         (t.ta == Transpose::kYes ? " A^T" : "") + (t.tb == Transpose::kYes ? " B^T" : "") +
         (t.accumulate ? " +=" : " =") + " pad " + std::to_string(t.pad);
}

void expect_kernel_matches_reference(GemmKernel kernel) {
  if (!gemm_kernel_runs_here(kernel)) {
    GTEST_SKIP() << "this CPU cannot run the " << gemm_kernel_name(kernel) << " kernel";
  }
  std::uint64_t seed = 1;
  for (const Case& t : cases()) {
    const Operands o = operands(t, seed++);
    const std::vector<float> want = run(GemmKernel::kReference, t, o);
    const std::vector<float> got = run(kernel, t, o);
    ASSERT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * sizeof(float)))
        << gemm_kernel_name(kernel) << " differs from the reference on " << describe(t);
  }
}

TEST(Gemm, Avx2KernelGivesTheReferenceBits) { expect_kernel_matches_reference(GemmKernel::kAvx2); }

TEST(Gemm, Avx512KernelGivesTheReferenceBits) {
  expect_kernel_matches_reference(GemmKernel::kAvx512);
}

TEST(Gemm, ProfileKernelIsFixedAtCompileTime) {
#if defined(__AVX512F__)
  EXPECT_EQ(profile_gemm_kernel(), GemmKernel::kAvx512);
#else
  EXPECT_EQ(profile_gemm_kernel(), GemmKernel::kAvx2);
#endif
}

// The reference computes a product: within float rounding of a double-precision one.
TEST(Gemm, ReferenceIsAProduct) {
  const Case t{37, 11, 600, Transpose::kYes, Transpose::kNo, true, 2};
  const Operands o = operands(t, 99);
  const std::vector<float> c = run(GemmKernel::kReference, t, o);
  for (int j = 0; j < t.n; ++j) {
    for (int i = 0; i < t.m; ++i) {
      double exact = o.c0[i + j * o.ldc], magnitude = std::fabs(exact);
      for (int p = 0; p < t.k; ++p) {
        const double term = static_cast<double>(o.a[p + i * o.lda]) * o.b[p + j * o.ldb];
        exact += term;
        magnitude += std::fabs(term);
      }
      EXPECT_NEAR(c[i + j * o.ldc], exact, 1e-6 * magnitude) << i << "," << j;
    }
  }
}

// The k-blocks are part of the definition: 2^24 followed by 255 ones sums to 2^24 in a float
// chain (each +1 rounds away), and the next block of 256 ones is summed on its own, so the
// result is 2^24 + 256, where one chain over all 512 terms would give 2^24.
TEST(Gemm, SumsRunInBlocksOfKc) {
  static_assert(kGemmKc == 256);
  const int k = 2 * kGemmKc;
  std::vector<float> a(static_cast<std::size_t>(k), 1.0f), b(static_cast<std::size_t>(k), 1.0f);
  b[0] = 16777216.0f;
  for (GemmKernel kernel : {GemmKernel::kReference, GemmKernel::kAvx2, GemmKernel::kAvx512}) {
    if (!gemm_kernel_runs_here(kernel)) continue;
    float c = -1.0f;
    gemm_with(kernel, Transpose::kYes, Transpose::kNo, 1, 1, k, a.data(), k, b.data(), k, &c, 1,
              false);
    EXPECT_EQ(c, 16777216.0f + 256.0f) << gemm_kernel_name(kernel);
  }
}

TEST(Gemm, DoubleUsesTheSameOrder) {
  const int k = 2 * kGemmKc;
  std::vector<double> a(static_cast<std::size_t>(k), 1.0), b(static_cast<std::size_t>(k), 1.0);
  b[0] = 9007199254740992.0;  // 2^53
  double c = -1.0;
  gemm(Transpose::kYes, Transpose::kNo, 1, 1, k, a.data(), k, b.data(), k, &c, 1, false);
  EXPECT_EQ(c, 9007199254740992.0 + 256.0);
}

}  // namespace
}  // namespace hermes::nn
