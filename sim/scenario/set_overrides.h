// Command-line overrides: `--set key.path=value`, applied to the parsed document before
// validation (so a misspelt key is reported by validation like one written in the file).
//
// Path: segments separated by '.'. In an object a segment is a key (created if absent, with any
// missing intermediate objects). In an array it is, in this order of preference: the "name" of
// an element (for /runs also the default name of an unnamed run), matched greedily because names
// may contain dots (at "runs", "hermes-1.6.alpha" first tries the name "hermes-1.6.alpha", then
// "hermes-1.6", then "hermes-1"); else a 0-based index; else "-" as the last segment, which
// appends. Value: parsed as JSON if it parses (numbers, true/false, null, objects, arrays,
// "quoted strings"), else taken as a plain string.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/diagnostics.h"

namespace hermes::scenario {

// The value of an override as the document receives it: the JSON `text` parses to, else the
// plain string `text`.
nlohmann::ordered_json parse_override_value(const std::string& text);

// Applies one override. Returns false (and reports, naming the argument, at the JSON pointer
// where resolution stopped) if it cannot be applied; doc is then unchanged.
bool apply_set_override(nlohmann::ordered_json& doc, const std::string& arg, Diagnostics& diags);

// The names the elements of /runs answer to (their "name", else their default name; "" for an
// element that has neither), in order.
std::vector<std::string> run_names_of(const nlohmann::ordered_json& doc);

// apply_set_override, where element i of /runs also answers to run_names[i], before its current
// name: the names the runs had before a first override renamed them.
bool apply_set_override(nlohmann::ordered_json& doc, const std::string& arg, Diagnostics& diags,
                        const std::vector<std::string>& run_names);

// Applies every override in order; one that fails does not stop the others. Runs are found by
// the names they had before the first override (an unnamed run's default name follows its
// parameters, so `--set runs.hermes-1.3.alpha=-1.6 --set runs.hermes-1.3.beta=0.05` sets both on
// the run that was hermes-1.3).
void apply_set_overrides(nlohmann::ordered_json& doc, const std::vector<std::string>& args,
                         Diagnostics& diags);

}  // namespace hermes::scenario
