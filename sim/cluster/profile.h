// Node profiles: what a machine type is (vCPUs, memory, NIC) and how fast it trains.
// The catalog lives in data (scenarios/profiles/azure.json) with the reasoning behind each number;
// code never hard-codes a machine's speed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/diagnostics.h"

namespace hermes::cluster {

// Azure B-series burstable CPU credits. Percentages are of one vCPU summed over the VM's vCPUs
// (Azure's "base CPU performance of VM": B1ms 20%, B2s 40%); a credit is one vCPU at 100% for a
// minute.
struct BurstSpec {
  double baseline_pct = 0;     // VM baseline, % of one vCPU
  double credits_per_hour = 0; // accrual when idle
  double max_credits = 0;      // bank cap (24 h of accrual)
  double initial_credits = 0;  // at VM start (30 per vCPU)
};

// Compute-time model: a training step takes step_overhead + flops / (gflops * 1e9) seconds at
// full speed, times a seeded multiplicative jitter with coefficient of variation jitter_cv.
struct ComputeSpec {
  double gflops = 0;            // effective training throughput at full speed, GFLOP/s
  double step_overhead_us = 0;  // fixed cost per optimiser step (framework, dispatch)
  double jitter_cv = 0;         // 0 disables jitter
};

struct NodeProfile {
  std::string name;        // short name used in scenarios, e.g. "DS2_v2"
  std::string azure_name;  // e.g. "Standard_DS2_v2"
  int vcpus = 0;
  double memory_gib = 0;
  double nic_mbps = 0;  // expected network bandwidth, Mbit/s
  ComputeSpec compute;
  std::optional<BurstSpec> burst;  // set for B-series only
  std::string notes;               // provenance of the numbers
};

class ProfileCatalog {
 public:
  // Reads and validates a catalog file; throws InputError naming the file and every bad field.
  static ProfileCatalog load(const std::string& path);
  // Validates a parsed catalog document, reporting into diags (paths like /profiles/B1ms/vcpus).
  static ProfileCatalog parse(const nlohmann::json& doc, Diagnostics& diags);

  // Looks up by short name ("B1ms") or Azure name ("Standard_B1ms"); nullptr if unknown.
  const NodeProfile* find(std::string_view name) const;
  // Short names in catalog order.
  std::vector<std::string> names() const;
  const std::vector<NodeProfile>& profiles() const { return profiles_; }
  // Free-form calibration notes from the catalog file (shown by `hermes-sim profiles`).
  const std::vector<std::string>& calibration_notes() const { return calibration_notes_; }

 private:
  std::vector<NodeProfile> profiles_;
  std::vector<std::string> calibration_notes_;
};

// Applies a scenario's per-node overrides object to a profile. Accepted keys: vcpus, memory_gib,
// nic_mbps, compute {gflops, step_overhead_us, jitter_cv}, burst {baseline_pct, credits_per_hour,
// max_credits, initial_credits} (burst: null makes the node non-burstable). Unknown keys, wrong
// types and out-of-range values are reported at json_path/... into diags.
void apply_overrides(NodeProfile& profile, const nlohmann::json& overrides,
                     const std::string& json_path, Diagnostics& diags);

// The catalog as an aligned text table (for `hermes-sim profiles`).
std::string format_catalog_table(const ProfileCatalog& catalog);

}  // namespace hermes::cluster
