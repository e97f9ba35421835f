#include "sim/metrics/chrome_trace.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace hermes::metrics {
namespace {

using nlohmann::json;
using namespace engine::time_literals;

json parsed(const ChromeTrace& trace) {
  std::ostringstream out;
  const std::size_t written = trace.write(out);
  json doc = json::parse(out.str());
  // What `hermes-sim run --trace` reports is what the file holds, metadata included.
  EXPECT_EQ(written, doc.at("traceEvents").size());
  EXPECT_LE(trace.event_count(), written);
  return doc;
}

// The events of `ph`, in file order.
std::vector<json> events(const json& doc, const std::string& ph) {
  std::vector<json> out;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") == ph) out.push_back(e);
  }
  return out;
}

std::string meta_name(const json& doc, const std::string& what, int pid, int tid) {
  for (const auto& e : events(doc, "M")) {
    if (e.at("name") == what && e.at("pid") == pid && e.at("tid") == tid) {
      return e.at("args").at("name").get<std::string>();
    }
  }
  return "<none>";
}

TEST(ChromeTrace, TimestampsAreExactMicrosecondsOfIntegerNanoseconds) {
  ChromeTrace t;
  const auto track = t.add_track(t.add_process("run"), "w0");
  t.span(track, "compute", "compute", 7'300'125'004_ns, 7'300'126'000_ns);
  t.instant(track, "barrier", "protocol", 5'000_ns);
  std::ostringstream out;
  t.write(out);
  EXPECT_NE(out.str().find("\"ts\":7300125.004,"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\"dur\":0.996,"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\"ts\":5,"), std::string::npos) << out.str();
  const json doc = json::parse(out.str());
  EXPECT_EQ(doc.at("displayTimeUnit"), "ms");
  EXPECT_DOUBLE_EQ(events(doc, "X").at(0).at("ts").get<double>(), 7300125.004);
}

TEST(ChromeTrace, ProcessesAndTracksAreNamedByMetadataEvents) {
  ChromeTrace t;
  const int p1 = t.add_process("bsp (bsp)");
  const int p2 = t.add_process("h \"quoted\" (hermes)");
  t.add_track(p1, "ps (DS3_v2)");
  t.add_track(p1, "w0 (B1ms)");
  t.add_track(p2, "ps (DS3_v2)");
  const json doc = parsed(t);
  EXPECT_EQ(p1, 1);
  EXPECT_EQ(p2, 2);
  EXPECT_EQ(meta_name(doc, "process_name", 1, 0), "bsp (bsp)");
  EXPECT_EQ(meta_name(doc, "process_name", 2, 0), "h \"quoted\" (hermes)");
  EXPECT_EQ(meta_name(doc, "thread_name", 1, 1), "ps (DS3_v2)");
  EXPECT_EQ(meta_name(doc, "thread_name", 1, 2), "w0 (B1ms)");
  EXPECT_EQ(meta_name(doc, "thread_name", 2, 1), "ps (DS3_v2)");
}

TEST(ChromeTrace, OverlappingSpansGoToExtraLanesNestedOnesStay) {
  ChromeTrace t;
  const int pid = t.add_process("ebsp");
  const auto w0 = t.add_track(pid, "w0");
  const auto w1 = t.add_track(pid, "w1");
  t.span(w0, "chunk", "transfer", 0_ns, 10_ns);
  t.span(w0, "update", "transfer", 5_ns, 20_ns);   // overlaps the chunk: a second lane
  t.span(w0, "compute", "compute", 10_ns, 30_ns);  // after the chunk: back on the first lane
  t.span(w0, "wait", "wait", 30_ns, 50_ns);
  t.span(w0, "model", "transfer", 40_ns, 50_ns);  // inside the wait: nests on the first lane
  t.span(w1, "w1 compute", "compute", 0_ns, 10_ns);
  const json doc = parsed(t);
  std::map<std::string, int> tid;
  for (const auto& e : events(doc, "X")) tid[e.at("name")] = e.at("tid");
  EXPECT_EQ(tid["chunk"], 1);
  EXPECT_EQ(tid["compute"], 1);
  EXPECT_EQ(tid["w1 compute"], 2);
  EXPECT_EQ(tid["update"], 3);  // after the tracks of the process (w0 = 1, w1 = 2)
  EXPECT_EQ(tid["wait"], 1);
  EXPECT_EQ(tid["model"], 1);
  EXPECT_EQ(meta_name(doc, "thread_name", pid, 3), "w0 #2");
}

TEST(ChromeTrace, CountersAndArgsKeepTheirTypes) {
  ChromeTrace t;
  const auto tr = t.add_track(t.add_process("r"), "w0 (B1ms)");
  t.counter(tr, "w0 credits", "credits", 100_ns, 29.5);
  t.instant(tr, "stop", "protocol", 200_ns,
            {{"reason", std::string("patience")},
             {"updates", std::int64_t{12}},
             {"loss", std::numeric_limits<double>::quiet_NaN()}});
  const json doc = parsed(t);
  const json c = events(doc, "C").at(0);
  EXPECT_EQ(c.at("name"), "w0 credits");
  EXPECT_DOUBLE_EQ(c.at("args").at("credits").get<double>(), 29.5);
  const json s = events(doc, "i").at(0);
  EXPECT_EQ(s.at("s"), "t");
  EXPECT_EQ(s.at("args").at("reason"), "patience");
  EXPECT_EQ(s.at("args").at("updates"), 12);
  EXPECT_TRUE(s.at("args").at("loss").is_null());  // JSON has no NaN
}

TEST(ChromeTrace, EventsAreWrittenByTimeWhateverTheCallOrder) {
  ChromeTrace a, b;
  for (ChromeTrace* t : {&a, &b}) {
    const int pid = t->add_process("r");
    t->add_track(pid, "ps");
    t->add_track(pid, "w0");
  }
  a.span(1, "compute", "compute", 50_ns, 60_ns);
  a.instant(0, "barrier", "protocol", 10_ns);
  b.instant(0, "barrier", "protocol", 10_ns);
  b.span(1, "compute", "compute", 50_ns, 60_ns);
  std::ostringstream sa, sb;
  a.write(sa);
  b.write(sb);
  EXPECT_EQ(sa.str(), sb.str());
}

TEST(ChromeTrace, RejectsUnknownTracksAndBackwardSpans) {
  ChromeTrace t;
  EXPECT_THROW(t.add_track(1, "w0"), std::invalid_argument);
  const auto tr = t.add_track(t.add_process("r"), "w0");
  EXPECT_THROW(t.span(tr + 1, "x", "c", 0_ns, 1_ns), std::invalid_argument);
  EXPECT_THROW(t.span(tr, "x", "c", 5_ns, 4_ns), std::invalid_argument);
  EXPECT_THROW(t.instant(tr, "x", "c", -1_ns), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::metrics
