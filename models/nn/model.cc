#include "models/nn/model.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "models/nn/layer_plan.h"

namespace hermes::nn {

template <typename T>
BasicModel<T>::BasicModel(ModelSpec spec) : spec_(std::move(spec)) {
  build();
}

template <typename T>
BasicModel<T>::BasicModel(const BasicModel& other) : spec_(other.spec_) {
  build();
  params_ = other.params_;
}

template <typename T>
BasicModel<T>& BasicModel<T>::operator=(const BasicModel& other) {
  if (this == &other) return *this;
  if (spec_ == other.spec_) {
    std::copy(other.params_.begin(), other.params_.end(), params_.begin());
  } else {
    *this = BasicModel(other);
  }
  return *this;
}

template <typename T>
BasicModel<T>::~BasicModel() = default;

template <typename T>
void BasicModel<T>::build() {
  if (spec_.input.size() == 0) throw std::invalid_argument("model: empty input shape");
  if (spec_.layers.empty()) throw std::invalid_argument("model '" + spec_.name + "': no layers");
  Shape shape = spec_.input;
  std::size_t total = 0;
  for (const LayerSpec& ls : spec_.layers) {
    std::unique_ptr<Layer<T>> layer = make_layer<T>(ls, shape, spec_.init);
    shape = layer->out_shape();
    offsets_.push_back(total);
    total += layer->num_params();
    layers_.push_back(std::move(layer));
  }
  if (shape.size() != static_cast<std::size_t>(spec_.num_classes)) {
    throw std::invalid_argument("model '" + spec_.name + "': last layer outputs " + shape.str() +
                                " values, expected " + std::to_string(spec_.num_classes) +
                                " class logits");
  }
  bool params_below = false;
  for (const auto& layer : layers_) {
    needs_dx_.push_back(params_below);
    params_below = params_below || layer->num_params() > 0;
  }
  params_.assign(total, T(0));
  grads_.assign(total, T(0));
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    layers_[i]->bind(params_.data() + offsets_[i], grads_.data() + offsets_[i]);
  }
}

template <typename T>
void BasicModel<T>::init_params(RandomStream& rng) {
  for (auto& layer : layers_) layer->init_params(rng);
}

template <typename T>
void BasicModel<T>::set_params(std::span<const T> p) {
  if (p.size() != params_.size()) {
    throw std::invalid_argument("set_params: got " + std::to_string(p.size()) + " values, model '" +
                                spec_.name + "' has " + std::to_string(params_.size()));
  }
  std::copy(p.begin(), p.end(), params_.begin());
}

template <typename T>
double BasicModel<T>::flops_forward_per_sample() const {
  double f = 0.0;
  for (const auto& layer : layers_) f += layer->flops_forward();
  return f;
}

template <typename T>
double BasicModel<T>::flops_train_per_sample() const {
  double f = flops_forward_per_sample();
  for (std::size_t i = 0; i < layers_.size(); ++i) f += layers_[i]->flops_backward(needs_dx_[i]);
  return f;
}

template <typename T>
void BasicModel<T>::reserve_batch(int capacity) {
  if (capacity <= 0) throw std::invalid_argument("reserve_batch: capacity must be > 0");
  if (capacity <= capacity_) return;
  release_workspace();
  capacity_ = capacity;
  const auto cap = static_cast<std::size_t>(capacity);
  input_.assign(input_dim() * cap, T(0));
  std::size_t max_act = input_dim();
  act_storage_.resize(layers_.size());
  out_.assign(layers_.size(), nullptr);
  T* prev = input_.data();
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    Layer<T>& layer = *layers_[i];
    layer.reserve(capacity);
    const std::size_t out_size = layer.out_shape().size();
    max_act = std::max(max_act, out_size);
    if (layer.in_place()) {
      out_[i] = prev;
    } else {
      act_storage_[i].assign(out_size * cap, T(0));
      out_[i] = act_storage_[i].data();
    }
    prev = out_[i];
  }
  grad_a_.assign(max_act * cap, T(0));
  grad_b_.assign(max_act * cap, T(0));
}

