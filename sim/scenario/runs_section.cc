// "runs": the protocols to execute, each with its own parameters. Parameters of another protocol
// are unknown keys, so a typo such as "staleness" on a Hermes run cannot pass unnoticed.
#include <map>
#include <optional>
#include <string>

#include "sim/config/json_pointer.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/run_names.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

struct ReadRun {
  RunSpec spec;
  bool ok = false;
  bool name_given = false;
};

void read_baseline_params(ObjectReader& r, RunSpec& run) {
  run.dynamic_allocation = r.boolean("dynamic_allocation", false).value_or(false);
  if (run.protocol == Protocol::kSsp) {
    run.staleness = r.int32("staleness", defaults::kStaleness, Range::at_least(0))
                        .value_or(defaults::kStaleness);
  } else if (run.protocol == Protocol::kEbsp) {
    run.lookahead =
        r.int32("lookahead", defaults::kLookahead, Range::at_least(1).up_to(limits::kMaxLookahead))
            .value_or(defaults::kLookahead);
  }
  if (run.protocol != Protocol::kBsp) {
    run.async_update =
        r.choice("async_update", {"add", "average"}, "add").value_or("add") == "average"
            ? AsyncUpdate::kAverage
            : AsyncUpdate::kAdd;
  }
}

void read_hermes_params(ObjectReader& r, RunSpec& run) {
  HermesParams& h = run.hermes;
  h.alpha = r.number("alpha", defaults::kAlpha, Range::below(0)).value_or(h.alpha);
  h.beta = r.number("beta", defaults::kBeta, Range::at_least(0).under(1)).value_or(h.beta);
  h.lambda = r.int32("lambda", defaults::kLambda, Range::at_least(1)).value_or(h.lambda);
  h.window = r.int32("window", defaults::kWindow, Range::at_least(2).up_to(limits::kMaxWindow))
                 .value_or(h.window);
  h.variant =
      r.choice("variant", {"reference", "paper"}, "reference").value_or("reference") == "paper"
          ? HermesVariant::kPaper
          : HermesVariant::kReference;
  h.gup = r.boolean("gup", true).value_or(true);
  run.dynamic_allocation = r.boolean("dynamic_allocation", true).value_or(true);
  h.loss_weighting = r.boolean("loss_weighting", true).value_or(true);
}

ReadRun read_run(const Json& value, const std::string& path, Diagnostics& diags, Json& out) {
  ReadRun result;
  const std::size_t errors_before = diags.count();
  ObjectReader r(value, path, diags, out);
  if (!r.is_object()) return result;

  // "name" comes first in the resolved document, though a default name needs the parameters.
  out["name"] = nullptr;
  const Json* name = r.accept("name");
  if (name != nullptr) {
    result.name_given = true;
    if (name->is_string() && is_valid_name(name->get_ref<const std::string&>())) {
      result.spec.name = name->get<std::string>();
    } else {
      r.error("name", "invalid run name " + describe_value(*name) +
                          " (accepted: " + std::string(kNameRule) + ")");
    }
  }

  std::optional<std::string> protocol_text;
  if (r.accept("protocol") == nullptr) {
    r.error("protocol",
            "missing required key 'protocol' (accepted: " + join_strings(protocol_names()) + ")");
  } else {
    protocol_text = r.choice("protocol", protocol_names(), std::nullopt);
  }
  if (!protocol_text) {
    // Without a protocol the valid parameters are unknown: accept those of every protocol so
    // that only keys no protocol has are reported.
    for (const char* key :
         {"dynamic_allocation", "staleness", "lookahead", "async_update", "alpha", "beta", "lambda",
          "window", "variant", "gup", "loss_weighting", "iterations"}) {
      r.accept(key);
    }
    r.finish();
    return result;
  }
  RunSpec& run = result.spec;
  run.protocol = *parse_protocol(*protocol_text);
  switch (run.protocol) {
    case Protocol::kBsp:
    case Protocol::kAsp:
    case Protocol::kSsp:
    case Protocol::kEbsp:
      read_baseline_params(r, run);
      break;
    case Protocol::kHermes:
      read_hermes_params(r, run);
      break;
    case Protocol::kDemo:
      run.iterations = r.int32("iterations", defaults::kDemoIterations,
                               Range::at_least(1).up_to(limits::kMaxDemoIterations))
                           .value_or(defaults::kDemoIterations);
      break;
  }
  r.finish();
  if (!result.name_given) run.name = default_run_name(run);
  out["name"] = run.name;
  result.ok = diags.count() == errors_before;
  return result;
}

}  // namespace

std::vector<RunSpec> read_runs(const Json* value, Diagnostics& diags, Json& out) {
  std::vector<RunSpec> runs;
  const std::string accepted = "a non-empty array of run objects, each with a \"protocol\" (" +
                               join_strings(protocol_names()) + ")";
  if (value == nullptr) {
    diags.error("/runs", "missing required key 'runs' (accepted: " + accepted + ")");
    return runs;
  }
  if (!value->is_array()) {
    diags.error("/runs", "wrong type: expected " + accepted + ", got " + describe_value(*value));
    return runs;
  }
  if (value->empty()) {
    diags.error("/runs", "no runs: nothing to execute (accepted: " + accepted + ")");
    return runs;
  }
  out = Json::array();
  std::map<std::string, std::size_t> first_use;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const std::string path = pointer_append("/runs", i);
    ReadRun run = read_run((*value)[i], path, diags, out.emplace_back(Json::object()));
    if (run.spec.name.empty()) continue;  // invalid or unknown: already reported
    const auto [it, inserted] = first_use.emplace(run.spec.name, i);
    if (!inserted) {
      diags.error(run.name_given ? pointer_append(path, "name") : path,
                  "duplicate run name '" + run.spec.name + "' (also " +
                      pointer_append("/runs", it->second) +
                      "); run names must be unique: give this run a distinct \"name\"");
    }
    runs.push_back(std::move(run.spec));
  }
  return runs;
}

}  // namespace hermes::scenario
