// The thread count changes how fast a run goes, never what it computes: every protocol gives the
// same CSVs byte for byte with the math inline (1 thread) and on 2 or 4 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "models/nn/zoo.h"
#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/registry.h"
#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

// Six workers of three speeds (the B1ms without credits), every protocol, both Hermes variants,
// with and without loss weighting; small chunks so that the runs take milliseconds. E-BSP without
// pulls starts a worker's next iteration from its completion event, before the iteration's record
// is written: the record must not read what that next iteration's math writes. Compressed pushes
// (docs/compression.md): random-k's draws and the residuals are the event thread's.
const char* kEveryProtocol = R"({
  "name": "threads", "seed": 23,
  "cluster": {"ps": {"profile": "DS3_v2"},
              "workers": [{"profile": "B1ms", "count": 2, "overrides": {"burst": {
                             "baseline_pct": 20, "credits_per_hour": 12, "max_credits": 288,
                             "initial_credits": 0}}},
                          {"profile": "DS2_v2", "count": 2}, {"profile": "F4s_v2", "count": 2}]},
  "training": {"chunk_size": 64, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 16}},
  "runs": [{"name": "bsp", "protocol": "bsp"},
           {"name": "asp", "protocol": "asp"},
           {"name": "asp-fedbuff", "protocol": "asp", "staleness_weight": "polynomial",
            "buffer_size": 3},
           {"name": "ssp-2", "protocol": "ssp", "staleness": 2},
           {"name": "ebsp-4", "protocol": "ebsp", "lookahead": 4},
           {"name": "ebsp-4-nopull", "protocol": "ebsp", "lookahead": 4, "update_unit": "steps",
            "pull_between_barriers": false},
           {"name": "hermes-ref", "protocol": "hermes", "alpha": -0.5},
           {"name": "hermes-paper", "protocol": "hermes", "alpha": -0.5, "variant": "paper"},
           {"name": "hermes-nolw", "protocol": "hermes", "alpha": -0.5, "loss_weighting": false},
           {"name": "selsync", "protocol": "selsync", "delta": 0.05, "window_size": 2},
           {"name": "diloco", "protocol": "local_sgd", "local_steps": 3, "participation": 0.5,
            "outer_lr": 0.7, "outer_momentum": 0.9},
           {"name": "hybrid-const", "protocol": "hybrid", "staleness_weight": "constant"},
           {"name": "hybrid-size3", "protocol": "hybrid", "grouping": "size",
            "sync_group_size": 3},
           {"name": "asp-randk-ef", "protocol": "asp", "compression": "randk",
            "compression_fraction": 0.05, "error_feedback": true},
           {"name": "hermes-topk-ef", "protocol": "hermes", "alpha": -0.5, "compression": "topk",
            "compression_fraction": 0.05, "error_feedback": true},
           {"name": "selsync-fp16", "protocol": "selsync", "delta": 0.05, "window_size": 2,
            "compression": "fp16"}]
})";

class ThreadCount : public ::testing::TestWithParam<const char*> {};

