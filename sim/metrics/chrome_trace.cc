#include "sim/metrics/chrome_trace.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>

#include "base/number_text.h"

namespace hermes::metrics {

namespace {

// A JSON string literal (invalid UTF-8 is replaced, never thrown on: names come from files).
std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Integer nanoseconds as exact microseconds: 7300125004 -> "7300125.004", 5000 -> "5".
std::string micros(engine::SimTime t) {
  const std::int64_t ns = t.ns();
  std::string out = std::to_string(ns / 1000);
  if (const std::int64_t frac = ns % 1000; frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 3 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out;
}

std::string value_text(const TraceValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return std::isfinite(*d) ? shortest(*d) : "null";
  return quoted(std::get<std::string>(v));
}

std::string args_text(const TraceArgs& args) {
  std::string out = "{";
  for (const auto& [key, value] : args) {
    out += (out.size() > 1 ? "," : "") + quoted(key) + ":" + value_text(value);
  }
  return out + "}";
}

void check_time(engine::SimTime t, const char* what) {
  if (t < engine::SimTime{})
    throw std::invalid_argument(std::string("ChromeTrace: negative ") + what);
}

}  // namespace

int ChromeTrace::add_process(std::string name) {
  processes_.push_back(std::move(name));
  tracks_per_process_.push_back(0);
  return static_cast<int>(processes_.size());
}

ChromeTrace::TrackId ChromeTrace::add_track(int pid, std::string name) {
  if (pid < 1 || pid > static_cast<int>(processes_.size())) {
    throw std::invalid_argument("ChromeTrace: unknown pid " + std::to_string(pid));
  }
  const int tid = ++tracks_per_process_[static_cast<std::size_t>(pid - 1)];
  tracks_.push_back({pid, tid, std::move(name)});
  return tracks_.size() - 1;
}

const ChromeTrace::Track& ChromeTrace::track_at(TrackId id) const {
  if (id >= tracks_.size()) {
    throw std::invalid_argument("ChromeTrace: unknown track " + std::to_string(id));
  }
  return tracks_[id];
}

void ChromeTrace::span(TrackId track, std::string name, std::string category, engine::SimTime start,
                       engine::SimTime end, TraceArgs args) {
  track_at(track);
  check_time(start, "span start");
  if (end < start)
    throw std::invalid_argument("ChromeTrace: span '" + name + "' ends before it starts");
  events_.push_back(
      {'X', track, std::move(name), std::move(category), start, end - start, std::move(args)});
}

void ChromeTrace::instant(TrackId track, std::string name, std::string category, engine::SimTime at,
                          TraceArgs args) {
  track_at(track);
  check_time(at, "instant time");
  events_.push_back(
      {'i', track, std::move(name), std::move(category), at, engine::SimTime{}, std::move(args)});
}

void ChromeTrace::counter(TrackId track, std::string name, std::string series, engine::SimTime at,
                          double value) {
  track_at(track);
  check_time(at, "counter time");
  events_.push_back({'C',
                     track,
                     std::move(name),
                     "counter",
                     at,
                     engine::SimTime{},
                     {{std::move(series), value}}});
}

std::size_t ChromeTrace::write(std::ostream& out) const {
  // Lanes: per track, spans by (start, longest first) go to the first lane where they nest in or
  // follow what is already there (a stack of open ends per lane).
  std::vector<std::size_t> lane(events_.size(), 0);
  std::vector<std::size_t> lanes_of_track(tracks_.size(), 1);
  {
    std::vector<std::vector<std::size_t>> spans_of(tracks_.size());
    for (std::size_t i = 0; i < events_.size(); ++i) {
      if (events_[i].ph == 'X') spans_of[events_[i].track].push_back(i);
    }
    for (std::size_t t = 0; t < tracks_.size(); ++t) {
      auto& ids = spans_of[t];
      std::stable_sort(ids.begin(), ids.end(), [&](std::size_t a, std::size_t b) {
        const Event &x = events_[a], &y = events_[b];
        if (x.ts != y.ts) return x.ts < y.ts;
        return x.dur > y.dur;
      });
      std::vector<std::vector<engine::SimTime>> open;  // per lane: ends of the enclosing spans
      for (std::size_t id : ids) {
        const engine::SimTime start = events_[id].ts, end = start + events_[id].dur;
        std::size_t l = 0;
        for (; l < open.size(); ++l) {
          auto& stack = open[l];
          while (!stack.empty() && stack.back() <= start) stack.pop_back();
          if (stack.empty() || stack.back() >= end) break;
        }
        if (l == open.size()) open.emplace_back();
        open[l].push_back(end);
        lane[id] = l;
      }
      lanes_of_track[t] = std::max<std::size_t>(1, open.size());
    }
  }
  // Thread ids of extra lanes: after the tracks of their process, in track order.
  std::vector<std::vector<int>> lane_tid(tracks_.size());
  std::vector<int> next_tid = tracks_per_process_;
  for (std::size_t t = 0; t < tracks_.size(); ++t) {
    const Track& tr = tracks_[t];
    lane_tid[t].push_back(tr.tid);
    for (std::size_t l = 1; l < lanes_of_track[t]; ++l) {
      lane_tid[t].push_back(++next_tid[static_cast<std::size_t>(tr.pid - 1)]);
    }
  }

  out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  bool first = true;
  std::size_t written = 0;
  const auto line = [&](const std::string& name, const char* cat, char ph, engine::SimTime ts,
                        int pid, int tid, const std::string& rest) {
    out << (first ? "" : ",\n") << "{\"name\":" << quoted(name) << ",\"cat\":" << quoted(cat)
        << ",\"ph\":\"" << ph << "\",\"ts\":" << micros(ts) << ",\"pid\":" << pid
        << ",\"tid\":" << tid << rest << "}";
    first = false;
    ++written;
  };
  const auto meta = [&](const char* what, int pid, int tid, const TraceValue& v) {
    line(what, "__metadata", 'M', engine::SimTime{}, pid, tid,
         ",\"args\":" + args_text({{"name", v}}));
  };
  for (std::size_t p = 0; p < processes_.size(); ++p) {
    const int pid = static_cast<int>(p + 1);
    meta("process_name", pid, 0, processes_[p]);
    line("process_sort_index", "__metadata", 'M', engine::SimTime{}, pid, 0,
         ",\"args\":{\"sort_index\":" + std::to_string(pid) + "}");
  }
  for (std::size_t t = 0; t < tracks_.size(); ++t) {
    const Track& tr = tracks_[t];
    for (std::size_t l = 0; l < lane_tid[t].size(); ++l) {
      const std::string name = l == 0 ? tr.name : tr.name + " #" + std::to_string(l + 1);
      meta("thread_name", tr.pid, lane_tid[t][l], name);
      line(
          "thread_sort_index", "__metadata", 'M', engine::SimTime{}, tr.pid, lane_tid[t][l],
          ",\"args\":{\"sort_index\":" + std::to_string(tr.tid * 1000 + static_cast<int>(l)) + "}");
    }
  }

  std::vector<std::size_t> order(events_.size());
  std::iota(order.begin(), order.end(), 0);
  const auto tid_of = [&](std::size_t i) { return lane_tid[events_[i].track][lane[i]]; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Event &x = events_[a], &y = events_[b];
    if (x.ts != y.ts) return x.ts < y.ts;
    const int pa = tracks_[x.track].pid, pb = tracks_[y.track].pid;
    if (pa != pb) return pa < pb;
    return tid_of(a) < tid_of(b);
  });
  for (std::size_t i : order) {
    const Event& e = events_[i];
    std::string rest;
    if (e.ph == 'X') rest += ",\"dur\":" + micros(e.dur);
    if (e.ph == 'i') rest += ",\"s\":\"t\"";
    rest += ",\"args\":" + args_text(e.args);
    line(e.name, e.category.c_str(), e.ph, e.ts, tracks_[e.track].pid, tid_of(i), rest);
  }
  out << "\n]}\n";
  return written;
}

}  // namespace hermes::metrics
