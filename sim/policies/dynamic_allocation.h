// Dynamic dataset allocation on the PS (docs/paper.md, "Hermes", dynamic allocation).
// Workers report their iteration time T_i (seconds) and the chunk size B_i they trained on; the
// allocator answers the chunk size for the worker's next iteration. Pure bookkeeping: no time
// source, no network.
//
// The rule:
//   - T_med = median of every worker's FIRST reported time, frozen once all n workers have
//     reported once (even count: mean of the two middle values, like numpy.median). With
//     t_med_from_latest (the released code's updateBinarySearch), the median of every worker's
//     LATEST time at that moment instead: a fast worker that reported several times meanwhile
//     counts with its latest time.
//   - From the report that completes the first round on (that report included), on every report:
//     worker i is an outlier if T_i >= Q3 + 1.5 IQR or T_i <= Q1 - 1.5 IQR, with Q1/Q3 over the
//     OTHER workers' latest times, numpy.percentile's default 'linear' interpolation (the Python
//     reference uses numpy): sorted x[0..m-1], position p (m - 1), interpolate between neighbours.
//   - Outlier: B_i <- ceil(B_i * target / T_i), clamped to [min_chunk, max_chunk]; otherwise B_i
//     is kept.
// Derivation of the rescaling. The code measures the per-step time k = T_i / (E * B_i / m) (E
// local epochs, B_i / m steps per epoch) and searches a chunk n whose predicted time n * E * k / m
// is within margin (1 s) of T_med, over mini-batch sizes {2,...,64}; it always settles on the
// worker's own m = 16, so the prediction is n * T_i / B_i (E and m cancel) and the chosen n sits
// at the low edge of the band: n * T_i / B_i = T_med - 1, i.e. n = ceil(B_i (T_med - 1) / T_i).
// Aiming 1 s under the median keeps a rescaled straggler from being slow again at once.
// Choices where the spec is silent:
//   - target = T_med - margin when T_med >= 2 * margin; below that the absolute 1 s margin would
//     be half the median or more (T_med <= 1 s would even give empty or negative chunks), so the
//     target is T_med itself: B_i <- ceil(B_i * T_med / T_i).
//   - ceil tolerates 1e-6 of rounding noise (2500 * 6.3 / 12.6 is 1250 exactly, not 1251).
//   - Outlier detection needs at least min_peers other workers (default 2, so n >= 3): the
//     quartiles of one value are that value with IQR 0, which flags every report; of zero values
//     they do not exist (numpy raises). With fewer peers the chunk is kept.
//   - With IQR == 0 (all peers equal) a time equal to the peers' is not an outlier: the fences
//     are then Q1 = Q3 and ">=" would flag a worker exactly as fast as everyone else (identical
//     nodes without jitter). Strictly outside is still flagged. With IQR > 0 this is the spec's
//     rule unchanged.
//   - Bounds: 1 <= min_chunk <= max_chunk <= dataset_size (a chunk is a sample of the training
//     set, so it can never be larger, and never empty). Callers should pick min_chunk >= the
//     mini-batch so that a chunk holds at least one mini-batch.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace hermes::protocols {

// numpy.percentile(x, q) with the default method='linear'; q in [0, 100]; `sorted` ascending and
// non-empty.
double numpy_percentile(std::span<const double> sorted, double q);
// numpy.median: the 50th percentile above (mean of the two middle values for an even count).
double numpy_median(std::span<const double> sorted);

struct AllocatorConfig {
  int workers = 0;                 // n >= 1
  int local_epochs = 5;            // E >= 1 (only for the reported per-step time)
  int mini_batch = 16;             // m >= 1 (only for the reported per-step time)
  std::int64_t min_chunk = 16;     // >= 1
  std::int64_t max_chunk = 0;      // >= min_chunk, <= dataset_size
  std::int64_t dataset_size = 0;   // training set size
  double margin_seconds = 1.0;     // aim this far under T_med (> 0)
  int min_peers = 2;               // other workers needed for outlier detection, >= 1
  bool t_med_from_latest = false;  // T_med from the latest times, not the first (see above)
};

enum class AllocationReason {
  kFirstRoundIncomplete,  // not every worker has reported once yet: chunk kept
  kTooFewPeers,           // fewer than min_peers other workers: chunk kept
  kWithinFences,          // not an outlier: chunk kept
  kSlowOutlier,           // T_i >= upper fence: chunk shrinks
  kFastOutlier,           // T_i <= lower fence: chunk grows
};
std::string_view to_string(AllocationReason reason);

struct Quartiles {
  double q1 = 0, q3 = 0, iqr = 0;
  double lower_fence = 0, upper_fence = 0;  // Q1 - 1.5 IQR, Q3 + 1.5 IQR
};

struct AllocationDecision {
  std::int64_t next_chunk = 0;  // chunk size for the worker's next iteration
  AllocationReason reason = AllocationReason::kFirstRoundIncomplete;
  bool outlier = false;
  std::optional<double> t_med;         // once frozen
  std::optional<Quartiles> quartiles;  // when outlier detection ran
  std::optional<double> target_time;   // outliers: the time the new chunk aims at
  std::optional<double> unclamped;     // outliers: B_i * target / T_i before ceil and clamp
  bool clamped = false;                // outliers: the guards changed the ceil'd value
  double seconds_per_step = 0;         // k = T_i / (E * B_i / m), as the code logs it
};

class DynamicAllocator {
 public:
  // Throws hermes::InputError naming the field and the accepted range.
  explicit DynamicAllocator(const AllocatorConfig& config);

  // Worker `worker` (0-based) took `seconds` (finite, > 0) on a chunk of `chunk_size_used`
  // (>= 1) samples. Throws std::invalid_argument on an index or value out of range.
  AllocationDecision report(int worker, double seconds, std::int64_t chunk_size_used);

  bool first_round_complete() const { return t_med_.has_value(); }
  std::optional<double> t_med() const { return t_med_; }
  std::optional<double> latest_time(int worker) const { return latest_.at(worker); }
  const AllocatorConfig& config() const { return config_; }

 private:
  AllocatorConfig config_;
  std::vector<std::optional<double>> first_;
  std::vector<std::optional<double>> latest_;
  int reported_ = 0;  // workers with a first time
  std::optional<double> t_med_;
};

}  // namespace hermes::protocols
