// The "model" section: a preset by name, or the scenario's own layer list, checked layer by layer
// against the dataset's samples and classes before anything runs (docs/models.md).
#include <algorithm>
#include <string>

#include "models/data/data_dir.h"
#include "models/nn/layer_plan.h"
#include "models/nn/zoo.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/run_names.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

using config::KeyType;

namespace {

const std::vector<std::string>& layer_types() {
  static const std::vector<std::string> types = {"dense", "relu", "conv2d", "maxpool", "flatten"};
  return types;
}

// The keys a layer of `type` takes besides "type".
std::vector<std::string> keys_of(const std::string& type) {
  if (type == "dense") return {"units"};
  if (type == "conv2d") return {"filters", "kernel"};
  if (type == "maxpool") return {"size"};
  return {};
}

const std::string kUnitsAccepted = "an integer from 1 to " + std::to_string(nn::kMaxLayerWidth) +
                                   ", or \"classes\" (the dataset's class count)";

// One layer of the list; nullopt (reported) if it is not a layer.
std::optional<nn::LayerSpec> read_layer(const Json& value, const std::string& path, int classes,
                                        Diagnostics& diags, Json& out) {
  ObjectReader r(value, path, diags, out, layer_decl());
  if (!r.is_object()) return std::nullopt;
  const std::size_t errors_before = diags.count();
  const auto type = r.choice("type", layer_types(), std::nullopt);
  std::optional<nn::LayerSpec> layer;
  if (type) {
    // A key of another type's layer: named with what this type takes.
    const std::vector<std::string> own = keys_of(*type);
    for (const std::string key : {"units", "filters", "kernel", "size"}) {
      if (std::find(own.begin(), own.end(), key) != own.end() || !r.has(key)) continue;
      r.accept(key);
      r.error(key, "a " + *type + " layer takes no " + key + " (accepted keys of a " + *type +
                       " layer: type" + (own.empty() ? "" : ", " + join_strings(own)) + ")");
    }
    if (*type == "dense") {
      const Json* units = r.accept("units");
      if (units == nullptr) {
        r.missing("units");
      } else if (units->is_string() && units->get<std::string>() == "classes") {
        layer = nn::LayerSpec::dense(classes);
        r.out()["units"] = *units;
      } else if (units->is_number_integer() && units->get<std::int64_t>() >= 1 &&
                 units->get<std::int64_t>() <= nn::kMaxLayerWidth) {
        layer = nn::LayerSpec::dense(units->get<int>());
        r.out()["units"] = *units;
      } else {
        r.wrong_type("units", kUnitsAccepted, *units);
      }
    } else if (*type == "conv2d") {
      const auto filters =
          r.int32("filters", std::nullopt, Range::at_least(1).up_to(nn::kMaxLayerWidth));
      const auto kernel = r.int32("kernel", std::nullopt, Range::at_least(1).up_to(1024));
      if (filters && kernel) layer = nn::LayerSpec::conv2d(*filters, *kernel);
    } else if (*type == "maxpool") {
      if (r.int32("size", 2, Range::at_least(2).up_to(2))) layer = nn::LayerSpec::maxpool2();
    } else if (*type == "relu") {
      layer = nn::LayerSpec::relu();
    } else {
      layer = nn::LayerSpec::flatten();
    }
  }
  r.finish();
  if (diags.count() != errors_before) return std::nullopt;
  return layer;
}

}  // namespace

const ObjectDecl& model_decl() {
  static const ObjectDecl decl{
      "model",
      {{.key = "name",
        .type = KeyType::kString,
        .default_text = "mlp (with layers: custom)",
        .accepted = "mlp or cnn without layers; with layers, a name of letters, digits, '.', '_' "
                    "and '-' other than mlp and cnn",
        .help = "mlp: 784-128-64-10, the reference's MNIST model; cnn: a small conv net; or the "
                "name of the layer list below",
        .computed_default = true},
       {.key = "layers",
        .type = KeyType::kArray,
        .default_text = "none (the preset's)",
        .accepted = "a non-empty list of layers (model.layers[])",
        .help = "your own model, first layer first; its last layer outputs one logit per class"},
       {.key = "init",
        .type = KeyType::kChoice,
        .default_text = "glorot_uniform",
        .choices = {"glorot_uniform", "he_uniform"},
        .help =
            "the weights' initialiser (biases start at 0): Keras' default, or He et al. 2015"}}};
  return decl;
}

