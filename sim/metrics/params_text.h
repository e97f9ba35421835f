// Run parameters as the reference table and `compare` write them, "key=value;key=value": parsing,
// the canonical text (so that equal settings compare equal however they were written), and the
// subset match that joins a simulated run to the paper's row. summary.csv has a column per
// parameter instead (sim/metrics/summary_csv.h), read into the same ParamMap.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace hermes::metrics {

using ParamMap = std::map<std::string, std::string>;  // sorted by key

// Parses "key=value;key=value" (whitespace around keys and values ignored, empty segments
// skipped). Keys are [A-Za-z0-9_.-]+ and may appear once. A value that is entirely a decimal
// number is rewritten in its shortest round-trip form, so "-1.60", "-1.6e0" and "-1.6" are equal
// and "125.0" is "125"; other values (true, reference) are kept as written. Throws InputError
// naming the text and the problem.
ParamMap parse_params(std::string_view params);

// One value as parse_params keeps it: a decimal number in its shortest round-trip form, any other
// text trimmed.
std::string canonical_value(std::string_view value);

// The canonical text of `params`: parse_params joined back as "key=value;..." in key order, so
// "beta=0.15;alpha=-1.6" and "alpha=-1.60; beta=.15" both give "alpha=-1.6;beta=0.15".
std::string canonical_params(std::string_view params);

// The text of already parsed params, "key=value;..." in key order ("" for none).
std::string params_text(const ParamMap& params);

// True if every key of `reference` is in `run` with an equal canonical value. A simulated run
// usually records every parameter (alpha, beta, lambda, window, ...) while the paper names only
// those it varied, so the reference's parameters need only be a subset of the run's.
bool params_match(const ParamMap& reference, const ParamMap& run);

}  // namespace hermes::metrics
