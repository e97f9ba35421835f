// How a protocol run ended, and the words summary.csv, the CLI, traces and
// `compare --format json` write for it: one table per enum (base/enum_text.h), printed and parsed
// from the same place.
//
// They live here, in sim/common, because the lowest layer that names them is this one:
// progress_eta.h (the ETA's bounds are stop reasons), then sim/metrics (comparison.cc reads the
// words back from summary.csv), then sim/protocols/skeleton (the run produces them). base/ holds
// no simulator vocabulary.
#pragma once

#include <optional>
#include <string_view>

namespace hermes {

// How a run ended.
// kDiverged: a loss became non-finite, or the run ended with its last loss above
// training.stop.divergence_factor times its best (its loss kept rising until the stop rule fired).
enum class RunStatus { kOk, kDiverged };
// Why a run ended.
enum class StopReason {
  kNone,           // not ended yet
  kPatience,       // the global loss did not improve for `patience` evaluations
  kMaxSimTime,     // the cap on simulated time
  kMaxIterations,  // the cap on updates applied
  kDiverged,       // a loss became non-finite
  kNoEvents,       // nothing left to happen
  kNoWorkers,      // every worker gone for good and nothing left at the PS: the model is final
};

// "ok", "diverged"; "", "patience", "max_sim_time", "max_iterations", "diverged", "no_events",
// "no_workers".
std::string_view run_status_text(RunStatus status);
std::string_view stop_reason_text(StopReason reason);
// The reverse; nullopt for a word this version does not write.
std::optional<RunStatus> parse_run_status(std::string_view text);
std::optional<StopReason> parse_stop_reason(std::string_view text);

// The scenario key of the cap a stop reason names ("training.stop.max_sim_time_s",
// "training.stop.max_iterations"); "" for a reason that is no cap. The one home of these paths for
// compare's messages and its JSON ("cap_key"), which the sweep figures read.
std::string_view stop_reason_cap_key(StopReason reason);

// Whether a run's time may stand in a speedup (BSP's time / its time): the one rule of
// summary.csv's speedup_vs_bsp (sim/protocols/reporting/result_csv.cc), of its BSP baseline, and
// of `hermes-sim compare` (sim/metrics/comparison.cc). A speedup compares times to the same end,
// so both runs must have converged by the stop rule (patience): not a run that diverged (it
// stopped early because it failed), nor one a cap cut (max_iterations, max_sim_time: it did not
// finish), nor one that ended with no events left (every party waiting on another: the time it
// stalled, not the time it converged). A run not yet ended (kNone) has no such reason against it.
bool speedup_comparable(RunStatus status, StopReason reason);

}  // namespace hermes
