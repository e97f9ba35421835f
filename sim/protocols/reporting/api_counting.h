// The paper's "API calls" of a run, counted after it from its records (RunResult): the control
// requests the PS answered as they happened (RunResult::requests), the workers' local iterations
// and waits, the updates applied and the run's end, turned into ApiCalls by the scenario's "api"
// section. A pure function, so that both countings can be checked by hand (tests/protocols/
// api_counting_test.cc); sim/protocols/registry.cc fills RunResult::api with it after a run.
#pragma once

#include "sim/protocols/skeleton/run_result.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

// Counting "calls": the requests as answered, plus api.flags_per_iteration and
// api.logs_per_iteration per local iteration, plus one poll per whole api.poll_interval of each
// worker's wait (RunResult::wait_time, a worker still waiting at the end included up to it).
// Counting "released-code": the code's requests per local iteration (a major one per update
// pushed, a minor one per other iteration), the master's per update applied, and its polling loop
// at api.master_poll_rate over the run's simulated time (RunResult::sim_time, the end).
// The answered requests are kept in both (for the record); rows() and total() take only those of
// the counting.
ApiCalls count_api_calls(const scenario::ApiSpec& api, const RunResult& run);

}  // namespace hermes::protocols
