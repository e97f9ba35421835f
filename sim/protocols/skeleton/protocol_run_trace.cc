// ProtocolRun's timeline hooks (run_observer.h), kept out of protocol_run.cc so that the skeleton
// only names the moments: a chunk arrived, a compute ended, an update or the model arrived, the
// global model was evaluated. What each event carries is decided here.
#include <algorithm>
#include <stdexcept>

#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

void ProtocolRun::trace_span(std::size_t node, SpanKind kind, engine::SimTime start,
                             const EventArgs& args) const {
  if (observer_ != nullptr && !finished_) observer_->on_span(node, kind, start, now(), args);
}

void ProtocolRun::trace_instant(InstantKind kind, const EventArgs& args) const {
  trace_instant_on(RunContext::kPs, kind, args);
}

void ProtocolRun::trace_instant_on(std::size_t node, InstantKind kind,
                                   const EventArgs& args) const {
  if (observer_ != nullptr && !finished_) observer_->on_instant(node, kind, now(), args);
}

void ProtocolRun::trace_counter(std::size_t node, CounterKind kind,
                                std::optional<double> value) const {
  if (observer_ != nullptr && !finished_ && value) {
    observer_->on_counter(node, kind, now(), *value);
  }
}

void ProtocolRun::trace_chunk_arrived(std::size_t w, double bytes) const {
  if (observer_ == nullptr) return;
  const Worker& k = workers_[w];
  trace_span(
      RunContext::worker_host(w), SpanKind::kChunk, k.iteration_start,
      {.iteration = result_.local_iterations[w], .chunk_size = k.chunk_size, .bytes = bytes});
  // The compute starts now: the chunk it trains on and the credits it starts with.
  trace_counter(RunContext::worker_host(w), CounterKind::kChunkSize,
                static_cast<double>(k.chunk_size));
  trace_counter(RunContext::worker_host(w), CounterKind::kCredits,
                ctx_.worker_node(w).credits_at(now()));
}

void ProtocolRun::trace_computed(std::size_t w) const {
  if (observer_ == nullptr) return;
  const Worker& k = workers_[w];
  trace_span(RunContext::worker_host(w), SpanKind::kCompute, k.compute_start,
             {.iteration = result_.local_iterations[w],
              .chunk_size = k.last.work.chunk,
              .flops = k.last.work.flops});
  trace_counter(RunContext::worker_host(w), CounterKind::kCredits,
                ctx_.worker_node(w).credits_at(now()));
}

void ProtocolRun::trace_update_arrived(std::size_t w, InstantKind kind, engine::SimTime start,
                                       double bytes) const {
  if (observer_ == nullptr) return;
  const EventArgs args{
      .iteration = result_.local_iterations[w], .bytes = bytes, .worker = static_cast<int>(w)};
  trace_span(RunContext::worker_host(w), SpanKind::kUpdate, start, args);
  trace_instant(kind, args);
}

void ProtocolRun::trace_model_arrived(std::size_t w, engine::SimTime start, double bytes) const {
  trace_span(RunContext::worker_host(w), SpanKind::kModel, start, {.bytes = bytes});
}

void ProtocolRun::trace_evaluation(const AggregationRecord& eval) const {
  // worker -1: the aggregation of a whole round (BSP), i.e. a barrier.
  EventArgs args{.updates = eval.updates, .loss = eval.loss, .accuracy = eval.accuracy};
  if (eval.worker >= 0) args.worker = eval.worker;
  trace_instant(eval.worker < 0 ? InstantKind::kBarrier : InstantKind::kEvaluation, args);
}

void ProtocolRun::trace_link_faults() const {
  if (observer_ == nullptr || finished_) return;
  const engine::SimTime end = now();
  for (const network::LinkFault& f : ctx_.scenario.link_faults) {
    // A fault from the run's end on is no part of it; one still on at the end is cut there.
    if (f.start >= end) continue;
    // The loader accepts only faults of the scenario's hosts.
    const auto host = ctx_.network->topology().find_host(f.host);
    if (!host) throw std::logic_error("link fault of an unknown host " + f.host);
    observer_->on_span(*host, SpanKind::kLinkFault, f.start, std::min(f.end, end),
                       {.bandwidth_factor = f.bandwidth_factor,
                        .added_latency_ms = static_cast<double>(f.added_latency.ns()) / 1e6});
  }
}

}  // namespace hermes::protocols
