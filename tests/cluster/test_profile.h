// A node profile for the compute-model tests: a made-up machine of which only the compute model
// (and the vCPUs a burst bank scales with) matters.
#pragma once

#include "sim/cluster/profile.h"

namespace hermes::cluster::testing {

inline NodeProfile test_profile(int vcpus, ComputeSpec compute) {
  NodeProfile p;
  p.name = "Test";
  p.azure_name = "Standard_Test";
  p.vcpus = vcpus;
  p.memory_gib = 4;
  p.nic_mbps = 1000;
  p.compute = compute;
  return p;
}

}  // namespace hermes::cluster::testing
