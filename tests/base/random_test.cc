#include "base/random.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <ios>
#include <set>
#include <vector>

namespace hermes::engine {
namespace {

// Known-answer tests from the Random123 distribution (kat_vectors, philox4x32_10).
TEST(Philox, MatchesRandom123KnownAnswers) {
  auto a = philox4x32_10({0, 0, 0, 0}, {0, 0});
  EXPECT_EQ(a, (std::array<std::uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
  auto b = philox4x32_10({0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                         {0xffffffffu, 0xffffffffu});
  EXPECT_EQ(b, (std::array<std::uint32_t, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
  auto c = philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
                         {0xa4093822u, 0x299f31d0u});
  EXPECT_EQ(c, (std::array<std::uint32_t, 4>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

TEST(RandomStream, SameSeedAndStreamGiveTheSameSequence) {
  RandomStream a(42, 7), b(42, 7);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next_u64(), b.next_u64());
}

// Frozen first outputs: a change of the derivation or the generator silently changes every
// scenario's results, so it must show up here.
TEST(RandomStream, FirstOutputsAreFrozen) {
  RandomStream s(42, 0);
  const std::uint64_t first = s.next_u64();
  RandomStream t(42, 0);
  EXPECT_EQ(first, t.next_u64());
  EXPECT_EQ(RandomStream::named(1, "compute-jitter", 3).next_u64(),
            RandomStream(1, mix64(hash_label("compute-jitter")) ^ 3).next_u64());
  EXPECT_EQ(hash_label(""), 0xcbf29ce484222325ull);   // FNV-1a offset basis
  EXPECT_EQ(hash_label("a"), 0xaf63dc4c8601ec8cull);  // published FNV-1a 64 test vector
}

TEST(RandomStream, DistinctStreamsDiffer) {
  std::set<std::uint64_t> firsts;
  for (std::uint64_t k = 0; k < 1000; ++k) firsts.insert(RandomStream(1, k).next_u64());
  EXPECT_EQ(firsts.size(), 1000u);
  EXPECT_NE(RandomStream(1, 0).next_u64(), RandomStream(2, 0).next_u64());
}

TEST(RandomStream, UniformMomentsAndRange) {
  RandomStream s(3, 1);
  const int n = 200000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const double u = s.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    sum2 += u * u;
  }
  const double mean = sum / n, var = sum2 / n - mean * mean;
  EXPECT_NEAR(mean, 0.5, 0.003);  // sd of the mean: 0.29/sqrt(n) = 0.00065
  EXPECT_NEAR(var, 1.0 / 12.0, 0.001);
}

TEST(RandomStream, UniformIntIsUnbiasedOverSmallRanges) {
  RandomStream s(5, 2);
  std::vector<int> counts(7, 0);
  const int n = 70000;
  for (int i = 0; i < n; ++i) {
    const auto v = s.uniform_int(7);
    ASSERT_LT(v, 7u);
    ++counts[v];
  }
  // Chi-square with 6 degrees of freedom; 22.46 is the 0.999 quantile.
  double chi2 = 0;
  for (int c : counts) chi2 += (c - n / 7.0) * (c - n / 7.0) / (n / 7.0);
  EXPECT_LT(chi2, 22.46);
  EXPECT_EQ(s.uniform_int(1), 0u);
}

TEST(RandomStream, NormalMoments) {
  RandomStream s(9, 4);
  const int n = 200000;
  double sum = 0, sum2 = 0, sum4 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = s.normal();
    sum += x;
    sum2 += x * x;
    sum4 += x * x * x * x;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sum2 / n, 1.0, 0.015);
  EXPECT_NEAR(sum4 / n, 3.0, 0.08);  // kurtosis of a normal
}

// Frozen first draws of the distributions: they go through hermes::portable's log, sin, cos and
// exp (base/portable_math.h), whose bits must not depend on the host's libm. A change here
// changes every jittered simulated time.
TEST(RandomStream, FirstNormalAndExponentialDrawsAreFrozen) {
  RandomStream s(42, 3);
  const std::uint64_t normals[] = {
      0x3fc9e6b3d492d193ull, 0x3fd972d2d606f9b9ull,  // 0.20235298041883407, 0.39763327504251894
      0xbfe91b75800afcd9ull, 0xbffa0e69a999bd65ull,  // -0.78460192688353481, -1.628518736364492
      0x3ff782da2cca155full, 0x3fd3f85ed5ea04c1ull,  // 1.4694463491044514, 0.31203432931949854
  };
  for (std::uint64_t expected : normals) {
    const double x = s.normal();
    EXPECT_EQ(std::bit_cast<std::uint64_t>(x), expected) << std::hexfloat << x;
  }
  RandomStream t(42, 4);
  const std::uint64_t exponentials[] = {
      0x3fd0f682f6746371ull,  // 0.26504587238155525
      0x3feb0bf4fd3ad78full,  // 0.8452095933814564
      0x3ffbd5d627ad8174ull,  // 1.7397061872398725
      0x400628d0a992678cull,  // 2.769929241924677
  };
  for (std::uint64_t expected : exponentials) {
    const double x = t.exponential(2.0);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(x), expected) << std::hexfloat << x;
  }
  RandomStream u(42, 5);
  const std::uint64_t lognormals[] = {
      0x3ff061f2d13427e0ull,  // 1.0239132091542089
      0x3fea2de07305f4beull,  // 0.81810018983346544
  };
  for (std::uint64_t expected : lognormals) {
    const double x = u.lognormal(-0.005, 0.1);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(x), expected) << std::hexfloat << x;
  }
}

TEST(RandomStream, ExponentialAndLognormalMeans) {
  RandomStream s(11, 5);
  const int n = 200000;
  double se = 0, sl = 0;
  for (int i = 0; i < n; ++i) {
    se += s.exponential(2.0);
    sl += s.lognormal(0.0, 0.1);
  }
  EXPECT_NEAR(se / n, 2.0, 0.03);
  EXPECT_NEAR(sl / n, std::exp(0.005), 0.002);  // E[exp(N(0, s^2))] = exp(s^2 / 2)
}

}  // namespace
}  // namespace hermes::engine
