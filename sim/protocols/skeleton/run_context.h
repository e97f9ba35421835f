// What every protocol run gets: the scenario, its run spec, and the simulated cluster built from
// them (event core, per-node compute, flow network). One RunContext per run: runs never share
// simulated state.
#pragma once

#include <memory>
#include <vector>

#include "sim/cluster/node_compute.h"
#include "sim/engine/simulator.h"
#include "sim/network/flow_network.h"
#include "sim/parallel/thread_pool.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

struct RunContext {
  RunContext(const scenario::Scenario& scenario, const scenario::RunSpec& run);

  const scenario::Scenario& scenario;
  const scenario::RunSpec& run;
  engine::Simulator sim;
  // Index = host index: 0 is the PS (its shard 0), i+1 is worker i, then the PS's other shards.
  std::vector<cluster::NodeCompute> nodes;
  std::unique_ptr<network::FlowNetwork> network;
  parallel::ThreadPool* pool = nullptr;  // where the run's math executes (set by the run)

  std::size_t worker_count() const { return scenario.worker_count(); }
  // The PS's shard 0: the PS of an unsharded run, which also serves the data chunks and runs the
  // global evaluations.
  static constexpr network::HostIndex kPs = 0;
  std::size_t ps_shards() const { return static_cast<std::size_t>(scenario.ps.shards); }
  network::HostIndex ps_host(std::size_t shard) const {
    return static_cast<network::HostIndex>(scenario.ps_shard_host(shard));
  }
  static network::HostIndex worker_host(std::size_t worker) {
    return static_cast<network::HostIndex>(worker + 1);
  }
  // The compute of worker `worker`'s node.
  cluster::NodeCompute& worker_node(std::size_t worker) { return nodes[worker_host(worker)]; }
  const cluster::NodeCompute& worker_node(std::size_t worker) const {
    return nodes[worker_host(worker)];
  }
};

}  // namespace hermes::protocols
