// Local SGD / FedAvg's PS-side math (docs/local_sgd.md): which workers take part in a round and
// how the PS turns their averaged change into the next global model.
//   - Partial participation (McMahan et al., "Communication-Efficient Learning of Deep Networks
//     from Decentralized Data", AISTATS 2017, Algorithm 1 FederatedAveraging: m <- max(C K, 1),
//     S_t <- a random set of m clients): a fraction C of the K workers available, drawn
//     uniformly without replacement from the run's own random stream.
//   - The outer step (Douillard et al., "DiLoCo: Distributed Low-Communication Training of
//     Language Models", arXiv 2311.08105): the mean change d of the round's models is an outer
//     gradient (-d), applied by SGD with Nesterov momentum mu and an outer learning rate eta, as
//     PyTorch's SGD(nesterov=True, dampening=0) applies a gradient:
//         m <- mu m + d;   w <- w + eta (d + mu m).
//     eta 1 and mu 0 is plain averaging (FedAvg, local SGD of Lin et al., ICLR 2020):
//     w <- w + d = the mean of the round's models.
// Pure: no simulator, no time, no I/O.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "base/random.h"

namespace hermes::protocols {

namespace local_sgd_defaults {
// H, the local steps between two averagings: the sources fix none (DiLoCo runs H = 500 for
// language models; Lin et al. study several H); 16 is hermes-sim's, a few averagings per pass of
// a 2500-sample chunk at batch 16 (docs/local_sgd.md).
inline constexpr int kLocalSteps = 16;
// C: every available worker takes part in every round (local SGD; FedAvg's C = 1).
inline constexpr double kParticipation = 1.0;
// eta and mu: plain averaging. DiLoCo's values are 0.7 and 0.9.
inline constexpr double kOuterLr = 1.0;
inline constexpr double kOuterMomentum = 0.0;
}  // namespace local_sgd_defaults

struct LocalSgdParams {
  int local_steps = local_sgd_defaults::kLocalSteps;           // H >= 1
  double participation = local_sgd_defaults::kParticipation;   // C in (0, 1]
  double outer_lr = local_sgd_defaults::kOuterLr;              // eta > 0
  double outer_momentum = local_sgd_defaults::kOuterMomentum;  // mu in [0, 1)
};

// std::invalid_argument naming the parameter and its range if one is out of it.
void check_local_sgd_params(const LocalSgdParams& params);

// How many of `available` workers take part in a round: max(1, floor(C K)) (McMahan et al.'s m),
// with 1e-9 of slack so that a C K that is an integer in decimal (0.29 x 100) is not rounded down
// by binary floating point; 0 when none is available.
std::size_t participant_count(double participation, std::size_t available);

// `count` of `candidates`, uniformly without replacement (a partial Fisher-Yates shuffle with
// `rng`'s unbiased integers), in ascending order. All of them, with no draw, when count >=
// candidates.size(): a run with C = 1 uses no random numbers.
std::vector<std::size_t> draw_participants(std::span<const std::size_t> candidates,
                                           std::size_t count, RandomStream& rng);

// The PS's outer step and its momentum buffer (the PS's state, saved with its checkpoints).
class OuterStep {
 public:
  // `params`: the model's size. lr and momentum as LocalSgdParams (not checked here).
  OuterStep(double lr, double momentum, std::size_t params);
  // eta 1 and mu 0: the global model becomes global + sum / k, as BSP's mean (the same float
  // operations: its models equal BSP's).
  bool plain() const { return plain_; }
  // Applies the mean of the k changes summed in `sum` to `global`.
  void apply(std::span<const float> sum, std::size_t k, std::span<float> global);
  std::span<const float> momentum() const { return momentum_; }
  void set_momentum(std::span<const float> m);

 private:
  float lr_;
  float mu_;
  bool plain_;
  std::vector<float> momentum_;  // m, in the direction of the models' change (empty if plain)
};

}  // namespace hermes::protocols
