#include "sim/cli/run_progress.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "base/number_text.h"
#include "base/string_join.h"
#include "sim/protocols/skeleton/resources.h"
#include "sim/scenario/patience_unit.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::cli {

namespace {

using Json = ProgressLog::Json;

constexpr auto kTtyInterval = std::chrono::milliseconds(250);  // a live line, not a flicker
constexpr auto kPlainInterval = std::chrono::seconds(10);      // logs, CI
constexpr auto kEventInterval = std::chrono::seconds(2);       // run_progress events

// Runs of one kind are alike for the scenario's ETA (sim/common/progress_eta.h).
constexpr int kProtocolKind = 0;
constexpr int kDemoKind = 1;

// Why the scenario's runs to go are estimated as they are: estimate_resources gives, before any
// run, the time of one round of worker iterations (at an assumed 60 GFLOP/s per core), not of a
// run: how many rounds a run needs depends on when its loss stops improving, which nothing knows
// in advance. So the estimate alone would put a run at seconds where it takes minutes; it is
// corrected by the ratio of measured wall time to estimate over the finished runs of the same
// kind (protocol runs or demo runs), which also measures this machine's speed and thread count.
// Every protocol run of a scenario shares one round estimate (the training section is the
// scenario's), so for them this is the mean wall time of the finished protocol runs: sound as far
// as the runs are alike (one cluster, dataset and model; the protocols differ, within about 2x on
// the paper's MNIST table). Before a run of a kind has finished there is no ratio, and the runs to
// go of that kind have no estimate (null in JSON, said so in text) rather than a guess.
std::vector<PlannedRun> plan_runs(const scenario::Scenario& sc) {
  std::vector<PlannedRun> planned;
  for (const auto& run : sc.runs) {
    scenario::Scenario alone = sc;
    alone.runs = {run};
    const bool demo = !scenario::trains(run.protocol);
    planned.push_back({protocols::estimate_resources(alone).hours * 3600.0,
                       demo ? kDemoKind : kProtocolKind, std::nullopt});
  }
  return planned;
}

// Seconds rounded to milliseconds for JSON: plenty for progress, and no binary noise
// (40.019644848000006).
double ms(double s) { return std::round(s * 1000.0) / 1000.0; }

Json optional_seconds(const std::optional<double>& s) { return s ? Json(ms(*s)) : Json(nullptr); }

// "max_iterations 2000", "max_sim_time_s 600": the cap as the scenario's training.stop sets it.
std::string cap_text(EtaBound bound, const scenario::StopSpec& stop) {
  if (bound == EtaBound::kMaxIterations) {
    return "max_iterations " + std::to_string(stop.max_iterations);
  }
  return "max_sim_time_s " + format_number(engine::to_seconds(stop.max_sim_time));
}

// Whole evaluations as integers; rounds and seconds to one decimal ("12.5").
std::string patience_text(double left) {
  if (left == std::floor(left)) return std::to_string(static_cast<long long>(left));
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << left;
  return os.str();
}

}  // namespace

ScenarioProgress::ScenarioProgress(const scenario::Scenario& sc, ProgressLog& log)
    : sc_(sc), log_(log), planned_(plan_runs(sc)) {
  Json names = Json::array();
  for (const auto& run : sc.runs) names.push_back(run.name);
  log_.event("scenario_start",
             {{"scenario", sc.name}, {"runs", sc.runs.size()}, {"run_names", names}});
}

double ScenarioProgress::run_wall_s() const {
  return std::chrono::duration<double>(Clock::now() - run_start_).count();
}

std::size_t ScenarioProgress::runs_done() const {
  std::size_t n = 0;
  for (const auto& p : planned_) n += p.wall_s ? 1 : 0;
  return n;
}

void ScenarioProgress::run_started(std::size_t index) {
  // In text, the scenario's line between two runs (after the run line on stdout).
  const std::size_t done = runs_done();
  if (done > 0) {
    const std::optional<double> rest = runs_to_go_eta(planned_, index);
    const std::size_t to_go = sc_.runs.size() - index;
    log_.line(
        "scenario: " + std::to_string(done) + '/' + std::to_string(sc_.runs.size()) +
        " runs done, wall " + duration_text(log_.wall_s()) + ", " + counted(to_go, "run") +
        " to go, " +
        (rest ? "ETA ~" + duration_text(*rest) : "no estimate until a run like them has finished"));
  }
  current_ = index;
  run_start_ = Clock::now();
  last_live_.reset();
  last_event_.reset();
  const auto& run = sc_.runs[index];
  log_.event("run_start", {{"run", run.name},
                           {"index", index + 1},
                           {"runs", sc_.runs.size()},
                           {"protocol", scenario::protocol_name(run.protocol)},
                           {"runs_done", done}});
}

// "ETA 12 s (patience: 8/25 evaluations left) - 2 min 10 s (cap: max_iterations 2000)": each end
// says what bounds it.
std::string ScenarioProgress::run_eta_text(const std::optional<EtaRange>& eta,
                                           double patience_left) const {
  if (!eta) return "ETA unknown (no evaluation yet)";
  const auto& stop = sc_.training.stop;
  if (eta->min_by != EtaBound::kPatience) {
    return "ETA ~" + duration_text(eta->min_s) + " (cap: " + cap_text(eta->min_by, stop) +
           ", before patience runs out)";
  }
  std::string text = "ETA " + std::string(eta->max_s ? "" : ">= ") + duration_text(eta->min_s) +
                     " (patience: " + patience_text(patience_left) + '/' +
                     std::to_string(stop.patience) + ' ' +
                     std::string(scenario::patience_unit_name(stop.patience_unit)) + " left)";
  if (eta->max_s) {
    text += " - " + duration_text(*eta->max_s) + " (cap: " + cap_text(eta->max_by, stop) + ")";
  }
  return text;
}

