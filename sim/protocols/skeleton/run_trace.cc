#include "sim/protocols/skeleton/run_trace.h"

#include <algorithm>
#include <stdexcept>

namespace hermes::protocols {

void RunTrace::chunk_arrived(std::size_t node, engine::SimTime requested, std::int64_t iteration,
                             std::int64_t chunk_size, double bytes,
                             std::optional<double> credits) const {
  span(node, SpanKind::kChunk, requested,
       {.iteration = iteration, .chunk_size = chunk_size, .bytes = bytes});
  // The compute starts now: the chunk it trains on and the credits it starts with.
  counter(node, CounterKind::kChunkSize, static_cast<double>(chunk_size));
  counter(node, CounterKind::kCredits, credits);
}

void RunTrace::computed(std::size_t node, engine::SimTime start, std::int64_t iteration,
                        const IterationWork& work, std::optional<double> credits) const {
  span(node, SpanKind::kCompute, start,
       {.iteration = iteration, .chunk_size = work.chunk, .flops = work.flops});
  counter(node, CounterKind::kCredits, credits);
}

void RunTrace::update_arrived(std::size_t node, int worker, InstantKind kind, engine::SimTime start,
                              std::int64_t iteration, double bytes) const {
  const EventArgs args{.iteration = iteration, .bytes = bytes, .worker = worker};
  span(node, SpanKind::kUpdate, start, args);
  instant(kind, args);
}

void RunTrace::evaluation(const AggregationRecord& eval) const {
  // worker -1: the aggregation of a whole round (BSP), i.e. a barrier.
  EventArgs args{.updates = eval.updates, .loss = eval.loss, .accuracy = eval.accuracy};
  if (eval.worker >= 0) args.worker = eval.worker;
  instant(eval.worker < 0 ? InstantKind::kBarrier : InstantKind::kEvaluation, args);
}

void RunTrace::link_faults(const std::vector<network::LinkFault>& faults,
                           const network::Topology& topology) const {
  if (!on()) return;
  const engine::SimTime end = sim_.now();
  for (const network::LinkFault& f : faults) {
    // A fault from the run's end on is no part of it; one still on at the end is cut there.
    if (f.start >= end) continue;
    // The loader accepts only faults of the scenario's hosts.
    const auto host = topology.find_host(f.host);
    if (!host) throw std::logic_error("link fault of an unknown host " + f.host);
    observer_->on_span(*host, SpanKind::kLinkFault, f.start, std::min(f.end, end),
                       {.bandwidth_factor = f.bandwidth_factor,
                        .added_latency_ms = static_cast<double>(f.added_latency.ns()) / 1e6});
  }
}

}  // namespace hermes::protocols
