// The stop rule shared by every protocol (the reference's): patience on the global test loss.
// After each aggregation the PS evaluates the global model; a loss <= the best so far is an
// improvement (a tie counts, as in the reference), and the run stops after `patience`
// consecutive aggregations without one. The reported accuracy is the one at the best loss; with
// `first_sets_accuracy` false (the released code's best_acc), the first evaluation sets the best
// loss but not the accuracy, which stays 0 until a later evaluation at or below the best loss.
#pragma once

#include <cstdint>
#include <limits>

namespace hermes::protocols {

class StopRule {
 public:
  explicit StopRule(int patience, bool first_sets_accuracy = true)
      : patience_(patience), first_sets_accuracy_(first_sets_accuracy) {}

  // Records one evaluation; returns true if the run must stop (patience exhausted).
  bool observe(double loss, double accuracy) {
    const bool first = evaluations_++ == 0;
    if (loss <= best_loss_) {
      best_loss_ = loss;
      if (!first || first_sets_accuracy_) accuracy_at_best_ = accuracy;
      since_best_ = 0;
      improved_ = true;
    } else {
      ++since_best_;
      improved_ = false;
    }
    return since_best_ >= patience_;
  }

  double best_loss() const { return best_loss_; }
  double accuracy_at_best() const { return accuracy_at_best_; }
  int since_best() const { return since_best_; }
  bool last_improved() const { return improved_; }

 private:
  int patience_;
  bool first_sets_accuracy_;
  std::int64_t evaluations_ = 0;
  double best_loss_ = std::numeric_limits<double>::infinity();
  double accuracy_at_best_ = 0;
  int since_best_ = 0;
  bool improved_ = false;
};

}  // namespace hermes::protocols
