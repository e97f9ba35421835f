// The hybrid protocol's descriptor: workers in sync groups (by node profile, or of a given size)
// average synchronously inside their group; the groups push to the PS asynchronously, each group's
// mean applied on arrival with the staleness weighting of ASP (docs/staleness.md). The hybrid
// mode of PaddlePaddle's heterogeneous parameter server (sync_group_size); docs/hybrid.md.
#include <string>

#include "sim/policies/sync_groups.h"
#include "sim/scenario/protocol_descriptor.h"
#include "sim/scenario/staleness_params.h"

namespace hermes::scenario {

namespace {

protocols::Grouping grouping_of(const RunSpec& r) {
  return static_cast<protocols::Grouping>(static_cast<int>(r.own_value("grouping")));
}

// The groupings that read sync_group_size.
bool sized(const RunSpec& r) {
  return grouping_of(r) == protocols::Grouping::kSize ||
         grouping_of(r) == protocols::Grouping::kSpeed;
}

// Groups of sync_group_size must partition the cluster's workers: said before anything runs.
std::vector<RunProblem> check_hybrid(const RunSpec& r, std::size_t workers) {
  if (!sized(r)) return {};
  const std::string problem =
      protocols::sync_group_size_problem(workers, static_cast<int>(r.own_value("sync_group_size")));
  if (problem.empty()) return {};
  return {{"sync_group_size", problem}};
}

}  // namespace

ProtocolDescriptor describe_hybrid() {
  namespace def = protocols::hybrid_defaults;
  ProtocolDescriptor d{.id = Protocol::kHybrid,
                       .name = "hybrid",
                       .label = "hybrid",
                       .source =
                           "sync groups, asynchronous between groups: the hybrid mode of "
                           "PaddlePaddle's heterogeneous PS; staleness weights of FedAsync (Xie "
                           "et al., arXiv 1903.03934); docs/hybrid.md",
                       .traits = {.evaluates_by_update_count = true, .applies_on_arrival = true},
                       .check_run = &check_hybrid};
  using P = ParamType;
  d.params = {
      {.key = "grouping",
       .type = P::kChoice,
       .fallback = def::kGrouping,
       .choices = {"profile", "size", "entry", "speed"},
       .help = "how workers form sync groups: `profile` every worker of one node profile, "
               "`size` sync_group_size consecutive workers in the cluster's order, `entry` every "
               "worker of one entry of cluster.workers (the groups written down), `speed` "
               "sync_group_size workers of similar speed, measured in a first round of all",
       .name = NameForm::kFlag,
       .name_text = "-",
       .choice_name_texts = {"", "-size", "-entry", "-speed"},
       .column = ColumnForm::kAlways},
      {.key = "sync_group_size",
       .type = P::kInt,
       .fallback = def::kSyncGroupSize,
       .range = Range::at_least(1).up_to(1e6),
       .help = "with `grouping` `size` or `speed` (and only then): the workers of a group; must "
               "divide the worker count (size 1: ASP, the worker count: BSP)",
       .name = NameForm::kIfChanged,
       .name_text = "-g",
       .column = ColumnForm::kIfChanged,
       .recorded_if_given = true,  // read only under size or speed: a resolved document reloads
       .applies = &sized,
       .only_with = {.when = "\"grouping\": \"size\" or \"speed\"",
                     .set = "grouping \"size\" or \"speed\""}},
  };
  // ASP's weighting of a late update by its staleness, damping by default: with the constant
  // weight three groups of the paper's MNIST cluster each add their whole change, and the run
  // diverges as ASP's add does (docs/hybrid.md). No FedBuff buffer (a group's mean is already one
  // update of several workers). A new protocol: its columns follow their position.
  for (RunParam& p : staleness_params()) {
    if (p.key == "buffer_size") continue;
    if (p.key == "staleness_weight") {
      p.fallback = def::kStalenessWeight;
      p.choice_name_texts = {"-const", "", "-poly"};
    }
    p.recorded_if_given = p.key == "staleness_exponent";  // read only under polynomial
    p.column_used = nullptr;
    d.params.push_back(std::move(p));
  }
  return d;
}

}  // namespace hermes::scenario
