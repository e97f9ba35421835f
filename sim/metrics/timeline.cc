#include "sim/metrics/timeline.h"

#include <algorithm>
#include <numeric>

#include "sim/metrics/csv_writer.h"

namespace hermes::metrics {

void Timeline::write_csv(std::ostream& out) const {
  std::vector<std::size_t> order(spans_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Span &x = spans_[a], &y = spans_[b];
    if (x.start != y.start) return x.start < y.start;
    if (x.end != y.end) return x.end < y.end;
    return x.node < y.node;
  });
  CsvWriter w(out, {"run", "node", "profile", "activity", "iteration", "start_s", "end_s",
                    "duration_s", "bytes", "credits_left"});
  for (std::size_t i : order) {
    const Span& s = spans_[i];
    w.field(s.run).field(s.node).field(s.profile).field(s.activity).field(s.iteration);
    // Nanosecond resolution: 9 decimals print the exact simulated time.
    w.field(engine::to_seconds(s.start), 9).field(engine::to_seconds(s.end), 9);
    w.field(engine::to_seconds(s.end - s.start), 9).field(s.bytes, 0);
    if (s.credits_left) {
      w.field(*s.credits_left, 4);
    } else {
      w.empty();
    }
    w.end_row();
  }
}

}  // namespace hermes::metrics
