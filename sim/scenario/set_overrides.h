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

// Applies every override in order; one that fails does not stop the others.
void apply_set_overrides(nlohmann::ordered_json& doc, const std::vector<std::string>& args,
                         Diagnostics& diags);

}  // namespace hermes::scenario
