#include "models/nn/zoo.h"

#include "base/diagnostics.h"
#include "base/random.h"
#include "models/data/dataset.h"

namespace hermes::nn {

ModelSpec mlp_spec(Shape input, int num_classes) {
  input.layout = Layout::kCHW;
  return ModelSpec{"mlp",
                   input,
                   num_classes,
                   {LayerSpec::flatten(), LayerSpec::dense(128), LayerSpec::relu(),
                    LayerSpec::dense(64), LayerSpec::relu(), LayerSpec::dense(num_classes)},
                   Init::kGlorotUniform};
}

ModelSpec cnn_spec(Shape input, int num_classes) {
  input.layout = Layout::kCHW;
  return ModelSpec{
      "cnn",
      input,
      num_classes,
      {LayerSpec::conv2d(32, 3), LayerSpec::relu(), LayerSpec::maxpool2(), LayerSpec::conv2d(64, 3),
       LayerSpec::relu(), LayerSpec::maxpool2(), LayerSpec::flatten(), LayerSpec::dense(64),
       LayerSpec::relu(), LayerSpec::dense(num_classes)},
      Init::kGlorotUniform};
}

std::vector<std::string> model_names() { return {"mlp", "cnn"}; }

ModelSpec model_spec(const std::string& name, const data::Dataset& dataset) {
  const Shape input{dataset.channels, dataset.height, dataset.width, Layout::kCHW};
  if (name == "mlp") return mlp_spec(input, dataset.num_classes);
  if (name == "cnn") return cnn_spec(input, dataset.num_classes);
  throw InputError("--model: unknown model '" + name + "'; accepted: mlp, cnn");
}

std::string default_model_for(const std::string& dataset_name) {
  if (dataset_name == "mnist" || dataset_name == "fashion-mnist") return "mlp";
  if (dataset_name == "cifar10") return "cnn";
  throw InputError("--dataset: unknown dataset '" + dataset_name +
                   "'; accepted: mnist, fashion-mnist, cifar10");
}

Model make_model(const ModelSpec& spec, std::uint64_t seed) {
  Model model(spec);
  RandomStream rng = RandomStream::named(seed, "nn-init");
  model.init_params(rng);
  return model;
}

}  // namespace hermes::nn
