#include "sim/network/bench.h"

#include <gtest/gtest.h>

#include <sstream>

namespace hermes::network {
namespace {

TEST(BenchFlows, BothSolversCompleteTheSameFlowsAtTheSameTimes) {
  const FlowBench full = bench_flows(30, 241, 1e5, MaxMinUpdate::kFull);
  const FlowBench inc = bench_flows(30, 241, 1e5, MaxMinUpdate::kIncremental);
  EXPECT_EQ(full.flows, 241u);
  EXPECT_EQ(inc.flows, 241u);
  EXPECT_EQ(full.digest, inc.digest);
  EXPECT_EQ(full.recomputations, inc.recomputations);
  EXPECT_EQ(full.simulated_seconds, inc.simulated_seconds);
  // Pushes and pulls are two components (the PS's downlink and uplink): the incremental update
  // re-solves fewer flows than the full one, never more.
  EXPECT_LT(inc.flows_resolved, full.flows_resolved);
  EXPECT_GT(inc.flows_resolved, 0u);
}

TEST(BenchFlows, PrintsOneLinePerWorkerCount) {
  std::ostringstream out;
  bench_solvers({3, 7}, 40, 1e5, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("\n    3 "), std::string::npos) << text;
  EXPECT_NE(text.find("\n    7 "), std::string::npos) << text;
  EXPECT_EQ(text.find("DIFFERENT"), std::string::npos) << text;
}

}  // namespace
}  // namespace hermes::network
