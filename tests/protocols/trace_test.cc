// The timeline of tiny synthetic protocol runs as a Chrome trace (`hermes-sim run --trace`):
// its JSON structure, its agreement with the run's own records, and its determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/trace_recorder.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

using nlohmann::json;

// `extra` is appended to the top-level object (", \"events\": [...]").
scenario::Scenario cluster(const std::string& runs, const std::string& extra = "") {
  const std::string text = R"({
    "name": "trace-test", "seed": 7,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms", "overrides": {"burst": {"initial_credits": 2}}},
                            {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16,
                 "stop": {"patience": 1000, "max_iterations": 24}},
    "runs": )" + runs + extra +
                           "}";
  return hermes::testing::scenario_from_text(text, "trace-test");
}

struct Traced {
  std::vector<RunResult> results;  // by run
  std::string text;                // the trace file
};

Traced trace_runs(const scenario::Scenario& sc) {
  static const auto data = testing::blocks_split();
  metrics::ChromeTrace trace;
  Traced out;
  for (const auto& run : sc.runs) {
    TraceRecorder recorder(trace, sc, run);
    out.results.push_back(run_protocol(sc, run, data, {}, nullptr, &recorder));
  }
  std::ostringstream text;
  trace.write(text);
  out.text = text.str();
  return out;
}

// A timestamp of the trace (microseconds with 3 decimals) as the exact nanoseconds it came from.
std::int64_t ns(const json& micros) { return std::llround(micros.get<double>() * 1000.0); }

// The structure every viewer needs; returns the events by phase.
std::map<std::string, std::vector<json>> check_structure(const json& doc) {
  std::map<std::string, std::vector<json>> by_ph;
  EXPECT_TRUE(doc.is_object());
  EXPECT_TRUE(doc.at("traceEvents").is_array());
  for (const auto& e : doc.at("traceEvents")) {
    for (const char* key : {"name", "ph", "ts", "pid", "tid"}) {
      EXPECT_TRUE(e.contains(key)) << key << " missing in " << e.dump();
    }
    EXPECT_TRUE(e.at("name").is_string()) << e.dump();
    EXPECT_TRUE(e.at("ts").is_number() && e.at("ts").get<double>() >= 0) << e.dump();
    EXPECT_TRUE(e.at("pid").is_number_integer() && e.at("tid").is_number_integer()) << e.dump();
    const std::string ph = e.at("ph");
    EXPECT_TRUE(ph == "X" || ph == "i" || ph == "C" || ph == "M") << e.dump();
    if (ph == "X") {
      EXPECT_GE(e.at("dur").get<double>(), 0.0) << e.dump();
    }
    if (ph == "C") {
      EXPECT_FALSE(e.at("args").empty());
      for (const auto& [k, v] : e.at("args").items()) EXPECT_TRUE(v.is_number()) << e.dump();
    }
    by_ph[ph].push_back(e);
  }
  // The spans of one thread nest (what chrome://tracing and Perfetto require), and spans of one
  // kind on one thread follow each other in time.
  std::map<std::pair<int, int>, std::vector<std::pair<std::int64_t, std::int64_t>>> spans;
  std::map<std::tuple<int, int, std::string>, std::int64_t> last_end;
  for (const auto& e : by_ph["X"]) {
    const std::int64_t ts = ns(e.at("ts")), end = ts + ns(e.at("dur"));
    spans[{e.at("pid"), e.at("tid")}].emplace_back(ts, end);
    auto& prev = last_end[{e.at("pid"), e.at("tid"), e.at("name")}];
    EXPECT_GE(ts, prev) << e.dump();
    prev = end;
  }
  for (auto& [track, list] : spans) {
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<std::int64_t> open;
    for (const auto& [start, end] : list) {
      while (!open.empty() && open.back() <= start) open.pop_back();
      EXPECT_TRUE(open.empty() || open.back() >= end)
          << "pid " << track.first << " tid " << track.second << ": span [" << start << ", " << end
          << "] overlaps one ending at " << open.back();
      open.push_back(end);
    }
  }
  return by_ph;
}

std::string meta(const std::vector<json>& m, const std::string& what, int pid, int tid) {
  for (const auto& e : m) {
    if (e.at("name") == what && e.at("pid") == pid && e.at("tid") == tid) return e["args"]["name"];
  }
  return "<none>";
}

// The track a thread of `pid` belongs to: its name without the " #2" of an extra lane.
std::string track_of(const std::vector<json>& m, int pid, int tid) {
  const std::string name = meta(m, "thread_name", pid, tid);
  return name.substr(0, name.find(" #"));
}

std::size_t count(const std::vector<json>& events, const std::string& name, int pid) {
  return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [&](const json& e) {
    return e.at("name") == name && e.at("pid") == pid;
  }));
}

