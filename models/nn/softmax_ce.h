// Softmax + categorical cross-entropy, fused: for logits z and label y,
//   loss = logsumexp(z) - z_y,   dloss/dz = softmax(z) - onehot(y).
// logsumexp is computed as m + log(sum exp(z - m)) with m = max z, so logits of any magnitude
// (e.g. +-1000) give finite, exact results. The gradient never forms log(softmax).
#pragma once

#include <cstdint>

namespace hermes::nn {

struct SoftmaxCeResult {
  double loss_sum = 0.0;  // sum over the batch of the per-sample losses
  int correct = 0;        // samples whose arg-max logit (first on ties) equals the label
};

// logits: `classes` x n, one sample per column (column-major). labels: n values < classes.
// If dlogits != nullptr it receives grad_scale * (softmax - onehot) (the model passes 1/n, the
// gradient of the batch-mean loss). dlogits may alias logits.
// Throws std::out_of_range for a label >= classes.
template <typename T>
SoftmaxCeResult softmax_cross_entropy(const T* logits, const std::uint8_t* labels, int classes,
                                      int n, T* dlogits, T grad_scale);

}  // namespace hermes::nn
