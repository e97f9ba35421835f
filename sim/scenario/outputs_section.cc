// The "outputs" section: the run directory, the timeline, the target accuracy.
#include <string>

#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

// What can be told from the text alone (the places that depend on where the run starts, such as
// the current directory, are refused by hermes-sim run itself: sim/cli/run_output.h).
std::string unusable_dir_reason(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path == "/") return "the root directory";
  const auto slash = path.rfind('/');
  const std::string last = slash == std::string::npos ? path : path.substr(slash + 1);
  if (last == "." || last == "..") return "a path ending in '" + last + "'";
  if (path == "~" || path.rfind("~/", 0) == 0) return "a path starting with '~' (not expanded)";
  return "";
}

}  // namespace

using config::KeyType;

const ObjectDecl& outputs_decl() {
  static const ObjectDecl decl{
      "outputs",
      {{.key = "dir",
        .type = KeyType::kString,
        .default_text = "results/<name>-<timestamp> (--out wins)",
        .accepted = "a path naming a new directory: not /, not ending in . or .., not ~...",
        .help = "the run directory hermes-sim run writes"},
       {.key = "timeline",
        .type = KeyType::kBoolean,
        .default_text = "true",
        .help = "write timeline.csv, the per-event record of every run"},
       {.key = "target_accuracy",
        .type = KeyType::kNumber,
        .default_text = "none",
        .range = Range::above(0).up_to(1),
        .help = "summary.csv's time_to_target_s: when the global test accuracy first reached it"}}};
  return decl;
}

OutputSpec read_outputs(const Json* value, Diagnostics& diags, Json& out) {
  OutputSpec o;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/outputs", diags, out,
                 outputs_decl());
  if (const Json* dir = r.accept("dir")) {
    if (!dir->is_string() || dir->get_ref<const std::string&>().empty()) {
      r.wrong_type("dir", "a non-empty directory path (string)", *dir);
    } else if (const std::string why = unusable_dir_reason(dir->get<std::string>()); !why.empty()) {
      r.error("dir", "'" + dir->get<std::string>() + "' is " + why +
                         ": a run directory is never written there (accepted: a path naming a "
                         "new directory, e.g. results/demo)");
    } else {
      o.dir = dir->get<std::string>();
      out["dir"] = *o.dir;
    }
  }
  o.timeline = r.boolean("timeline", defaults::kTimeline).value_or(o.timeline);
  // Optional without a default, so a scenario without it resolves as it did before it existed.
  if (r.has("target_accuracy")) {
    o.target_accuracy = r.number("target_accuracy", std::nullopt, Range::above(0).up_to(1));
  }
  r.finish();
  return o;
}

}  // namespace hermes::scenario
