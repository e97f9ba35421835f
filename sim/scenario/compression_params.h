// Compression of pushed updates (docs/compression.md), a run key of every training protocol
// (run_params.cc declares them for the protocols whose trait `trains` is set): the codec
// (compression), the fraction a sparse one keeps (compression_fraction) and error feedback
// (error_feedback). They have no RunSpec field (RunSpec::own); the skeleton reads them through
// compression_of(). Added after every summary was shipped: absent from a run they keep its
// resolved document as it was (recorded_if_given), and a summary has their columns only when one
// of its runs compresses (RunParam::column_used).
#pragma once

#include <vector>

#include "sim/policies/update_compression.h"
#include "sim/scenario/run_params.h"

namespace hermes::scenario {

std::vector<RunParam> compression_params(ProtocolSet takers);

// The run's compression; none for a run without the keys (a RunSpec built by hand).
protocols::CompressionSpec compression_of(const RunSpec& run);

}  // namespace hermes::scenario
