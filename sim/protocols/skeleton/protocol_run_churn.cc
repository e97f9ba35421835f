// ProtocolRun under churn (docs/churn.md): the scenario's outages take workers away and bring them
// back, as simulator events scheduled at the start of the run.
//
// A worker that goes loses what it had not delivered: the iteration in progress (its compute so
// far is wasted), the iterations it computed since its latest update left (Hermes' minor ones),
// and its updates still travelling to the PS (dropped with their flows). Its node and its host are
// turned off (NodeCompute::turn_off, FlowNetwork::turn_off): its compute and its flows end as
// failed, and the building blocks' callbacks drop them; they are turned on when it comes back.
// The math of an iteration it was running is waited for, not cancelled, so that the worker's
// random streams are where every thread count leaves them.
//
// The PS hears of a departure at the eviction notice, or detection_s after a crash (a heartbeat
// timeout), or when the worker comes back if that is sooner: the protocol's on_departed(w). From
// the notice on, a leaving worker starts no new iteration and takes no model; what it computes
// meanwhile is still pushed and may arrive before it goes. A worker that comes back is a fresh
// process on a node that is up again (an evicted one on a new VM: its burst bank at the initial
// credits, and its absence not billed): the protocol's on_rejoined(w).
#include <stdexcept>

#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

namespace {

std::size_t worker_of(const std::string& host) {
  // The loader accepts only "ps" and "w<i>" hosts of the cluster for outages.
  if (host.size() < 2 || host[0] != 'w') throw std::logic_error("outage of a non-worker " + host);
  return static_cast<std::size_t>(std::stoul(host.substr(1)));
}

}  // namespace

void ProtocolRun::schedule_outages() {
  for (const scenario::OutageSpec& o : ctx_.scenario.outages) {
    if (o.node == "ps") {
      schedule_ps_outage(o);
      continue;
    }
    const std::size_t w = worker_of(o.node);
    if (cluster::outage_kind(o.kind).announced) {
      ctx_.sim.schedule_at(o.warned(), [this, w, &o] {
        if (!finished_) warn(w, o);
      });
    }
    ctx_.sim.schedule_at(o.start, [this, w, &o] {
      if (!finished_) depart(w, o);
    });
    if (o.end) {
      ctx_.sim.schedule_at(*o.end, [this, w, &o] {
        if (!finished_) rejoin(w, o);
      });
    }
  }
}

void ProtocolRun::warn(std::size_t w, const scenario::OutageSpec& outage) {
  workers_[w].leaving = true;
  trace_instant_on(RunContext::worker_host(w), InstantKind::kNotice);
  if (cluster::outage_kind(outage.kind).detection == cluster::Detection::kAtNotice) {
    announce_departure(w);
  }
}

void ProtocolRun::announce_departure(std::size_t w) {
  Worker& k = workers_[w];
  if (k.known_gone) return;
  k.known_gone = true;
  trace_instant(InstantKind::kDeparted, {.worker = static_cast<int>(w)});
  // A PS that is down hears nothing; back, it counts on the workers it finds (ps_return).
  if (ps_serving_) on_departed(w);
}

void ProtocolRun::count_lost(std::size_t w) {
  Worker& k = workers_[w];
  NodeChurn& c = result_.churn[RunContext::worker_host(w)];
  WorkCarried lost = k.unsynced;
  lost += k.in_flight;
  if (k.in_iteration) ++lost.iterations;
  if (k.computing) lost.compute += now() - k.compute_start;
  c.lost_iterations += lost.iterations;
  c.wasted_compute += lost.compute;
  c.dropped_updates += k.in_flight.updates;
  k.unsynced = {};
  k.in_flight = {};
}

void ProtocolRun::drop_work(std::size_t w) {
  Worker& k = workers_[w];
  // Its math finishes as it would have with any thread count; its result is then dropped.
  if (k.math.valid()) k.math.wait();
  count_lost(w);
  k.in_iteration = false;
  k.computing = false;
  k.fresh_model = false;
  k.chunk_open = false;  // update_unit "steps": the chunk is lost with the work
}

void ProtocolRun::depart(std::size_t w, const scenario::OutageSpec& outage) {
  Worker& k = workers_[w];
  const network::HostIndex host = RunContext::worker_host(w);
  drop_work(w);
  ctx_.nodes[host].turn_off();
  ctx_.network->turn_off(host);
  ++k.incarnation;  // the PS's answers decided for the process that went are not sent
  if (k.idle_since) {
    result_.wait_time[w] += now() - *k.idle_since;
    k.idle_since.reset();
  }
  k.present = false;
  k.leaving = false;
  k.down_since = now();
  k.outage = &outage;
  ++result_.churn[host].outages;
  if (cluster::outage_kind(outage.kind).detection == cluster::Detection::kHeartbeatTimeout) {
    // The PS's heartbeat timeout for this outage: void once w is back (it then learnt of it).
    ctx_.sim.schedule_in(ctx_.scenario.availability.detection, [this, w, &outage] {
      const Worker& gone = workers_[w];
      if (!finished_ && !gone.present && gone.outage == &outage) announce_departure(w);
    });
  } else {
    announce_departure(w);  // at its notice already, unless the notice was 0 s
  }
}

void ProtocolRun::rejoin(std::size_t w, const scenario::OutageSpec& outage) {
  Worker& k = workers_[w];
  const network::HostIndex host = RunContext::worker_host(w);
  NodeChurn& c = result_.churn[host];
  const cluster::OutageKindRow& kind = cluster::outage_kind(outage.kind);
  c.downtime += now() - k.down_since;
  if (!kind.billed_while_gone) c.deallocated += now() - k.down_since;
  ctx_.nodes[host].turn_on(kind.fresh_vm_on_return);
  ctx_.network->turn_on(host);
  trace_span(host, SpanKind::kOutage, k.down_since, {.reason = kind.name});
  k.present = true;
  k.model.reset_velocity();  // a new worker process: its optimiser starts again
  k.idle_since = now();
  // Back before the PS missed it: the PS learns both at once.
  announce_departure(w);
  k.known_gone = false;
  if (ps_serving_) on_rejoined(w);  // else the PS finds it when it is back
}

void ProtocolRun::on_rejoined(std::size_t w) {
  send_model(w, [this, w] { begin_iteration(w); });
}

void ProtocolRun::discard_update(std::size_t w) {
  NodeChurn& c = result_.churn[RunContext::worker_host(w)];
  ++c.dropped_updates;
  --unapplied_;
  c.lost_iterations += arriving_.iterations;
  c.wasted_compute += arriving_.compute;
  arriving_ = {};
}

void ProtocolRun::close_outages() {
  close_ps_outage();
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    Worker& k = workers_[w];
    if (k.present) continue;
    const network::HostIndex host = RunContext::worker_host(w);
    const cluster::OutageKindRow& kind = cluster::outage_kind(k.outage->kind);
    result_.churn[host].downtime += now() - k.down_since;
    // Gone at the end: the rest of its outage is no part of the run.
    if (!kind.billed_while_gone) result_.churn[host].deallocated += now() - k.down_since;
    trace_span(host, SpanKind::kOutage, k.down_since, {.reason = kind.name});
  }
}

}  // namespace hermes::protocols
