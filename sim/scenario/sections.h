// Readers of the scenario's sections (internal to the loader). Each validates its section,
// reports every problem into diags at its JSON pointer, and writes the resolved section (defaults
// filled in) to `out`. A null `value` means the (optional) section is absent.
#pragma once

#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "sim/cluster/profile.h"
#include "sim/config/key_table.h"
#include "sim/config/object_reader.h"
#include "sim/network/network_spec.h"
#include "sim/scenario/link_events.h"
#include "sim/scenario/scenario.h"

namespace hermes::scenario {

// The section readers are written against the configuration reader (sim/config/object_reader.h).
using config::describe_value;
using config::empty_object;
using config::ObjectDecl;
using config::ObjectReader;
using config::Range;

// The declared keys of each object of a scenario (sim/config/key_table.h): the tables its readers
// read with, and that `hermes-sim keys` prints (scenario_keys.h), defined beside each reader.
const ObjectDecl& top_level_decl();          // scenario_loader.cc
const ObjectDecl& cluster_decl();            // cluster_section.cc
const ObjectDecl& node_group_decl(bool ps);  // cluster.ps, cluster.workers[]
const ObjectDecl& prices_decl();             // prices_section.cc
const ObjectDecl& network_decl();            // network_section.cc
const ObjectDecl& link_decl();               // network.links[]
const ObjectDecl& dataset_decl();            // dataset_section.cc
const ObjectDecl& model_decl();              // model_section.cc
const ObjectDecl& layer_decl();              // model.layers[]
const ObjectDecl& outputs_decl();            // outputs_section.cc
const ObjectDecl& training_decl();           // training_section.cc
const ObjectDecl& stop_decl();
const ObjectDecl& run_base_decl();     // runs_section.cc: name and protocol
const ObjectDecl& transfers_decl();    // transfers_section.cc
const ObjectDecl& api_decl();          // api_section.cc
const ObjectDecl& sweep_decl();        // sweep_section.cc
const ObjectDecl& sweep_range_decl();  // sweep.grid.<key> as a range
const ObjectDecl& trace_decl();        // trace_section.cc

// Where the files a scenario names (profiles, prices.file, trace.file) are looked for.
struct FileBase {
  std::string scenario_dir;  // the scenario file's folder, absolute; "" for text in memory
  std::string source_dir;    // hermes-sim's home (the repository or the install's share/)
};

// A file the scenario names, as opened. An absolute path as written; a relative one against the
// scenario's folder if the file is there (`beside_scenario`), else against the home (the shipped
// "scenarios/profiles/azure.json" of every scenario). `tried` names the places, for a message of
// a file that is in neither.
struct ResolvedFile {
  std::string path;
  bool beside_scenario = false;
  std::string tried;
};
ResolvedFile resolve_scenario_file(const std::string& written, const FileBase& base);
// "cannot load the <what> '<written>' (resolved to <path>[; <tried>])".
std::string cannot_load_text(const std::string& what, const std::string& written,
                             const ResolvedFile& file);
// A file's "sha256" key (`recorded`, may be null) against the SHA-256 of its bytes (`actual`):
// an error at the key if it is no string or another digest (the file changed since it was
// recorded). `what` names the file in the message ("trace", "price list").
void check_recorded_sha256(ObjectReader& r, const Json* recorded, const std::string& what,
                           const std::string& file, const std::string& actual);

struct ClusterResult {
  // PS first, then the workers, then the PS's other shards; nodes with an unknown profile are
  // placeholders.
  std::vector<NodeSpec> nodes;
  PsSharding ps;
  bool hosts_known = true;  // false if the host list itself is unreliable (bad count, ...)
  // Groups whose profile was not found (-1: the PS), already reported: their nodes are not priced.
  std::vector<int> unknown_profile_groups;
};

// `catalog` may be null (it failed to load): profiles are then not looked up.
ClusterResult read_cluster(const Json* value, const cluster::ProfileCatalog* catalog,
                           const std::string& catalog_label, Diagnostics& diags, Json& out);

// "prices" (null: absent, the shipped list): loads the price list, applies the section's overrides
// and gives every node of `cluster` the hourly price of its pricing tier; a group whose tier has no
// price is reported at its "pricing" key. `catalog` (may be null) resolves the overrides' profile
// names. Records the list's file and SHA-256 in `out`.
PricesSpec read_prices(const Json* value, const FileBase& base,
                       const cluster::ProfileCatalog* catalog, ClusterResult& cluster,
                       Diagnostics& diags, Json& out);

// Returns false if the section had errors (the spec is then incomplete).
bool read_network(const Json* value, Diagnostics& diags, Json& out, network::NetworkSpec& spec);

DatasetSpec read_dataset(const Json* value, Diagnostics& diags, Json& out);
// "model": a preset or a layer list, checked against `dataset`'s samples and classes (after the
// dataset section; `dataset_ok` false: the dataset had errors, the shapes are not checked).
ModelSpec read_model(const Json* value, const DatasetSpec& dataset, bool dataset_ok,
                     Diagnostics& diags, Json& out);
// The "accounting" preset gives the defaults of the released code's switches.
TrainingSpec read_training(const Json* value, Accounting accounting, Diagnostics& diags, Json& out);
std::vector<RunSpec> read_runs(const Json* value, Diagnostics& diags, Json& out);
ApiSpec read_api(const Json* value, Accounting accounting, Diagnostics& diags, Json& out);
// `dataset` picks the measured gzip ratio of the released code's chunks.
TransferSpec read_transfers(const Json* value, Accounting accounting, const std::string& dataset,
                            Diagnostics& diags, Json& out);
OutputSpec read_outputs(const Json* value, Diagnostics& diags, Json& out);
// `value` must be non-null (the section is optional and has no defaults to fill in).
std::optional<SweepSpec> read_sweep(const Json& value, Diagnostics& diags, Json& out);

// A slowdown or an outage as declared, with where to report a problem of it (check_slowdowns,
// check_outages).
template <typename Spec>
struct Declared {
  Spec spec;
  std::string node_path;  // JSON pointer for a bad node: /events/3/node, or /trace/file
  std::string item_path;  // JSON pointer for an overlap: /events/3, or /trace/file
  std::string prefix;     // message prefix: "" for events, "<file>: line 4: " for trace rows
};
using DeclaredSlowdown = Declared<SlowdownSpec>;
using DeclaredOutage = Declared<OutageSpec>;

// What "events" and "trace" declare, in file order.
struct DeclaredEvents {
  std::vector<DeclaredSlowdown> slowdowns;
  std::vector<DeclaredOutage> outages;
  std::vector<DeclaredLinkFault> link_faults;
};

// "events" (must be non-null): the list of scheduled events (slowdown, crash, eviction, link),
// read by the one events reader (event_reader.h).
DeclaredEvents read_events(const Json& value, Diagnostics& diags, Json& out);
// "trace" (must be non-null): {"file": ...}; reads the CSV and appends its rows to `events`.
// `base` resolves a relative file like "profiles".
std::optional<TraceSpec> read_trace(const Json& value, const FileBase& base, Diagnostics& diags,
                                    Json& out, DeclaredEvents& events);
// Every slowdown names an existing host (when the host list is reliable) and no two of one node
// overlap, events and trace rows together.
void check_slowdowns(const std::vector<DeclaredSlowdown>& slowdowns,
                     const std::vector<NodeSpec>& nodes, bool hosts_known, Diagnostics& diags);
// Every outage names an existing worker and no two of one node overlap (an eviction from its
// notice on). Returns them sorted by node (host order) then start.
std::vector<OutageSpec> check_outages(const std::vector<DeclaredOutage>& outages,
                                      const std::vector<NodeSpec>& nodes, bool hosts_known,
                                      Diagnostics& diags);
// By node (host order), then start.
void sort_outages(std::vector<OutageSpec>& outages, const std::vector<NodeSpec>& nodes);
// "availability" (must be non-null); its models' "nodes" are resolved against `nodes` (when the
// host list is reliable).
AvailabilitySpec read_availability(const Json& value, const std::vector<NodeSpec>& nodes,
                                   bool hosts_known, Diagnostics& diags, Json& out);
// The outages of every model up to `horizon` (the run's max_sim_time), from the scenario's seed.
// A worker that a model selects may have no declared outage and no other model.
std::vector<OutageSpec> draw_model_outages(const AvailabilitySpec& availability,
                                           const std::vector<DeclaredOutage>& declared,
                                           std::uint64_t seed, engine::SimTime horizon,
                                           const std::vector<NodeSpec>& nodes, Diagnostics& diags);

}  // namespace hermes::scenario
