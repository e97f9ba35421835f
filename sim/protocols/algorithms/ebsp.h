// E-BSP / ElasticBSP (Zhao et al., ICDM 2019) with ZipLine barrier placement and look-ahead
// R = run.lookahead, on the PS/worker skeleton. make_ebsp() (protocols.h) builds an EbspRun; the
// class is declared here so that tests can read the barrier decisions it records (cycles()).
//
// One cycle, as this file reads docs/paper.md ("The baselines", E-BSP):
//   (a) Barrier: the PS sends the global model to every worker (cycle 0: the initial model at
//       t = 0); each worker starts training from it on arrival. Without pull_between_barriers
//       these are the only pulls, so WI = a worker's local iterations / the barriers it trained
//       after.
//   (b) Between barriers the workers run ASP-style: after each iteration a worker pushes its
//       update (local model after - before the iteration). By default it does not pull: it at once
//       starts its next iteration from its OWN local model (the paper's E-BSP WI of 5.09 fits this
//       reading). With the run's pull_between_barriers, the other reading of "ASP-style", it pulls
//       the global model once its update is applied and starts from that (WI 1, like ASP). The PS
//       applies each update on arrival (apply job and evaluate_global queued together, as ASP does,
//       so the stop rule sees every update), with weight 1 or 1/n (async_update "add" or "average",
//       as ASP).
//   (c) The PS records the arrival time of each worker's pushes in the cycle. Once every worker
//       has pushed at least twice since the barrier, the PS runs zipline() over each worker's
//       (last push time, last push interval) with R. Choice: two pushes, not "first push minus
//       barrier time": that first interval also holds the model transfer of the barrier (all n
//       models leave the PS NIC at once), so it overstates the iteration interval ZipLine
//       extrapolates R times; the interval of two pushes is the steady ASP-style period.
//       Worker i's target = pushes the PS had from it + k_i (ZipLine's k: its k-th next push is
//       the chosen stop). If the worker has already started more iterations than that (fast
//       workers often have pushes still in transfer, queued with the chunks on the PS's
//       link), the target is raised to the iteration it is in: a started iteration is never
//       abandoned. Workers learn their target at once (a small control reply; the
//       reference's workers poll the PS's flags) and check it when an iteration ends.
//   (d) A worker that completes its target pushes that last update and waits. When every worker's
//       target number of updates has been applied, the PS sends the global model (which then holds
//       every update of the cycle) to every worker: the next barrier, i.e. the next cycle's (a).
// Under churn (docs/churn.md) a cycle counts on the workers present at its barrier, less those that
// depart during it: the decision waits for their two pushes, ZipLine predicts over them only, and
// the next barrier waits for their targets. A worker that comes back joins at the next barrier;
// if nobody was left, its return is the next barrier. After a PS outage the cycle in progress is
// gone with the PS: the restarted PS opens a new one (a barrier) with the workers available.
// Times fed to ZipLine are seconds since the start of the run. Everything is event-driven on the
// simulator and deterministic (no randomness of its own). With run.dynamic_allocation on, the
// skeleton applies it as for every protocol (off by default for the baselines).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/policies/zipline.h"
#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

// One barrier and the iterations between it and the next.
struct EbspCycle {
  engine::SimTime barrier_time{};     // when the PS sent the global model to every worker
  std::int64_t applied_before = 0;    // updates the PS had applied when it sent it
  std::vector<std::int64_t> started;  // per worker: iterations begun in this cycle
  std::vector<std::int64_t> pushes;   // per worker: pushes received by the PS in this cycle
  std::vector<std::int64_t> applied;  // per worker: of those, applied to the global model

  // ZipLine's decision (set once every worker has pushed twice in the cycle).
  bool decided = false;
  engine::SimTime decision_time{};          // arrival of the push that completed the condition
  std::vector<std::int64_t> pushes_known;   // per worker: pushes received at the decision
  std::vector<std::int64_t> started_known;  // per worker: iterations begun at the decision
  std::vector<WorkerTrend> trends;          // ZipLine's input (seconds)
  ZipLineResult zipline;                    // ZipLine's output: k further iterations per worker
  std::vector<std::int64_t> assigned;       // per worker: pushes_known + k
  std::vector<std::int64_t> target;         // per worker: max(assigned, started_known)
  std::vector<bool> members;                // per worker: the cycle counts on it (churn)
};

class EbspRun final : public ProtocolRun {
 public:
  EbspRun(const scenario::Scenario& scenario, const scenario::RunSpec& run,
          const data::TrainTestSplit& data);

  // Every cycle so far, the current (last) one included; complete after run().
  const std::vector<EbspCycle>& cycles() const { return cycles_; }
  int lookahead() const { return lookahead_; }

 private:
  void start() override;
  void on_computed(std::size_t w) override;

  EbspCycle& current() { return cycles_.back(); }
  // The PS sends the global model to every worker; each starts its cycle on arrival.
  void barrier();
  void start_iteration(std::size_t w);
  // An update of w's incarnation `pushed_by` arrived at the PS. The incarnation is kept for the
  // answer (pull_or_wait): w may go and come back while the PS applies the update, a change of
  // process that no failed activity reports (ProtocolRun::answer_push).
  void on_push_arrival(std::size_t w, std::uint32_t pushed_by,
                       std::shared_ptr<const std::vector<float>> delta);
  // pull_between_barriers: once w's update is applied, the global model goes to w for its next
  // iteration, unless w has reached its target (it then waits for the barrier).
  void pull_or_wait(std::size_t w, std::uint32_t pushed_by);
  void decide();
  void on_applied(std::size_t w);
  void on_departed(std::size_t w) override;
  void on_rejoined(std::size_t w) override;
  void restart() override;
  // The decision once every member pushed twice; the barrier once every member's target is in.
  void check_decision();
  void check_barrier();

  int lookahead_;
  std::vector<EbspCycle> cycles_;
  std::int64_t applied_total_ = 0;
  // Per worker: arrival times of its latest two pushes in the current cycle.
  std::vector<engine::SimTime> last_push_;
  std::vector<engine::SimTime> previous_push_;
  std::vector<bool> present_;  // per worker: not departed (the PS's view)
  bool stalled_ = false;       // no member left: the next return opens a cycle
};

}  // namespace hermes::protocols
