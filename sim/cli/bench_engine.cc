// hermes-sim bench engine: raw event throughput of the event core.
//
// The classic "hold" model: the queue holds Q pending events; each event, when it fires, schedules
// one successor at now + a random delay. This exercises exactly what a simulation does per event
// (pop, callback, push) at a steady queue size.
#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <vector>

#include "base/random.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/engine/simulator.h"

namespace hermes::cli {
namespace {

struct HoldResult {
  double seconds;
  std::uint64_t events;
};

HoldResult run_hold(std::size_t queue_size, std::uint64_t total_events, std::uint64_t seed) {
  engine::Simulator sim;
  RandomStream rng(seed, 0);
  std::uint64_t remaining = total_events;
  // Delays are drawn up front so the measured loop is the engine, not the generator.
  std::vector<engine::SimTime> delays(1 << 16);
  for (auto& d : delays)
    d = engine::kNanosecond +
        engine::SimTime::nanoseconds(static_cast<std::int64_t>(rng.uniform_int(1'000'000)));
  std::size_t next_delay = 0;
  struct Hold {
    engine::Simulator* sim;
    std::uint64_t* remaining;
    std::vector<engine::SimTime>* delays;
    std::size_t* next;
    void operator()() const {
      if (*remaining == 0) return;
      --*remaining;
      const engine::SimTime d = (*delays)[(*next)++ & 0xFFFF];
      sim->schedule_in(d, *this);
    }
  };
  const Hold hold{&sim, &remaining, &delays, &next_delay};
  for (std::size_t i = 0; i < queue_size; ++i) sim.schedule_in(delays[i & 0xFFFF], hold);
  const auto t0 = std::chrono::steady_clock::now();
  sim.run();
  const auto t1 = std::chrono::steady_clock::now();
  return {std::chrono::duration<double>(t1 - t0).count(), sim.events_processed()};
}

}  // namespace

int bench_engine(const Args& args) {
  po::options_description desc(
      "hermes-sim bench engine [options]\n\nEvents per second of the event core (hold model: "
      "each event schedules one successor at a random delay)");
  std::uint64_t events = 0;
  int repeats = 0;
  desc.add_options()("help,h", "show this help")(
      "events", po::value<std::uint64_t>(&events)->default_value(5'000'000),
      "events per measurement")("repeats", po::value<int>(&repeats)->default_value(3),
                                "measurements per queue size (the median is reported)");
  po::variables_map vm;
  if (!parse_options("bench engine", args, desc, vm)) return 0;
  std::cout << "engine bench: hold model, " << events << " events, median of " << repeats
            << " runs, one core\n"
            << std::setw(12) << "queue size" << std::setw(16) << "events/s" << std::setw(14)
            << "ns/event" << '\n';
  for (std::size_t q : {16u, 1'000u, 100'000u}) {
    std::vector<double> rates;
    for (int r = 0; r < repeats; ++r) {
      const HoldResult res = run_hold(q, events, 1 + static_cast<std::uint64_t>(r));
      rates.push_back(static_cast<double>(res.events) / res.seconds);
    }
    std::sort(rates.begin(), rates.end());
    const double median = rates[rates.size() / 2];
    std::cout << std::setw(12) << q << std::setw(16) << std::fixed << std::setprecision(0) << median
              << std::setw(14) << std::setprecision(1) << 1e9 / median << '\n';
  }
  return 0;
}

}  // namespace hermes::cli
