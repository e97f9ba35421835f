// "api": how the control-plane calls of the PS are counted (the paper's "API calls").
#include <string>

#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

ApiSpec read_api(const Json* value, Diagnostics& diags, Json& out) {
  ApiSpec a;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/api", diags, out);
  // At least 1 us: the count is wait time / interval, and 1 us already exceeds any real poll rate.
  const auto interval =
      r.number("poll_interval_ms", defaults::kPollIntervalMs, Range::at_least(0.001).up_to(6e7));
  a.poll_interval = engine::from_seconds(interval.value_or(defaults::kPollIntervalMs) / 1000.0);
  a.flags_per_iteration =
      r.int32("flags_per_iteration", defaults::kFlagsPerIteration, Range::at_least(0))
          .value_or(defaults::kFlagsPerIteration);
  a.logs_per_iteration =
      r.int32("logs_per_iteration", defaults::kLogsPerIteration, Range::at_least(0))
          .value_or(defaults::kLogsPerIteration);
  r.finish();
  return a;
}

}  // namespace hermes::scenario
