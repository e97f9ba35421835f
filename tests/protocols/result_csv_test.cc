#include "sim/protocols/reporting/result_csv.h"

#include <gtest/gtest.h>

namespace hermes::protocols {
namespace {

scenario::RunSpec spec(scenario::Protocol p) {
  scenario::RunSpec r;
  r.protocol = p;
  return r;
}

// summary.csv's params column is what `hermes-sim compare` groups runs by, so every setting that
// changes a baseline's behaviour must appear in it.
TEST(RunParams, BaselinesNameWhatDiffersFromTheirDefaults) {
  using scenario::Protocol;
  EXPECT_EQ(run_params(spec(Protocol::kBsp)), "");
  EXPECT_EQ(run_params(spec(Protocol::kAsp)), "");
  EXPECT_EQ(run_params(spec(Protocol::kSsp)), "staleness=125");
  EXPECT_EQ(run_params(spec(Protocol::kEbsp)), "lookahead=150");

  auto ssp = spec(Protocol::kSsp);
  ssp.dynamic_allocation = true;
  ssp.async_update = scenario::AsyncUpdate::kAverage;
  EXPECT_EQ(run_params(ssp), "async_update=average;dynamic_allocation=true;staleness=125");
  auto ebsp = spec(Protocol::kEbsp);
  ebsp.lookahead = 20;
  ebsp.dynamic_allocation = true;
  EXPECT_EQ(run_params(ebsp), "dynamic_allocation=true;lookahead=20");
  auto asp = spec(Protocol::kAsp);
  asp.async_update = scenario::AsyncUpdate::kAverage;
  EXPECT_EQ(run_params(asp), "async_update=average");
}

TEST(RunParams, HermesNamesItsWholeRule) {
  auto h = spec(scenario::Protocol::kHermes);
  h.dynamic_allocation = true;
  h.hermes.alpha = -1.6;
  h.hermes.beta = 0.15;
  EXPECT_EQ(run_params(h), "alpha=-1.6;beta=0.15;lambda=5;variant=reference;window=10");
  h.dynamic_allocation = false;
  h.hermes.gup = false;
  EXPECT_EQ(run_params(h),
            "alpha=-1.6;beta=0.15;dynamic_allocation=false;gup=false;lambda=5;variant=reference;"
            "window=10");
}

}  // namespace
}  // namespace hermes::protocols
