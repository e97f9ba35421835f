// The update codecs of docs/compression.md: each rule pinned on known values.
#include "sim/policies/update_compression.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace hermes::protocols {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(UpdateCompression, Fp16RoundsToNearestEven) {
  EXPECT_EQ(round_to_fp16(1.0f), 1.0f);
  EXPECT_EQ(round_to_fp16(-2.5f), -2.5f);
  // Between 1 and 1 + 2^-10 (half's next value): below the middle down, above up, at it to even.
  EXPECT_EQ(round_to_fp16(1.0f + 0x1p-12f), 1.0f);
  EXPECT_EQ(round_to_fp16(1.0f + 0x1p-11f), 1.0f);                        // tie: even is 1
  EXPECT_EQ(round_to_fp16(1.0f + 0x1p-10f + 0x1p-11f), 1.0f + 0x1p-9f);   // tie: even is up
  EXPECT_EQ(round_to_fp16(1.0f + 0x1p-11f + 0x1p-20f), 1.0f + 0x1p-10f);  // above the tie
  EXPECT_EQ(round_to_fp16(0.1f), 0.0999755859375f);                       // 0x2e66
  EXPECT_EQ(round_to_fp16(3.14159265f), 3.140625f);                       // 0x4248
}

TEST(UpdateCompression, Fp16OverflowsToInfinityFrom65520) {
  EXPECT_EQ(round_to_fp16(65504.0f), 65504.0f);  // the largest half
  EXPECT_EQ(round_to_fp16(65519.0f), 65504.0f);
  EXPECT_EQ(round_to_fp16(65520.0f), kInf);  // the tie with 2^16 goes to the even: infinity
  EXPECT_EQ(round_to_fp16(-1e6f), -kInf);
  EXPECT_EQ(round_to_fp16(kInf), kInf);
  EXPECT_TRUE(std::isnan(round_to_fp16(std::numeric_limits<float>::quiet_NaN())));
}

TEST(UpdateCompression, Fp16SubnormalsAreMultiplesOfTwoToTheMinus24) {
  EXPECT_EQ(round_to_fp16(0x1p-14f), 0x1p-14f);                 // the smallest normal half
  EXPECT_EQ(round_to_fp16(0x1p-24f), 0x1p-24f);                 // the smallest subnormal
  EXPECT_EQ(round_to_fp16(0x1.8p-24f), 0x1p-23f);               // 1.5 quanta: tie, to even 2
  EXPECT_EQ(round_to_fp16(0x1.4p-24f), 0x1p-24f);               // 1.25 quanta: 1
  EXPECT_EQ(round_to_fp16(0x1p-25f), 0.0f);                     // half a quantum: tie, to 0
  EXPECT_EQ(round_to_fp16(0x1.000002p-25f), 0x1p-24f);          // just above: 1 quantum
  EXPECT_EQ(round_to_fp16(3 * 0x1p-24f + 0x1p-25f), 0x1p-22f);  // 3.5 quanta: tie, to even 4
  EXPECT_EQ(round_to_fp16(1e-10f), 0.0f);
  EXPECT_TRUE(std::signbit(round_to_fp16(-1e-10f)));
  // The largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(round_to_fp16(0x1p-14f - 0x1p-26f), 0x1p-14f);
}

TEST(UpdateCompression, Bf16KeepsSevenMantissaBitsTiesToEven) {
  EXPECT_EQ(round_to_bf16(1.0f), 1.0f);
  EXPECT_EQ(round_to_bf16(1.0f + 0x1p-8f), 1.0f);                      // tie: even is 1
  EXPECT_EQ(round_to_bf16(1.0f + 0x1p-7f + 0x1p-8f), 1.0f + 0x1p-6f);  // tie: even is up
  EXPECT_EQ(round_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 1.0f + 0x1p-7f);
  EXPECT_EQ(round_to_bf16(0.1f), 0.10009765625f);                     // 0x3dcd
  EXPECT_EQ(round_to_bf16(std::numeric_limits<float>::max()), kInf);  // past the largest bf16
  EXPECT_EQ(round_to_bf16(std::bit_cast<float>(0x00012345u)), std::bit_cast<float>(0x00010000u));
  EXPECT_TRUE(std::isnan(round_to_bf16(std::bit_cast<float>(0x7f800001u))));  // not infinity
}

TEST(UpdateCompression, KeptCountRoundsTheFractionAndKeepsAtLeastOne) {
  EXPECT_EQ(kept_count(1000, 0.01), 10u);
  EXPECT_EQ(kept_count(1000, 1.0), 1000u);
  EXPECT_EQ(kept_count(10, 0.001), 1u);
  EXPECT_EQ(kept_count(10, 0.25), 3u);  // 2.5 rounds away from zero
  EXPECT_EQ(kept_count(0, 0.5), 0u);
}

