// The API counting of sim/protocols/reporting/api_counting.h alone, on records written by hand:
// both countings, each kind computed here from the scenario's "api" numbers, and a worker still
// waiting when the run ends.
#include "sim/protocols/reporting/api_counting.h"

#include <gtest/gtest.h>

namespace hermes::protocols {
namespace {

using engine::from_seconds;

scenario::ApiSpec api_numbers(scenario::ApiCounting counting) {
  scenario::ApiSpec api;
  api.counting = counting;
  api.poll_interval = from_seconds(0.25);
  api.flags_per_iteration = 2;
  api.logs_per_iteration = 3;
  api.minor_iteration_requests = 4;
  api.major_iteration_requests = 7;
  api.master_requests_per_update = 5;
  api.master_poll_rate = 10;  // per simulated second
  return api;
}

// Two workers, 3 + 5 local iterations, 6 of them pushed and applied, ended at 10.05 s.
// Worker 0 waited 1.1 s in all; worker 1 waited 0.2 s, then was still waiting from 9.35 s when
// the run ended: ProtocolRun::finish closes that wait at the end, so its wait is 0.9 s.
RunResult records() {
  RunResult r;
  r.local_iterations = {3, 5};
  r.updates = 6;
  r.requests = {.data_requests = 8, .time_reports = 8, .pushes = 6, .pulls = 5};
  r.sim_time = from_seconds(10.05);
  r.wait_time = {from_seconds(1.1), from_seconds(0.2) + (r.sim_time - from_seconds(9.35))};
  return r;
}

TEST(ApiCounting, CallsCountEachRequestPerIterationCallsAndAPollPerIntervalWaited) {
  const ApiCalls c = count_api_calls(api_numbers(scenario::ApiCounting::kCalls), records());
  EXPECT_EQ(c.counting, ApiCounting::kCalls);
  EXPECT_EQ(c.data_requests, 8);
  EXPECT_EQ(c.time_reports, 8);
  EXPECT_EQ(c.pushes, 6);
  EXPECT_EQ(c.pulls, 5);
  EXPECT_EQ(c.flags, 8 * 2);
  EXPECT_EQ(c.logs, 8 * 3);
  // Whole intervals of each worker's wait: 1.1 / 0.25 -> 4; 0.9 / 0.25 -> 3.
  EXPECT_EQ(c.polls, 4 + 3);
  EXPECT_EQ(c.total(), 8 + 8 + 16 + 6 + 5 + 24 + 7);
  // The other counting's kinds stay 0.
  EXPECT_EQ(c.major_iteration_requests + c.minor_iteration_requests + c.master_update_requests +
                c.master_polls,
            0);
}

TEST(ApiCounting, AWorkerStillWaitingAtTheEndPollsUpToIt) {
  RunResult r = records();
  const ApiCalls waiting = count_api_calls(api_numbers(scenario::ApiCounting::kCalls), r);
  // Without its open wait (0.7 s) worker 1 waited 0.2 s: no whole interval, no poll.
  r.wait_time[1] = from_seconds(0.2);
  const ApiCalls closed_only = count_api_calls(api_numbers(scenario::ApiCounting::kCalls), r);
  EXPECT_EQ(waiting.polls - closed_only.polls, 3);
  EXPECT_EQ(closed_only.polls, 4);
}

TEST(ApiCounting, ReleasedCodeCountsItsRequestsPerIterationAndTheMastersLoop) {
  const ApiCalls c = count_api_calls(api_numbers(scenario::ApiCounting::kReleasedCode), records());
  EXPECT_EQ(c.counting, ApiCounting::kReleasedCode);
  EXPECT_EQ(c.major_iteration_requests, 6 * 7);        // iterations pushed
  EXPECT_EQ(c.minor_iteration_requests, (8 - 6) * 4);  // the others
  EXPECT_EQ(c.master_update_requests, 6 * 5);
  EXPECT_EQ(c.master_polls, 100);  // floor(10 per s x 10.05 s)
  EXPECT_EQ(c.total(), 42 + 8 + 30 + 100);
  // Its waiting workers block: no polls, nor per-iteration flags and logs; the requests answered
  // are kept for the record, outside its rows.
  EXPECT_EQ(c.polls, 0);
  EXPECT_EQ(c.flags + c.logs, 0);
  EXPECT_EQ(c.pushes, 6);
  EXPECT_EQ(c.rows().size(), 4u);
}

TEST(ApiCounting, ARunWithNoRecordsCountsNothing) {
  const ApiCalls calls = count_api_calls(api_numbers(scenario::ApiCounting::kCalls), RunResult{});
  EXPECT_EQ(calls.total(), 0);
  const ApiCalls code =
      count_api_calls(api_numbers(scenario::ApiCounting::kReleasedCode), RunResult{});
  EXPECT_EQ(code.total(), 0);
}

}  // namespace
}  // namespace hermes::protocols