TEST(Trace, HermesAndBspRunsGiveAValidTraceThatMatchesTheirRecords) {
  const auto sc = cluster(R"([{"name": "bsp", "protocol": "bsp"},
                              {"name": "h", "protocol": "hermes", "alpha": -0.5}])");
  const Traced t = trace_runs(sc);
  const json doc = json::parse(t.text);
  auto ev = check_structure(doc);

  // One process per run, one named track per node.
  EXPECT_EQ(meta(ev["M"], "process_name", 1, 0), "bsp (bsp)");
  EXPECT_EQ(meta(ev["M"], "process_name", 2, 0), "h (hermes)");
  for (int pid : {1, 2}) {
    EXPECT_EQ(meta(ev["M"], "thread_name", pid, 1), "ps (DS3_v2)");
    EXPECT_EQ(meta(ev["M"], "thread_name", pid, 2), "w0 (B1ms)");
    EXPECT_EQ(meta(ev["M"], "thread_name", pid, 3), "w1 (DS2_v2)");
    EXPECT_EQ(meta(ev["M"], "thread_name", pid, 4), "w2 (F4s_v2)");
    EXPECT_EQ(meta(ev["M"], "thread_name", pid, 5), "<none>");  // no overlaps: no extra lanes
  }

  for (int pid : {1, 2}) {
    const RunResult& r = t.results[static_cast<std::size_t>(pid - 1)];
    // A compute span per workers.csv row, on the worker's track, with the same iteration, chunk
    // and end time.
    std::multiset<std::tuple<int, std::int64_t, std::int64_t, std::int64_t>> want, got;
    for (const auto& it : r.local_iteration_log) {
      want.insert({it.worker + 2, it.local_iteration, it.chunk_size, it.end.ns()});
    }
    for (const auto& e : ev["X"]) {
      if (e["pid"] != pid || e["name"] != "compute") continue;
      got.insert(
          {e["tid"], e["args"]["iteration"], e["args"]["chunk_size"], ns(e["ts"]) + ns(e["dur"])});
      EXPECT_GT(e["args"]["flops"].get<double>(), 0);
    }
    EXPECT_EQ(got, want) << "run " << pid;
    // Every transfer kind appears with its bytes; the PS runs aggregate and evaluate jobs.
    for (const char* kind : {"chunk", "update", "model"}) {
      EXPECT_GT(count(ev["X"], kind, pid), 0u) << kind;
    }
    EXPECT_EQ(count(ev["X"], "evaluate", pid), r.global.size());
    EXPECT_GT(count(ev["X"], "aggregate", pid), 0u);
    EXPECT_EQ(count(ev["i"], "stop", pid), 1u);
    // Counters: chunk sizes of every worker, credits of the B1ms only.
    for (const char* w : {"w0", "w1", "w2"}) {
      EXPECT_GT(count(ev["C"], std::string(w) + " chunk size", pid), 0u) << w;
    }
    EXPECT_GT(count(ev["C"], "w0 credits", pid), 0u);
    EXPECT_EQ(count(ev["C"], "w1 credits", pid), 0u);
    // Wait spans: the worker's waits between iterations, which the API polls count. Those that
    // ended before the stop are spans; a wait still open at the stop is counted but not drawn.
    std::vector<std::int64_t> waited(3, 0);
    for (const auto& e : ev["X"]) {
      if (e["pid"] != pid || e["name"] != "wait") continue;
      EXPECT_GT(ns(e["dur"]), 0);
      waited[static_cast<std::size_t>(e["tid"].get<int>() - 2)] += ns(e["dur"]);
    }
    for (std::size_t w = 0; w < 3; ++w) {
      EXPECT_LE(waited[w], r.wait_time[w].ns()) << "worker " << w;
      EXPECT_GT(waited[w], 0) << "worker " << w;  // at least the initial pull
    }
  }
  // BSP: a barrier per round, no per-update evaluations; Hermes: an evaluation per aggregated
  // major update, each announced by its arrival.
  EXPECT_EQ(count(ev["i"], "barrier", 1), t.results[0].global.size());
  EXPECT_EQ(count(ev["i"], "update", 1), static_cast<std::size_t>(t.results[0].updates));
  EXPECT_EQ(count(ev["i"], "barrier", 2), 0u);
  EXPECT_EQ(count(ev["i"], "evaluation", 2), t.results[1].global.size());
  EXPECT_GE(count(ev["i"], "major update", 2), t.results[1].global.size());
  EXPECT_EQ(count(ev["i"], "update", 2), 0u);
  // The run ends at its stop instant: nothing is reported after it.
  for (const auto& e : doc["traceEvents"]) {
    if (e["pid"] != 2 || e["ph"] == "M") continue;
    const std::int64_t end = ns(e["ts"]) + (e.contains("dur") ? ns(e["dur"]) : 0);
    EXPECT_LE(end, t.results[1].sim_time.ns()) << e.dump();
  }
}