TEST_P(ThreadCount, EveryProtocolGivesTheSameCsvsWithOneTwoAndFourThreads) {
  const auto sc = testing::scenario_from_text(kEveryProtocol, {GetParam()});
  parallel::ThreadPool one(1);
  const std::string inline_output = testing::full_output(sc, &one);
  EXPECT_EQ(inline_output, testing::full_output(sc));  // no pool: the same as one thread
  for (int threads : {2, 4}) {
    parallel::ThreadPool pool(threads);
    EXPECT_EQ(testing::full_output(sc, &pool), inline_output) << threads << " threads";
    EXPECT_GT(pool.stats().tasks, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Chunking, ThreadCount,
                         ::testing::Values("training.chunking=\"random\"",
                                           "training.chunking=\"fixed\"",
                                           // docs/sharding.md: a PS job's parts on 3 nodes, the
                                           // evaluation on shard 0 meanwhile
                                           "cluster.ps.shards=3"));

TEST(Threads, FlopsOfARunAreTheChargedOnesWhateverTheThreadCount) {
  const auto sc = testing::scenario_from_text(kEveryProtocol);
  const auto data = testing::blocks_split();
  const ModelCost cost = model_cost(nn::make_model(nn::model_spec("mlp", *data.train), 1));
  const double eval = static_cast<double>(data.test->size()) * cost.flops_forward_per_sample;
  parallel::ThreadPool pool(3);
  for (const auto& run : sc.runs) {
    const RunResult a = run_protocol(sc, run, data);
    const RunResult b = run_protocol(sc, run, data, {}, &pool);
    // Every completed iteration, and at most one cut short per worker.
    double train = 0, largest = 0;
    for (const auto& it : a.local_iteration_log) {
      const double f = iteration_work(sc.training, cost, it.chunk_size).flops;
      train += f;
      largest = std::max(largest, f);
    }
    // SelSync's iteration is one mini-batch, local SGD's H of them and update_unit "steps" runs'
    // steps_per_update, not iteration_work's whole chunk: their flops are less (their per-step
    // charge, update_unit_test.cc); the thread-count equalities below hold for them as for every
    // protocol.
    if (run.protocol != scenario::Protocol::kSelsync &&
        run.protocol != scenario::Protocol::kLocalSgd &&
        run.update_unit != scenario::UpdateUnit::kSteps) {
      EXPECT_GE(a.train_flops, train) << run.name;
      EXPECT_LE(a.train_flops, train + static_cast<double>(sc.worker_count()) * largest)
          << run.name;
    } else {
      EXPECT_LT(a.train_flops, train) << run.name;
      EXPECT_GT(a.train_flops, 0) << run.name;
    }
    if (run.protocol == scenario::Protocol::kBsp) {
      EXPECT_DOUBLE_EQ(a.train_flops, train);  // stopped at a barrier: nothing in flight
    }
    // One global evaluation per aggregation; Hermes with loss weighting also evaluates each
    // major update's candidate.
    const bool candidates =
        run.protocol == scenario::Protocol::kHermes && run.hermes.loss_weighting;
    const double evals =
        static_cast<double>(a.aggregations) + (candidates ? static_cast<double>(a.updates) : 0.0);
    EXPECT_DOUBLE_EQ(a.eval_flops, evals * eval) << run.name;
    EXPECT_EQ(a.train_flops, b.train_flops) << run.name;
    EXPECT_EQ(a.eval_flops, b.eval_flops) << run.name;
  }
}

// A broken protocol: it sends worker 0 a model while worker 0 trains on a chunk. (The push is only
// a delay: it goes the other way, then the model follows the small chunk and arrives during the
// long compute.)
class InstallsWhileComputing final : public ProtocolRun {
 public:
  using ProtocolRun::ProtocolRun;

 private:
  void start() override {
    send_model(0, [this] {
      begin_iteration(0);
      push_update(0, global_model().params(), [this] { send_model(0, [] {}); });
    });
  }
  void on_computed(std::size_t) override {}
};

TEST(Threads, AModelArrivingAtAComputingWorkerIsAProtocolBug) {
  // One slow worker, a small chunk, a long compute.
  const auto sc = testing::scenario_from_text(R"({
    "name": "bug", "cluster": {"ps": {"profile": "DS3_v2"}, "workers": [{"profile": "B1ms"}]},
    "training": {"chunk_size": 100, "local_epochs": 5},
    "runs": [{"name": "bsp", "protocol": "bsp"}]})");
  const auto data = testing::blocks_split();
  for (int threads : {1, 2}) {
    parallel::ThreadPool pool(threads);
    InstallsWhileComputing run(sc, sc.runs[0], data);
    try {
      run.run({}, &pool);
      ADD_FAILURE() << "no error with " << threads << " threads";
    } catch (const std::logic_error& e) {
      EXPECT_STREQ(e.what(), "worker 0 received a model while computing");
    }
  }
}

}  // namespace
}  // namespace hermes::protocols
