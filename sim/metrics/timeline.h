// The timeline of a run: what each node was doing when (compute, transfers), for timeline.csv and
// later trace viewers. Spans are recorded as they end and written sorted by (start, end, node,
// record order), so the file does not depend on event interleavings of equal times.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/engine/sim_time.h"

namespace hermes::metrics {

struct Span {
  std::string run;
  std::string node;      // host name: ps, w0, w1, ...
  std::string profile;   // node profile name
  std::string activity;  // e.g. compute, recv_chunk, send_update, recv_model
  std::int64_t iteration = 0;
  engine::SimTime start{};
  engine::SimTime end{};
  double bytes = 0;                    // for transfers
  std::optional<double> credits_left;  // B-series nodes, at the end of the span
};

class Timeline {
 public:
  void add(Span span) { spans_.push_back(std::move(span)); }
  const std::vector<Span>& spans() const { return spans_; }
  // Columns: run,node,profile,activity,iteration,start_s,end_s,duration_s,bytes,credits_left
  void write_csv(std::ostream& out) const;

 private:
  std::vector<Span> spans_;
};

}  // namespace hermes::metrics
