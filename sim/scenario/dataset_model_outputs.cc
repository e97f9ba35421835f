// The small sections: "dataset", "model" and "outputs".
#include <string>

#include "sim/scenario/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

DatasetSpec read_dataset(const Json* value, Diagnostics& diags, Json& out) {
  DatasetSpec d;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/dataset", diags, out);
  d.name = r.choice("name", {"mnist", "fashion-mnist", "cifar10"}, "mnist").value_or(d.name);
  r.finish();
  return d;
}

ModelSpec read_model(const Json* value, Diagnostics& diags, Json& out) {
  ModelSpec m;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/model", diags, out);
  m.name = r.choice("name", {"mlp", "cnn"}, "mlp").value_or(m.name);
  r.finish();
  return m;
}

OutputSpec read_outputs(const Json* value, Diagnostics& diags, Json& out) {
  OutputSpec o;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/outputs", diags, out);
  if (const Json* dir = r.accept("dir")) {
    if (!dir->is_string() || dir->get_ref<const std::string&>().empty()) {
      r.wrong_type("dir", "a non-empty directory path (string)", *dir);
    } else {
      o.dir = dir->get<std::string>();
      out["dir"] = *o.dir;
    }
  }
  o.timeline = r.boolean("timeline", defaults::kTimeline).value_or(o.timeline);
  r.finish();
  return o;
}

}  // namespace hermes::scenario