const ObjectDecl& layer_decl() {
  static const ObjectDecl decl{
      "model.layers[]",
      {{.key = "type",
        .type = KeyType::kChoice,
        .default_text = "required",
        .choices = layer_types(),
        .help = "dense (fully connected, on the input as one vector), relu, conv2d ('valid', "
                "stride 1, channels last), maxpool (2x2, stride 2), flatten"},
       {.key = "units",
        .type = KeyType::kAny,
        .default_text = "required for dense",
        .accepted = kUnitsAccepted,
        .help = "dense: its output values",
        .computed_default = true},
       {.key = "filters",
        .type = KeyType::kInteger,
        .default_text = "required for conv2d",
        .range = Range::at_least(1).up_to(nn::kMaxLayerWidth),
        .help = "conv2d: its output channels",
        .computed_default = true},
       {.key = "kernel",
        .type = KeyType::kInteger,
        .default_text = "required for conv2d",
        .range = Range::at_least(1).up_to(1024),
        .help = "conv2d: the side of its square kernel",
        .computed_default = true},
       {.key = "size",
        .type = KeyType::kInteger,
        .default_text = "2",
        .range = Range::at_least(2).up_to(2),
        .help = "maxpool: the side of its square window, which is also its stride"}}};
  return decl;
}

ModelSpec read_model(const Json* value, const DatasetSpec& dataset, bool dataset_ok,
                     Diagnostics& diags, Json& out) {
  ModelSpec m;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/model", diags, out, model_decl());
  const data::DatasetFiles* data = dataset_ok ? &dataset.files : nullptr;
  const Json* layers = r.accept("layers");
  const std::size_t errors_before = diags.count();
  const auto name = r.string("name", layers != nullptr ? "custom" : "mlp");
  const bool preset_name = name && (*name == "mlp" || *name == "cnn");
  if (name && layers == nullptr && !preset_name) {
    r.error("name",
            "'" + *name + "' is no preset (accepted: mlp, cnn, or a name for your own \"layers\")");
  } else if (name && layers != nullptr && preset_name) {
    r.error("name", "'" + *name + "' is a preset's name; a layer list needs its own (accepted: " +
                        std::string(kNameRule) + ", other than mlp and cnn)");
  } else if (name && !is_valid_name(*name)) {
    r.error("name",
            "invalid model name '" + *name + "' (accepted: " + std::string(kNameRule) + ")");
  } else if (name) {
    m.name = *name;
  }
  if (r.has("init")) {
    if (r.choice("init", {"glorot_uniform", "he_uniform"}, std::nullopt).value_or("") ==
        "he_uniform") {
      m.init = nn::Init::kHeUniform;
    }
  }
  if (layers != nullptr) {
    const int classes = data != nullptr ? data->classes : 10;
    Json& list = out["layers"] = Json::array();
    if (!layers->is_array() || layers->empty()) {
      r.wrong_type("layers", "a non-empty list of layers", *layers);
    } else {
      bool all_read = true;
      for (std::size_t i = 0; i < layers->size(); ++i) {
        const auto layer = read_layer((*layers)[i], "/model/layers/" + std::to_string(i), classes,
                                      diags, list.emplace_back(Json::object()));
        if (layer) m.layers.push_back(*layer);
        all_read = all_read && layer.has_value();
      }
      // Shapes only for a whole list: one that lost a layer to an error would misfit at once.
      if (all_read && data != nullptr && diags.count() == errors_before) {
        nn::ModelSpec spec{m.name,
                           nn::Shape{data->shape.channels, data->shape.height, data->shape.width,
                                     nn::Layout::kCHW},
                           data->classes, m.layers, m.init};
        try {
          nn::plan_layers(spec);
        } catch (const nn::LayerError& e) {
          diags.error("/model/layers/" + std::to_string(e.layer()),
                      std::string(e.what()) + " (model " + m.name + " on " + dataset.name + ", " +
                          data->shape.str() + " samples)");
        }
      }
    }
  }
  r.finish();
  return m;
}

}  // namespace hermes::scenario
