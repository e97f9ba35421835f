#include "sim/protocols/skeleton/resources.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "base/file_read.h"
#include "base/number_text.h"
#include "models/nn/layer_plan.h"
#include "sim/cluster/compute_model.h"
#include "sim/config/json_pointer.h"
#include "sim/protocols/skeleton/workload.h"
#include "sim/scenario/compression_params.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::protocols {

namespace {

// Estimates are approximations and print with 3 significant digits (format_significant(v, 3):
// "3.88e+301", "0.53"); exact values (the user's, counts, limits) print with format_number.

// The numbers of the estimates (scenarios/README.md, "Limits"), measured on the project's 2-core
// machine: the training loop's rate per core (README, "Speed"), a worker's memory (4 copies of the
// parameters: model, gradients, the one its protocol keeps (the iteration's start, or Hermes'
// gradient sum S_i or, in the paper variant, its sync point) and its update in transfer; model
// snapshots in transfer are shared. 1.75 MB for the MLP: 1000 Hermes workers measured 1.28 MB
// each, docs/performance.md), and the max-min network's cost per flow and recomputation (a
// 1000-worker demo: 3 updates of ~W/2 flows per worker iteration, 8e-8 s each).
constexpr double kFlopsPerSecond = 60e9;
constexpr double kParamCopiesPerWorker = 4;
constexpr double kSecondsPerFlowUpdate = 1e-7;
constexpr double kFlowUpdatesPerIterationPerWorker = 3;
constexpr double kBytesPerSpan = 200;  // a timeline span (or trace event) kept for the outputs
// The test set of a scenario's own dataset whose files were not counted (sim/cli:
// count_own_dataset counts them before every check of `validate`, `run` and `sweep`).
constexpr double kUnknownTestSamples = 10000;
// The highest |z| RandomStream::normal can return: sqrt(-2 ln 2^-53) = 8.57 (Box-Muller).
constexpr double kMaxNormal = 8.6;
const std::string kMaxDurationText = "1e9";

// model_cost builds the model: once per dataset and model (a sweep checks every point).
ModelCost cached_cost(const scenario::Scenario& sc) {
  static std::mutex mutex;
  static std::map<std::string, ModelCost> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = sc.dataset.name + "|" + sc.model.name + "|" + nn::layers_text(sc.model.layers) +
                   "|" + std::to_string(static_cast<int>(sc.model.init));
  const auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  return cache.emplace(key, model_cost(sc)).first->second;
}

bool any_protocol(const scenario::Scenario& sc) {
  for (const auto& r : sc.runs) {
    if (scenario::trains(r.protocol)) return true;
  }
  return false;
}

bool any_dynamic(const scenario::Scenario& sc) {
  for (const auto& r : sc.runs) {
    if (scenario::trains(r.protocol) && r.dynamic_allocation) return true;
  }
  return false;
}

std::int64_t train_size(const scenario::Scenario& sc) {
  return scenario::known_train_size(sc.dataset).value_or(sc.training.chunk_size);
}

double test_size(const scenario::Scenario& sc) {
  const std::int64_t n = sc.dataset.files.test_size;
  return n > 0 ? static_cast<double>(n) : kUnknownTestSamples;
}

// The largest chunk a worker can get: dynamic allocation may grow it up to the training set.
std::int64_t max_chunk(const scenario::Scenario& sc) {
  return any_dynamic(sc) ? std::max<std::int64_t>(train_size(sc), sc.training.chunk_size)
                         : sc.training.chunk_size;
}

double max_jitter(double cv) {
  const double s = std::sqrt(std::log1p(cv * cv));
  return std::exp(-0.5 * s * s + kMaxNormal * s);
}

double throttle(const cluster::NodeProfile& p) {
  return p.burst ? 100.0 * p.vcpus / p.burst->baseline_pct : 1.0;
}

// The JSON pointer of what sets a node's `field` ("compute", "nic_mbps"): its overrides if they
// set it, else its profile name.
std::string source_path(const scenario::Scenario& sc, const scenario::NodeSpec& node,
                        const char* field) {
  const std::string base =
      node.is_ps() ? std::string("/cluster/ps") : pointer_append("/cluster/workers", node.group);
  const scenario::Json* group = nullptr;
  if (const auto c = sc.document.find("cluster"); c != sc.document.end()) {
    if (node.is_ps()) {
      if (const auto ps = c->find("ps"); ps != c->end()) group = &*ps;
    } else if (const auto w = c->find("workers");
               w != c->end() && w->is_array() && node.group < static_cast<int>(w->size())) {
      group = &(*w)[static_cast<std::size_t>(node.group)];
    }
  }
  if (group != nullptr && group->is_object()) {
    if (const auto o = group->find("overrides"); o != group->end() && o->is_object()) {
      if (o->contains(field)) return base + "/overrides/" + field;
    }
  }
  return base + "/profile";
}

void check_compute(const scenario::Scenario& sc, const scenario::NodeSpec& node,
                   const cluster::TrainingJob& work, const std::string& job, Diagnostics& diags) {
  const cluster::ComputeSpec& c = node.profile.compute;
  const double flops = work.flops + work.inference_flops;
  const std::int64_t steps = work.steps;
  const double full = cluster::full_speed_seconds(c, work);
  const double worst = full * max_jitter(c.jitter_cv) * throttle(node.profile);
  if (std::isfinite(worst) && worst <= kMaxDurationSeconds) return;
  diags.error(source_path(sc, node, "compute"),
              job + " takes up to " + format_significant(worst, 3) + " simulated seconds on " +
                  node.profile.name + " (" + format_significant(flops, 3) + " FLOP and " +
                  std::to_string(steps) + " steps at gflops " + format_number(c.gflops) +
                  ", step_overhead_us " + format_number(c.step_overhead_us) +
                  (work.inference_calls > 0
                       ? ", inference at " + format_number(cluster::inference_rate_gflops(c)) +
                             " GFLOP/s, eval_overhead_us " + format_number(c.eval_overhead_us)
                       : std::string()) +
                  ", jitter up to x" + format_significant(max_jitter(c.jitter_cv), 3) +
                  (node.profile.burst
                       ? ", x" + format_significant(throttle(node.profile), 3) + " at its baseline"
                       : std::string()) +
                  "): above the " + kMaxDurationText +
                  " s a simulated duration may take (accepted: compute values for which it takes "
                  "at most " +
                  kMaxDurationText + " s)");
}

void check_transfer(const std::string& path, const std::string& what, double mbps, double workers,
                    double bytes, Diagnostics& diags) {
  const double seconds = workers * bytes * 8.0 / (mbps * 1e6);
  if (std::isfinite(seconds) && seconds <= kMaxDurationSeconds) return;
  diags.error(path, what + " at " + format_number(mbps) + " Mbit/s: " + format_number(workers) +
                        " transfers of up to " + byte_text(bytes) + " sharing it take up to " +
                        format_significant(seconds, 3) + " simulated seconds: above the " +
                        kMaxDurationText +
                        " s a simulated duration may take (accepted: a bandwidth for which they "
                        "take at most " +
                        kMaxDurationText + " s)");
}

void check_durations(const scenario::Scenario& sc, Diagnostics& diags) {
  const bool protocols = any_protocol(sc);
  const ModelCost cost = cached_cost(sc);
  const std::int64_t chunk = max_chunk(sc);
  const IterationWork work = iteration_work(sc.training, cost, chunk);
  const double workers = static_cast<double>(sc.worker_count());
  const std::string job = "an iteration of up to " + std::to_string(chunk) + " samples x " +
                          std::to_string(sc.training.local_epochs) + " local epochs";
  std::set<int> seen;  // one message per worker group
  for (const auto& node : sc.nodes) {
    if (!seen.insert(node.group).second) continue;
    if (node.is_ps()) {
      if (protocols) {
        // An evaluation and an aggregation of every worker's update, as one job: longer than
        // any one PS job is.
        const cluster::TrainingJob ps_work{2.0 * workers * static_cast<double>(cost.params), 0,
                                           test_size(sc) * cost.flops_forward_per_sample, 1};
        check_compute(sc, node, ps_work, "a PS job (evaluation and aggregation)", diags);
      }
    } else {
      check_compute(sc, node, {work.flops, work.steps}, job, diags);
    }
    if (sc.network.topology != "custom") {
      check_transfer(source_path(sc, node, "nic_mbps"),
                     "the link of " + node.host + " (" + node.profile.name + ")",
                     node.profile.nic_mbps, node.is_ps() ? workers : 1.0,
                     std::max(work.chunk_bytes, work.model_bytes), diags);
    }
  }
  for (std::size_t i = 0; i < sc.network.links.size(); ++i) {
    const auto& l = sc.network.links[i];
    if (!l.bandwidth_mbps) continue;
    check_transfer(pointer_append(pointer_append("/network/links", i), "bandwidth_mbps"),
                   "link " + l.a + " - " + l.b, *l.bandwidth_mbps, workers,
                   std::max(work.chunk_bytes, work.model_bytes), diags);
  }
}

}  // namespace

