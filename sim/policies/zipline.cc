// ZipLine barrier placement; the algorithm and its choices are documented in zipline.h.
#include "sim/policies/zipline.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace hermes::protocols {

ZipLineResult zipline(std::span<const WorkerTrend> trends, int R) {
  if (R < 1) throw std::invalid_argument("zipline: R must be >= 1, got " + std::to_string(R));
  std::vector<std::vector<double>> predicted;
  predicted.reserve(trends.size());
  for (std::size_t i = 0; i < trends.size(); ++i) {
    const WorkerTrend& t = trends[i];
    if (!std::isfinite(t.last_push_time) || !std::isfinite(t.interval) || !(t.interval > 0)) {
      throw std::invalid_argument("zipline: worker " + std::to_string(i) +
                                  " needs a finite last push time and a finite interval > 0");
    }
    std::vector<double>& times = predicted.emplace_back();
    times.reserve(static_cast<std::size_t>(R));
    for (int k = 1; k <= R; ++k) times.push_back(t.last_push_time + k * t.interval);
  }
  return zipline_predicted(predicted);
}

ZipLineResult zipline_predicted(const std::vector<std::vector<double>>& predicted) {
  const std::size_t n = predicted.size();
  if (n == 0) throw std::invalid_argument("zipline: no workers");
  struct Event {
    double time;
    std::size_t worker;
    int k;  // 1-based
  };
  std::vector<Event> events;
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& times = predicted[i];
    if (times.empty()) {
      throw std::invalid_argument("zipline: worker " + std::to_string(i) + " has no prediction");
    }
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (!std::isfinite(times[k]) || (k > 0 && times[k] < times[k - 1])) {
        throw std::invalid_argument("zipline: worker " + std::to_string(i) +
                                    " predictions must be finite and non-decreasing");
      }
      events.push_back({times[k], i, static_cast<int>(k + 1)});
      scale = std::max(scale, std::abs(times[k]));
    }
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return std::tie(a.time, a.worker, a.k) < std::tie(b.time, b.worker, b.k);
  });
  const double tie_tolerance = 1e-9 * (1.0 + scale);

  // latest[i]: index into events of worker i's latest event so far; the ordered set holds
  // (time, worker) of those latest events, so its first element is the set's min.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> latest(n, kNone);
  std::set<std::pair<double, std::size_t>> in_set;
  std::size_t seen = 0;
  bool found = false;
  double best_spread = 0;
  std::size_t best_position = 0;  // the chosen set is the workers' latest events up to here

  for (std::size_t p = 0; p < events.size(); ++p) {
    const Event& e = events[p];
    if (latest[e.worker] == kNone) {
      ++seen;
    } else {
      in_set.erase({events[latest[e.worker]].time, e.worker});
    }
    latest[e.worker] = p;
    in_set.insert({e.time, e.worker});
    if (seen < n) continue;
    const double spread = e.time - in_set.begin()->first;
    if (!found || spread < best_spread - tie_tolerance) {
      found = true;
      best_spread = spread;
      best_position = p;
    }
  }

  // Rebuild the chosen set in one pass (copying `latest` at every improvement would be O(n) each).
  ZipLineResult r;
  r.iterations.resize(n);
  r.stop_times.resize(n);
  for (std::size_t p = 0; p <= best_position; ++p) {
    r.iterations[events[p].worker] = events[p].k;
    r.stop_times[events[p].worker] = events[p].time;
  }
  const auto [lo, hi] = std::minmax_element(r.stop_times.begin(), r.stop_times.end());
  r.spread = *hi - *lo;
  r.barrier_time = *hi;
  return r;
}

}  // namespace hermes::protocols