template <typename T>
void BasicModel<T>::release_workspace() {
  capacity_ = 0;
  std::vector<T>().swap(input_);
  for (auto& a : act_storage_) std::vector<T>().swap(a);
  out_.assign(layers_.size(), nullptr);
  std::vector<T>().swap(grad_a_);
  std::vector<T>().swap(grad_b_);
  for (auto& layer : layers_) layer->release();
}

template <typename T>
std::size_t BasicModel<T>::workspace_bytes() const {
  std::size_t n = input_.capacity() + grad_a_.capacity() + grad_b_.capacity();
  for (const auto& a : act_storage_) n += a.capacity();
  return n * sizeof(T);
}

template <typename T>
void BasicModel<T>::check_batch(int n) const {
  if (n <= 0 || n > capacity_) {
    throw std::logic_error("model: batch of " + std::to_string(n) +
                           " samples outside reserved capacity " + std::to_string(capacity_));
  }
}

template <typename T>
const T* BasicModel<T>::forward(int n) {
  check_batch(n);
  const T* x = input_.data();
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    layers_[i]->forward(x, out_[i], n);
    x = out_[i];
  }
  return x;
}

template <typename T>
SoftmaxCeResult BasicModel<T>::forward_backward(const std::uint8_t* labels, int n) {
  const T* logits = forward(n);
  T* dy = grad_a_.data();
  const SoftmaxCeResult r =
      softmax_cross_entropy(logits, labels, spec_.num_classes, n, dy, T(1) / static_cast<T>(n));
  for (std::size_t i = layers_.size(); i-- > 0;) {
    Layer<T>& layer = *layers_[i];
    T* dx = nullptr;
    if (needs_dx_[i]) {
      dx = layer.in_place() ? dy : (dy == grad_a_.data() ? grad_b_.data() : grad_a_.data());
    }
    const T* x = i > 0 ? out_[i - 1] : input_.data();
    layer.backward(x, out_[i], dy, dx, n);
    if (dx == nullptr) break;  // nothing below has parameters
    dy = dx;
  }
  return r;
}

template <typename T>
SoftmaxCeResult BasicModel<T>::forward_loss(const std::uint8_t* labels, int n) {
  const T* logits = forward(n);
  return softmax_cross_entropy(logits, labels, spec_.num_classes, n, static_cast<T*>(nullptr),
                               T(0));
}

template <typename T>
void BasicModel<T>::sgd_step(T lr) {
  T* p = params_.data();
  const T* g = grads_.data();
  for (std::size_t i = 0; i < params_.size(); ++i) p[i] = p[i] - lr * g[i];
}

template <typename T>
void BasicModel<T>::sgd_step(T lr, T momentum, T weight_decay) {
  if (momentum == T(0) && weight_decay == T(0)) {
    sgd_step(lr);
    return;
  }
  T* p = params_.data();
  const T* g = grads_.data();
  if (momentum == T(0)) {
    for (std::size_t i = 0; i < params_.size(); ++i)
      p[i] = p[i] - lr * (g[i] + weight_decay * p[i]);
    return;
  }
  if (velocity_.size() != params_.size()) velocity_.assign(params_.size(), T(0));
  T* v = velocity_.data();
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const T d = g[i] + weight_decay * p[i];
    v[i] = momentum * v[i] + d;
    p[i] = p[i] - lr * v[i];
  }
}

template <typename T>
std::string BasicModel<T>::summary() const {
  std::ostringstream os;
  os << spec_.name << ": input " << spec_.input.str() << ", " << num_params() << " parameters\n";
  for (const auto& layer : layers_) {
    os << "  " << layer->name()
       << std::string(layer->name().size() < 16 ? 16 - layer->name().size() : 1, ' ') << "-> "
       << layer->out_shape().str() << ", " << layer->num_params() << " params\n";
  }
  return os.str();
}

template class BasicModel<float>;
template class BasicModel<double>;

}  // namespace hermes::nn
