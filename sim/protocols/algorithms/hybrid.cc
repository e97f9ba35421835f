// Sync groups on the PS / worker skeleton (docs/hybrid.md has the sources and this mapping).
//   - Groups: sync_groups (sim/policies/sync_groups.h) at the start of the run, by node profile,
//     of sync_group_size consecutive workers, or by cluster.workers entry; they do not change
//     during the run. By measured speed: the first round is one group of every worker (a BSP
//     round, its mean applied as one group update), and the PS notes when each member's update
//     arrived after the round opened; at that round's end it forms groups_by_speed of
//     sync_group_size from those times (a member that never arrived counts as slowest) and keeps
//     them for the rest of the run, across PS outages (an outage before then measures again).
//   - Inside a group, BSP's round (bsp.cc): every member the PS counts on pulls the global model,
//     trains one iteration and pushes its update; the PS sums the updates as they arrive.
//   - Between groups, ASP's rule (asp_ssp.cc): when a group's last member is in, the PS applies
//     the group's mean at once, times the server step (async_update) and the staleness weight
//     s(tau) of the group (tau: global updates applied since the oldest pull among the members
//     averaged), and the group's next round opens with the model as it is then; the other groups
//     go on meanwhile. Each group update is one global update for the staleness clock; it counts
//     its k members' updates as applied (result.updates, evaluate_every, patience rounds).
//   - Evaluation as in ASP: queued behind the group's update, the group's next round opens at
//     once or after it (transfers.model_after_evaluation).
// So one group of every worker is BSP (with transfers.model_after_evaluation, which BSP always
// does) and groups of one worker are ASP with the same weighting, operation for operation
// (tests/protocols/hybrid_test.cc).
// Under churn (docs/churn.md) each group's round is a BarrierRound of its own members: a member
// that departs is dropped from its group's round (the round closes with the updates that are in);
// one that comes back joins its group's next round (or opens one, if nobody of its group was
// left). After a PS outage every group's round is gone with the PS: the restarted PS opens a new
// round for each group with its members available.
#include "sim/protocols/algorithms/hybrid.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "models/nn/param_ops.h"
#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/skeleton/barrier_round.h"

namespace hermes::protocols {

namespace {

constexpr std::int64_t kNoPull = std::numeric_limits<std::int64_t>::max();

std::vector<int> groups_of(const scenario::Scenario& s, const HybridParams& p) {
  std::vector<GroupedWorker> workers;
  for (std::size_t w = 0; w < s.worker_count(); ++w) {
    const scenario::NodeSpec& node = s.nodes[RunContext::worker_host(w)];
    workers.push_back({node.profile.name, node.group});
  }
  return sync_groups(workers, p.grouping, p.sync_group_size);
}

class Hybrid final : public ProtocolRun {
 public:
  Hybrid(const scenario::Scenario& s, const scenario::RunSpec& r, const data::TrainTestSplit& d,
         const HybridParams& params)
      : ProtocolRun(s, r, d),
        params_(params),
        group_of_(groups_of(s, params)),
        groups_(static_cast<std::size_t>(*std::max_element(group_of_.begin(), group_of_.end())) +
                1),
        measuring_(params.grouping == Grouping::kSpeed),
        clock_(worker_count()) {}

  void set_sink(std::vector<HybridApplyRecord>* sink) { sink_ = sink; }
  // Each worker's group (by speed: the measuring round's single group until it ends).
  const std::vector<int>& group_of() const { return group_of_; }

 private:
  // A group's round and what the PS holds of it.
  struct Group {
    BarrierRound round;
    std::vector<float> sum;         // the round's updates, summed at arrival
    std::int64_t oldest = kNoPull;  // the oldest pull among the updates in
    std::vector<int> averaged;      // test records: whose updates are in
  };

