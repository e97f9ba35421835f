// The bytes of a chunk, an update and a model on the wire, as the scenario's "transfers" section
// encodes them: raw float32 (clean) or the released code's pickle+gzip chunks, JSON gradients and
// Keras .h5 model files. Pure functions of the sizes and values; nothing here knows about time.
#pragma once

#include <cstdint>
#include <span>

#include "sim/protocols/skeleton/workload.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

// Characters of Python's repr() of a float32 value widened to a float (float.__repr__: the
// shortest digits that read back to the same double; fixed notation for exponents -4 to 15,
// else d.ddde+XX), which json.dumps writes for each element of `tensor.numpy().tolist()`.
// Non-finite values: json.dumps' NaN, Infinity, -Infinity.
int python_float_repr_length(float value);

// Bytes of json.dumps(values) for one flat list: the reprs, ", " between them, and the brackets.
// The released code sends a list per layer tensor (nested by rows); the extra brackets of that
// nesting are two bytes per row, under 0.1% of an MLP's gradient, and are left out.
double json_list_bytes(std::span<const float> values);

double chunk_transfer_bytes(const scenario::TransferSpec& t, const IterationWork& work);
double update_transfer_bytes(const scenario::TransferSpec& t, std::span<const float> update);
double model_transfer_bytes(const scenario::TransferSpec& t, const ModelCost& cost);

}  // namespace hermes::protocols
