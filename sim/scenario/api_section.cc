// "api": how the control-plane calls of the PS are counted (the paper's "API calls").
#include <string>

#include "sim/config/key_table.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

// The keys of the other counting are refused by name, so that a setting is never silently unused.
void refuse(ObjectReader& r, std::initializer_list<const char*> keys, const char* counting) {
  for (const char* key : keys) {
    if (r.accept(key) != nullptr) {
      r.error(key, std::string("only with counting \"") + counting + "\"");
    }
  }
}

}  // namespace

using config::KeyType;

const ObjectDecl& api_decl() {
  const auto calls = [](const char* key, int fallback, const char* counting, const char* help) {
    return config::KeyDecl{.key = key,
                           .type = KeyType::kInteger,
                           .default_text = std::to_string(fallback),
                           .range = Range::at_least(0),
                           .help = std::string(counting) + " only: " + help};
  };
  static const ObjectDecl decl{
      "api",
      {{.key = "counting",
        .type = KeyType::kChoice,
        .default_text = "calls (released-code under that accounting)",
        .choices = {"calls", "released-code"},
        .help = "how the PS's API calls are counted",
        .computed_default = true},
       calls("minor_iteration_requests", defaults::kMinorIterationRequests, "released-code",
             "requests of a worker iteration that pushes nothing"),
       calls("major_iteration_requests", defaults::kMajorIterationRequests, "released-code",
             "requests of a worker iteration that pushes its update"),
       calls("master_requests_per_update", defaults::kMasterRequestsPerUpdate, "released-code",
             "the master's requests per update applied"),
       {.key = "master_poll_rate_per_s",
        .type = KeyType::kNumber,
        .default_text = "2948",
        .range = Range::at_least(0).up_to(1e9),
        .help = "released-code only: the master's polling requests per simulated second"},
       {.key = "poll_interval_ms",
        .type = KeyType::kNumber,
        .default_text = "1",
        .range = Range::at_least(0.001).up_to(6e7),
        .help = "calls only: a waiting worker polls the PS once per interval"},
       calls("flags_per_iteration", defaults::kFlagsPerIteration, "calls",
             "run/stop flag checks per worker iteration"),
       calls("logs_per_iteration", defaults::kLogsPerIteration, "calls",
             "progress logs a worker sends per iteration")}};
  return decl;
}

ApiSpec read_api(const Json* value, Accounting accounting, Diagnostics& diags, Json& out) {
  ApiSpec a;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/api", diags, out, api_decl());
  const bool released_default = accounting == Accounting::kReleasedCode;
  const auto counting = r.choice("counting", {"calls", "released-code"},
                                 released_default ? "released-code" : "calls");
  // A count of calls: an integer >= 0, its default when absent.
  const auto calls = [&r](const char* key, int fallback) {
    return r.int32(key, fallback, Range::at_least(0)).value_or(fallback);
  };
  if (counting.value_or("calls") == "released-code") {
    a.counting = ApiCounting::kReleasedCode;
    a.minor_iteration_requests =
        calls("minor_iteration_requests", defaults::kMinorIterationRequests);
    a.major_iteration_requests =
        calls("major_iteration_requests", defaults::kMajorIterationRequests);
    a.master_requests_per_update =
        calls("master_requests_per_update", defaults::kMasterRequestsPerUpdate);
    a.master_poll_rate = r.number("master_poll_rate_per_s", defaults::kMasterPollRatePerS,
                                  Range::at_least(0).up_to(1e9))
                             .value_or(defaults::kMasterPollRatePerS);
    refuse(r, {"poll_interval_ms", "flags_per_iteration", "logs_per_iteration"}, "calls");
    r.finish();
    return a;
  }
  // At least 1 us: the count is wait time / interval, and 1 us already exceeds any real poll rate.
  const auto interval =
      r.number("poll_interval_ms", defaults::kPollIntervalMs, Range::at_least(0.001).up_to(6e7));
  a.poll_interval = engine::from_seconds(interval.value_or(defaults::kPollIntervalMs) / 1000.0);
  a.flags_per_iteration = calls("flags_per_iteration", defaults::kFlagsPerIteration);
  a.logs_per_iteration = calls("logs_per_iteration", defaults::kLogsPerIteration);
  refuse(r,
         {"minor_iteration_requests", "major_iteration_requests", "master_requests_per_update",
          "master_poll_rate_per_s"},
         "released-code");
  r.finish();
  return a;
}

}  // namespace hermes::scenario