  void start() override {
    arrived_after_.assign(worker_count(), std::numeric_limits<double>::infinity());
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      Group& group = groups_[g];
      group.sum.assign(global_model().num_params(), 0.0f);
      group.oldest = kNoPull;
      group.averaged.clear();
      group.round.start(worker_count(), [this, g](std::size_t w) {
        return group_of_[w] == static_cast<int>(g) && available(w);
      });
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) open_round(g);
  }

  // Every group's round died with the PS (its sums were in the PS's memory).
  void restart() override { start(); }

  // Sends the global model to every member of group g that is free; each begins its iteration on
  // arrival.
  void open_round(std::size_t g) {
    BarrierRound& round = groups_[g].round;
    round.open_next(round.members());  // else: opened again when a member comes back
    if (!round.is_open()) return;
    opened_at_ = now();
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (round.expected(w) && round.free(w)) give_model(g, w);
    }
  }

  void give_model(std::size_t g, std::size_t w) {
    groups_[g].round.assign(w);
    clock_.pull(w);
    send_model(w, [this, w] { begin_iteration(w); });
  }

  void on_computed(std::size_t w) override {
    const auto g = static_cast<std::size_t>(group_of_[w]);
    auto delta = update(w);
    push_update(w, *delta,
                [this, g, w, delta, id = groups_[g].round.working_on(w),
                 pulled_at = clock_.pulled(w), grouping = grouping_] {
                  if (grouping != grouping_) {
                    // Made in the measuring round, arrived after the groups formed (its worker was
                    // leaving, so the round closed without it): not used.
                    discard_update(w);
                    return;
                  }
                  Group& group = groups_[g];
                  group.round.release(w);
                  if (!group.round.counts(w, id)) {
                    // Late for its round (w departed meanwhile): its update is not used.
                    discard_update(w);
                    if (group.round.counts(w, group.round.id()) && group.round.member(w)) {
                      give_model(g, w);
                    }
                    return;
                  }
                  if (measuring_) arrived_after_[w] = engine::to_seconds(now() - opened_at_);
                  nn::axpy(1.0f, *delta, group.sum);
                  group.oldest = std::min(group.oldest, pulled_at);
                  if (sink_ != nullptr) group.averaged.push_back(static_cast<int>(w));
                  if (group.round.arrive(w)) close_round(g);
                });
  }

  // The group's update, applied as one asynchronous update of ASP.
  void close_round(std::size_t g) {
    Group& group = groups_[g];
    group.round.close();
    const std::size_t k = group.round.in();
    if (k == 0) {  // every member it waited for departed
      open_round(g);
      return;
    }
    const std::int64_t oldest = std::exchange(group.oldest, kNoPull);
    // Queued now, as ASP queues an arrival's evaluation, so that it sees exactly this update.
    const bool evaluate = evaluation_due(static_cast<std::int64_t>(k));
    const bool after = scenario().transfers.model_after_evaluation && evaluate;
    ps_job(aggregation_flops(k), 0, [this, g, k, oldest, after] {
      apply(g, k, oldest);
      if (!after) next_round(g);
    });
    if (!evaluate) return;
    // A group of one is that worker's update (as ASP records it); a larger group's is no one's.
    const int by = k == 1 ? single_member(g) : -1;
    evaluate_global(by, [this, g, after] {
      if (after) next_round(g);
    });
  }

  // After group g's update: its next round, or, after the measuring round, every group's first.
  void next_round(std::size_t g) {
    if (!measuring_) {
      open_round(g);
      return;
    }
    measuring_ = false;
    ++grouping_;
    group_of_ = groups_by_speed(arrived_after_, params_.sync_group_size);
    groups_ =
        std::vector<Group>(worker_count() / static_cast<std::size_t>(params_.sync_group_size));
    start();
  }

