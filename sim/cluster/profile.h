// Node profiles: what a machine type is (vCPUs, memory, NIC) and how fast it trains.
// The catalog lives in data (scenarios/profiles/azure.json) with the reasoning behind each number;
// code never hard-codes a machine's speed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/diagnostics.h"
#include "sim/cluster/size_names.h"

namespace hermes::cluster {

// Azure B-series burstable CPU credits. Percentages are of one vCPU summed over the VM's vCPUs
// (Azure's "base CPU performance of VM": B1ms 20%, B2s 40%); a credit is one vCPU at 100% for a
// minute.
struct BurstSpec {
  double baseline_pct = 0;      // VM baseline, % of one vCPU
  double credits_per_hour = 0;  // accrual when idle
  double max_credits = 0;       // bank cap (24 h of accrual)
  double initial_credits = 0;   // at VM start (30 per vCPU)
};

// Compute-time model: a training step takes step_overhead + flops / (gflops * 1e9) seconds at
// full speed, times a seeded multiplicative jitter with coefficient of variation jitter_cv.
// A large-batch inference call (the PS's test-set evaluation) takes eval_overhead +
// flops / (inference_gflops * 1e9); an inference_gflops of 0 means "at the training rate" (what
// a profile without the keys gets: the evaluation charged as batch-16 training would be).
struct ComputeSpec {
  double gflops = 0;            // effective training throughput at full speed, GFLOP/s
  double step_overhead_us = 0;  // fixed cost per optimiser step (framework, dispatch)
  double jitter_cv = 0;         // 0 disables jitter
  double inference_gflops = 0;  // large-batch forward throughput, GFLOP/s; 0: gflops
  double eval_overhead_us = 0;  // fixed cost per inference call
};

// The rate an inference call's FLOPs run at: inference_gflops, or gflops when that is unset.
inline double inference_rate_gflops(const ComputeSpec& spec) {
  return spec.inference_gflops > 0 ? spec.inference_gflops : spec.gflops;
}

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

// The workload the catalog's speeds are calibrated against, kept in the catalog file next to the
// numbers derived from it so that data and reasoning cannot drift apart. Its FLOPs are the ones the
// simulator charges (counted by models/nn), not an estimate, so a simulated run on
// target_profile reproduces target_seconds.
struct ReferenceJob {
  std::string description;
  double flops = 0;            // FLOPs of the whole job (training, SGD updates, local evaluation)
  std::int64_t steps = 0;      // optimiser steps of the job
  std::string target_profile;  // short name of the profile pinned to target_seconds
  double target_seconds = 0;   // measured time the calibration reproduces on target_profile
};

class ProfileCatalog {
 public:
  // Reads and validates a catalog file; throws InputError naming the file and every bad field.
  static ProfileCatalog load(const std::string& path);
  // Validates a parsed catalog document, reporting into diags (paths like /profiles/B1ms/vcpus).
  // nlohmann::json keeps object keys sorted, so this overload yields profiles in name order.
  static ProfileCatalog parse(const nlohmann::json& doc, Diagnostics& diags);
  // Same, keeping the file's order (what load() uses).
  static ProfileCatalog parse(const nlohmann::ordered_json& doc, Diagnostics& diags);

  // Looks up by short name ("B1ms") or Azure name ("Standard_B1ms"), ignoring ASCII case (Azure
  // treats size names case-insensitively); nullptr if unknown.
  const NodeProfile* find(std::string_view name) const;
  // Short names in catalog order.
  std::vector<std::string> names() const;
  const std::vector<NodeProfile>& profiles() const { return profiles_; }
  // Free-form calibration notes from the catalog file (shown by `hermes-sim profiles`).
  const std::vector<std::string>& calibration_notes() const { return calibration_notes_; }
  // /calibration/reference_job, if the catalog has one (the shipped catalog does).
  const std::optional<ReferenceJob>& reference_job() const { return reference_job_; }

 private:
  std::vector<NodeProfile> profiles_;
  NameIndex names_;  // short and Azure names of profiles_
  std::vector<std::string> calibration_notes_;
  std::optional<ReferenceJob> reference_job_;
};

// Applies a scenario's per-node overrides object to a profile. Accepted keys: vcpus, memory_gib,
// nic_mbps, compute {gflops, step_overhead_us, jitter_cv}, burst {baseline_pct, credits_per_hour,
// max_credits, initial_credits} (burst: null makes the node non-burstable). Unknown keys, wrong
// types and out-of-range values are reported at json_path/... into diags.
void apply_overrides(NodeProfile& profile, const nlohmann::json& overrides,
                     const std::string& json_path, Diagnostics& diags);

// The catalog as an aligned text table (for `hermes-sim profiles`). With a reference job, two more
// columns give each profile's predicted full-speed time for it ("chunk s") and, for burstable
// profiles, the same with no credits left ("capped s"), so the calibration is visible; without
// one those columns are omitted.
std::string format_catalog_table(const ProfileCatalog& catalog);

// Location of the shipped catalog inside a source tree: <source_dir>/scenarios/profiles/azure.json.
// The library cannot know the source dir (HERMES_SOURCE_DIR is only defined for hermes-sim and the
// tests), so callers pass it.
std::string catalog_path_in(const std::string& source_dir);

#ifdef HERMES_SOURCE_DIR
// Only visible where the build defines HERMES_SOURCE_DIR (hermes-sim, test executables).
inline std::string default_catalog_path() { return catalog_path_in(HERMES_SOURCE_DIR); }
#endif

}  // namespace hermes::cluster
