// A scenario: one cluster, one network, one dataset/model/training setup, and a list of runs
// (protocols) to execute on it. Loaded from JSON (schema: scenarios/README.md), with command-line
// `--set key.path=value` overrides applied before validation. Validation reports every problem
// of a file in one pass (file + JSON pointer + what is accepted); a Scenario exists only if the
// document had none.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/diagnostics.h"
#include "models/data/data_dir.h"
#include "models/nn/model_spec.h"
#include "sim/cluster/outage_kind.h"
#include "sim/cluster/outage_process.h"
#include "sim/cluster/prices.h"
#include "sim/cluster/profile.h"
#include "sim/engine/sim_time.h"
#include "sim/network/network_spec.h"
#include "sim/policies/gup_defaults.h"
#include "sim/policies/ps_sharding.h"

namespace hermes::scenario {

using Json = nlohmann::ordered_json;

// Catalog used when a scenario has no "profiles" key, relative to the repository root.
inline constexpr std::string_view kDefaultCatalog = "scenarios/profiles/azure.json";
// Price list used when a scenario's "prices" section names none, likewise.
inline constexpr std::string_view kDefaultPriceList = "scenarios/profiles/azure-prices.json";

// Defaults of the Hermes reference (summarised in docs/paper.md) and of this schema.
// Hermes' GUP defaults (alpha, beta, lambda, window) are the policy's own
// (sim/policies/gup_defaults.h). How each run parameter is read, named and reported:
// sim/scenario/run_params.h.
namespace defaults {
inline constexpr std::uint64_t kSeed = 1;
inline constexpr double kStarLatencyUs = 100;
inline constexpr double kLinkLatencyUs = 100;
inline constexpr double kLearningRate = 0.1;
inline constexpr int kBatchSize = 16;
inline constexpr int kLocalEpochs = 5;
inline constexpr int kChunkSize = 2500;
inline constexpr double kTrainFraction = 0.85;
inline constexpr int kPatience = 25;
inline constexpr double kMaxSimTimeS = 36000;  // 10 simulated hours: beyond every paper run
inline constexpr std::int64_t kMaxIterations = 200000;
// A run whose last loss is above this many times its best is reported as diverged: its loss kept
// rising until patience ran out, so its best-loss accuracy and time are no converged result. Loss
// noise around a plateau stays far below 2x (the paper's BSP and Hermes runs end within a few
// percent of their best); a run that learned nothing since its first evaluations ends far above.
inline constexpr double kDivergenceFactor = 2;
inline constexpr int kStaleness = 125;  // the paper's SSP s
inline constexpr int kLookahead = 150;  // the paper's E-BSP R
inline constexpr int kDemoIterations = 10;
inline constexpr bool kTimeline = true;
// Control-plane calls (the "api" section): see scenarios/README.md for the calibration.
inline constexpr double kPollIntervalMs = 1.0;
inline constexpr int kFlagsPerIteration = 1;
inline constexpr int kLogsPerIteration = 1;
// The released code's requests (docs/released-code.md): per minor and per major worker
// iteration, and on the master per major update (GET_GRADIENTS, RESET_NODE_GRADIENTS).
inline constexpr int kMinorIterationRequests = 18;
inline constexpr int kMajorIterationRequests = 25;
inline constexpr int kMasterRequestsPerUpdate = 2;
// The master's IS_GRADIENT_PRESENT loop, calibrated to the paper's BSP row: 18.9 M calls in
// 105.38 min; its 9600 updates cost 9600 x (25 + 2) = 0.26 M requests, so the loop made
// (18.9 M - 0.26 M) / 6322.8 s = 2948 requests per second (scenarios/README.md, "api").
inline constexpr double kMasterPollRatePerS = 2948;
// The released code's PS sleeps 2 s before it sends a chunk (HermesMaster.doTasks).
inline constexpr double kReleasedChunkDelayS = 2;
// A crashed worker is missed after this long without its heartbeat (docs/churn.md).
inline constexpr double kDetectionS = 10;
// Azure gives a Spot VM 30 s notice of its eviction (Scheduled Events, "Preempt").
inline constexpr double kEvictionNoticeS = 30;
}  // namespace defaults

// Upper bounds checked by validation (scenarios/README.md, "Limits"), far above every scenario of
// the paper: beyond them a run would not fit in memory or not end in a lifetime. Memory and math
// as a whole are estimated and bounded with limits the user can raise
// (sim/protocols/skeleton/resources.h).
namespace limits {
inline constexpr int kMaxWorkers = 10000;     // in all worker groups together
inline constexpr int kMaxPsShards = 64;       // parameter-server shards (cluster.ps.shards)
inline constexpr int kMaxLocalEpochs = 1000;  // the reference uses 5
inline constexpr int kMaxLookahead = 10000;   // E-BSP's R; the paper uses 150
inline constexpr int kMaxWindow = 100000;     // Hermes' z-score window; the reference uses 10
inline constexpr int kMaxDemoIterations = 1000000;
}  // namespace limits

// One machine of the cluster after its profile was looked up and its overrides applied.
struct NodeSpec {
  std::string host;              // "ps" for the parameter server, "w0".."w{n-1}" for workers
  cluster::NodeProfile profile;  // catalog entry with the scenario's overrides applied
  int group = -1;                // index into cluster.workers it expanded from; -1 for the PS
  cluster::PricingTier pricing = cluster::PricingTier::kPayAsYouGo;  // its group's "pricing"
  double price_per_hour = 0;  // USD per allocated hour in its tier (the "prices" section)
  bool is_ps() const { return group < 0; }
};

// The PS's shards (cluster.ps.shards, cluster.ps.sharding; docs/sharding.md): shard 0 is node
// "ps", the others "ps1".."ps{S-1}", appended after the workers.
struct PsSharding {
  int shards = 1;
  protocols::Sharding sharding = protocols::Sharding::kBytes;
};

struct DatasetSpec {
  std::string name = "mnist";  // mnist | fashion-mnist | cifar10, or the scenario's own name
  // Its description: a built-in dataset's entry (models/data/data_dir.h), or the scenario's own
  // files, format, sample shape and classes (docs/data.md, "Your own dataset").
  data::DatasetFiles files = data::dataset_files("mnist");
};

// The training-set size of a built-in dataset (its official files), or of a scenario's own dataset
// once its files were counted (sim/cli: count_own_dataset); nullopt before that.
std::optional<std::int64_t> known_train_size(const DatasetSpec& dataset);

// Why a chunk of `chunk_size` samples cannot be drawn from the `train_size` training samples of
// `dataset` ("out of range (accepted: chunk_size in [1, 60000], ...)"), the message at
// /training/chunk_size; "" if it can.
std::string chunk_size_problem(std::int64_t chunk_size, std::int64_t train_size,
                               const std::string& dataset);

struct ModelSpec {
  // A preset (mlp | cnn, models/nn/zoo.h) or the name of the scenario's own layer list.
  std::string name = "mlp";
  // The layer list ("model.layers", "classes" resolved to the dataset's class count); empty for a
  // preset, whose layers follow the dataset (nn::model_spec).
  std::vector<nn::LayerSpec> layers;
  nn::Init init = nn::Init::kGlorotUniform;
  bool is_preset() const { return layers.empty(); }
};

// What the run charges and counts (the top-level "accounting" key): the defaults of the
// "transfers" section, of api.counting and of the released code's quirks in "training" follow it.
enum class Accounting {
  kClean,         // the algorithms as specified, with the simulator's own cost model
  kReleasedCode,  // what the authors' code (DaSH-Lab-CSIS/Hermes) does around them
};

// The order in which a worker's local epochs visit its chunk's training part.
enum class EpochOrder {
  kReshuffle,  // a new permutation every epoch (without-replacement SGD, the textbook's)
  kFixed,      // the chunk's own order every epoch (the released code's loop)
};

// Which iteration times give the dynamic allocation's frozen median T_med.
enum class TMedRule {
  kFirstTimes,   // each worker's first reported time (docs/paper.md, "Hermes")
  kLatestTimes,  // every worker's latest time when the last one first reports (the released code)
};

// Which accuracy a run reports.
enum class ReportedAccuracy {
  kBestLoss,           // at the evaluation with the best loss, the first evaluation included
  kBestLossAfterFirst  // the released code: the first evaluation sets the best loss but no
                       // accuracy (it starts at 0); a later one at or below the best sets both
};

enum class Chunking {
  kRandom,  // every chunk is a fresh random sample of the training set (the reference)
  kFixed,   // each worker walks its own contiguous part of the training set (no shuffle)
};

// What training.stop.patience counts (scenarios/README.md, "The stop rule").
enum class PatienceUnit {
  kEvaluations,  // global evaluations without a new best loss (the reference)
  kRounds,       // rounds: n applied updates for n workers, one barrier for BSP
  kSeconds,      // simulated seconds
};

struct StopSpec {
  int patience = defaults::kPatience;  // in patience_unit, without a new best global loss
  PatienceUnit patience_unit = PatienceUnit::kEvaluations;
  engine::SimTime max_sim_time = engine::from_seconds(defaults::kMaxSimTimeS);
  // Caps updates applied by the PS (RunResult::updates, the paper's "iterations"), checked after
  // each aggregation: a BSP round may overshoot it (docs/glossary.md).
  std::int64_t max_iterations = defaults::kMaxIterations;
  double divergence_factor = defaults::kDivergenceFactor;  // see defaults::kDivergenceFactor
  ReportedAccuracy reported_accuracy = ReportedAccuracy::kBestLoss;
};

struct TrainingSpec {
  double learning_rate = defaults::kLearningRate;
  // The worker optimiser's momentum and weight decay (docs/optimizer.md); 0 and 0: plain SGD.
  double momentum = 0;
  double weight_decay = 0;
  int batch_size = defaults::kBatchSize;
  int local_epochs = defaults::kLocalEpochs;
  int chunk_size = defaults::kChunkSize;             // initial samples per worker per iteration
  double train_fraction = defaults::kTrainFraction;  // first part of a chunk trains, rest tests
  Chunking chunking = Chunking::kRandom;
  EpochOrder epoch_order = EpochOrder::kReshuffle;
  bool drop_first_row = false;  // the released code trains on a chunk's training part but its row 0
  TMedRule t_med = TMedRule::kFirstTimes;
  StopSpec stop;
};

// The protocols (sim/scenario/protocols.def; their descriptors: protocol_descriptor.h).
enum class Protocol {
#define HERMES_PROTOCOL(id, name) k##id,
#include "sim/scenario/protocols.def"
#undef HERMES_PROTOCOL
};

// How the asynchronous baselines (asp, ssp, ebsp) apply an update that arrives at the PS: the
// server step (scenarios/README.md, "The server step", gives the source of each).
enum class AsyncUpdate {
  kAdd,       // w += delta: the worker's whole model change, the literal "apply on arrival"
  kAverage,   // w += delta / n: the weight one update has in BSP's average of n workers
  kServerLr,  // w -= server_lr * (sum of the update's gradients) = w + (server_lr / lr) delta
};

// What one push of a baseline carries (RunSpec::update_unit).
enum class UpdateUnit {
  kChunk,  // the whole chunk: local_epochs of mini-batch SGD, then one push (the Hermes setup)
  kSteps,  // steps_per_update mini-batches of the chunk, then a push and a pull (per-step PS)
};

enum class HermesVariant {
  kReference,  // the released code's quirks: cumulative S_i, global model = w0 - lr * G
  kPaper,      // the clean formulation: per-update S_i applied to the current global model
};

struct HermesParams {
  double alpha = gup_defaults::kAlpha;  // initial z-score threshold, < 0
  double beta = gup_defaults::kBeta;    // threshold decay per minor update after lambda, [0, 1)
  int lambda = gup_defaults::kLambda;   // minor-update streak before the threshold decays, >= 1
  int window = gup_defaults::kWindow;   // losses kept for the z-score, >= 2
  HermesVariant variant = HermesVariant::kReference;
  bool gup = true;             // false: every iteration is a major update
  bool loss_weighting = true;  // false: plain averaging at the PS
};

// One protocol execution. Only the fields of `protocol` are meaningful; the others keep their
// defaults (the loader rejects parameters that belong to another protocol). Each field's JSON key,
// default per protocol, range and place in run names are declared in sim/scenario/run_params.cc.
struct RunSpec {
  std::string name;  // unique within the scenario; [A-Za-z0-9._-]+
  Protocol protocol = Protocol::kBsp;
  bool dynamic_allocation = false;               // default true for hermes, false for the baselines
  double barrier_timeout_s = 0;                  // bsp: 0 = none (docs/churn.md)
  int staleness = defaults::kStaleness;          // ssp
  int lookahead = defaults::kLookahead;          // ebsp
  AsyncUpdate async_update = AsyncUpdate::kAdd;  // asp, ssp, ebsp
  bool pull_between_barriers = false;            // ebsp: pull after each push (ASP-style)
  double server_lr = 0;                          // asp, ssp, ebsp with async_update kServerLr
  UpdateUnit update_unit = UpdateUnit::kChunk;   // bsp, asp, ssp, ebsp
  int steps_per_update = 1;                      // with kSteps: mini-batches per push
  int evaluate_every = 1;  // bsp, asp, ssp, ebsp: the PS evaluates once this many updates are in
  HermesParams hermes;     // hermes
  int demo_iterations =
      defaults::kDemoIterations;  // demo: iterations per worker (key "iterations")
  // The protocol's own parameters that have no field above, by key: a protocol registered since
  // SelSync declares its parameters in its descriptor only (run_params.h, RunParam::field unset)
  // and its algorithm reads them with own_value(); this struct does not grow with each protocol.
  std::map<std::string, double, std::less<>> own;

