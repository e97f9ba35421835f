#include "sim/protocols/skeleton/update_compressor.h"

#include <algorithm>

#include "sim/protocols/skeleton/transfer_sizes.h"

namespace hermes::protocols {

UpdateCompressor::UpdateCompressor(const CompressionSpec& spec, std::uint64_t seed,
                                   std::size_t workers)
    : spec_(spec), residuals_(workers) {
  draws_.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) {
    draws_.push_back(RandomStream::named(seed, "compression", w));
  }
}

double UpdateCompressor::encode(std::size_t w, std::span<float> update) {
  std::vector<float>& residual = residuals_[w];
  // A worker's residual starts at zero: before its first push nothing was left out.
  if (spec_.error_feedback && residual.size() != update.size()) residual.assign(update.size(), 0);
  return compress_update(spec_, update, residual, draws_[w]);
}

double UpdateCompressor::push_bytes(std::size_t w, std::span<float> update,
                                    const scenario::TransferSpec& transfers) {
  return active() ? encode(w, update) : update_transfer_bytes(transfers, update);
}

void UpdateCompressor::forget(std::size_t w) {
  std::fill(residuals_[w].begin(), residuals_[w].end(), 0.0f);
}

}  // namespace hermes::protocols
