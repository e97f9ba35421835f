// ZipLine, the barrier placement of E-BSP / ElasticBSP (Zhao et al., ICDM 2019), as
// docs/paper.md ("The baselines", E-BSP) describes it. After a barrier the PS records each
// worker's push times; ZipLine predicts each worker's next R push times from its last push time
// and interval and picks, for the next barrier, one predicted push per worker such that the pushes
// are as close together in time as possible. A pure function: no simulator, no network.
//
// The algorithm:
//   1. Predict worker i's next pushes t_last_i + k * interval_i, k = 1..R (computed as a product,
//      not by repeated addition, so rounding does not accumulate).
//   2. Merge the n * R predicted times into one timeline sorted by (time, worker index, k).
//   3. Sweep it, keeping the LATEST predicted time of each worker seen so far. At every position
//      where all n workers have been seen, the candidate set is those latest times; its spread is
//      max - min, where the max is the current position's time.
//   4. Choose the candidate with the smallest spread; on ties the earliest position in the
//      timeline. Worker i stops after k_i further iterations, its k in the chosen set; the barrier
//      is at the set's max time.
// Choices:
//   - Spreads within 1e-9 * (1 + largest |time|) of each other are ties (they come from the same
//     arithmetic on rounded inputs), so "earliest on ties" does not hinge on the last ulp.
//   - One worker: the first prediction is a complete set with spread 0: k = 1.
//   - Inputs must be finite, intervals > 0, R >= 1; zipline_predicted() accepts per-worker lists of
//     any length >= 1 in non-decreasing order. Violations throw std::invalid_argument (caller
//     bugs: the protocol, not the user, builds these inputs).
// Complexity: O(nR log(nR)) for the sort, O(nR log n) for the sweep (an ordered set of the n
// latest times gives the min).
#pragma once

#include <span>
#include <vector>

namespace hermes::protocols {

struct WorkerTrend {
  double last_push_time = 0;  // seconds (any unit: ZipLine only compares times)
  double interval = 0;        // last observed push interval, > 0
};

struct ZipLineResult {
  std::vector<int> iterations;     // per worker: further iterations before the barrier (k >= 1)
  std::vector<double> stop_times;  // per worker: predicted time of that push
  double spread = 0;               // max - min of stop_times
  double barrier_time = 0;         // max of stop_times
};

// Predicts R pushes per worker from its trend, then runs ZipLine.
ZipLineResult zipline(std::span<const WorkerTrend> trends, int R);
// ZipLine over given predictions: predicted[i][k-1] is worker i's k-th next push time.
ZipLineResult zipline_predicted(const std::vector<std::vector<double>>& predicted);

}  // namespace hermes::protocols
