// Each protocol's run parameters, declared once: JSON key, RunSpec field, default, accepted range
// or values, help text, the protocols that take it, and how it shows in a default run name and in
// summary.csv. Everything else derives from this table: reading and validation of a run
// (runs_section.cc), both run-name builders (run_names.cc), the parameter columns of summary.csv
// (sim/protocols/reporting/result_csv.cc, sim/metrics/summary_csv.*), the configuration labels
// of `compare` and the run-keys table of scenarios/README.md (which
// tests/scenario/run_params_test.cc checks against run_keys_table()). Adding a setting is one
// declaration plus its use: in run_params.cc for a key a trait shares, in the protocol's
// descriptor (sim/scenario/protocol_<name>.cc) for its own.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sim/config/object_reader.h"
#include "sim/scenario/scenario.h"

namespace hermes::scenario {

using config::Range;

// A set of protocols, one bit per Protocol.
using ProtocolSet = unsigned;
constexpr ProtocolSet protocols(std::initializer_list<Protocol> list) {
  ProtocolSet set = 0;
  for (const Protocol p : list) set |= 1u << static_cast<unsigned>(p);
  return set;
}

enum class ParamType { kBool, kInt, kNumber, kChoice };

// Where a parameter shows in the name of a run that has no "name".
enum class NameForm {
  kNone,   // never
  kValue,  // always: the text, then the value ("-" and 125: "ssp-125"; "" and -1.3: "hermes-1.3")
  kIfChanged,  // the text, then the value, when not the default ("-b" and 0.15: "-b0.15")
  kFlag,       // the text alone, when not the default ("-paper", "-nogup", "-dyn")
};

// Whether a parameter has a column in summary.csv (every form but kNever: the run's value, or
// empty for a protocol that does not take it), and whether it names a configuration: `compare`
// groups runs and labels them by these parameters (sim/metrics/summary_csv.h, SummaryRow::params).
enum class ColumnForm {
  kNever,      // no column (the demo's iterations)
  kAlways,     // a column, and always part of the configuration
  kIfChanged,  // a column, and part of the configuration only when not the default
};

// The RunSpec field of a parameter, as a double: bools 0 or 1, enums their value. Unset (both
// null): the value is kept in RunSpec::own under the parameter's key, which is how a protocol
// declares parameters without adding fields to RunSpec.
struct FieldAccess {
  double (*get)(const RunSpec&) = nullptr;
  void (*set)(RunSpec&, double) = nullptr;
};

// Where a declaration goes in schema order when it gives no position: after every one that does,
// in the order of sim/scenario/protocols.def.
inline constexpr int kAppended = 1 << 30;

struct RunParam {
  std::string_view key;  // in the run object, and after "runs.<run>." in --set paths
  // Its place in schema order (run_param_table()): the parameters of the first releases keep the
  // order resolved documents and summary.csv's columns have had since, shared keys and a
  // protocol's own interleaved; a new protocol's own come after them, and have a summary.csv
  // column only in summaries with a run that takes them (summary_param_keys(present)).
  int position = kAppended;
  // Those that take it; any other reports it as an unknown key. A protocol's own declarations
  // (ProtocolDescriptor::params) leave it empty: the table gives them their protocol.
  ProtocolSet protocols{};
  ParamType type{};
  double fallback = 0;  // the default: bools 0 or 1, choices the index into `choices`
  Range range{};        // kInt and kNumber
  std::vector<std::string> choices{};  // kChoice: the accepted strings in the order of the enum
  std::string_view help{};             // what it does, for the README's table
  NameForm name = NameForm::kNone;
  std::string_view name_text{};  // see NameForm
  // kFlag of a kChoice parameter: the text of each choice instead of name_text (empty: none; the
  // default's is never used).
  std::vector<std::string_view> choice_name_texts{};
  // The parts of a name follow in rank order, then in table order: the baselines' "-dyn" comes
  // last though dynamic_allocation comes first in the document.
  int name_rank = 0;
  ColumnForm column = ColumnForm::kNever;
  FieldAccess field{};
  // Written to the resolved document only when the run gives it: a parameter added after
  // scenarios were resolved leaves their scenario.json as it was.
  bool recorded_if_given = false;
  // Whether the value means anything for this run (null: whenever its protocol takes it): a
  // parameter used only under another's value (server_lr under async_update server-lr) leaves its
  // summary.csv cell empty otherwise, rather than showing a default that nothing reads.
  bool (*applies)(const RunSpec&) = nullptr;
  // With `applies`: a run that gives the key where it does not apply is an error, "used only
  // with <when> (accepted: remove it, or set <set>)" (runs_section.cc); empty: not checked. Such
  // a key is recorded_if_given, so that a resolved document (scenario.json) loads again.
  struct OnlyWith {
    std::string_view when;
    std::string_view set;
  } only_with{};
  // Set for a parameter added to a protocol whose summaries were shipped before it (ASP's and
  // SSP's staleness keys): its summary.csv column is only in summaries with a run of a protocol
  // that takes it for which this is true (the run uses it), so that the others keep their
  // columns. Null: the column follows `position` (summary_param_keys).
  bool (*column_used)(const RunSpec&) = nullptr;

