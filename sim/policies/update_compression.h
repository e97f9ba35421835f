// Compression of a pushed update (docs/compression.md): what the worker puts on the wire instead
// of the update's float32 values, and what the PS decodes from it.
//   fp16   each value rounded to IEEE 754 binary16, round to nearest, ties to even (2 bytes each)
//   bf16   each value rounded to bfloat16 (float32's top 16 bits), ties to even (2 bytes each)
//   topk   the k = fraction x n values of largest magnitude, the others 0 (Aji & Heafield 2017;
//          Lin et al. 2018): k float32 values and k uint32 indices, 8 bytes each
//   randk  k values drawn uniformly without replacement, the others 0 (Stich et al. 2018),
//          unscaled: 8 bytes each, as topk
// With error feedback (Seide et al. 2014; Stich et al. 2018; Karimireddy et al. 2019) the worker
// compresses its update plus its residual, and keeps as its new residual what was not sent.
// Pure: no time, no I/O; random-k draws from the stream it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/random.h"

namespace hermes::protocols {

enum class Compression { kNone, kFp16, kBf16, kTopK, kRandK };

namespace compression_defaults {
// Deep Gradient Compression's sparsity (Lin et al. 2018, 99.9%) is for layers of millions of
// values; 1% keeps MNIST's MLP updates a few thousand values.
inline constexpr double kFraction = 0.01;
}  // namespace compression_defaults

// Bytes of one compressed value: a float32 value and a uint32 index (sparse), 2 bytes (fp16/bf16).
inline constexpr double kSparseEntryBytes = 8;
inline constexpr double kHalfBytes = 2;

// `x` rounded to the nearest binary16 value, ties to even, returned as the float it decodes to:
// beyond the largest finite half (65504) from 65520 on, +-infinity; below 2^-14 the subnormal
// multiples of 2^-24; NaN stays NaN (quiet). Bit manipulation only: the same on every CPU.
float round_to_fp16(float x);
// `x` rounded to the nearest bfloat16 value, ties to even (NaN stays a quiet NaN).
float round_to_bf16(float x);

// Values a sparse compression keeps of n: fraction x n rounded to the nearest integer, at least 1
// and at most n (fraction in (0, 1]; n 0: 0).
std::size_t kept_count(std::size_t n, double fraction);

// The indices of the k values of largest |value|, ascending. A tie goes to the lower index, and
// NaN counts as larger than any number, so the set is one and the same on every machine.
std::vector<std::uint32_t> top_k_indices(std::span<const float> values, std::size_t k);
// k distinct indices of [0, n) drawn uniformly (a partial Fisher-Yates shuffle, k draws of
// `draws`), ascending.
std::vector<std::uint32_t> random_k_indices(std::size_t n, std::size_t k, RandomStream& draws);

// Bytes on the wire of an update of n values, k of them kept by a sparse compression.
double compressed_bytes(Compression kind, std::size_t n, std::size_t k);

struct CompressionSpec {
  Compression kind = Compression::kNone;
  double fraction = compression_defaults::kFraction;  // topk, randk
  bool error_feedback = false;
};

// Replaces `update` by what the PS decodes from its compressed form, and returns the bytes on the
// wire. With spec.error_feedback, `residual` (update's size) is added to the update first and then
// holds corrected - sent; else it is not touched (and may be empty). `draws`: random-k's indices.
double compress_update(const CompressionSpec& spec, std::span<float> update,
                       std::span<float> residual, RandomStream& draws);

}  // namespace hermes::protocols