// The scenario's ETA while run current_ is under way: its range plus the runs after it.
Json ScenarioProgress::scenario_eta_json(const std::optional<EtaRange>& run) const {
  const std::size_t to_go = sc_.runs.size() - current_ - 1;
  const std::optional<double> rest = runs_to_go_eta(planned_, current_ + 1);
  std::optional<double> min, max;
  if (run && rest) {
    min = run->min_s + *rest;
    if (run->max_s) max = *run->max_s + *rest;
  }
  return {{"min", optional_seconds(min)},
          {"max", optional_seconds(max)},
          {"runs_to_go", to_go},
          {"runs_to_go_s", optional_seconds(rest)}};
}

std::string ScenarioProgress::scenario_eta_text(const std::optional<EtaRange>& run) const {
  const std::size_t to_go = sc_.runs.size() - current_ - 1;
  if (to_go == 0) return "";
  const std::string more = counted(to_go, "more run");
  const std::optional<double> rest = runs_to_go_eta(planned_, current_ + 1);
  if (!rest) return "; " + more + " (no estimate until a run like them has finished)";
  if (!run) return "; " + more + " ~" + duration_text(*rest);
  std::string text =
      "; scenario ETA " + std::string(run->max_s ? "" : ">= ") + duration_text(run->min_s + *rest);
  if (run->max_s) text += " - " + duration_text(*run->max_s + *rest);
  return text + " (" + more + " ~" + duration_text(*rest) + ")";
}

void ScenarioProgress::update(const protocols::RunResult& r, engine::SimTime now) {
  const auto wall = Clock::now();
  const bool live_due =
      log_.text() &&
      (!last_live_ || wall - *last_live_ >= (log_.tty() ? kTtyInterval : kPlainInterval));
  const bool event_due = log_.json() && (!last_event_ || wall - *last_event_ >= kEventInterval);
  if (!live_due && !event_due) return;
  const auto& stop = sc_.training.stop;
  const double elapsed = run_wall_s();
  const double accuracy = r.global.empty() ? 0.0 : r.global.back().accuracy;
  const double patience_left = std::max(0.0, stop.patience - r.patience_since_best);
  const std::optional<EtaRange> eta =
      run_eta({.wall_s = elapsed,
               .evaluations = static_cast<std::int64_t>(r.global.size()),
               .progress = r.patience_progress,
               .since_best = r.patience_since_best,
               .patience = static_cast<double>(stop.patience),
               .updates = r.updates,
               .max_iterations = stop.max_iterations,
               .sim_time_s = engine::to_seconds(now),
               .max_sim_time_s = engine::to_seconds(stop.max_sim_time)});
  const auto& run = sc_.runs[current_];
  if (live_due) {
    last_live_ = wall;
    std::ostringstream os;
    // The ETAs first: a terminal's line is cut to its width.
    os << '[' << current_ + 1 << '/' << sc_.runs.size() << ' ' << run.name << "] wall "
       << duration_text(elapsed) << ", " << run_eta_text(eta, patience_left)
       << scenario_eta_text(eta) << " | simulated " << std::fixed << std::setprecision(1)
       << engine::to_seconds(now) << " s, "
       << counted(static_cast<std::size_t>(r.updates), "update") << ", accuracy "
       << std::setprecision(2) << 100.0 * accuracy << "%, best loss " << std::setprecision(4)
       << r.best_loss;
    log_.live(os.str());
  }
  if (event_due) {
    last_event_ = wall;
    Json eta_json = nullptr;
    if (eta) {
      eta_json = {{"min", ms(eta->min_s)},
                  {"min_by", eta_bound_name(eta->min_by)},
                  {"max", optional_seconds(eta->max_s)},
                  {"max_by", eta->max_s ? Json(eta_bound_name(eta->max_by)) : Json(nullptr)}};
    }
    log_.event("run_progress", {{"run", run.name},
                                {"index", current_ + 1},
                                {"runs", sc_.runs.size()},
                                {"sim_time_s", ms(engine::to_seconds(now))},
                                {"updates", r.updates},
                                {"evaluations", r.global.size()},
                                {"accuracy", accuracy},
                                {"best_loss", r.best_loss},
                                {"evaluations_since_best", r.evaluations_since_best},
                                {"run_wall_s", ms(elapsed)},
                                {"eta_s", eta_json},
                                {"scenario_eta_s", scenario_eta_json(eta)}});
  }
}

void ScenarioProgress::run_finished(const protocols::RunResult& r) {
  const double wall = run_wall_s();
  planned_[current_].wall_s = wall;
  log_.end_live();
  const auto& run = sc_.runs[current_];
  const std::size_t done = runs_done();
  const std::optional<double> rest = runs_to_go_eta(planned_, current_ + 1);
  log_.event("run_end", {{"run", run.name},
                         {"index", current_ + 1},
                         {"runs", sc_.runs.size()},
                         {"status", protocols::run_status_text(r.status)},
                         {"stop_reason", protocols::stop_reason_text(r.stop_reason)},
                         {"updates", r.updates},
                         {"sim_time_s", ms(engine::to_seconds(r.sim_time))},
                         {"accuracy", r.accuracy_at_best},
                         {"best_loss", r.best_loss},
                         {"run_wall_s", ms(wall)},
                         {"runs_done", done},
                         {"runs_to_go_s", optional_seconds(rest)}});
}

void ScenarioProgress::finished(const std::string& dir, const std::vector<std::string>& files) {
  log_.event("scenario_end", {{"scenario", sc_.name},
                              {"runs_done", runs_done()},
                              {"runs", sc_.runs.size()},
                              {"dir", dir},
                              {"files", files}});
}

}  // namespace hermes::cli
