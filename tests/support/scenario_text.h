// A scenario from JSON text, checked against the repository's profile catalog: the protocol tests
// build their small clusters this way. A text with mistakes fails the test and names them.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "base/diagnostics.h"
#include "sim/scenario/scenario.h"

namespace hermes::testing {

inline scenario::Scenario scenario_from_text(const std::string& text, const std::string& label) {
  Diagnostics diags(label);
  auto sc = scenario::check_scenario_text(text, {}, HERMES_SOURCE_DIR, diags);
  EXPECT_TRUE(diags.ok()) << diags.format();
  if (!sc) throw std::runtime_error(label + ": " + diags.format());
  return *sc;
}

}  // namespace hermes::testing