ResourceEstimate estimate_resources(const scenario::Scenario& sc, bool trace) {
  ResourceEstimate e;
  const double w = static_cast<double>(sc.worker_count());
  const bool protocols = any_protocol(sc);
  const ModelCost cost = cached_cost(sc);
  const IterationWork work = iteration_work(sc.training, cost, sc.training.chunk_size);
  if (protocols) {
    const double samples = static_cast<double>(train_size(sc)) + test_size(sc);
    e.dataset_bytes = samples * (4.0 * static_cast<double>(cost.sample_floats) + 1.0);
    e.per_worker_bytes = kParamCopiesPerWorker * 4.0 * static_cast<double>(cost.params) +
                         4.0 * static_cast<double>(max_chunk(sc));
    if (sc.training.chunking == scenario::Chunking::kFixed) {
      e.per_worker_bytes += 4.0 * static_cast<double>(train_size(sc)) / std::max(1.0, w);
    }
    // The worker optimiser's velocity (docs/optimizer.md): one more copy of the parameters.
    if (sc.training.momentum > 0) e.per_worker_bytes += 4.0 * static_cast<double>(cost.params);
  }
  const double round_network_s = kFlowUpdatesPerIterationPerWorker * w * w * kSecondsPerFlowUpdate;
  double run_bytes = 0;
  std::string largest = "no run";
  for (const auto& r : sc.runs) {
    double bytes = 0;
    double seconds = 0;
    if (!scenario::trains(r.protocol)) {
      const double iterations = static_cast<double>(r.demo_iterations);
      const double spans = (sc.outputs.timeline || trace ? 4.0 : 0.0) * w * iterations;
      bytes = spans * kBytesPerSpan * (trace ? 2.0 : 1.0);
      seconds = iterations * round_network_s;
    } else {
      bytes = w * e.per_worker_bytes;
      // E-BSP's barrier placement predicts R pushes of every worker (zipline.h).
      if (r.protocol == scenario::Protocol::kEbsp) bytes += 32.0 * w * r.lookahead;
      // Error feedback keeps each worker's residual, a copy of the parameters (compression.md).
      const int residual = scenario::compression_of(r).error_feedback ? 1 : 0;
      bytes += w * 4.0 * static_cast<double>(cost.params) *
               (scenario::descriptor_of(r.protocol).model_copies_per_worker + residual);
      e.round_flops = w * work.flops + test_size(sc) * cost.flops_forward_per_sample;
      seconds = e.round_flops / kFlopsPerSecond + round_network_s;
    }
    if (bytes > run_bytes) {
      run_bytes = bytes;
      largest = r.name;
    }
    e.hours = std::max(e.hours, seconds / 3600.0);
  }
  e.memory_bytes = e.dataset_bytes + run_bytes;
  e.memory_text = byte_text(e.memory_bytes) + " of memory (";
  if (protocols) {
    e.memory_text += format_number(w) + " workers x " + byte_text(e.per_worker_bytes) + " + " +
                     sc.dataset.name + " " + byte_text(e.dataset_bytes) + "; largest run " +
                     largest + ")";
  } else {
    e.memory_text += "the demo runs' timelines, largest run " + largest + ")";
  }
  e.time_text = "about " + format_significant(e.hours, 2) + " h on one core (";
  if (protocols) {
    e.time_text += format_significant(e.round_flops / 1e12, 3) + " TFLOP per round of " +
                   format_number(w) + " worker iterations at " +
                   format_number(kFlopsPerSecond / 1e9) +
                   " GFLOP/s, plus the network; the largest of a protocol round and a demo run)";
  } else {
    e.time_text += "the demo runs' network: " + format_number(w) + " workers)";
  }
  return e;
}

