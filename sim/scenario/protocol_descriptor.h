// What makes each protocol a protocol, as everything outside its algorithm sees it: its name in
// scenario files and summary.csv, its enum value, the paper that defines it, its traits (does it
// train, does it take outages, is it one of the Hermes paper's baselines, does it apply updates on
// arrival, are speedups measured against it) and its own run parameters. Each protocol's is in
// its own file, sim/scenario/protocol_<name>.cc, registered by its line in protocols.def.
// Validation, run names, the run parameters (run_params.h: its own, and the shared keys its
// traits give it), the outage check, the speedup baseline of summary.csv, `compare` and sweeps,
// the demo's special cases and the protocols table of scenarios/README.md read it from here; its
// algorithm is found through sim/protocols/registry.cc.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/run_params.h"
#include "sim/scenario/scenario.h"

namespace hermes::scenario {

struct ProtocolTraits {
  // Runs the training math on the dataset (false: the demo, which only times chunks and pushes).
  bool trains = true;
  // Takes crashes and evictions of workers and of the PS (the run can say what a departure
  // means: it waits for the worker no more, and restarts from the PS's checkpoint).
  bool takes_outages = true;
  // One of the baselines of the Hermes paper (BSP, ASP, SSP, E-BSP): takes their shared keys
  // (dynamic_allocation default false, update_unit, steps_per_update).
  bool paper_baseline = false;
  // The PS evaluates the global model once evaluate_every updates are in since its last
  // evaluation (the baselines, SelSync): takes that key. (Hermes evaluates at its major updates.)
  bool evaluates_by_update_count = false;
  // Applies each update when it arrives, without a barrier: takes the server step
  // (async_update, server_lr).
  bool applies_on_arrival = false;
  // summary.csv's speedup_vs_bsp, `compare` and sweeps measure speedups against the first run of
  // this protocol that converged (one protocol has it: BSP).
  bool speedup_reference = false;
};

// A run parameter that its range alone cannot judge (run_params.h checks those): its key and why.
struct RunProblem {
  std::string key;
  std::string message;
};

struct ProtocolDescriptor {
  Protocol id{};
  std::string_view name;    // in scenario files, run names and summary.csv
  std::string_view label;   // in messages and tables ("BSP")
  std::string_view source;  // the paper that defines it, for the docs table
  ProtocolTraits traits{};
  // Buffers of the model's size its algorithm keeps per worker beyond the skeleton's, for the
  // memory estimate (sim/protocols/skeleton/resources.cc): SelSync's gradient of the step.
  int model_copies_per_worker = 0;
  // Its own run parameters (in the run object beside "protocol"); the keys shared by a kind of
  // protocol come with its traits (run_params.cc). Their `protocols` is left empty.
  std::vector<RunParam> params{};
  // Checks of its parameters against the cluster they run on (hybrid's groups must partition
  // its `workers` workers), before anything runs; null: none.
  std::vector<RunProblem> (*check_run)(const RunSpec& run, std::size_t workers) = nullptr;
};

// Each protocol's descriptor, defined in sim/scenario/protocol_<name>.cc.
#define HERMES_PROTOCOL(id, name) ProtocolDescriptor describe_##name();
#include "sim/scenario/protocols.def"
#undef HERMES_PROTOCOL

// Every protocol, in enum order.
std::span<const ProtocolDescriptor> protocol_descriptors();
const ProtocolDescriptor& descriptor_of(Protocol protocol);
// Whether runs of `protocol` run the training math (not the demo).
inline bool trains(Protocol protocol) { return descriptor_of(protocol).traits.trains; }
// The descriptor named `name` in scenario files, or nullptr.
const ProtocolDescriptor* find_protocol(std::string_view name);
// The protocol speedups are measured against (BSP).
const ProtocolDescriptor& speedup_reference();

using ProtocolTrait = bool ProtocolTraits::*;
// The protocols with `trait`, as a ProtocolSet bit mask (run_params.h) and as "bsp, asp, ..."
// for messages.
unsigned protocols_with(ProtocolTrait trait);
std::string protocol_names_with(ProtocolTrait trait);

// The protocols table of scenarios/README.md ("runs"), in Markdown.
std::string protocols_table();

}  // namespace hermes::scenario