TEST(UpdateCompression, TopKKeepsTheLargestMagnitudesLowerIndexFirstOnTies) {
  const std::vector<float> v{0.5f, -3.0f, 2.0f, -2.0f, 0.0f, 3.0f, 1.0f};
  EXPECT_EQ(top_k_indices(v, 1), (std::vector<std::uint32_t>{1}));  // |-3| = |3|: index 1
  EXPECT_EQ(top_k_indices(v, 2), (std::vector<std::uint32_t>{1, 5}));
  EXPECT_EQ(top_k_indices(v, 3), (std::vector<std::uint32_t>{1, 2, 5}));  // 2 before -2
  EXPECT_EQ(top_k_indices(v, 4), (std::vector<std::uint32_t>{1, 2, 3, 5}));
  EXPECT_EQ(top_k_indices(v, 9).size(), v.size());
  const std::vector<float> ties(100, 1.0f);
  EXPECT_EQ(top_k_indices(ties, 3), (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(UpdateCompression, TopKZeroesTheRestAndCountsEightBytesPerKeptValue) {
  std::vector<float> v{0.1f, -4.0f, 0.3f, 2.0f, -0.2f, 0.0f, 1.0f, 0.05f, -0.5f, 0.6f};
  RandomStream draws(1, 2);
  const double bytes = compress_update({Compression::kTopK, 0.3, false}, v, {}, draws);
  EXPECT_EQ(v, (std::vector<float>{0, -4.0f, 0, 2.0f, 0, 0, 1.0f, 0, 0, 0}));
  EXPECT_EQ(bytes, 3 * (4 + 4));  // 3 values, 3 indices
  EXPECT_EQ(draws.draws(), 0u);   // top-k draws nothing
}

TEST(UpdateCompression, HalvesAreTwoBytesPerValue) {
  std::vector<float> v(1000, 0.1f);
  RandomStream draws(1, 2);
  EXPECT_EQ(compress_update({Compression::kFp16, 0.01, false}, v, {}, draws), 2000.0);
  EXPECT_EQ(v[0], 0.0999755859375f);
  EXPECT_EQ(compress_update({Compression::kBf16, 0.01, false}, v, {}, draws), 2000.0);
  EXPECT_EQ(compressed_bytes(Compression::kNone, 1000, 0), 4000.0);
}

TEST(UpdateCompression, ErrorFeedbackKeepsCorrectedMinusSentAndAddsItNextTime) {
  const CompressionSpec spec{Compression::kTopK, 0.25, true};  // 1 of 4
  RandomStream draws(1, 2);
  std::vector<float> residual(4, 0.0f);
  std::vector<float> u{1.0f, -0.5f, 0.25f, 0.75f};
  compress_update(spec, u, residual, draws);
  EXPECT_EQ(u, (std::vector<float>{1.0f, 0, 0, 0}));
  EXPECT_EQ(residual, (std::vector<float>{0, -0.5f, 0.25f, 0.75f}));  // corrected - sent
  // Next update: corrected = u + residual, whose largest is index 3 (0.75 + 0.5).
  std::vector<float> u2{0.5f, 0.0f, 0.25f, 0.5f};
  compress_update(spec, u2, residual, draws);
  EXPECT_EQ(u2, (std::vector<float>{0, 0, 0, 1.25f}));
  EXPECT_EQ(residual, (std::vector<float>{0.5f, -0.5f, 0.5f, 0}));
  // Without error feedback the residual is not touched and the update alone is compressed.
  std::vector<float> u3{0.5f, 0.0f, 0.25f, 0.5f};
  compress_update({Compression::kTopK, 0.25, false}, u3, residual, draws);
  EXPECT_EQ(u3, (std::vector<float>{0.5f, 0, 0, 0}));
  EXPECT_EQ(residual, (std::vector<float>{0.5f, -0.5f, 0.5f, 0}));
}

TEST(UpdateCompression, ErrorFeedbackOfFp16KeepsTheRoundingError) {
  RandomStream draws(1, 2);
  std::vector<float> residual(1, 0.0f);
  std::vector<float> u{0.1f};
  compress_update({Compression::kFp16, 0.01, true}, u, residual, draws);
  EXPECT_EQ(u[0], 0.0999755859375f);
  EXPECT_EQ(residual[0], 0.1f - 0.0999755859375f);
}

TEST(UpdateCompression, RandomKDrawsKDistinctIndicesFromTheStream) {
  RandomStream a = RandomStream::named(7, "compression", 3);
  RandomStream b = RandomStream::named(7, "compression", 3);
  const auto first = random_k_indices(1000, 50, a);
  EXPECT_EQ(first, random_k_indices(1000, 50, b));  // the stream decides, nothing else
  EXPECT_EQ(a.draws(), b.draws());
  EXPECT_EQ(std::set<std::uint32_t>(first.begin(), first.end()).size(), 50u);
  EXPECT_TRUE(std::is_sorted(first.begin(), first.end()));
  EXPECT_LT(first.back(), 1000u);
  EXPECT_NE(first, random_k_indices(1000, 50, a));  // the stream moved on
  EXPECT_EQ(random_k_indices(5, 5, a), (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
}

TEST(UpdateCompression, RandomKIsUniformOverTheIndices) {
  // 20000 draws of 2 of 10: each index about 4000 times.
  RandomStream draws = RandomStream::named(11, "compression");
  std::vector<int> hits(10, 0);
  for (int i = 0; i < 20000; ++i) {
    for (const std::uint32_t j : random_k_indices(10, 2, draws)) ++hits[j];
  }
  for (const int h : hits) EXPECT_NEAR(h, 4000, 250);
}

TEST(UpdateCompression, RandomKKeepsTheDrawnValuesUnscaled) {
  std::vector<float> v(100);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) + 1.0f;
  RandomStream draws = RandomStream::named(5, "compression");
  RandomStream same = RandomStream::named(5, "compression");
  const double bytes = compress_update({Compression::kRandK, 0.1, false}, v, {}, draws);
  EXPECT_EQ(bytes, 10 * 8.0);
  const auto kept = random_k_indices(100, 10, same);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool in = std::find(kept.begin(), kept.end(), i) != kept.end();
    EXPECT_EQ(v[i], in ? static_cast<float>(i) + 1.0f : 0.0f) << i;
  }
}

}  // namespace
}  // namespace hermes::protocols
