// The words of training.stop.patience_unit, one table for the scenario reader and the progress
// line (base/enum_text.h), in the order of scenario::PatienceUnit.
#pragma once

#include <array>
#include <string_view>

#include "base/enum_text.h"
#include "sim/scenario/scenario.h"

namespace hermes::scenario {

inline constexpr std::array<std::string_view, 3> kPatienceUnitNames = {"evaluations", "rounds",
                                                                       "seconds"};
static_assert(kPatienceUnitNames.size() == enum_count(PatienceUnit::kSeconds));

inline std::string_view patience_unit_name(PatienceUnit unit) {
  return enum_text(unit, kPatienceUnitNames);
}

}  // namespace hermes::scenario
