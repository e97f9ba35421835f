// Dynamic dataset allocation; the rule and every choice are documented in dynamic_allocation.h.
#include "sim/policies/dynamic_allocation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "base/diagnostics.h"
#include "base/enum_text.h"

namespace hermes::protocols {

double numpy_percentile(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("numpy_percentile: empty input");
  if (!(q >= 0 && q <= 100)) throw std::invalid_argument("numpy_percentile: q must be in [0,100]");
  // numpy 'linear': virtual index (m - 1) * q / 100, linear between its two neighbours.
  const double pos = static_cast<double>(sorted.size() - 1) * q / 100.0;
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

double numpy_median(std::span<const double> sorted) { return numpy_percentile(sorted, 50.0); }

std::string_view to_string(AllocationReason reason) {
  constexpr std::array<std::string_view, 5> kTexts{"first-round-incomplete", "too-few-peers",
                                                   "within-fences", "slow-outlier", "fast-outlier"};
  static_assert(kTexts.size() == enum_count(AllocationReason::kFastOutlier));
  return enum_text(reason, kTexts);
}

DynamicAllocator::DynamicAllocator(const AllocatorConfig& config)
    : config_(config), first_(std::max(config.workers, 0)), latest_(std::max(config.workers, 0)) {
  const AllocatorConfig& c = config_;
  // Every problem in one message, one per line (the scenario layer adds the JSON path).
  std::string errors;
  auto bad = [&](const char* field, const std::string& accepted, double got) {
    std::ostringstream os;
    os << "dynamic allocation " << field << " must be " << accepted << ", got " << got;
    errors += os.str() + '\n';
  };
  if (c.workers < 1) bad("workers", "an integer >= 1", c.workers);
  if (c.local_epochs < 1) bad("local_epochs", "an integer >= 1", c.local_epochs);
  if (c.mini_batch < 1) bad("mini_batch", "an integer >= 1", c.mini_batch);
  if (c.dataset_size < 1) bad("dataset_size", "an integer >= 1", double(c.dataset_size));
  if (c.min_chunk < 1) bad("min_chunk", "an integer >= 1", double(c.min_chunk));
  if (c.max_chunk < c.min_chunk || c.max_chunk > c.dataset_size) {
    bad("max_chunk",
        "in [min_chunk, dataset_size] = [" + std::to_string(c.min_chunk) + ", " +
            std::to_string(c.dataset_size) + "]",
        double(c.max_chunk));
  }
  if (!(c.margin_seconds > 0) || !std::isfinite(c.margin_seconds)) {
    bad("margin_seconds", "a finite number > 0", c.margin_seconds);
  }
  if (c.min_peers < 1) bad("min_peers", "an integer >= 1", c.min_peers);
  if (!errors.empty()) throw InputError(errors);
}

AllocationDecision DynamicAllocator::report(int worker, double seconds,
                                            std::int64_t chunk_size_used) {
  if (worker < 0 || worker >= config_.workers) {
    throw std::invalid_argument("DynamicAllocator::report: worker " + std::to_string(worker) +
                                " out of [0, " + std::to_string(config_.workers) + ")");
  }
  if (!std::isfinite(seconds) || !(seconds > 0)) {
    throw std::invalid_argument("DynamicAllocator::report: time must be finite and > 0, got " +
                                std::to_string(seconds));
  }
  if (chunk_size_used < 1) {
    throw std::invalid_argument("DynamicAllocator::report: chunk size must be >= 1, got " +
                                std::to_string(chunk_size_used));
  }

  const auto w = static_cast<std::size_t>(worker);
  latest_[w] = seconds;
  if (!first_[w]) {
    first_[w] = seconds;
    if (++reported_ == config_.workers) {
      std::vector<double> times;
      for (const auto& t : config_.t_med_from_latest ? latest_ : first_) times.push_back(*t);
      std::sort(times.begin(), times.end());
      t_med_ = numpy_median(times);
    }
  }

  AllocationDecision d;
  d.next_chunk = chunk_size_used;
  d.t_med = t_med_;
  d.seconds_per_step =
      seconds / (config_.local_epochs * static_cast<double>(chunk_size_used) / config_.mini_batch);
  if (!t_med_) {
    d.reason = AllocationReason::kFirstRoundIncomplete;
    return d;
  }
  if (config_.workers - 1 < config_.min_peers) {
    d.reason = AllocationReason::kTooFewPeers;
    return d;
  }

  std::vector<double> peers;
  for (std::size_t j = 0; j < latest_.size(); ++j) {
    if (j != w) peers.push_back(*latest_[j]);  // all set: the first round is complete
  }
  std::sort(peers.begin(), peers.end());
  Quartiles q;
  q.q1 = numpy_percentile(peers, 25.0);
  q.q3 = numpy_percentile(peers, 75.0);
  q.iqr = q.q3 - q.q1;
  q.lower_fence = q.q1 - 1.5 * q.iqr;
  q.upper_fence = q.q3 + 1.5 * q.iqr;
  d.quartiles = q;

  // The "strictly beyond Q1/Q3" terms only matter when IQR == 0 (see the header).
  const bool slow = seconds >= q.upper_fence && seconds > q.q3;
  const bool fast = seconds <= q.lower_fence && seconds < q.q1;
  if (!slow && !fast) {
    d.reason = AllocationReason::kWithinFences;
    return d;
  }
  d.outlier = true;
  d.reason = slow ? AllocationReason::kSlowOutlier : AllocationReason::kFastOutlier;
  const double t_med = *t_med_;
  const double target =
      t_med >= 2 * config_.margin_seconds ? t_med - config_.margin_seconds : t_med;
  d.target_time = target;
  const double raw = static_cast<double>(chunk_size_used) * target / seconds;
  d.unclamped = raw;
  // Guard the ceil against rounding noise and the cast against absurd values before clamping.
  const double ceiled = std::ceil(raw - 1e-6);
  const double lo = static_cast<double>(config_.min_chunk);
  const double hi = static_cast<double>(config_.max_chunk);
  const double clamped = std::clamp(ceiled, lo, hi);
  d.clamped = clamped != ceiled;
  d.next_chunk = static_cast<std::int64_t>(clamped);
  return d;
}

}  // namespace hermes::protocols
