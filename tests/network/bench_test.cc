#include "sim/network/bench.h"

#include <gtest/gtest.h>

#include <sstream>

namespace hermes::network {
namespace {

TEST(BenchFlows, RunsEveryRoundAndReports) {
  std::ostringstream out;
  const double per_second = bench_flows(30, 4, 1e5, out);
  EXPECT_GT(per_second, 0.0);
  // 30 workers x 4 rounds x (push + pull).
  EXPECT_NE(out.str().find("flows 240,"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace hermes::network
