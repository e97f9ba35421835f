#include "sim/protocols/skeleton/barrier_round.h"

#include <algorithm>
#include <utility>

namespace hermes::protocols {

void BarrierRound::start(std::size_t workers, const std::function<bool(std::size_t)>& available) {
  member_.assign(workers, false);
  for (std::size_t w = 0; w < workers; ++w) member_[w] = available(w);
  working_on_.assign(workers, -1);
  open_ = false;
}

void BarrierRound::open_next(std::vector<bool> expected) {
  ++id_;
  expected_ = std::move(expected);
  arrived_.assign(member_.size(), false);
  waiting_for_ = static_cast<std::size_t>(std::count(expected_.begin(), expected_.end(), true));
  in_ = 0;
  open_ = waiting_for_ > 0;
  idle_ = !open_;
}

bool BarrierRound::arrive(std::size_t w) {
  arrived_[w] = true;
  ++in_;
  return --waiting_for_ == 0;
}

bool BarrierRound::depart(std::size_t w) {
  member_[w] = false;
  working_on_[w] = -1;
  if (!open_ || !expected_[w] || arrived_[w]) return false;
  expected_[w] = false;
  return --waiting_for_ == 0;
}

bool BarrierRound::rejoin(std::size_t w) {
  member_[w] = true;
  return !open_ && idle_;
}

}  // namespace hermes::protocols