  bool taken_by(Protocol protocol) const {
    return (protocols & (1u << static_cast<unsigned>(protocol))) != 0;
  }
  double value(const RunSpec& run) const {
    return field.get != nullptr ? field.get(run) : run.own_value(key);
  }
  void assign(RunSpec& run, double v) const {
    if (field.set != nullptr) {
      field.set(run, v);
    } else {
      run.own.insert_or_assign(std::string(key), v);
    }
  }
  bool is_default(const RunSpec& run) const { return value(run) == fallback; }
};

// The field reached from a RunSpec through `Members` (&RunSpec::hermes, &HermesParams::alpha), for
// a declaration's `field`.
template <auto... Members>
constexpr FieldAccess run_field() {
  return {[](const RunSpec& run) -> double {
            const auto& f = (run.*....*Members);
            if constexpr (std::is_enum_v<std::remove_cvref_t<decltype(f)>>) {
              return static_cast<int>(f);
            } else {
              return static_cast<double>(f);
            }
          },
          [](RunSpec& run, double v) {
            auto& f = (run.*....*Members);
            using T = std::remove_reference_t<decltype(f)>;
            if constexpr (std::is_enum_v<T>) {
              f = static_cast<T>(static_cast<int>(v));
            } else {
              f = static_cast<T>(v);
            }
          }};
}

// dynamic_allocation's meaning, declared by the baselines (default false) and by Hermes (true).
inline constexpr std::string_view kDynamicAllocationHelp =
    "the reference's straggler-driven chunk resizing at the PS";

// Every declaration, in schema order (by position): the keys shared by a kind of protocol
// (run_params.cc) and each protocol's own (its descriptor, sim/scenario/protocol_<name>.cc): a
// run's keys are read, and written to the resolved document, in this order. A key may be declared
// twice for disjoint protocols with different defaults (dynamic_allocation).
const std::vector<RunParam>& run_param_table();

// The declarations `protocol` takes, in schema order.
std::vector<const RunParam*> params_of(Protocol protocol);

// `protocol`'s declaration of `key`, or nullptr when the protocol does not take it.
const RunParam* param_of(Protocol protocol, std::string_view key);

// The parameter columns of summary.csv: the key of every declaration with a column, once, in
// schema order (what a reader of any summary may find).
std::vector<std::string_view> summary_param_keys();
// The parameter columns of a summary of runs of the protocols in `present`: those of every
// declaration with a position (the columns every summary has had since they were added) and
// those of the declarations without one (the protocols registered since: SelSync, ...) that a
// protocol in `present` takes. A new protocol's columns so leave every summary without its runs
// as it was.
std::vector<std::string_view> summary_param_keys(ProtocolSet present);
// The parameter columns of a summary of `runs`: those of summary_param_keys(present) for their
// protocols, and those of a declaration with a column_used that one of the runs uses. (The
// overloads above leave the latter out, but summary_param_keys() which lists every column.)
std::vector<std::string_view> summary_param_keys(const std::vector<const RunSpec*>& runs);

// A run of `protocol` with every parameter at its default (name empty).
RunSpec default_run(Protocol protocol);

// A value as text: bools "true"/"false", integers in decimal, choices by name, numbers by
// `number` (run names and the params column round differently).
std::string param_text(const RunParam& param, double value,
                       std::string (*number)(double) = format_number);

// The README's table of run keys (scenarios/README.md, "runs"), in Markdown.
std::string run_keys_table();

}  // namespace hermes::scenario
