// A node's compute side: model time, jitter, burst credits and sequencing.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/cluster/node_compute.h"
#include "sim/engine/simulator.h"
#include "tests/cluster/test_profile.h"

namespace hermes::cluster {
namespace {

using engine::kSecond;
using engine::SimTime;
using namespace engine::time_literals;

// Starts a job now and returns its end, as the node predicts it when it starts.
SimTime start_job(
    NodeCompute& node, double flops, std::int64_t steps,
    NodeCompute::OnEnd on_end = [](engine::ActivityOutcome) {}) {
  node.start({flops, steps}, std::move(on_end));
  return node.last_job().end;
}

NodeProfile plain(double jitter_cv) { return testing::test_profile(2, {2.0, 500, jitter_cv}); }

TEST(NodeCompute, NonBurstableWithoutJitterIsExact) {
  engine::Simulator sim;
  NodeCompute node(sim, plain(0), RandomStream(1, 0));
  EXPECT_FALSE(node.burstable());
  EXPECT_FALSE(node.credits_at(0_ns).has_value());
  sim.run_until(kSecond);
  // 100 x 0.5 ms + 4 GFLOP / 2 GFLOP/s = 2.05 s.
  std::vector<SimTime> done;
  EXPECT_EQ(start_job(node, 4e9, 100, [&](engine::ActivityOutcome) { done.push_back(sim.now()); }),
            kSecond + 2'050'000'000_ns);
  EXPECT_EQ(node.last_job().start, kSecond);
  EXPECT_EQ(node.last_job().jitter, 1.0);
  EXPECT_EQ(node.last_job().work_ns, 2'050'000'000_ns);
  EXPECT_EQ(node.last_job().throttled_extra_ns, 0_ns);
  EXPECT_EQ(node.busy_until(), 3'050'000'000_ns);
  EXPECT_TRUE(done.empty());  // never from inside start
  // A job started while the node is busy waits for the one before it.
  sim.run_until(3'000'000'000_ns);
  EXPECT_EQ(node.next_start(), 3'050'000'000_ns);
  EXPECT_EQ(
      node.start(TrainingJob{0, 0}, [&](engine::ActivityOutcome) { done.push_back(sim.now()); }),
      2u);
  EXPECT_EQ(node.last_job().start, 3'050'000'000_ns);
  EXPECT_EQ(node.last_job().end, 3'050'000'000_ns);
  EXPECT_EQ(node.jobs_run(), 2);
  EXPECT_THROW(start_job(node, -1.0, 1), std::invalid_argument);
  EXPECT_EQ(node.jobs_run(), 2);
  sim.run();
  EXPECT_EQ(done, (std::vector<SimTime>{3'050'000'000_ns, 3'050'000'000_ns}));
  EXPECT_EQ(node.next_start(), 3'050'000'000_ns);
}

TEST(NodeCompute, JitterIsOneDrawPerJobAndSeeded) {
  engine::Simulator sim;
  NodeCompute a(sim, plain(0.05), RandomStream::named(9, "compute-jitter", 4));
  NodeCompute b(sim, plain(0.05), RandomStream::named(9, "compute-jitter", 4));
  NodeCompute other(sim, plain(0.05), RandomStream::named(9, "compute-jitter", 5));
  const ComputeJitter model(0.05);
  RandomStream mirror = RandomStream::named(9, "compute-jitter", 4);
  SimTime ta{}, tb{}, to{};
  for (int i = 0; i < 50; ++i) {
    const SimTime start = ta;
    ta = start_job(a, 4e9, 100);
    tb = start_job(b, 4e9, 100);
    to = start_job(other, 4e9, 100);
    const double j = model.draw(mirror);
    EXPECT_EQ(a.last_job().jitter, j);
    EXPECT_EQ(ta - start, engine::from_seconds(2.05 * j));
  }
  EXPECT_EQ(ta, tb);
  EXPECT_NE(ta, to);
}

TEST(NodeCompute, B1msProfileThrottlesOnceCreditsRunOut) {
  NodeProfile p = plain(0);
  p.vcpus = 1;
  p.compute = {1.0, 0, 0};
  p.burst = BurstSpec{20, 12, 288, 30};
  engine::Simulator sim;
  NodeCompute node(sim, p, RandomStream(1, 0));
  ASSERT_TRUE(node.burstable());
  EXPECT_EQ(*node.credits_at(0_ns), 30.0);
  // 3600 GFLOP at 1 GFLOP/s = 60 min of work => 37.5 min full + 112.5 min at 20% = 150 min.
  SimTime ended = -1_ns;
  const SimTime end =
      start_job(node, 3600e9, 0, [&](engine::ActivityOutcome) { ended = sim.now(); });
  EXPECT_EQ(end, 150 * 60 * kSecond);
  EXPECT_EQ(node.last_job().throttled_extra_ns, 90 * 60 * kSecond);
  EXPECT_EQ(*node.credits_at(end), 0.0);
  EXPECT_DOUBLE_EQ(*node.credits_at(end + 3600 * kSecond), 12.0);
  sim.run();
  EXPECT_EQ(ended, end);
}

}  // namespace
}  // namespace hermes::cluster