  // own's value of `key`; std::logic_error if the run has none (the key is not its protocol's).
  double own_value(std::string_view key) const;
};

// How the API calls are counted.
enum class ApiCounting {
  kCalls,         // each call the simulator makes, and the polls of waiting workers
  kReleasedCode,  // the released code's request list per iteration and its master's polling loop
};

// How the PS's control service is used, for the API-call counts (no effect on simulated time).
// "calls": a waiting worker polls the PS once per poll interval; every iteration also costs a
// fixed list of control calls (data request, time report, push/pull when they happen, and the
// flags and logs below). "released-code": requests per minor and per major worker iteration, per
// update on the master, and the master's gradient-polling loop at a rate over the run's time.
struct ApiSpec {
  ApiCounting counting = ApiCounting::kCalls;
  engine::SimTime poll_interval = engine::from_seconds(defaults::kPollIntervalMs / 1000.0);
  int flags_per_iteration = defaults::kFlagsPerIteration;  // run/stop flag checks
  int logs_per_iteration = defaults::kLogsPerIteration;    // progress logs sent to the PS
  int minor_iteration_requests = defaults::kMinorIterationRequests;
  int major_iteration_requests = defaults::kMajorIterationRequests;
  int master_requests_per_update = defaults::kMasterRequestsPerUpdate;
  double master_poll_rate = defaults::kMasterPollRatePerS;  // requests per simulated second
};

// How a chunk, an update and a model travel (the "transfers" section): their bytes on the wire
// and the PS's delay before a chunk. The clean defaults send raw float32; the released-code ones
// are the code's pickle+gzip chunks, JSON gradients and .h5 model files.
enum class ChunkEncoding { kFloat32, kPickleGzip };
enum class UpdateEncoding { kFloat32, kJson };
enum class ModelEncoding { kFloat32, kH5 };

struct TransferSpec {
  engine::SimTime chunk_delay{};  // the PS waits this long before it sends a requested chunk
  ChunkEncoding chunk_encoding = ChunkEncoding::kFloat32;
  double chunk_gzip_ratio = 1;  // pickle-gzip: bytes sent / the float32 chunk's bytes
  UpdateEncoding update_encoding = UpdateEncoding::kFloat32;
  ModelEncoding model_encoding = ModelEncoding::kFloat32;
  double model_file_overhead_bytes = 0;  // h5: the file's bytes beyond the float32 weights
  // A protocol that sends the pusher the global model after applying its update (ASP, SSP,
  // Hermes) sends it after the global evaluation of that update instead of before.
  bool model_after_evaluation = false;
};

struct OutputSpec {
  std::optional<std::string> dir;       // unset: the CLI picks results/<name>-<timestamp>
  bool timeline = defaults::kTimeline;  // write timeline.csv
  // summary.csv's time_to_target_s: when the global accuracy first reached it (in (0, 1]).
  std::optional<double> target_accuracy;
};

// The optional "sweep" section: the grid `hermes-sim sweep` crosses with seeds (sim/sweep/).
// `hermes-sim run` ignores it. Keys are --set paths ("runs.hermes.alpha", "seed").
struct GridRangeSpec {
  double from = 0;  // first value
  double to = 0;    // last value (inclusive, up to rounding), from <= to
  double step = 0;  // > 0
};

struct GridAxisSpec {
  std::string key;
  std::vector<Json> values;            // a list: numbers, strings or booleans, in order
  std::optional<GridRangeSpec> range;  // set instead of `values` for {"from", "to", "step"}
};

struct SweepSpec {
  std::vector<GridAxisSpec> grid;          // in file order: the first key varies slowest
  std::optional<std::int64_t> seed_count;  // "seeds": N -> the scenario's seed .. seed + N - 1
  std::vector<std::uint64_t> seed_list;    // "seeds": [s1, s2, ...]
};

// A slowdown of one node's CPU: the node runs at speed_factor x its profile's speed during
// [start, end) (scenarios/README.md, "events" and "trace"). Declared in the "events" list or as a
// row of the "trace" file; the loader has checked the node, the numbers and that no two slowdowns
// of one node overlap.
struct SlowdownSpec {
  std::string node;  // host name: "ps" or "w<i>"
  engine::SimTime start{};
  engine::SimTime end{};
  double speed_factor = 1;  // in (0, 1]
  std::string origin;       // where it was declared: "/events/2" or "<trace file> line 4"
};

// A worker leaving the cluster for an interval (scenarios/README.md, "events": crash, eviction;
// docs/churn.md for what each protocol does). Declared in the "events" list or as a row of the
// "trace" file; the loader has checked the node and that no two outages of one node overlap.
// The kinds and what each means are the table of sim/cluster/outage_kind.h.
using cluster::OutageKind;

struct OutageSpec {
  std::string node;  // "w<i>", or "ps" (declared outages only; always with an end)
  OutageKind kind = OutageKind::kCrash;
  engine::SimTime start{};             // the node is gone from here: in-flight work is lost
  std::optional<engine::SimTime> end;  // it is back here (a fresh start); nullopt: never
  engine::SimTime notice{};  // announced kinds: the warning comes this long before `start`
  std::string origin;        // where it was declared: "/events/2" or "<file> line 4"
  // When the warning comes (an announced kind; 0 s notice: at `start`).
  engine::SimTime warned() const { return notice < start ? start - notice : engine::SimTime{}; }
};

// Outages drawn from a model for a set of workers (availability.models): each selected worker
// draws its own from its own random stream (the scenario's seed and its host index), so every
// protocol of the scenario meets the same outages.
struct OutageModelSpec {
  std::string path;                // "/availability/models/0", for origins and messages
  std::vector<std::string> hosts;  // the workers it applies to (resolved from "nodes")
  OutageKind kind = OutageKind::kEviction;
  cluster::OutageModel model;
  engine::SimTime notice = engine::from_seconds(defaults::kEvictionNoticeS);  // announced kinds
};

// How the cluster lives with outages (the optional "availability" section).
struct AvailabilitySpec {
  // A crashed worker is missed by the PS this long after it crashed (a heartbeat timeout).
  engine::SimTime detection = engine::from_seconds(defaults::kDetectionS);
  std::vector<OutageModelSpec> models;
  // The PS saves the global model this often (and at its eviction notice); a PS outage loses the
  // updates since its latest checkpoint. nullopt: no checkpoints, a PS outage restarts from w0.
  std::optional<engine::SimTime> checkpoint_interval;
};

// The "trace" key: a CSV file of slowdowns, crashes and evictions, replayed exactly.
struct TraceSpec {
  std::string file;           // as written (relative to the repository root unless absolute)
  std::string resolved_path;  // as opened (resolve_scenario_file)
  std::string sha256;         // of the file's bytes, recorded in the resolved document
};

// The "prices" section: the price list a run's cost is computed with (scenarios/README.md,
// "prices"). Its figures, with the scenario's overrides applied, are in every NodeSpec's
// price_per_hour.
struct PricesSpec {
  std::string file;           // as written (relative to the repository root unless absolute)
  std::string resolved_path;  // as opened (resolve_scenario_file)
  std::string sha256;         // of the file's bytes, recorded in the resolved document
};

struct Scenario {
  std::string name;  // [A-Za-z0-9._-]+, used in output directory names
  std::string description;
  std::uint64_t seed = defaults::kSeed;
  std::string catalog_path;  // "profiles" as opened (resolve_scenario_file)
  // nodes[0] is the PS (shard 0), then workers in expansion order, then the PS's other shards.
  std::vector<NodeSpec> nodes;
  PsSharding ps;
  network::NetworkSpec network;
  DatasetSpec dataset;
  ModelSpec model;
  TrainingSpec training;
  std::vector<RunSpec> runs;  // in file order
  Accounting accounting = Accounting::kClean;
  TransferSpec transfers;
  ApiSpec api;
  OutputSpec outputs;
  std::optional<SweepSpec> sweep;  // absent unless the file has a "sweep" section
  // From "events" (file order), then "trace" (file order); empty without both.
  std::vector<SlowdownSpec> slowdowns;
  std::optional<TraceSpec> trace;  // absent unless the file has a "trace" key
  // From "events" then "trace", sorted by node then start; empty without both.
  std::vector<OutageSpec> outages;
  AvailabilitySpec availability;
  // The "link" events, in file order (checked: known hosts, no two overlapping on one link).
  std::vector<network::LinkFault> link_faults;
  PricesSpec prices;
  // The document after --set with every default filled in and every run named: loading it again
  // gives the same scenario. Record it next to results.
  Json document;

