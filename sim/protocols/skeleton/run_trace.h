// A run's timeline reporting (run_observer.h): forwards the skeleton's moments (a chunk arrived, a
// compute ended, an update or the model arrived, the global model was evaluated, the link faults
// at the end) to the observer attached, if any, with what each event carries. Nothing is reported
// without an observer or once the run has ended (close()).
#pragma once

#include <optional>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/network/network_spec.h"
#include "sim/network/topology.h"
#include "sim/protocols/skeleton/run_observer.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::protocols {

class RunTrace {
 public:
  explicit RunTrace(const engine::Simulator& sim) : sim_(sim) {}
  void attach(RunObserver* observer) { observer_ = observer; }
  // Whether events are reported (an observer and the run not ended).
  bool on() const { return observer_ != nullptr && !closed_; }
  void close() { closed_ = true; }

  void span(std::size_t node, SpanKind kind, engine::SimTime start,
            const EventArgs& args = {}) const {
    if (on()) observer_->on_span(node, kind, start, sim_.now(), args);
  }
  void instant(InstantKind kind, const EventArgs& args = {}) const {  // on the PS
    instant_on(0, kind, args);
  }
  void instant_on(std::size_t node, InstantKind kind, const EventArgs& args = {}) const {
    if (on()) observer_->on_instant(node, kind, sim_.now(), args);
  }
  void counter(std::size_t node, CounterKind kind, std::optional<double> value) const {
    if (on() && value) observer_->on_counter(node, kind, sim_.now(), *value);
  }

  // A worker's chunk arrived at `node` (its compute starts now, with `credits` in its bank).
  void chunk_arrived(std::size_t node, engine::SimTime requested, std::int64_t iteration,
                     std::int64_t chunk_size, double bytes, std::optional<double> credits) const;
  void computed(std::size_t node, engine::SimTime start, std::int64_t iteration,
                const IterationWork& work, std::optional<double> credits) const;
  // An update of worker `worker` (on host `node`) sent at `start` arrived at the PS.
  void update_arrived(std::size_t node, int worker, InstantKind kind, engine::SimTime start,
                      std::int64_t iteration, double bytes) const;
  void evaluation(const AggregationRecord& eval) const;
  // The link faults as spans on their hosts, up to now (the run's end).
  void link_faults(const std::vector<network::LinkFault>& faults,
                   const network::Topology& topology) const;

 private:
  const engine::Simulator& sim_;
  RunObserver* observer_ = nullptr;
  bool closed_ = false;
};

}  // namespace hermes::protocols
