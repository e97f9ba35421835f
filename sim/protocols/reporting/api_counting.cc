#include "sim/protocols/reporting/api_counting.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace hermes::protocols {

ApiCalls count_api_calls(const scenario::ApiSpec& api, const RunResult& run) {
  ApiCalls calls;
  calls.data_requests = run.requests.data_requests;
  calls.time_reports = run.requests.time_reports;
  calls.pushes = run.requests.pushes;
  calls.pulls = run.requests.pulls;
  const std::int64_t iterations = run.total_local_iterations();
  if (api.counting == scenario::ApiCounting::kReleasedCode) {
    // The code's requests per worker iteration: a major one (pushed) or a minor one; the master's
    // per update applied; its gradient-polling loop at its rate over the whole run.
    calls.counting = ApiCounting::kReleasedCode;
    const std::int64_t majors = run.requests.pushes;
    calls.major_iteration_requests = majors * api.major_iteration_requests;
    calls.minor_iteration_requests = (iterations - majors) * api.minor_iteration_requests;
    calls.master_update_requests = run.updates * api.master_requests_per_update;
    calls.master_polls = static_cast<std::int64_t>(
        std::floor(api.master_poll_rate * engine::to_seconds(run.sim_time)));
    return calls;
  }
  // Per-iteration control calls, and the polls of every wait.
  calls.flags = iterations * api.flags_per_iteration;
  calls.logs = iterations * api.logs_per_iteration;
  for (const engine::SimTime wait : run.wait_time) {
    calls.polls += engine::whole_periods(wait, api.poll_interval);
  }
  return calls;
}

}  // namespace hermes::protocols
