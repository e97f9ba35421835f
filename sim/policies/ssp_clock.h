// Stale Synchronous Parallel clock bookkeeping (docs/paper.md, "The baselines", SSP(s)).
// Worker w's clock c_w counts its completed iterations (pushes). It may start its next iteration
// only if c_w - min_j c_j <= s; otherwise it blocks until the slowest worker advances. s = 0 is a
// barrier (BSP), a huge s is ASP. Pure bookkeeping: no simulator, no network.
//
// Usage: when worker w finishes an iteration call advance(w); it returns the blocked workers that
// may now start, in increasing worker order (deterministic wake-up). Then ask try_start(w): true
// means w starts its next iteration now, false means w is now blocked and will be returned by a
// later advance(). A started worker's clock never exceeds min + s + 1 once it completes, so the
// spread max - min never exceeds s + 1.
// Choices:
//   - Blocked workers are woken only by a rise of the minimum clock: their own clock is frozen
//     while they wait, so nothing else can unblock them. advance() therefore costs O(1) unless the
//     minimum rises, and then O(n).
//   - advance() of a blocked worker, or try_start() of an already blocked one, is a caller bug:
//     std::logic_error. A worker index out of range: std::out_of_range.
//   - Churn (docs/churn.md): remove(w) leaves a departed worker's clock out of the minimum until
//     add(w) brings it back, at the minimum of the others (it restarts from the current global
//     model, so it is no staler than the slowest). Meanwhile advance(w) is a no-op (an update it
//     pushed before leaving) and try_start(w) is false.
#pragma once

#include <cstdint>
#include <vector>

namespace hermes::protocols {

class SspClocks {
 public:
  // workers >= 1, staleness >= 0; otherwise std::invalid_argument.
  SspClocks(int workers, std::int64_t staleness);

  // c_w - min_j c_j <= s.
  bool may_start(int w) const;
  // may_start(w), else w is recorded as blocked. Returns whether w may start now.
  bool try_start(int w);
  // c_w += 1 (w finished an iteration). Returns the blocked workers that may start now, ascending;
  // they are no longer recorded as blocked.
  std::vector<int> advance(int w);
  // w departed: out of the bound. Returns the blocked workers that may start now, ascending.
  std::vector<int> remove(int w);
  // w is back with clock = the minimum of the others (its own if it is the only one).
  void add(int w);
  bool is_live(int w) const { return live_.at(static_cast<std::size_t>(w)); }

  std::int64_t clock(int w) const { return clocks_.at(static_cast<std::size_t>(w)); }
  std::int64_t min_clock() const { return min_; }
  std::int64_t max_clock() const { return max_; }
  bool is_blocked(int w) const { return blocked_.at(static_cast<std::size_t>(w)); }
  int blocked_count() const { return blocked_count_; }
  int workers() const { return static_cast<int>(clocks_.size()); }
  std::int64_t staleness() const { return staleness_; }

 private:
  std::size_t index(int w) const;
  // min_, max_ and at_min_ over the live workers, then the blocked ones within the bound woken.
  std::vector<int> recount();

  std::int64_t staleness_;
  std::vector<std::int64_t> clocks_;
  std::vector<bool> blocked_;
  std::vector<bool> live_;
  int blocked_count_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
  int at_min_ = 0;  // workers whose clock equals min_
};

}  // namespace hermes::protocols
