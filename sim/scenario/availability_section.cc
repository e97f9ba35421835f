// "availability": how the cluster lives with outages (docs/churn.md). Only the crash detection
// delay so far; written to the resolved document only when present, so that a scenario without
// it stays byte-identical to before it existed.
#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

AvailabilitySpec read_availability(const Json& value, Diagnostics& diags, Json& out) {
  AvailabilitySpec spec;
  ObjectReader r(value, "/availability", diags, out);
  if (!r.is_object()) return spec;
  // Beyond an hour the PS would wait for a dead worker longer than most runs last.
  if (const auto s = r.number("detection_s", defaults::kDetectionS, Range::above(0).up_to(3600))) {
    spec.detection = engine::from_seconds(*s);
  }
  r.finish();
  return spec;
}

}  // namespace hermes::scenario
