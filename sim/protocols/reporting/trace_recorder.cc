#include "sim/protocols/reporting/trace_recorder.h"

#include <string>

#include "sim/protocols/reporting/demo_csv.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::protocols {

namespace {

metrics::TraceArgs to_trace_args(const EventArgs& a) {
  metrics::TraceArgs out;
  if (a.worker) out.emplace_back("worker", "w" + std::to_string(*a.worker));
  if (a.iteration) out.emplace_back("iteration", *a.iteration);
  if (a.chunk_size) out.emplace_back("chunk_size", *a.chunk_size);
  if (a.bytes) out.emplace_back("bytes", *a.bytes);
  if (a.flops) out.emplace_back("flops", *a.flops);
  if (a.updates) out.emplace_back("updates", *a.updates);
  if (a.loss) out.emplace_back("loss", *a.loss);
  if (a.accuracy) out.emplace_back("accuracy", *a.accuracy);
  if (a.bandwidth_factor) out.emplace_back("bandwidth_factor", *a.bandwidth_factor);
  if (a.added_latency_ms) out.emplace_back("added_latency_ms", *a.added_latency_ms);
  if (!a.reason.empty()) out.emplace_back("reason", std::string(a.reason));
  return out;
}

// Categories let a viewer filter: compute (workers, PS jobs), transfer, wait, outage, network (link
// faults), protocol (instants).
const char* category(SpanKind kind) {
  switch (kind) {
    case SpanKind::kChunk:
    case SpanKind::kUpdate:
    case SpanKind::kModel:
      return "transfer";
    case SpanKind::kWait:
      return "wait";
    case SpanKind::kOutage:
      return "outage";
    case SpanKind::kLinkFault:
      return "network";
    default:
      return "compute";
  }
}

}  // namespace

TraceRecorder::TraceRecorder(metrics::ChromeTrace& trace, const scenario::Scenario& scenario,
                             const scenario::RunSpec& run)
    : trace_(trace), scenario_(scenario), demo_(!scenario::trains(run.protocol)) {
  const int pid = trace_.add_process(run.name + " (" +
                                     std::string(scenario::protocol_name(run.protocol)) + ")");
  for (const auto& node : scenario.nodes) {
    tracks_.push_back(trace_.add_track(pid, node.host + " (" + node.profile.name + ")"));
  }
}

void TraceRecorder::on_span(std::size_t node, SpanKind kind, engine::SimTime start,
                            engine::SimTime end, const EventArgs& args) {
  const std::string_view name = demo_ ? demo_span_name(kind) : span_name(kind);
  trace_.span(tracks_.at(node), std::string(name), category(kind), start, end, to_trace_args(args));
}

void TraceRecorder::on_instant(std::size_t node, InstantKind kind, engine::SimTime at,
                               const EventArgs& args) {
  trace_.instant(tracks_.at(node), std::string(instant_name(kind)), "protocol", at,
                 to_trace_args(args));
}

void TraceRecorder::on_counter(std::size_t node, CounterKind kind, engine::SimTime at,
                               double value) {
  const std::string series(counter_name(kind));
  trace_.counter(tracks_.at(node), scenario_.nodes.at(node).host + " " + series, series, at, value);
}

}  // namespace hermes::protocols
