// A node's compute side: model time, jitter, burst credits and sequencing.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/cluster/node_compute.h"

namespace hermes::cluster {
namespace {

using engine::kSecond;
using engine::SimTime;

NodeProfile plain(double jitter_cv) {
  NodeProfile p;
  p.name = "Test";
  p.azure_name = "Standard_Test";
  p.vcpus = 2;
  p.memory_gib = 4;
  p.nic_mbps = 1000;
  p.compute = {2.0, 500, jitter_cv};
  return p;
}

TEST(NodeCompute, NonBurstableWithoutJitterIsExact) {
  NodeCompute node(plain(0), RandomStream(1, 0));
  EXPECT_FALSE(node.burstable());
  EXPECT_FALSE(node.credits_at(0).has_value());
  // 100 x 0.5 ms + 4 GFLOP / 2 GFLOP/s = 2.05 s.
  EXPECT_EQ(node.run_job(kSecond, 4e9, 100), kSecond + 2'050'000'000);
  EXPECT_EQ(node.last_job().jitter, 1.0);
  EXPECT_EQ(node.last_job().work_ns, 2'050'000'000);
  EXPECT_EQ(node.last_job().throttled_extra_ns, 0);
  EXPECT_EQ(node.busy_until(), 3'050'000'000);
  EXPECT_THROW(node.run_job(3'000'000'000, 1, 1), std::logic_error);
  EXPECT_EQ(node.run_job(3'050'000'000, TrainingJob{0, 0}), 3'050'000'000);
  EXPECT_EQ(node.jobs_run(), 2);
  EXPECT_THROW(node.run_job(4 * kSecond, -1.0, 1), std::invalid_argument);
}

TEST(NodeCompute, JitterIsOneDrawPerJobAndSeeded) {
  NodeCompute a(plain(0.05), RandomStream::named(9, "compute-jitter", 4));
  NodeCompute b(plain(0.05), RandomStream::named(9, "compute-jitter", 4));
  NodeCompute other(plain(0.05), RandomStream::named(9, "compute-jitter", 5));
  const ComputeJitter model(0.05);
  RandomStream mirror = RandomStream::named(9, "compute-jitter", 4);
  SimTime ta = 0, tb = 0, to = 0;
  for (int i = 0; i < 50; ++i) {
    const SimTime start = ta;
    ta = a.run_job(ta, 4e9, 100);
    tb = b.run_job(tb, 4e9, 100);
    to = other.run_job(to, 4e9, 100);
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
  NodeCompute node(p, RandomStream(1, 0));
  ASSERT_TRUE(node.burstable());
  EXPECT_EQ(*node.credits_at(0), 30.0);
  // 3600 GFLOP at 1 GFLOP/s = 60 min of work => 37.5 min full + 112.5 min at 20% = 150 min.
  const SimTime end = node.run_job(0, 3600e9, 0);
  EXPECT_EQ(end, 150 * 60 * kSecond);
  EXPECT_EQ(node.last_job().throttled_extra_ns, 90 * 60 * kSecond);
  EXPECT_EQ(*node.credits_at(end), 0.0);
  EXPECT_DOUBLE_EQ(*node.credits_at(end + 3600 * kSecond), 12.0);
}

}  // namespace
}  // namespace hermes::cluster