TEST(Trace, EbspOverlapsGoToExtraLanesThatStillNest) {
  // E-BSP sends a worker's update while its next chunk arrives: the two transfers overlap.
  const auto sc = cluster(R"([{"name": "e", "protocol": "ebsp", "lookahead": 2}])");
  const Traced t = trace_runs(sc);
  auto ev = check_structure(json::parse(t.text));  // includes the nesting check
  std::set<std::string> lanes;
  for (const auto& e : ev["M"]) {
    if (e["name"] == "thread_name") lanes.insert(e["args"]["name"].get<std::string>());
  }
  EXPECT_TRUE(lanes.count("w0 (B1ms) #2")) << t.text.substr(0, 2000);
  EXPECT_GT(count(ev["i"], "barrier", 1), 1u);
}

// Link faults ("events" of kind "link") are spans on their node's track: one per fault, from its
// start to its end, cut at the run's end; a fault that starts after the run is not drawn.
TEST(Trace, LinkFaultsAreSpansOnTheirNodesCutAtTheRunsEnd) {
  const auto sc = cluster(R"([{"name": "bsp", "protocol": "bsp"}])",
                          R"(, "events": [
      {"kind": "link", "node": "w1", "at_s": 0.2, "duration_s": 0.3, "bandwidth_factor": 0.5,
       "added_latency_ms": 2.5},
      {"kind": "link", "node": "ps", "at_s": 0.6, "duration_s": 100000, "bandwidth_factor": 0.25},
      {"kind": "link", "node": "w2", "at_s": 100000, "duration_s": 1, "bandwidth_factor": 0}])");
  const Traced t = trace_runs(sc);
  const RunResult& r = t.results[0];
  ASSERT_EQ(r.status, RunStatus::kOk);
  // The first fault ends inside the run, the second starts inside it and outlasts it.
  ASSERT_GT(r.sim_time.ns(), 600'000'000);
  ASSERT_LT(r.sim_time.ns(), 100'000'000'000'000);
  auto ev = check_structure(json::parse(t.text));
  std::vector<json> faults;
  for (const auto& e : ev["X"]) {
    if (e["name"] == "link fault") faults.push_back(e);
  }
  ASSERT_EQ(faults.size(), 2u) << t.text.substr(0, 2000);
  // Written by start time: w1's, then the PS's.
  const json& w1 = faults[0];
  EXPECT_EQ(track_of(ev["M"], 1, w1["tid"]), "w1 (DS2_v2)");
  EXPECT_EQ(w1["cat"], "network");
  EXPECT_EQ(ns(w1["ts"]), 200'000'000);
  EXPECT_EQ(ns(w1["dur"]), 300'000'000);
  EXPECT_EQ(w1["args"], json::parse(R"({"bandwidth_factor": 0.5, "added_latency_ms": 2.5})"));
  const json& ps = faults[1];
  EXPECT_EQ(track_of(ev["M"], 1, ps["tid"]), "ps (DS3_v2)");
  EXPECT_EQ(ns(ps["ts"]), 600'000'000);
  EXPECT_EQ(ns(ps["ts"]) + ns(ps["dur"]), r.sim_time.ns());  // cut at the run's end
  EXPECT_EQ(ps["args"], json::parse(R"({"bandwidth_factor": 0.25, "added_latency_ms": 0})"));
  // The run's stop instant is at the cut.
  ASSERT_EQ(count(ev["i"], "stop", 1), 1u);
  for (const auto& e : ev["i"]) {
    if (e["name"] == "stop") {
      EXPECT_EQ(ns(e["ts"]), r.sim_time.ns());
    }
  }
}

TEST(Trace, SameRunTwiceGivesTheSameBytes) {
  const auto sc = cluster(R"([{"name": "h", "protocol": "hermes", "alpha": -0.5},
                              {"name": "asp", "protocol": "asp"}])");
  const Traced a = trace_runs(sc);
  const Traced b = trace_runs(sc);
  EXPECT_GT(a.text.size(), 1000u);
  EXPECT_EQ(a.text, b.text);
}

TEST(Trace, AnObserverDoesNotChangeTheRun) {
  const auto sc = cluster(R"([{"name": "h", "protocol": "hermes", "alpha": -0.5}])");
  const auto data = testing::blocks_split();
  const RunResult plain = run_protocol(sc, sc.runs[0], data);
  const Traced traced = trace_runs(sc);
  EXPECT_EQ(plain.sim_time, traced.results[0].sim_time);
  EXPECT_EQ(plain.local_iteration_log.size(), traced.results[0].local_iteration_log.size());
  EXPECT_EQ(plain.best_loss, traced.results[0].best_loss);
}

}  // namespace
}  // namespace hermes::protocols
