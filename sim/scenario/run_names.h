// Names of runs and scenarios. A name becomes a directory name in the results, so it is limited
// to [A-Za-z0-9._-]. A run without a "name" is named after its protocol and the parameters that
// tell it apart from another run of the same protocol ("ssp-125", "hermes-1.6-b0.15").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sim/scenario/scenario.h"

namespace hermes::scenario {

// [A-Za-z0-9._-]+, and neither "." nor "..".
bool is_valid_name(std::string_view name);
inline constexpr std::string_view kNameRule =
    "a non-empty string of letters, digits, '.', '_' and '-' (not \".\" or \"..\"); "
    "it names output directories";

// Default name of a run from its typed parameters: protocol, then its distinguishing
// parameters: ssp-<staleness>, ebsp-<lookahead>, hermes<alpha> (alpha is negative, so
// "hermes-1.3"), then for Hermes a suffix per non-default setting (-b<beta>, -l<lambda>,
// -w<window>, -paper, -nogup, -nodyn, -nolw); baselines get -avg for averaged updates and -dyn
// with dynamic allocation. Each parameter's part is declared in run_params.cc (RunParam::name).
std::string default_run_name(const RunSpec& run);

// The same from a raw run object, tolerating errors (used to address unnamed runs in --set
// before validation): nullopt if it has no known "protocol"; parameters of another protocol are
// ignored and invalid ones count as defaults.
std::optional<std::string> default_run_name(const Json& run);

}  // namespace hermes::scenario
