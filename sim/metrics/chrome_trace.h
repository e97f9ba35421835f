// Timelines in Chrome's trace-event JSON, the format chrome://tracing and Perfetto
// (ui.perfetto.dev) open: {"displayTimeUnit": "ms", "traceEvents": [...]}.
//
// Processes group tracks (hermes-sim: one process per run, one track per node). Events are
// complete spans ("ph": "X" with "dur"), instants ("i", thread scope) and counter samples ("C"),
// each with "name", "cat", "ph", "ts", "pid", "tid" and "args"; processes and tracks are named by
// metadata events ("M": process_name, process_sort_index, thread_name, thread_sort_index).
// Timestamps are simulated time in microseconds, written exactly from integer nanoseconds
// ("ts": 7300125.004).
//
// Trace viewers require the spans of one thread to nest. Spans of a track that overlap without
// nesting (E-BSP: an update is still being sent while the next chunk arrives) are therefore laid
// out on extra lanes of the track, threads named "<track> #2", "#3", ..., sorted right after it;
// a track whose spans never overlap is exactly one thread.
//
// The output depends only on the calls made: events are written sorted by (ts, pid, tid, call
// order), one per line.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/engine/sim_time.h"

namespace hermes::metrics {

// An argument value: integer, number (non-finite ones are written as null) or text.
using TraceValue = std::variant<std::int64_t, double, std::string>;
using TraceArgs = std::vector<std::pair<std::string, TraceValue>>;

class ChromeTrace {
 public:
  using TrackId = std::size_t;

  // A new process; pids are 1, 2, ... in call order, and viewers list them in that order.
  int add_process(std::string name);
  // A new track of `pid`; tids are 1, 2, ... per process in call order (extra lanes follow).
  TrackId add_track(int pid, std::string name);

  // Throws std::invalid_argument for an unknown track or end < start.
  void span(TrackId track, std::string name, std::string category, engine::SimTime start,
            engine::SimTime end, TraceArgs args = {});
  void instant(TrackId track, std::string name, std::string category, engine::SimTime at,
               TraceArgs args = {});
  // Counter `name` (unique within the track's process) takes `value` at `at`; written as
  // {"name": name, "args": {series: value}}.
  void counter(TrackId track, std::string name, std::string series, engine::SimTime at,
               double value);

  // Spans, instants and counters added so far (the metadata naming processes and tracks not
  // counted).
  std::size_t event_count() const { return events_.size(); }
  // Writes the file; returns how many objects its traceEvents holds (metadata included).
  std::size_t write(std::ostream& out) const;

 private:
  struct Track {
    int pid;
    int tid;  // of lane 0
    std::string name;
  };
  struct Event {
    char ph;
    TrackId track;
    std::string name, category;
    engine::SimTime ts, dur;
    TraceArgs args;
  };
  const Track& track_at(TrackId id) const;

  std::vector<std::string> processes_;  // name by pid - 1
  std::vector<int> tracks_per_process_;
  std::vector<Track> tracks_;
  std::vector<Event> events_;
};

}  // namespace hermes::metrics
