// The stop rule shared by every protocol (the reference's): patience on the global test loss.
// After each aggregation the PS evaluates the global model; a loss <= the best so far is an
// improvement (a tie counts, as in the reference), and the run stops once `patience` has passed
// without one. With `first_sets_accuracy` false (the released code's best_acc), the first
// evaluation sets the best loss but not the accuracy, which stays 0 until a later evaluation at or
// below the best loss. The reported accuracy is the one at the best loss.
//
// What "patience has passed" counts is the scenario's training.stop.patience_unit: evaluations
// (the reference), rounds or simulated seconds. The rule is told, at each evaluation, the run's
// position in that unit as an integer (evaluations done, updates applied or barriers passed,
// nanoseconds), and stops when the position is `threshold` past the position of the best
// evaluation: integers, so that 25 rounds of 12 updates are exactly 300 updates.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace hermes::protocols {

class StopRule {
 public:
  // `threshold`: patience in the position's integer unit (patience evaluations, patience x n
  // updates, patience barriers, patience x 1e9 ns).
  explicit StopRule(std::int64_t threshold, bool first_sets_accuracy = true)
      : threshold_(threshold), first_sets_accuracy_(first_sets_accuracy) {}

  // Records one evaluation at `position`; returns true if the run must stop (patience
  // exhausted). Without a position, the evaluation's own count is the position (evaluations).
  bool observe(double loss, double accuracy, std::optional<std::int64_t> position = {}) {
    const bool first = evaluations_++ == 0;
    const std::int64_t at = position.value_or(evaluations_);
    if (loss <= best_loss_) {
      best_loss_ = loss;
      if (!first || first_sets_accuracy_) accuracy_at_best_ = accuracy;
      since_best_ = 0;
      best_at_ = at;
      improved_ = true;
    } else {
      ++since_best_;
      improved_ = false;
    }
    since_best_position_ = at - best_at_;
    return since_best_position_ >= threshold_;
  }

  double best_loss() const { return best_loss_; }
  double accuracy_at_best() const { return accuracy_at_best_; }
  int since_best() const { return since_best_; }  // evaluations since the best
  std::int64_t since_best_position() const { return since_best_position_; }
  std::int64_t threshold() const { return threshold_; }
  bool last_improved() const { return improved_; }

 private:
  std::int64_t threshold_;
  bool first_sets_accuracy_;
  std::int64_t evaluations_ = 0;
  double best_loss_ = std::numeric_limits<double>::infinity();
  double accuracy_at_best_ = 0;
  int since_best_ = 0;
  std::int64_t best_at_ = 0;
  std::int64_t since_best_position_ = 0;
  bool improved_ = false;
};

}  // namespace hermes::protocols
