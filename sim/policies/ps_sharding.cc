#include "sim/policies/ps_sharding.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace hermes::protocols {

std::string_view sharding_text(Sharding s) { return s == Sharding::kBytes ? "bytes" : "layers"; }

std::string sharding_problem(const std::vector<std::size_t>& layer_params, std::size_t shards,
                             Sharding sharding) {
  const std::size_t params =
      std::accumulate(layer_params.begin(), layer_params.end(), std::size_t{0});
  const auto with_params = static_cast<std::size_t>(
      std::count_if(layer_params.begin(), layer_params.end(), [](std::size_t p) { return p > 0; }));
  if (shards == 0) return "0 shards (accepted: at least 1)";
  if (sharding == Sharding::kBytes && shards > params) {
    return std::to_string(shards) + " shards by bytes for a model of " + std::to_string(params) +
           " parameters (accepted: at most one shard per parameter)";
  }
  if (sharding == Sharding::kLayers && shards > with_params) {
    return std::to_string(shards) + " shards by layers for a model with " +
           std::to_string(with_params) +
           " layers that hold parameters: a shard would hold nothing (accepted: at most " +
           std::to_string(with_params) + " shards by layers, or sharding \"bytes\")";
  }
  return {};
}

std::vector<std::size_t> shard_params(const std::vector<std::size_t>& layer_params,
                                      std::size_t shards, Sharding sharding) {
  if (const std::string p = sharding_problem(layer_params, shards, sharding); !p.empty()) {
    throw std::invalid_argument(p);
  }
  std::vector<std::size_t> held(shards, 0);
  if (sharding == Sharding::kBytes) {
    const std::size_t params =
        std::accumulate(layer_params.begin(), layer_params.end(), std::size_t{0});
    for (std::size_t s = 0; s < shards; ++s) held[s] = params / shards + (s < params % shards);
    return held;
  }
  // Largest first; a stable sort keeps equal layers in model order.
  std::vector<std::size_t> order(layer_params.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return layer_params[a] > layer_params[b]; });
  for (const std::size_t layer : order) {
    if (layer_params[layer] == 0) continue;
    const auto least = std::min_element(held.begin(), held.end());  // the first of the least
    *least += layer_params[layer];
  }
  return held;
}

std::vector<double> shard_shares(const std::vector<std::size_t>& shard_params) {
  if (shard_params.size() == 1) return {1.0};
  const double total = static_cast<double>(
      std::accumulate(shard_params.begin(), shard_params.end(), std::size_t{0}));
  std::vector<double> shares;
  shares.reserve(shard_params.size());
  for (const std::size_t p : shard_params) shares.push_back(static_cast<double>(p) / total);
  return shares;
}

}  // namespace hermes::protocols
