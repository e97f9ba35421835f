#include "sim/protocols/skeleton/availability.h"

#include <stdexcept>
#include <string>

namespace hermes::protocols {

namespace {

std::size_t node_of(const std::string& host) {
  // The loader accepts only "ps" and "w<i>" hosts of the cluster for outages.
  if (host == "ps") return RunContext::kPs;
  if (host.size() < 2 || host[0] != 'w')
    throw std::logic_error("outage of an unknown node " + host);
  return RunContext::worker_host(static_cast<std::size_t>(std::stoul(host.substr(1))));
}

}  // namespace

Availability::Availability(RunContext& ctx, const RunTrace& trace,
                           AvailabilitySubscriber& subscriber)
    : ctx_(ctx), trace_(trace), subscriber_(subscriber), nodes_(ctx.nodes.size()) {}

void Availability::schedule() {
  for (const scenario::OutageSpec& o : ctx_.scenario.outages) {
    const std::size_t node = node_of(o.node);
    subscriber_.on_planned(node, o);
    if (cluster::outage_kind(o.kind).announced) {
      ctx_.sim.schedule_at(o.warned(), [this, node, &o] {
        if (!closed_) notice(node, o);
      });
    }
    ctx_.sim.schedule_at(o.start, [this, node, &o] {
      if (!closed_) go_down(node, o);
    });
    if (o.end) {
      ctx_.sim.schedule_at(*o.end, [this, node, &o] {
        if (!closed_) come_up(node, o);
      });
    }
  }
}

void Availability::notice(std::size_t node, const scenario::OutageSpec& outage) {
  nodes_[node].state = State::kLeaving;
  trace_.instant_on(node, InstantKind::kNotice);
  subscriber_.on_notice(node);
  if (node != RunContext::kPs &&
      cluster::outage_kind(outage.kind).detection == cluster::Detection::kAtNotice) {
    miss(node);
  }
}

void Availability::miss(std::size_t node) {
  Node& n = nodes_[node];
  if (n.missed) return;
  n.missed = true;
  trace_.instant(InstantKind::kDeparted, {.worker = static_cast<int>(node) - 1});
  subscriber_.on_missed(node);
}

void Availability::go_down(std::size_t node, const scenario::OutageSpec& outage) {
  subscriber_.on_down(node);
  ctx_.nodes[node].turn_off();
  ctx_.network->turn_off(static_cast<network::HostIndex>(node));
  Node& n = nodes_[node];
  ++n.incarnation;
  n.state = State::kDown;
  n.down_since = ctx_.sim.now();
  n.outage = &outage;
  ++n.outages;
  if (node == RunContext::kPs) return;  // nobody misses the PS: its workers wait for it
  if (cluster::outage_kind(outage.kind).detection == cluster::Detection::kHeartbeatTimeout) {
    // The PS's heartbeat timeout for this outage: void once the node is back (it was missed then).
    ctx_.sim.schedule_in(ctx_.scenario.availability.detection, [this, node, &outage] {
      const Node& gone = nodes_[node];
      if (!closed_ && gone.state == State::kDown && gone.outage == &outage) miss(node);
    });
  } else {
    miss(node);  // at its notice already, unless the notice was 0 s
  }
  if (!outage.end) subscriber_.on_gone_for_good(node);
}

void Availability::close_downtime(std::size_t node) {
  Node& n = nodes_[node];
  const cluster::OutageKindRow& kind = cluster::outage_kind(n.outage->kind);
  const engine::SimTime gone = ctx_.sim.now() - n.down_since;
  n.downtime += gone;
  if (!kind.billed_while_gone) n.deallocated += gone;
  trace_.span(node, SpanKind::kOutage, n.down_since, {.reason = kind.name});
}

void Availability::come_up(std::size_t node, const scenario::OutageSpec& outage) {
  close_downtime(node);
  ctx_.nodes[node].turn_on(cluster::outage_kind(outage.kind).fresh_vm_on_return);
  ctx_.network->turn_on(static_cast<network::HostIndex>(node));
  nodes_[node].state = State::kUp;
  // Back before the PS missed it: the PS learns both at once.
  if (node != RunContext::kPs) miss(node);
  nodes_[node].missed = false;
  subscriber_.on_up(node);
}

void Availability::assume_missed_unless_up() {
  for (Node& n : nodes_) n.missed = n.state != State::kUp;
}

void Availability::report(RunResult& result, engine::SimTime end) const {
  result.churn.resize(nodes_.size());
  result.billed_time.resize(nodes_.size());
  for (std::size_t node = 0; node < nodes_.size(); ++node) {
    result.churn[node].outages = nodes_[node].outages;
    result.churn[node].downtime = nodes_[node].downtime;
    result.churn[node].deallocated = nodes_[node].deallocated;
    result.billed_time[node] = billed(node, end);
  }
}

void Availability::close() {
  if (closed_) return;
  // Gone at the end: the rest of its outage is no part of the run.
  for (std::size_t node = 0; node < nodes_.size(); ++node) {
    if (nodes_[node].state == State::kDown) close_downtime(node);
  }
  closed_ = true;
}

}  // namespace hermes::protocols
