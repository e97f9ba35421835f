// The CSV files of protocol runs (see result_csv.h); summary.csv's parameter columns follow the
// declarations of sim/scenario/run_params.cc.
#include "sim/protocols/reporting/result_csv.h"

#include <string_view>
#include <utility>
#include <vector>

#include "base/number_text.h"
#include "sim/metrics/params_text.h"
#include "sim/metrics/summary_csv.h"
#include "sim/protocols/reporting/run_cost.h"
#include "sim/protocols/skeleton/run_context.h"
#include "sim/scenario/protocol_descriptor.h"
#include "sim/scenario/run_params.h"

namespace hermes::protocols {

namespace {

// The rule of sim/common/run_ending.h, the same as `compare`'s.
bool comparable(const RunResult& x) { return speedup_comparable(x.status, x.stop_reason); }

}  // namespace

void write_summary_csv(std::ostream& out, const scenario::Scenario& sc,
                       const std::vector<FinishedRun>& runs) {
  std::vector<const scenario::RunSpec*> specs;
  for (const auto& r : runs) specs.push_back(r.spec);
  const std::vector<std::string_view> params = scenario::summary_param_keys(specs);
  std::vector<std::string> columns = metrics::summary_columns(params);
  columns.insert(columns.end(), metrics::kSummaryChurnColumns.begin(),
                 metrics::kSummaryChurnColumns.end());
  metrics::CsvWriter w(out, columns);
  // Speedup against the scenario's first run of the speedup reference (BSP) that converged.
  const RunResult* bsp = nullptr;
  const scenario::Protocol reference = scenario::speedup_reference().id;
  for (const auto& r : runs) {
    if (r.spec->protocol == reference && comparable(r.result)) {
      bsp = &r.result;
      break;
    }
  }
  for (const auto& r : runs) {
    const RunResult& x = r.result;
    w.field(r.spec->name).field(scenario::protocol_name(r.spec->protocol));
    for (const std::string_view key : params) {
      w.field(metrics::param_cell(*r.spec, key));
    }
    w.field(sc.seed).field(run_status_text(x.status)).field(stop_reason_text(x.stop_reason));
    w.field(x.updates).field(x.total_local_iterations());
    w.field(engine::to_seconds(x.sim_time), 6).field(x.wi_avg(), 4);
    w.field(x.accuracy_at_best, 6).field(x.best_loss, 6).field(x.final_loss(), 6);
    w.field(x.api.total()).field(x.bytes, 0).field(x.major_updates);
    if (bsp != nullptr && comparable(x) && x.sim_time > engine::SimTime{}) {
      w.field(engine::to_seconds(bsp->sim_time) / engine::to_seconds(x.sim_time), 4);
    } else {
      w.empty();
    }
    w.field(run_cost_usd(sc, x), 6);
    const NodeChurn churn = x.churn_total();
    w.field(churn.lost_iterations).field(engine::to_seconds(churn.wasted_compute), 6);
    w.field(churn.dropped_updates).field(engine::to_seconds(churn.downtime), 6);
    if (x.time_to_target) {
      w.field(engine::to_seconds(*x.time_to_target), 6);
    } else {
      w.empty();
    }
    w.end_row();
  }
}

void write_global_csv(std::ostream& out, const std::vector<FinishedRun>& runs) {
  metrics::CsvWriter w(out, {"run", "time_s", "iteration", "worker", "loss", "accuracy"});
  for (const auto& r : runs) {
    for (const auto& g : r.result.global) {
      w.field(r.spec->name).field(engine::to_seconds(g.time), 9).field(g.updates);
      if (g.worker < 0) {
        w.field("all");
      } else {
        w.field("w" + std::to_string(g.worker));
      }
      w.field(g.loss, 6).field(g.accuracy, 6).end_row();
    }
  }
}

void write_workers_csv(std::ostream& out, const scenario::Scenario& sc,
                       const std::vector<FinishedRun>& runs) {
  metrics::CsvWriter w(
      out, {"run", "start_s", "end_s", "worker", "profile", "local_iteration", "chunk_size",
            "duration_s", "local_loss", "z_score", "threshold", "update", "credits_left"});
  auto optional = [&w](const std::optional<double>& v, int decimals) {
    if (v) {
      w.field(*v, decimals);
    } else {
      w.empty();
    }
  };
  for (const auto& r : runs) {
    for (const auto& it : r.result.local_iteration_log) {
      w.field(r.spec->name).field(engine::to_seconds(it.start), 9);
      w.field(engine::to_seconds(it.end), 9).field("w" + std::to_string(it.worker));
      w.field(sc.nodes[RunContext::worker_host(static_cast<std::size_t>(it.worker))].profile.name);
      w.field(it.local_iteration).field(it.chunk_size);
      w.field(engine::to_seconds(it.end - it.start), 6).field(it.local_loss, 6);
      optional(it.z_score, 6);
      optional(it.threshold, 6);
      w.field(update_kind_text(it.update));
      optional(it.credits_left, 4);
      w.end_row();
    }
  }
}

void write_nodes_csv(std::ostream& out, const scenario::Scenario& sc,
                     const std::vector<FinishedRun>& runs) {
  metrics::CsvWriter w(out, {"run", "node", "profile", "outages", "downtime_s", "deallocated_s",
                             "lost_iterations", "wasted_compute_s", "dropped_updates"});
  for (const auto& r : runs) {
    for (std::size_t h = 0; h < r.result.churn.size(); ++h) {
      const NodeChurn& c = r.result.churn[h];
      w.field(r.spec->name).field(sc.nodes[h].host).field(sc.nodes[h].profile.name);
      w.field(c.outages).field(engine::to_seconds(c.downtime), 6);
      w.field(engine::to_seconds(c.deallocated), 6).field(c.lost_iterations);
      w.field(engine::to_seconds(c.wasted_compute), 6).field(c.dropped_updates).end_row();
    }
  }
}

void write_api_csv(std::ostream& out, const std::vector<FinishedRun>& runs) {
  metrics::CsvWriter w(out, {"run", "kind", "calls", "wait_s"});
  for (const auto& r : runs) {
    const ApiCalls& a = r.result.api;
    engine::SimTime wait{};
    for (const engine::SimTime t : r.result.wait_time) wait += t;
    for (const auto& [kind, calls] : a.rows()) {
      w.field(r.spec->name).field(kind).field(calls);
      // The waiting that the polls stand for (workers' time summed), on the polls row only.
      if (std::string_view(kind) == "polls") {
        w.field(engine::to_seconds(wait), 9);
      } else {
        w.empty();
      }
      w.end_row();
    }
  }
}

}  // namespace hermes::protocols