  int single_member(std::size_t g) const {
    const BarrierRound& round = groups_[g].round;
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (round.expected(w) && round.arrived(w)) return static_cast<int>(w);
    }
    return -1;
  }

  void apply(std::size_t g, std::size_t k, std::int64_t oldest) {
    Group& group = groups_[g];
    const std::int64_t tau = clock_.staleness(oldest);
    // With the constant weight exactly ASP's server step (and BSP's 1/k with async_update add).
    float weight = async_update_weight();
    if (params_.weighting != StalenessWeight::kConstant) {
      weight *= staleness_weight(params_.weighting, tau, params_.exponent);
    }
    weight /= static_cast<float>(k);
    if (sink_ != nullptr) {
      sink_->push_back({.group = static_cast<int>(g),
                        .averaged = std::exchange(group.averaged, {}),
                        .tau = tau,
                        .weight = weight,
                        .version = clock_.version()});
    }
    nn::axpy(weight, group.sum, global_model().params());
    std::fill(group.sum.begin(), group.sum.end(), 0.0f);
    clock_.applied();
    count_applied(static_cast<std::int64_t>(k));
  }

  void on_departed(std::size_t w) override {
    const auto g = static_cast<std::size_t>(group_of_[w]);
    if (groups_[g].round.depart(w)) close_round(g);
  }

  void on_rejoined(std::size_t w) override {
    const auto g = static_cast<std::size_t>(group_of_[w]);
    if (groups_[g].round.rejoin(w)) open_round(g);  // nobody of its group was left
  }

  HybridParams params_;
  std::vector<int> group_of_;  // each worker's group
  std::vector<Group> groups_;
  // Grouping by speed: the measuring round is on (until its update is applied), when it opened,
  // and when each member's update arrived after that (infinity: not yet, or never).
  bool measuring_ = false;
  int grouping_ = 0;  // +1 when the groups change: an update made before belongs to none
  engine::SimTime opened_at_{};
  std::vector<double> arrived_after_;
  // Global updates applied (a group's update is one) and each worker's pull, for tau. Not set back
  // by a PS restored from a checkpoint: every worker pulls anew then (asp_ssp.cc).
  StalenessClock clock_;
  std::vector<HybridApplyRecord>* sink_ = nullptr;
};

}  // namespace

HybridParams hybrid_params(const scenario::RunSpec& run) {
  HybridParams p;
  p.grouping = static_cast<Grouping>(static_cast<int>(run.own_value("grouping")));
  p.sync_group_size = static_cast<int>(run.own_value("sync_group_size"));
  p.weighting = static_cast<StalenessWeight>(static_cast<int>(run.own_value("staleness_weight")));
  p.exponent = run.own_value("staleness_exponent");
  return p;
}

std::unique_ptr<ProtocolRun> make_hybrid(const scenario::Scenario& s, const scenario::RunSpec& r,
                                         const data::TrainTestSplit& d) {
  return make_hybrid(s, r, d, hybrid_params(r));
}

std::unique_ptr<ProtocolRun> make_hybrid(const scenario::Scenario& s, const scenario::RunSpec& r,
                                         const data::TrainTestSplit& d,
                                         const HybridParams& params) {
  return std::make_unique<Hybrid>(s, r, d, params);
}

RunResult run_hybrid(const scenario::Scenario& s, const scenario::RunSpec& r,
                     const data::TrainTestSplit& d, const ProgressFn& progress,
                     parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(make_hybrid(s, r, d), progress, pool, observer);
}

namespace {

Hybrid& as_hybrid(const ProtocolRun& run, const char* what) {
  auto* hybrid = dynamic_cast<const Hybrid*>(&run);
  if (hybrid == nullptr) throw std::invalid_argument(std::string(what) + ": not a hybrid run");
  return const_cast<Hybrid&>(*hybrid);
}

}  // namespace

void record_hybrid_applies(ProtocolRun& run, std::vector<HybridApplyRecord>* sink) {
  as_hybrid(run, "record_hybrid_applies").set_sink(sink);
}

std::vector<int> hybrid_groups(const ProtocolRun& run) {
  return as_hybrid(run, "hybrid_groups").group_of();
}

}  // namespace hermes::protocols
