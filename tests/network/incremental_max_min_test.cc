#include "sim/network/incremental_max_min.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "base/random.h"

namespace hermes::network {
namespace {

// The reference: a fresh full solve of every present flow, listed in reverse key order (the
// incremental update lists its components' flows in walk order; the bits must not care).
std::vector<double> full_solve(const std::vector<double>& capacity,
                               const std::vector<std::vector<LinkId>>& routes,
                               const std::vector<bool>& present) {
  MaxMinSolver solver(capacity);
  std::vector<const std::vector<LinkId>*> listed;
  std::vector<std::size_t> keys;
  for (std::size_t k = routes.size(); k-- > 0;) {
    if (!present[k]) continue;
    listed.push_back(&routes[k]);
    keys.push_back(k);
  }
  std::vector<double> rates;
  solver.solve(listed, rates);
  std::vector<double> by_key(routes.size(), 0.0);
  for (std::size_t i = 0; i < keys.size(); ++i) by_key[keys[i]] = rates[i];
  return by_key;
}

// Random flow sets on a few links (so components merge and split), with capacities that are
// often equal (ties between links' shares), sometimes 0 (lost links), changed as flows come and
// go: after every batch of changes each present flow's rate equals the full solve's to the bit.
TEST(IncrementalMaxMin, SameRatesToTheBitAsAFullSolveOnRandomFlowSets) {
  std::size_t compared = 0, partial_solves = 0;
  for (std::uint64_t trial = 0; trial < 60; ++trial) {
    RandomStream rng(trial, 7);
    const std::size_t links = 2 + rng.uniform_int(14);
    const double choices[] = {0.0, 1.0, 3.0, 3.0, 10.0, 1.25e8, 1.25e9, 0.1};
    std::vector<double> capacity(links);
    for (double& c : capacity)
      c = choices[rng.uniform_int(8)] * static_cast<double>(1 + rng.uniform_int(3));
    const std::size_t keys = 1 + rng.uniform_int(40);
    std::vector<std::vector<LinkId>> routes(keys);
    std::vector<bool> present(keys, false);
    for (auto& r : routes) {
      const std::size_t length = 1 + rng.uniform_int(std::min<std::size_t>(4, links));
      while (r.size() < length) {
        const auto l = static_cast<LinkId>(rng.uniform_int(links));
        if (std::find(r.begin(), r.end(), l) == r.end()) r.push_back(l);
      }
    }
    IncrementalMaxMin inc(capacity, MaxMinUpdate::kIncremental);
    for (int step = 0; step < 80; ++step) {
      const std::size_t changes = 1 + rng.uniform_int(3);
      for (std::size_t c = 0; c < changes; ++c) {
        const std::uint64_t what = rng.uniform_int(10);
        if (what < 8) {
          const std::size_t k = rng.uniform_int(keys);
          if (present[k]) {
            inc.remove(static_cast<std::uint32_t>(k));
          } else {
            inc.add(static_cast<std::uint32_t>(k), &routes[k]);
          }
          present[k] = !present[k];
        } else {
          const auto l = static_cast<LinkId>(rng.uniform_int(links));
          capacity[l] = choices[rng.uniform_int(8)] * static_cast<double>(1 + rng.uniform_int(3));
          inc.set_capacity(l, capacity[l]);
        }
      }
      const std::size_t present_count =
          static_cast<std::size_t>(std::count(present.begin(), present.end(), true));
      ASSERT_EQ(inc.flows(), present_count);
      const std::size_t resolved = inc.solve().size();
      EXPECT_LE(resolved, present_count);
      if (resolved < present_count) ++partial_solves;
      const std::vector<double> want = full_solve(capacity, routes, present);
      for (std::size_t k = 0; k < keys; ++k) {
        if (!present[k]) continue;
        ASSERT_EQ(std::bit_cast<std::uint64_t>(inc.rate(static_cast<std::uint32_t>(k))),
                  std::bit_cast<std::uint64_t>(want[k]))
            << "trial " << trial << " step " << step << " flow " << k << ": "
            << inc.rate(static_cast<std::uint32_t>(k)) << " against " << want[k];
        ++compared;
      }
    }
  }
  // The property was exercised, and the incremental update did skip flows it need not solve.
  EXPECT_GT(compared, 20000u);
  EXPECT_GT(partial_solves, 500u);
}

// Links 0-1 carry A and B; link 2 carries C alone. Changing C re-solves only C.
TEST(IncrementalMaxMin, ResolvesOnlyTheComponentOfAChange) {
  IncrementalMaxMin inc({10, 10, 4}, MaxMinUpdate::kIncremental);
  const std::vector<LinkId> a{0, 1}, b{1}, c{2};
  inc.add(0, &a);
  inc.add(1, &b);
  inc.add(2, &c);
  EXPECT_EQ(inc.solve().size(), 3u);
  EXPECT_EQ(inc.rate(0), 5.0);
  EXPECT_EQ(inc.rate(2), 4.0);
  inc.set_capacity(2, 2);
  EXPECT_EQ(inc.solve(), std::vector<std::uint32_t>{2});
  EXPECT_EQ(inc.rate(2), 2.0);
  EXPECT_EQ(inc.rate(0), 5.0);
  inc.remove(1);  // A alone on links 0-1
  EXPECT_EQ(inc.solve(), std::vector<std::uint32_t>{0});
  EXPECT_EQ(inc.rate(0), 10.0);
  EXPECT_TRUE(inc.solve().empty());  // nothing changed
  EXPECT_EQ(inc.flows_resolved(), 5u);

  IncrementalMaxMin full({10, 10, 4}, MaxMinUpdate::kFull);
  full.add(0, &a);
  full.add(2, &c);
  full.solve();
  EXPECT_EQ(full.solve().size(), 2u);  // every flow, every time
}

TEST(IncrementalMaxMin, MisuseThrows) {
  IncrementalMaxMin inc({1, 1}, MaxMinUpdate::kIncremental);
  const std::vector<LinkId> r{0}, none{};
  inc.add(3, &r);
  EXPECT_THROW(inc.add(3, &r), std::logic_error);
  EXPECT_THROW(inc.add(4, &none), std::logic_error);
  EXPECT_THROW(inc.remove(5), std::logic_error);
  inc.remove(3);
  EXPECT_THROW(inc.remove(3), std::logic_error);
  EXPECT_FALSE(inc.contains(3));
}

}  // namespace
}  // namespace hermes::network
