// The property the scenario reader must have on any input (issue 12): whatever the bytes of a
// scenario file and of the --set overrides, checking them returns, reports every refusal as
// diagnostics with a message, and never throws; an accepted scenario can be written back
// (scenario.json) and have its costs checked. Shared by the libFuzzer target
// (scenario_reader_fuzz.cc) and the deterministic corpus test that runs in the normal suite.
#pragma once

#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostics.h"
#include "sim/cluster/profile.h"
#include "sim/protocols/skeleton/resources.h"
#include "sim/scenario/scenario.h"

namespace hermes::fuzz {

// The shipped catalog, loaded once (a scenario's "profiles" key is still read and loaded when
// `use_file_catalog` is set).
inline const cluster::ProfileCatalog& shipped_catalog() {
  static const cluster::ProfileCatalog catalog = cluster::ProfileCatalog::load(
      std::string(HERMES_SOURCE_DIR) + "/scenarios/profiles/azure.json");
  return catalog;
}

// "" if the reader behaved on (text, sets); otherwise what went wrong.
inline std::string check_reader(std::string_view text, const std::vector<std::string>& sets = {},
                                bool use_file_catalog = false) {
  Diagnostics diags("fuzz.json");
  try {
    const auto sc = scenario::check_scenario_text(text, sets, HERMES_SOURCE_DIR, diags,
                                                  use_file_catalog ? nullptr : &shipped_catalog());
    if (!sc) {
      if (diags.ok()) return "refused without a diagnostic";
      for (const auto& d : diags.items()) {
        if (d.message.empty()) return "a diagnostic without a message at '" + d.json_path + "'";
      }
      return "";
    }
    if (!diags.ok()) return "accepted with diagnostics: " + diags.format();
    // What a run writes first and checks before any work must not fail either.
    (void)sc->document.dump(2);
    Diagnostics costs("fuzz.json");
    protocols::check_resources(*sc, {}, false, costs);
    for (const auto& d : costs.items()) {
      if (d.message.empty()) return "a cost diagnostic without a message";
    }
    return "";
  } catch (const std::exception& e) {
    return std::string("exception escaped: ") + e.what();
  } catch (...) {
    return "a non-standard exception escaped";
  }
}

}  // namespace hermes::fuzz
