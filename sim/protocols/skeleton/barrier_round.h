// The bookkeeping of a protocol whose PS works in rounds that wait for a set of workers (BSP's
// barrier, local SGD's round of participants), under churn (docs/churn.md): the workers the PS
// counts on (members), the round it has open, whom that round waits for and who is in, and which
// round each worker works on. The protocol keeps what it does with the updates (sums, timeouts,
// draws); this keeps the membership rules they share, so that BSP and local SGD cannot drift apart
// on who a round still waits for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace hermes::protocols {

class BarrierRound {
 public:
  // At the run's start or the PS's restart: counts on the workers available now, nobody works on
  // a round, no round is open (the previous one, if any, is gone with the PS).
  void start(std::size_t workers, const std::function<bool(std::size_t)>& available);

  // Opens the next round, waiting for `expected` (members only). A round that expects nobody is
  // not open and leaves the PS idle: it opens again when a worker comes back or is free.
  void open_next(std::vector<bool> expected);
  void close() { open_ = false; }

  std::int64_t id() const { return id_; }
  bool is_open() const { return open_; }
  bool idle() const { return idle_; }  // no round open and none being aggregated
  std::size_t in() const { return in_; }
  bool member(std::size_t w) const { return member_[w]; }
  const std::vector<bool>& members() const { return member_; }
  bool expected(std::size_t w) const { return expected_[w]; }
  bool arrived(std::size_t w) const { return arrived_[w]; }

  // Which round's model w works on; -1: it is free.
  std::int64_t working_on(std::size_t w) const { return working_on_[w]; }
  bool free(std::size_t w) const { return working_on_[w] < 0; }
  void assign(std::size_t w) { working_on_[w] = id_; }
  void release(std::size_t w) { working_on_[w] = -1; }

  // Whether an update of w made for round `round` counts: the round is still open and waits for
  // it. Otherwise it is late (the round timed out or w departed meanwhile).
  bool counts(std::size_t w, std::int64_t round) const {
    return open_ && id_ == round && expected_[w] && !arrived_[w];
  }
  // w's update is in; true when it was the last the round waited for.
  bool arrive(std::size_t w);
  // w departs: no longer counted on, it works on nothing, and the round stops waiting for it;
  // true when it was the last the round waited for.
  bool depart(std::size_t w);
  // w comes back and is counted on again; true when nobody was left, so that a round opens for it.
  bool rejoin(std::size_t w);

 private:
  std::vector<bool> member_;
  std::vector<std::int64_t> working_on_;
  std::int64_t id_ = 0;
  bool open_ = false;
  bool idle_ = false;
  std::vector<bool> expected_;  // the PS waits for an update of these workers
  std::vector<bool> arrived_;
  std::size_t waiting_for_ = 0;  // expected and not arrived
  std::size_t in_ = 0;           // updates in
};

}  // namespace hermes::protocols
