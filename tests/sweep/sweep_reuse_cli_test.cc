// A sweep computes each distinct run once (sim/sweep/run_reuse.h), end to end: the tiny sweep's bsp
// run is the same at its four grid points, so three of its eight runs are taken from point 0000's,
// and every file is the bytes of a sweep that computes every run (--no-reuse), fresh or resumed.
#include <gtest/gtest.h>

#include <string>

#include "tests/sweep/sweep_cli_fixture.h"

namespace hermes::sweep {
namespace {

TEST_F(SweepCli, ADeduplicatedSweepWritesTheBytesOfAFullOne) {
  const auto full = sweep(dir("reuse-full"), "--jobs 1 --no-reuse");
  ASSERT_EQ(full.status, 0) << full.output;
  expect_says(full,
              "runs: 8 at 4 points to run, 3 of them equal to a run of another: "
              "every one computed (--no-reuse)");
  EXPECT_EQ(full.output.find("reused"), std::string::npos) << full.output;

  // Two points at once: the second finds bsp being computed by the first and waits for it last.
  const auto dedup = sweep(dir("reuse"), "--jobs 2");
  ASSERT_EQ(dedup.status, 0) << dedup.output;
  expect_says(dedup,
              "runs: 8 at 4 points to run, 3 of them equal to a run of another: "
              "5 to compute, 3 reused");
  expect_says(dedup,
              "note: no grid key changes run bsp, so each seed computes it once "
              "and its other 3 grid points reuse the results");
  expect_says(dedup, "4/4 points done (4 now; 3 of their runs reused)");
  expect_identical(dir("reuse-full"), dir("reuse"));

  // A resumed sweep reuses among the points it has left.
  fs::remove_all(dir("reuse") + "/points/0000");
  fs::remove_all(dir("reuse") + "/points/0002");
  const auto resumed = sweep(dir("reuse"), "--jobs 1");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  expect_says(resumed,
              "runs: 4 at 2 points to run, 1 of them equal to a run of "
              "another: 3 to compute, 1 reused");
  expect_identical(dir("reuse-full"), dir("reuse"));
}

TEST_F(SweepCli, DryRunSaysHowManyRunsItWouldReuse) {
  const auto r = sweep(dir("reuse-dry"), "--dry-run --seeds 2");
  ASSERT_EQ(r.status, 0) << r.output;
  // 4 grid points x 2 seeds: per seed bsp is computed once and reused 3 times.
  expect_says(r,
              "runs: 16 at 8 points to run, 6 of them equal to a run of another: 10 "
              "to compute, 6 reused");
  EXPECT_FALSE(fs::exists(dir("reuse-dry")));
}

}  // namespace
}  // namespace hermes::sweep