  std::size_t worker_count() const {
    const auto ps_nodes = static_cast<std::size_t>(ps.shards);
    return nodes.size() < ps_nodes ? 0 : nodes.size() - ps_nodes;
  }
  // The host index (into nodes) of the PS's shard `s` (0 .. ps.shards-1).
  std::size_t ps_shard_host(std::size_t s) const { return s == 0 ? 0 : worker_count() + s; }
};

// Protocol names as written in scenarios ("bsp", "hermes", ...: one per line of protocols.def),
// from the protocols' descriptors (protocol_descriptor.h).
std::string_view protocol_name(Protocol protocol);
std::optional<Protocol> parse_protocol(std::string_view name);
const std::vector<std::string>& protocol_names();

// The hosts as the network sees them (name and NIC speed), PS first.
std::vector<network::HostSpec> network_hosts(const std::vector<NodeSpec>& nodes);

// Loads and validates a scenario file. `set_overrides` are "key.path=value" strings applied in
// order before validation. A relative file name of the scenario ("profiles", "prices.file",
// "trace.file") is looked for in the scenario file's folder first, then in `source_dir` (the
// home: the repository or the install's share/; scenarios/README.md, "Files a scenario names").
// Throws InputError listing every problem found.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& set_overrides,
                       const std::string& source_dir);

// Same, reporting every problem into diags (whose file is set to `path` while checking and
// restored afterwards) instead of throwing. Returns the scenario only if there were none.
std::optional<Scenario> check_scenario(const std::string& path,
                                       const std::vector<std::string>& set_overrides,
                                       const std::string& source_dir, Diagnostics& diags);

// Checks scenario text that is already in memory. If `catalog` is non-null it is used instead of
// loading the catalog named by "profiles" (tests; callers that already hold a catalog).
// `scenario_dir` (absolute; "": none) is where relative file names are looked for first.
std::optional<Scenario> check_scenario_text(std::string_view text,
                                            const std::vector<std::string>& set_overrides,
                                            const std::string& source_dir, Diagnostics& diags,
                                            const cluster::ProfileCatalog* catalog = nullptr,
                                            const std::string& scenario_dir = "");

}  // namespace hermes::scenario
