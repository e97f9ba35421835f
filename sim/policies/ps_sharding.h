// How the model's parameters are split over S parameter-server shards (docs/sharding.md). The
// parameters are one flat buffer (models/nn/model.h); a shard holds a set of contiguous slices of
// it. Two rules, as parameter servers partition a model:
//   bytes: S equal contiguous ranges (the first params % S shards one parameter longer), the
//          balanced split of sharded servers that cut tensors (PaddlePaddle's sharded tables,
//          BytePS' partitions);
//   layers: whole layers (a layer's weights and biases together, never cut), each assigned in
//          turn, largest first, to the shard holding the fewest parameters so far (ties: the
//          lowest shard; equal layers: the earlier one first), TensorFlow's greedy placement of
//          variables on PS tasks by size. Unbalanced when one layer dominates, as in practice.
// Pure: no simulator, no model; the caller gives the layers' parameter counts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::protocols {

enum class Sharding { kBytes, kLayers };

std::string_view sharding_text(Sharding s);  // "bytes", "layers"

// Parameters of each of `shards` shards (shards >= 1) for a model whose layers hold
// `layer_params` parameters each (layers without parameters may appear as 0). With kLayers every
// shard must get a layer: more shards than layers with parameters is std::invalid_argument with
// sharding_problem's text. The counts add up to the model's parameters.
std::vector<std::size_t> shard_params(const std::vector<std::size_t>& layer_params,
                                      std::size_t shards, Sharding sharding);

// Why `shards` shards by `sharding` cannot hold a model of these layers (a shard with nothing to
// hold), naming what is accepted; empty when they can.
std::string sharding_problem(const std::vector<std::size_t>& layer_params, std::size_t shards,
                             Sharding sharding);

// Each shard's share of the parameters (params_s / params), to split a transfer's bytes or a PS
// job's FLOPs. One shard: exactly {1.0}.
std::vector<double> shard_shares(const std::vector<std::size_t>& shard_params);

}  // namespace hermes::protocols
