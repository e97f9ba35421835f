// The chunk of a worker iteration inside a run (docs/paper.md, "Hermes", worker iteration step 1):
// a fresh random sample of the training set per iteration, from the worker's own stream, split
// 85/15 in order. Each check replays iterations of a tiny run from the public pieces
// (data::sample_chunk, nn::train_epochs, nn::evaluate) and compares with its workers.csv records.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "base/random.h"
#include "models/data/chunks.h"
#include "models/nn/train.h"
#include "models/nn/zoo.h"
#include "sim/protocols/registry.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

// 90 samples: floor(0.85 * 90) = 76 train (round() would give 77), the last 14 are the local test.
constexpr std::size_t kChunk = 90, kTrain = 76;

scenario::Scenario cluster(const std::string& workers) {
  // Hermes: GUP's first decision is always minor, so a worker's second iteration continues from
  // its own model; without dynamic allocation every chunk keeps its 90 samples.
  const std::string text = R"({
    "name": "chunk-test", "seed": 17,
    "cluster": {"ps": {"profile": "DS3_v2"}, "workers": )" +
                           workers + R"(},
    "training": {"chunk_size": 90, "local_epochs": 2, "batch_size": 16,
                 "stop": {"patience": 1000, "max_iterations": 2}},
    "runs": [{"name": "h", "protocol": "hermes", "alpha": -0.5, "dynamic_allocation": false}]})";
  return hermes::testing::scenario_from_text(text, "chunk-test");
}

const data::TrainTestSplit& blocks() {
  static const data::TrainTestSplit d = testing::blocks_split();
  return d;
}

// One worker's iterations, replayed from the initial model with its own random streams.
class WorkerReplay {
 public:
  WorkerReplay(const scenario::Scenario& sc, std::uint64_t worker)
      : WorkerReplay(sc, worker, worker) {}
  // Chunks from one worker's stream, epoch orders from another's (a control).
  WorkerReplay(const scenario::Scenario& sc, std::uint64_t chunk_worker,
               std::uint64_t shuffle_worker)
      : sc_(sc),
        model_(nn::make_model(nn::model_spec(sc.model.name, *blocks().train), sc.seed)),
        chunks_(RandomStream::named(sc.seed, "chunk", chunk_worker)),
        shuffle_(RandomStream::named(sc.seed, "shuffle", shuffle_worker)) {}

  std::vector<std::uint32_t> next_chunk() {
    return data::sample_chunk(blocks().train->size(), kChunk, chunks_);
  }
  // Trains on chunk[0, train) and returns the loss on chunk[train, size).
  double iterate(std::span<const std::uint32_t> chunk, std::size_t train = kTrain) {
    const auto& t = sc_.training;
    nn::train_epochs(model_, *blocks().train, chunk.first(train), t.local_epochs, t.batch_size,
                     static_cast<float>(t.learning_rate), &shuffle_);
    return nn::evaluate(model_, *blocks().train, chunk.subspan(train)).loss;
  }

 private:
  const scenario::Scenario& sc_;
  nn::Model model_;
  RandomStream chunks_, shuffle_;
};

std::vector<WorkerIterationRecord> records_of(const RunResult& r, int worker) {
  std::vector<WorkerIterationRecord> out;
  for (const auto& it : r.local_iteration_log) {
    if (it.worker == worker) out.push_back(it);
  }
  return out;
}

// Spec, worker iteration step 1: every iteration draws a NEW random chunk (not the same chunk
// again, not the next slice) and its first 85% train, the last 15% give the local test loss that
// GUP decides on. The local losses of the run's first two iterations are the replay's bit for
// bit; reusing the first chunk, or splitting by round() instead of floor(), gives other losses.
TEST(ChunkRules, EachIterationTrainsOnAFreshRandomChunkSplit85To15InOrder) {
  const auto sc = cluster(R"([{"profile": "F4s_v2"}])");
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  const auto recs = records_of(r, 0);
  ASSERT_GE(recs.size(), 2u);
  ASSERT_EQ(recs[0].update, UpdateKind::kMinor);  // iteration 2 starts from iteration 1's model
  EXPECT_EQ(recs[0].chunk_size, 90);
  EXPECT_EQ(recs[1].chunk_size, 90);

  WorkerReplay fresh(sc, 0);
  const auto first = fresh.next_chunk();
  const auto second = fresh.next_chunk();
  EXPECT_EQ(fresh.iterate(first), recs[0].local_loss);
  EXPECT_EQ(fresh.iterate(second), recs[1].local_loss);

  WorkerReplay reused(sc, 0);
  const auto only = reused.next_chunk();
  reused.iterate(only);
  EXPECT_NE(reused.iterate(only), recs[1].local_loss);

  WorkerReplay rounded(sc, 0);
  EXPECT_NE(rounded.iterate(rounded.next_chunk(), kTrain + 1), recs[0].local_loss);
}

// Each worker samples from its own stream (RandomStream::named(seed, "chunk", w)): workers'
// chunks overlap only by chance, and a run does not depend on the order workers draw in.
TEST(ChunkRules, EachWorkerDrawsItsChunksFromItsOwnStream) {
  const auto sc = cluster(R"([{"profile": "F4s_v2"}, {"profile": "DS2_v2"}])");
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  for (int w = 0; w < 2; ++w) {
    const auto recs = records_of(r, w);
    ASSERT_FALSE(recs.empty());
    WorkerReplay own(sc, static_cast<std::uint64_t>(w));
    EXPECT_EQ(own.iterate(own.next_chunk()), recs[0].local_loss) << "worker " << w;
  }
  WorkerReplay other(sc, /*chunk_worker=*/0, /*shuffle_worker=*/1);  // worker 0's chunk
  EXPECT_NE(other.iterate(other.next_chunk()), records_of(r, 1)[0].local_loss);
}

}  // namespace
}  // namespace hermes::protocols
