// The workers' side of the compression of pushed updates (docs/compression.md): the run's codec
// (compression_of(run)), each worker's error-feedback residual and random-k stream. push_update
// hands it every update before its transfer, so every protocol compresses alike, and the buffer it
// rewrites is the one the protocol's at_ps closure applies: the PS applies what it decoded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/random.h"
#include "sim/policies/update_compression.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

class UpdateCompressor {
 public:
  UpdateCompressor(const CompressionSpec& spec, std::uint64_t seed, std::size_t workers);

  bool active() const { return spec_.kind != Compression::kNone; }
  // Replaces worker w's `update` by what the PS decodes from it and returns its bytes on the wire
  // (active() only).
  double encode(std::size_t w, std::span<float> update);
  // The bytes of worker w's push of `update` on the wire: with active(), encode's (a compressed
  // update is the codec's binary encoding whatever transfers.update_encoding says), else the
  // transfer model's.
  double push_bytes(std::size_t w, std::span<float> update,
                    const scenario::TransferSpec& transfers);
  // Worker w is a new process (back from an outage): the residual of the old one is gone. Its
  // random-k stream goes on (a stream per worker, not per process: the draws stay where every
  // thread count leaves them).
  void forget(std::size_t w);

 private:
  CompressionSpec spec_;
  std::vector<std::vector<float>> residuals_;  // per worker; sized at its first push
  std::vector<RandomStream> draws_;            // per worker: random-k's indices
};

}  // namespace hermes::protocols
