#include "sim/protocols/reporting/demo_csv.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "base/enum_text.h"
#include "sim/metrics/csv_writer.h"
#include "sim/protocols/skeleton/run_context.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::protocols {

namespace {

class TimelineRecorder final : public RunObserver {
 public:
  TimelineRecorder(std::vector<DemoTimeline::Span>& spans, const scenario::Scenario& scenario,
                   const scenario::RunSpec& run)
      : spans_(spans), scenario_(scenario), run_(run) {}

  void on_span(std::size_t node, SpanKind kind, engine::SimTime start, engine::SimTime end,
               const EventArgs& args) override {
    const auto& n = scenario_.nodes.at(node);
    spans_.push_back({run_.name, n.host, n.profile.name, std::string(demo_span_name(kind)),
                      args.iteration.value_or(0), start, end, args.bytes.value_or(0),
                      std::nullopt});
    last_ = spans_.size() - 1;
    last_node_ = node;
  }

  void on_counter(std::size_t node, CounterKind kind, engine::SimTime at, double value) override {
    if (kind != CounterKind::kCredits || !last_ || last_node_ != node) return;
    DemoTimeline::Span& s = spans_[*last_];
    if (s.end == at) s.credits_left = value;
  }

 private:
  std::vector<DemoTimeline::Span>& spans_;
  const scenario::Scenario& scenario_;
  const scenario::RunSpec& run_;
  std::optional<std::size_t> last_;  // this run's latest span
  std::size_t last_node_ = 0;
};

void optional_field(metrics::CsvWriter& w, const std::optional<double>& value, int decimals) {
  if (value) {
    w.field(*value, decimals);
  } else {
    w.empty();
  }
}

}  // namespace

std::string_view demo_span_name(SpanKind kind) {
  // The demo's own words for its three transfers; every other span keeps its common name.
  constexpr std::array<std::string_view, 9> kDemoNames{
      "", "recv_chunk", "send_update", "recv_model", "", "", "", "", ""};
  static_assert(kDemoNames.size() == enum_count(SpanKind::kLinkFault));
  const std::string_view name = enum_text(kind, kDemoNames);
  return name.empty() ? span_name(kind) : name;
}

void write_demo_workers_csv(std::ostream& out, const scenario::Scenario& sc,
                            const std::vector<FinishedRun>& runs) {
  metrics::CsvWriter w(out, {"run", "node", "profile", "iterations", "finished_s", "compute_s",
                             "transfer_s", "bytes", "credits_left"});
  for (const auto& r : runs) {
    if (scenario::trains(r.spec->protocol)) continue;
    for (std::size_t k = 0; k < r.result.activity.size(); ++k) {
      const WorkerActivity& a = r.result.activity[k];
      const auto& node = sc.nodes[RunContext::worker_host(k)];
      w.field(r.spec->name).field(node.host).field(node.profile.name);
      w.field(r.result.local_iterations[k]);
      w.field(engine::to_seconds(a.finished), 6).field(engine::to_seconds(a.compute_time), 6);
      w.field(engine::to_seconds(a.transfer_time), 6).field(a.bytes, 0);
      optional_field(w, a.credits_left, 4);
      w.end_row();
    }
  }
}

std::unique_ptr<RunObserver> DemoTimeline::recorder(const scenario::Scenario& scenario,
                                                    const scenario::RunSpec& run) {
  return std::make_unique<TimelineRecorder>(spans_, scenario, run);
}

void DemoTimeline::write_csv(std::ostream& out) const {
  std::vector<std::size_t> order(spans_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Span &x = spans_[a], &y = spans_[b];
    if (x.start != y.start) return x.start < y.start;
    if (x.end != y.end) return x.end < y.end;
    return x.node < y.node;
  });
  metrics::CsvWriter w(out, {"run", "node", "profile", "activity", "iteration", "start_s", "end_s",
                             "duration_s", "bytes", "credits_left"});
  for (std::size_t i : order) {
    const Span& s = spans_[i];
    w.field(s.run).field(s.node).field(s.profile).field(s.activity).field(s.iteration);
    // Nanosecond resolution: 9 decimals print the exact simulated time.
    w.field(engine::to_seconds(s.start), 9).field(engine::to_seconds(s.end), 9);
    w.field(engine::to_seconds(s.end - s.start), 9).field(s.bytes, 0);
    optional_field(w, s.credits_left, 4);
    w.end_row();
  }
}

}  // namespace hermes::protocols