std::string estimate_text(const ResourceEstimate& e) { return e.memory_text + "; " + e.time_text; }

bool is_large(const ResourceEstimate& e) { return e.memory_bytes > 1e9 || e.hours > 1.0 / 60; }

void check_resources(const scenario::Scenario& sc, const ResourceLimits& limits, bool trace,
                     Diagnostics& diags) {
  // A built-in dataset's chunk was checked as the scenario loaded; an own dataset's size is known
  // once its files were counted (sim/cli: count_own_dataset), before this check.
  if (const auto train = scenario::known_train_size(sc.dataset); train && any_protocol(sc)) {
    const std::string problem =
        scenario::chunk_size_problem(sc.training.chunk_size, *train, sc.dataset.name);
    if (!problem.empty()) diags.error("/training/chunk_size", problem);
  }
  check_durations(sc, diags);
  // Every shard of a sharded PS must hold part of the model (docs/sharding.md).
  if (sc.ps.shards > 1 && any_protocol(sc)) {
    std::vector<std::size_t> params;
    for (const nn::LayerPlan& p : nn::plan_layers(scenario_model_spec(sc))) {
      params.push_back(p.params);
    }
    const std::string problem =
        sharding_problem(params, static_cast<std::size_t>(sc.ps.shards), sc.ps.sharding);
    if (!problem.empty()) {
      diags.error("/cluster/ps/shards",
                  "model " + sc.model.name + " on " + sc.dataset.name + ": " + problem);
    }
  }
  const ResourceEstimate e = estimate_resources(sc, trace);
  if (e.memory_bytes > limits.max_memory_bytes) {
    diags.error("/cluster/workers",
                "estimated " + e.memory_text + " is above the limit of " +
                    byte_text(limits.max_memory_bytes) +
                    " (accepted: fewer workers or iterations, or raise the limit with "
                    "--max-memory " +
                    format_number(std::ceil(e.memory_bytes / 1e9)) + ", in GB)");
  }
  if (e.hours > limits.max_hours) {
    diags.error("/runs", "estimated time " + e.time_text + " is above the limit of " +
                             format_number(limits.max_hours) +
                             " h (accepted: fewer workers, epochs, samples or iterations, or raise "
                             "the limit with --max-hours " +
                             format_number(std::ceil(e.hours)) + ")");
  }
}

}  // namespace hermes::protocols
