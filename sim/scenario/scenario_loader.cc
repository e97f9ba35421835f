// Top level of a scenario: reading the file, applying --set, loading the profile catalog, and
// handing each section to its reader (sections.h).
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <string>

#include "sim/config/object_reader.h"
#include "sim/scenario/json_text.h"
#include "sim/scenario/protocol_descriptor.h"
#include "sim/scenario/run_names.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/sections.h"
#include "sim/scenario/set_overrides.h"

namespace hermes::scenario {

namespace {

std::uint64_t read_seed(ObjectReader& r) {
  const Json* seed = r.accept("seed");
  if (seed == nullptr) {
    r.out()["seed"] = defaults::kSeed;
    return defaults::kSeed;
  }
  if (seed->is_number_unsigned()) {
    r.out()["seed"] = *seed;
    return seed->get<std::uint64_t>();
  }
  // "-0" parses as a signed integer 0: it is the seed 0, recorded as 0.
  if (seed->is_number_integer() && seed->get<std::int64_t>() == 0) {
    r.out()["seed"] = std::uint64_t{0};
    return 0;
  }
  const std::string accepted =
      "an integer in [0, " + std::to_string(std::numeric_limits<std::uint64_t>::max()) + "]";
  if (seed->is_number_integer()) {
    r.error("seed", "out of range (accepted: " + accepted + "; got " + seed->dump() + ")");
  } else {
    r.wrong_type("seed", accepted, *seed);
  }
  return defaults::kSeed;
}

// Loads the catalog named by the scenario unless the caller supplied one.
const cluster::ProfileCatalog* obtain_catalog(const std::string& written,
                                              const ResolvedFile& resolved,
                                              const cluster::ProfileCatalog* supplied,
                                              std::optional<cluster::ProfileCatalog>& storage,
                                              Diagnostics& diags) {
  if (supplied != nullptr) return supplied;
  try {
    storage = cluster::ProfileCatalog::load(resolved.path);
    return &*storage;
  } catch (const std::exception& e) {
    std::string detail = e.what();
    while (!detail.empty() && detail.back() == '\n') detail.pop_back();
    diags.error("/profiles",
                cannot_load_text("profile catalog", written, resolved) + ":\n" + detail);
    return nullptr;
  }
}

// check_network_spec reports a problem of hosts[i] (i >= 1) at /cluster/workers/<i-1>, as if
// every group held one worker. Groups have a count, so map each such path to the group the host
// was expanded from (the message names the host itself, e.g. "w5").
std::string group_path_of_host(const std::string& path, const std::vector<NodeSpec>& nodes) {
  const std::string prefix = "/cluster/workers/";
  if (path.rfind(prefix, 0) != 0) return path;
  const std::size_t end = path.find('/', prefix.size());
  const std::string digits = path.substr(prefix.size(), end - prefix.size());
  std::size_t host = 0;
  const auto res = std::from_chars(digits.data(), digits.data() + digits.size(), host);
  if (res.ec != std::errc() || res.ptr != digits.data() + digits.size()) return path;
  host += 1;  // hosts[0] is the PS
  if (host >= nodes.size()) return path;
  const std::string rest = end == std::string::npos ? std::string() : path.substr(end);
  // A sharded PS's other shards come after the workers (docs/sharding.md).
  if (nodes[host].is_ps()) return "/cluster/ps" + rest;
  return prefix + std::to_string(nodes[host].group) + rest;
}

void check_network(const network::NetworkSpec& spec, const std::vector<NodeSpec>& nodes,
                   Diagnostics& diags) {
  Diagnostics found;
  network::check_network_spec(spec, network_hosts(nodes), "/network", found, "/cluster");
  for (const auto& d : found.items()) {
    diags.error(group_path_of_host(d.json_path, nodes), d.message);
  }
}

}  // namespace

const ObjectDecl& top_level_decl() {
  using config::KeyType;
  const auto section = [](const char* key, KeyType type, const char* fallback, const char* help) {
    return config::KeyDecl{.key = key, .type = type, .default_text = fallback, .help = help};
  };
  static const ObjectDecl decl{
      "",
      {{.key = "name",
        .type = KeyType::kString,
        .default_text = "required",
        .accepted = std::string(kNameRule),
        .help = "the scenario's name; it names output directories"},
       {.key = "description",
        .type = KeyType::kString,
        .default_text = "\"\"",
        .help = "what the scenario is for"},
       {.key = "seed",
        .type = KeyType::kInteger,
        .default_text = "1",
        .accepted = "0 .. 2^64-1",
        .help = "seeds the simulation's random streams"},
       {.key = "profiles",
        .type = KeyType::kString,
        .default_text = std::string(kDefaultCatalog),
        .accepted = "a path: absolute, beside the scenario, else in the home",
        .help = "the node profile catalog"},
       {.key = "accounting",
        .type = KeyType::kChoice,
        .default_text = "clean",
        .choices = {"clean", "released-code"},
        .help = "what a run charges and counts: the defaults of the released code's switches"},
       section("cluster", KeyType::kObject, "required", "the PS and the worker groups"),
       section("prices", KeyType::kObject, "the shipped price list",
               "what an hour of a node costs"),
       section("network", KeyType::kObject, "a star", "the network between the hosts"),
       section("dataset", KeyType::kObject, "{}", "the dataset"),
       section("model", KeyType::kObject, "{}", "the model"),
       section("training", KeyType::kObject, "{}", "settings shared by every run"),
       section("runs", KeyType::kArray, "required", "the runs, one per protocol configuration"),
       section("transfers", KeyType::kObject, "{}", "the bytes chunks, updates and models take"),
       section("api", KeyType::kObject, "{}", "how the PS's API calls are counted"),
       section("outputs", KeyType::kObject, "{}", "what a run writes"),
       section("sweep", KeyType::kObject, "none", "the grid of hermes-sim sweep"),
       section("events", KeyType::kArray, "none",
               "scheduled slowdowns, link faults, crashes and evictions (scenarios/README.md, "
               "\"events\")"),
       section("trace", KeyType::kObject, "none", "a CSV file of slowdowns and outages"),
       section("availability", KeyType::kObject, "none",
               "crash detection and outage models (scenarios/README.md, \"availability\")")}};
  return decl;
}

ResolvedFile resolve_scenario_file(const std::string& written, const FileBase& base) {
  namespace fs = std::filesystem;
  const fs::path p(written);
  if (p.is_absolute()) return {p.lexically_normal().string(), false, ""};
  std::string tried;
  if (!base.scenario_dir.empty()) {
    const fs::path beside = (fs::path(base.scenario_dir) / p).lexically_normal();
    std::error_code ec;
    if (fs::exists(beside, ec)) return {beside.string(), true, ""};
    tried = "not beside the scenario as " + beside.string();
  }
  const fs::path home = base.source_dir.empty()
                            ? p.lexically_normal()
                            : (fs::path(base.source_dir) / p).lexically_normal();
  if (!tried.empty()) tried += ", then in hermes-sim's home";
  return {home.string(), false, tried};
}

std::string cannot_load_text(const std::string& what, const std::string& written,
                             const ResolvedFile& file) {
  return "cannot load the " + what + " '" + written + "' (resolved to " + file.path +
         (file.tried.empty() ? "" : "; " + file.tried) + ")";
}

void check_recorded_sha256(ObjectReader& r, const Json* recorded, const std::string& what,
                           const std::string& file, const std::string& actual) {
  if (recorded == nullptr) return;
  if (!recorded->is_string()) {
    r.wrong_type("sha256", "a string (the " + what + "'s SHA-256, 64 hex digits)", *recorded);
  } else if (recorded->get<std::string>() != actual) {
    r.error("sha256", "the " + what + " " + file + " has SHA-256 " + actual + ", not the " +
                          recorded->get<std::string>() +
                          " recorded here: the file changed since (remove the key to accept it)");
  }
}

std::optional<std::int64_t> known_train_size(const DatasetSpec& dataset) {
  if (dataset.files.train_size > 0) return dataset.files.train_size;
  return std::nullopt;
}

std::string chunk_size_problem(std::int64_t chunk_size, std::int64_t train_size,
                               const std::string& dataset) {
  if (chunk_size <= train_size) return "";
  return "out of range (accepted: chunk_size in [1, " + std::to_string(train_size) + "], the " +
         std::to_string(train_size) + " training samples of " + dataset + "; got " +
         std::to_string(chunk_size) + ")";
}

std::optional<Scenario> check_scenario_text(std::string_view text,
                                            const std::vector<std::string>& set_overrides,
                                            const std::string& source_dir, Diagnostics& diags,
                                            const cluster::ProfileCatalog* catalog,
                                            const std::string& scenario_dir) {
  const FileBase files{scenario_dir, source_dir};
  const std::size_t errors_before = diags.count();
  auto doc = parse_json_text(text, diags);
  if (!doc) return std::nullopt;
  if (!doc->is_object()) {
    diags.error("", "a scenario is a JSON object, got " + describe_value(*doc));
    return std::nullopt;
  }
  apply_set_overrides(*doc, set_overrides, diags);

  Scenario s;
  Json out = Json::object();
  ObjectReader root(*doc, "", diags, out, top_level_decl());

  if (const auto name = root.string("name", std::nullopt)) {
    if (is_valid_name(*name)) {
      s.name = *name;
    } else {
      root.error("name", "invalid scenario name '" + *name +
                             "' (accepted: " + std::string(kNameRule) + ")");
    }
  }
  if (const Json* description = root.accept("description")) {
    if (description->is_string()) {
      s.description = description->get<std::string>();
      out["description"] = *description;
    } else {
      root.wrong_type("description", "a string", *description);
    }
  }
  s.seed = read_seed(root);

  const auto catalog_written = root.string("profiles", std::string(kDefaultCatalog));
  std::optional<cluster::ProfileCatalog> loaded_catalog;
  const cluster::ProfileCatalog* used_catalog = nullptr;
  if (catalog_written) {
    const ResolvedFile resolved = resolve_scenario_file(*catalog_written, files);
    s.catalog_path = resolved.path;
    // Found beside the scenario: recorded by its absolute path, so that the resolved document
    // (a run directory's scenario.json) loads the same catalog from wherever it is.
    if (resolved.beside_scenario) out["profiles"] = resolved.path;
    used_catalog = obtain_catalog(*catalog_written, resolved, catalog, loaded_catalog, diags);
  }

  // Read before the sections whose defaults it sets (training, transfers, api).
  if (root.choice("accounting", {"clean", "released-code"}, "clean").value_or("clean") ==
      "released-code") {
    s.accounting = Accounting::kReleasedCode;
  }

  ClusterResult cluster = read_cluster(root.accept("cluster"), used_catalog,
                                       catalog_written.value_or("?"), diags, out["cluster"]);
  // Priced before anything runs: a tier without a price is an error like any other.
  s.prices = read_prices(root.accept("prices"), files, used_catalog, cluster, diags, out["prices"]);
  const bool network_ok = read_network(root.accept("network"), diags, out["network"], s.network);
  // Only a well-formed network over a known host list is worth checking: otherwise every
  // consequence of an earlier mistake would be reported again as a network problem.
  if (network_ok && cluster.hosts_known) {
    check_network(s.network, cluster.nodes, diags);
  }
  s.nodes = std::move(cluster.nodes);
  s.ps = cluster.ps;
  const std::size_t errors_before_dataset = diags.count();
  s.dataset = read_dataset(root.accept("dataset"), diags, out["dataset"]);
  s.model = read_model(root.accept("model"), s.dataset, diags.count() == errors_before_dataset,
                       diags, out["model"]);
  s.training = read_training(root.accept("training"), s.accounting, diags, out["training"]);
  // A chunk is drawn from the training set: one larger than it cannot be (the run would stop at
  // its start; here the file and path are named before anything runs).
  if (const auto train = known_train_size(s.dataset)) {
    const std::string problem = chunk_size_problem(s.training.chunk_size, *train, s.dataset.name);
    if (!problem.empty()) diags.error("/training/chunk_size", problem);
  }
  s.runs = read_runs(root.accept("runs"), diags, out["runs"]);
  s.transfers = read_transfers(root.accept("transfers"), s.accounting, s.dataset.name, diags,
                               out["transfers"]);
  s.api = read_api(root.accept("api"), s.accounting, diags, out["api"]);
  s.outputs = read_outputs(root.accept("outputs"), diags, out["outputs"]);
  if (const Json* sweep = root.accept("sweep")) s.sweep = read_sweep(*sweep, diags, out["sweep"]);
  // Written to the resolved document only when present: a scenario without them stays
  // byte-identical to before they existed.
  DeclaredEvents events;
  if (const Json* list = root.accept("events")) events = read_events(*list, diags, out["events"]);
  if (const Json* trace = root.accept("trace")) {
    s.trace = read_trace(*trace, files, diags, out["trace"], events);
  }
  if (const Json* availability = root.accept("availability")) {
    s.availability =
        read_availability(*availability, s.nodes, cluster.hosts_known, diags, out["availability"]);
  }
  check_slowdowns(events.slowdowns, s.nodes, cluster.hosts_known, diags);
  for (auto& d : events.slowdowns) s.slowdowns.push_back(std::move(d.spec));
  s.outages = check_outages(events.outages, s.nodes, cluster.hosts_known, diags);
  if (!s.availability.models.empty() && diags.count() == errors_before) {
    auto drawn = draw_model_outages(s.availability, events.outages, s.seed,
                                    s.training.stop.max_sim_time, s.nodes, diags);
    s.outages.insert(s.outages.end(), drawn.begin(), drawn.end());
    sort_outages(s.outages, s.nodes);
  }
  // A protocol without the trait (the demo) has nothing to say what a departure means.
  for (std::size_t i = 0; i < s.runs.size() && !s.outages.empty(); ++i) {
    const ProtocolDescriptor& d = descriptor_of(s.runs[i].protocol);
    if (!d.traits.takes_outages) {
      diags.error("/runs/" + std::to_string(i) + "/protocol",
                  "a " + std::string(d.name) + " run takes no crash or eviction (" +
                      s.outages.front().origin + ") (accepted with outages: " +
                      protocol_names_with(&ProtocolTraits::takes_outages) + ")");
    }
  }
  // The demo's timeline draws one PS (docs/sharding.md).
  for (std::size_t i = 0; i < s.runs.size() && s.ps.shards > 1; ++i) {
    if (!trains(s.runs[i].protocol)) {
      diags.error("/runs/" + std::to_string(i) + "/protocol",
                  "a " + std::string(protocol_name(s.runs[i].protocol)) +
                      " run draws one PS, not " + std::to_string(s.ps.shards) +
                      " shards (accepted: cluster.ps.shards 1 with it)");
    }
  }
  // What a run's parameters mean on this cluster (hybrid's sync groups): for a run whose
  // parameters were read without error (a refused value is read as its default, which would be
  // judged instead of what the file says).
  for (std::size_t i = 0; i < s.runs.size() && cluster.hosts_known; ++i) {
    const ProtocolDescriptor& d = descriptor_of(s.runs[i].protocol);
    const std::string path = "/runs/" + std::to_string(i);
    const bool refused =
        std::any_of(diags.items().begin(), diags.items().end(), [&](const auto& e) {
          return e.json_path == path || e.json_path.rfind(path + "/", 0) == 0;
        });
    if (d.check_run == nullptr || refused) continue;
    for (const RunProblem& p : d.check_run(s.runs[i], s.worker_count())) {
      diags.error(path + "/" + p.key, p.message);
    }
  }
  check_link_faults(events.link_faults, s.nodes, s.network, cluster.hosts_known, diags);
  for (auto& d : events.link_faults) s.link_faults.push_back(std::move(d.fault));
  root.finish();

  if (diags.count() != errors_before) return std::nullopt;
  s.document = std::move(out);
  return s;
}

std::optional<Scenario> check_scenario(const std::string& path,
                                       const std::vector<std::string>& set_overrides,
                                       const std::string& source_dir, Diagnostics& diags) {
  const std::string previous_file = diags.file();
  diags.set_file(path);
  std::optional<Scenario> result;
  if (const auto text = read_text_file(path, diags)) {
    // The folder the scenario's relative file names are looked for in first.
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::absolute(path, ec).parent_path();
    result = check_scenario_text(*text, set_overrides, source_dir, diags, nullptr,
                                 ec ? std::string() : dir.lexically_normal().string());
  }
  diags.set_file(previous_file);
  return result;
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& set_overrides,
                       const std::string& source_dir) {
  Diagnostics diags(path);
  auto scenario = check_scenario(path, set_overrides, source_dir, diags);
  diags.throw_if_errors();
  if (!scenario) throw InputError(path + ": invalid scenario");
  return std::move(*scenario);
}

}  // namespace hermes::scenario
