// The models the simulator trains.
//
// "mlp" (the paper's MNIST model): flatten -> dense 128 relu -> dense 64 relu -> dense 10
//   (softmax in the loss). On 1x28x28 input: 784*128+128 + 128*64+64 + 64*10+10 = 109,386 params;
//   FLOPs/sample: 218,570 forward, 454,804 training.
//
// "cnn" (the CIFAR-10 model; the paper does not publish one): 'valid' 3x3 convs, Keras-style
//   conv 32 3x3 relu -> maxpool 2 -> conv 64 3x3 relu -> maxpool 2 -> flatten -> dense 64 relu
//   -> dense 10. On 3x32x32: 32x30x30 -> 32x15x15 -> 64x13x13 -> 64x6x6 = 2304 -> 64 -> 10;
//   params 896 + 18,496 + 147,520 + 650 = 167,562. FLOPs/sample: 8.12 M forward, 22.77 M
//   training (see Model::flops_*). Chosen so that one Hermes chunk (2125 samples x 5 epochs at
//   batch 16) trains in a few seconds on one core and reaches > 60% on CIFAR-10.
// Both are sized from the dataset's sample shape, so either runs on MNIST or CIFAR-10.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/nn/model.h"
#include "models/nn/model_spec.h"

namespace hermes::data {
struct Dataset;
}

namespace hermes::nn {

ModelSpec mlp_spec(Shape input = {1, 28, 28, Layout::kCHW}, int num_classes = 10);
ModelSpec cnn_spec(Shape input = {3, 32, 32, Layout::kCHW}, int num_classes = 10);

// Accepted model names.
std::vector<std::string> model_names();
// "mlp" or "cnn" sized for `dataset`'s samples and classes. Throws hermes::InputError naming the
// accepted values for an unknown name.
ModelSpec model_spec(const std::string& name, const data::Dataset& dataset);
// The model the paper pairs with a dataset: mnist / fashion-mnist -> "mlp", cifar10 -> "cnn".
// Throws hermes::InputError for other names.
std::string default_model_for(const std::string& dataset_name);

// A model of `spec` initialised from RandomStream::named(seed, "nn-init").
Model make_model(const ModelSpec& spec, std::uint64_t seed);

}  // namespace hermes::nn
