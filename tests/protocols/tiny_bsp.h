// The frozen regression's tiny cluster (regression_test builds its scenario on it) with BSP only,
// for tests that compare a run with and without some scenario event (slowdown_run_test,
// link_fault_run_test).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "sim/protocols/skeleton/run_result.h"
#include "tests/protocols/full_output.h"

namespace hermes::protocols::testing {

// The tiny cluster, a "cluster" member: a B1ms with an empty bank, a DS2_v2, an F4s_v2 (a tiny
// run on it lasts about a simulated second).
inline const std::string kTinyCluster = R"(
  "cluster": {"ps": {"profile": "DS3_v2"},
              "workers": [{"profile": "B1ms", "overrides": {"burst": {"baseline_pct": 20,
                             "credits_per_hour": 12, "max_credits": 288, "initial_credits": 0}}},
                          {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},)";

// BSP on the tiny cluster; `extra` is appended to the top-level object (", \"events\": [...]").
inline std::string tiny_bsp(const std::string& extra) {
  return R"({
  "name": "tiny", "seed": 11,)" +
         kTinyCluster + R"(
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 15}},
  "runs": [{"name": "bsp", "protocol": "bsp"}])" +
         extra + "}";
}

// BSP on the tiny cluster without and with `extra`; both must end normally.
struct WithoutAndWith {
  RunResult without;
  RunResult with;
};
inline WithoutAndWith tiny_bsp_without_and_with(const std::string& extra) {
  const auto data = blocks_split();
  const auto plain_sc = scenario_from_text(tiny_bsp(""));
  const auto event_sc = scenario_from_text(tiny_bsp(extra));
  WithoutAndWith r{run_protocol(plain_sc, plain_sc.runs[0], data),
                   run_protocol(event_sc, event_sc.runs[0], data)};
  EXPECT_EQ(r.without.status, RunStatus::kOk);
  EXPECT_EQ(r.with.status, RunStatus::kOk);
  return r;
}

// BSP's math does not depend on timing: an event that only changes times changes none of this.
inline void expect_same_training(const WithoutAndWith& r) {
  EXPECT_EQ(r.with.updates, r.without.updates);
  EXPECT_EQ(r.with.aggregations, r.without.aggregations);
  EXPECT_EQ(r.with.accuracy_at_best, r.without.accuracy_at_best);
}

// Worker `worker`'s first local iteration in the run's log.
inline WorkerIterationRecord first_iteration(const RunResult& r, int worker) {
  for (const auto& it : r.local_iteration_log) {
    if (it.worker == worker) return it;
  }
  ADD_FAILURE() << "no iteration of worker " << worker;
  return WorkerIterationRecord{};
}

}  // namespace hermes::protocols::testing
