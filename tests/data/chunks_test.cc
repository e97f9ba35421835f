// Chunk index lists: sampling without replacement and fixed partitions.
#include "models/data/chunks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace hermes::data {
namespace {

// SplitMix64 reduced modulo n: enough for tests (bias < 2^-40 for these n).
// hermes_data does not link hermes_engine, so RandomStream itself is not used here.
struct TestRng {
  std::uint64_t state;
  std::uint64_t calls = 0;
  std::uint64_t uniform_int(std::uint64_t n) {
    ++calls;
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (z ^ (z >> 31)) % n;
  }
};

// Returns scripted draws and records the bounds it was asked for.
struct ScriptedRng {
  std::vector<std::uint64_t> draws;
  std::vector<std::uint64_t> bounds;
  std::uint64_t uniform_int(std::uint64_t n) {
    bounds.push_back(n);
    const std::uint64_t d = draws.at(bounds.size() - 1);
    EXPECT_LT(d, n);
    return d;
  }
};

TEST(SampleChunk, PartialFisherYatesByHand) {
  // pool 0 1 2 3 4; i=0 j=0+2: 2 1 0 3 4; i=1 j=1+0: unchanged; i=2 j=2+2: 2 1 4 3 0.
  ScriptedRng rng{{2, 0, 2}, {}};
  EXPECT_EQ(sample_chunk(5, 3, rng), (std::vector<std::uint32_t>{2, 1, 4}));
  EXPECT_EQ(rng.bounds, (std::vector<std::uint64_t>{5, 4, 3}));
}

TEST(SampleChunk, DistinctIndicesInRange) {
  TestRng rng{1};
  const auto chunk = sample_chunk(60000, 2500, rng);
  ASSERT_EQ(chunk.size(), 2500u);
  EXPECT_EQ(rng.calls, 2500u);
  const std::set<std::uint32_t> unique(chunk.begin(), chunk.end());
  EXPECT_EQ(unique.size(), 2500u);
  EXPECT_LT(*unique.rbegin(), 60000u);
}

TEST(SampleChunk, WholeDatasetIsAPermutation) {
  TestRng rng{7};
  auto chunk = sample_chunk(1000, 1000, rng);
  std::vector<std::uint32_t> sorted = chunk;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_FALSE(std::is_sorted(chunk.begin(), chunk.end()));
}

TEST(SampleChunk, EmptyChunkDrawsNothing) {
  TestRng rng{3};
  EXPECT_TRUE(sample_chunk(10, 0, rng).empty());
  EXPECT_TRUE(sample_chunk(0, 0, rng).empty());
  EXPECT_EQ(rng.calls, 0u);
}

TEST(SampleChunk, ChunkLargerThanDatasetIsAnError) {
  TestRng rng{3};
  EXPECT_THROW(sample_chunk(10, 11, rng), std::invalid_argument);
  EXPECT_THROW(sample_chunk(0, 1, rng), std::invalid_argument);
  EXPECT_EQ(rng.calls, 0u);
}

TEST(SampleChunk, SameStreamSameChunk) {
  TestRng a{42}, b{42}, c{43};
  const auto x = sample_chunk(60000, 100, a);
  EXPECT_EQ(x, sample_chunk(60000, 100, b));
  EXPECT_NE(x, sample_chunk(60000, 100, c));
  // Fresh samples: the next call on the same stream gives another chunk.
  EXPECT_NE(x, sample_chunk(60000, 100, a));
}

TEST(SampleChunk, EveryOrderedSampleIsEquallyLikely) {
  // 5P3 = 60 ordered samples, 60000 draws: ~1000 each. Chi-square with 59 degrees of freedom has
  // mean 59, sd 10.9; 100 is p ~ 0.001. A classic bug (j drawn from [0, n) instead of [i, n))
  // gives a chi-square in the hundreds.
  TestRng rng{2024};
  std::map<std::vector<std::uint32_t>, int> counts;
  constexpr int kTrials = 60000;
  for (int t = 0; t < kTrials; ++t) ++counts[sample_chunk(5, 3, rng)];
  ASSERT_EQ(counts.size(), 60u);
  double chi2 = 0;
  for (const auto& [k, n] : counts) chi2 += (n - 1000.0) * (n - 1000.0) / 1000.0;
  EXPECT_LT(chi2, 100.0);
}

TEST(FixedPartition, NearlyEqualContiguousParts) {
  EXPECT_EQ(fixed_partition(10, 3, 0), (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(fixed_partition(10, 3, 1), (std::vector<std::uint32_t>{4, 5, 6}));
  EXPECT_EQ(fixed_partition(10, 3, 2), (std::vector<std::uint32_t>{7, 8, 9}));
  EXPECT_TRUE(fixed_partition(2, 3, 2).empty());
}

TEST(FixedPartition, PartsCoverEveryIndexOnce) {
  std::vector<std::uint32_t> all;
  for (std::size_t p = 0; p < 7; ++p) {
    const auto part = fixed_partition(60000, 7, p);
    EXPECT_TRUE(part.size() == 8571 || part.size() == 8572) << part.size();
    all.insert(all.end(), part.begin(), part.end());
  }
  ASSERT_EQ(all.size(), 60000u);
  for (std::uint32_t i = 0; i < 60000; ++i) ASSERT_EQ(all[i], i);
}

TEST(FixedPartition, InvalidPartIsAnError) {
  EXPECT_THROW(fixed_partition(10, 0, 0), std::invalid_argument);
  EXPECT_THROW(fixed_partition(10, 3, 3), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::data
