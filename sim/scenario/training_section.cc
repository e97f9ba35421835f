// "training": SGD hyper-parameters, chunking and the stop rule shared by every run.
#include <algorithm>
#include <string>
#include <vector>

#include "sim/config/key_table.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/patience_unit.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

using config::KeyType;

const ObjectDecl& training_decl() {
  static const ObjectDecl decl{
      "training",
      {{.key = "learning_rate",
        .type = KeyType::kNumber,
        .default_text = "0.1",
        .range = Range::above(0),
        .help = "SGD learning rate"},
       {.key = "momentum",
        .type = KeyType::kNumber,
        .default_text = "0",
        .range = Range::at_least(0).under(1),
        .help = "the worker optimiser's momentum mu, PyTorch's SGD (dampening 0): v <- mu v + "
                "d, w <- w - lr v; 0: plain SGD (docs/optimizer.md)"},
       {.key = "weight_decay",
        .type = KeyType::kNumber,
        .default_text = "0",
        .range = Range::at_least(0).under(1),
        .help = "the worker optimiser's L2 weight decay lambda, PyTorch's SGD: d = gradient + "
                "lambda w; 0: none (docs/optimizer.md)"},
       {.key = "batch_size",
        .type = KeyType::kInteger,
        .default_text = "16",
        .range = Range::at_least(1),
        .accepted = "at most chunk_size * train_fraction",
        .help = "mini-batch size"},
       {.key = "local_epochs",
        .type = KeyType::kInteger,
        .default_text = "5",
        .range = Range::at_least(1).up_to(limits::kMaxLocalEpochs),
        .help = "epochs over its chunk per worker iteration"},
       {.key = "chunk_size",
        .type = KeyType::kInteger,
        .default_text = "2500",
        .range = Range::at_least(1),
        .accepted = "at most the training set (60000 MNIST, 50000 CIFAR-10)",
        .help = "initial samples per worker per iteration (dynamic allocation changes it later)"},
       {.key = "train_fraction",
        .type = KeyType::kNumber,
        .default_text = "0.85",
        .range = Range::above(0).under(1),
        .help = "the first part of a chunk trains, the rest is the worker's local test set"},
       {.key = "chunking",
        .type = KeyType::kChoice,
        .default_text = "random",
        .choices = {"random", "fixed"},
        .help = "random: a fresh random sample per chunk; fixed: each worker walks its own "
                "contiguous part of the training set"},
       {.key = "epoch_order",
        .type = KeyType::kChoice,
        .default_text = "reshuffle (fixed under released-code)",
        .choices = {"reshuffle", "fixed"},
        .help = "the order of the chunk's samples in each local epoch",
        .computed_default = true},
       {.key = "drop_first_row",
        .type = KeyType::kBoolean,
        .default_text = "false (true under released-code)",
        .help = "leave out the first sample of the chunk's training part (the released code's "
                "x[1:])",
        .computed_default = true},
       {.key = "t_med",
        .type = KeyType::kChoice,
        .default_text = "first-times (latest-times under released-code)",
        .choices = {"first-times", "latest-times"},
        .help = "the dynamic allocation's frozen median of the workers' times",
        .computed_default = true},
       {.key = "stop",
        .type = KeyType::kObject,
        .default_text = "{}",
        .help = "the stop rule shared by every run (training.stop.*)"}}};
  return decl;
}

const ObjectDecl& stop_decl() {
  static const ObjectDecl decl{
      "training.stop",
      {{.key = "patience",
        .type = KeyType::kInteger,
        .default_text = "25",
        .range = Range::at_least(1),
        .help = "stop once this much (in patience_unit) has passed without a new best global test "
                "loss"},
       {.key = "patience_unit",
        .type = KeyType::kChoice,
        .default_text = "evaluations",
        .choices = {kPatienceUnitNames.begin(), kPatienceUnitNames.end()},
        .help = "what patience counts: evaluations of the global model, rounds (n updates for n "
                "workers), simulated seconds"},
       {.key = "max_sim_time_s",
        .type = KeyType::kNumber,
        .default_text = "36000",
        .range = Range::above(0).up_to(1e9),
        .help = "a safety cap on the simulated seconds"},
       {.key = "max_iterations",
        .type = KeyType::kInteger,
        .default_text = "200000",
        .range = Range::at_least(1),
        .help = "a safety cap on the updates the PS applied to the global model"},
       {.key = "divergence_factor",
        .type = KeyType::kNumber,
        .default_text = "2",
        .range = Range::above(1).up_to(1e9),
        .help = "a run whose last global test loss is above this many times its best is "
                "diverged"},
       {.key = "reported_accuracy",
        .type = KeyType::kChoice,
        .default_text = "best-loss (best-loss-after-first under released-code)",
        .choices = {"best-loss", "best-loss-after-first"},
        .help = "which evaluation's accuracy a run reports",
        .computed_default = true}}};
  return decl;
}

namespace {

StopSpec read_stop(const Json& value, Accounting accounting, Diagnostics& diags, Json& out) {
  StopSpec stop;
  ObjectReader r(value, "/training/stop", diags, out, stop_decl());
  stop.patience = r.int32("patience", defaults::kPatience, Range::at_least(1)).value_or(0);
  const std::vector<std::string> units(kPatienceUnitNames.begin(), kPatienceUnitNames.end());
  if (const auto unit = r.choice("patience_unit", units, units.front())) {
    const auto at = std::find(units.begin(), units.end(), *unit);
    stop.patience_unit = static_cast<PatienceUnit>(at - units.begin());
  }
  // from_seconds is exact to the nanosecond up to ~9.2e9 s; 1e9 s (31 years) is plenty.
  const auto max_time =
      r.number("max_sim_time_s", defaults::kMaxSimTimeS, Range::above(0).up_to(1e9));
  stop.max_sim_time = engine::from_seconds(max_time.value_or(defaults::kMaxSimTimeS));
  stop.max_iterations =
      r.integer("max_iterations", defaults::kMaxIterations, Range::at_least(1)).value_or(0);
  stop.divergence_factor =
      r.number("divergence_factor", defaults::kDivergenceFactor, Range::above(1).up_to(1e9))
          .value_or(defaults::kDivergenceFactor);
  const bool released = accounting == Accounting::kReleasedCode;
  const auto accuracy = r.choice("reported_accuracy", {"best-loss", "best-loss-after-first"},
                                 released ? "best-loss-after-first" : "best-loss");
  if (accuracy) {
    stop.reported_accuracy = *accuracy == "best-loss" ? ReportedAccuracy::kBestLoss
                                                      : ReportedAccuracy::kBestLossAfterFirst;
  }
  r.finish();
  return stop;
}

}  // namespace

TrainingSpec read_training(const Json* value, Accounting accounting, Diagnostics& diags,
                           Json& out) {
  // The released code's quirks are the defaults of its accounting (docs/released-code.md).
  const bool released = accounting == Accounting::kReleasedCode;
  TrainingSpec t;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/training", diags, out,
                 training_decl());
  const auto lr = r.number("learning_rate", defaults::kLearningRate, Range::above(0));
  const auto batch = r.int32("batch_size", defaults::kBatchSize, Range::at_least(1));
  const auto epochs = r.int32("local_epochs", defaults::kLocalEpochs,
                              Range::at_least(1).up_to(limits::kMaxLocalEpochs));
  const auto chunk = r.int32("chunk_size", defaults::kChunkSize, Range::at_least(1));
  const auto fraction =
      r.number("train_fraction", defaults::kTrainFraction, Range::above(0).under(1));
  const auto chunking = r.choice("chunking", {"random", "fixed"}, "random");
  t.learning_rate = lr.value_or(defaults::kLearningRate);
  // Added after scenarios were resolved: written to the resolved document only when given.
  if (r.has("momentum")) {
    t.momentum = r.number("momentum", 0, Range::at_least(0).under(1)).value_or(0);
  }
  if (r.has("weight_decay")) {
    t.weight_decay = r.number("weight_decay", 0, Range::at_least(0).under(1)).value_or(0);
  }
  t.batch_size = batch.value_or(defaults::kBatchSize);
  t.local_epochs = epochs.value_or(defaults::kLocalEpochs);
  t.chunk_size = chunk.value_or(defaults::kChunkSize);
  t.train_fraction = fraction.value_or(defaults::kTrainFraction);
  t.chunking = chunking.value_or("random") == "fixed" ? Chunking::kFixed : Chunking::kRandom;
  const auto order =
      r.choice("epoch_order", {"reshuffle", "fixed"}, released ? "fixed" : "reshuffle");
  t.epoch_order = order.value_or("") == "fixed" ? EpochOrder::kFixed : EpochOrder::kReshuffle;
  t.drop_first_row = r.boolean("drop_first_row", released).value_or(false);
  const auto t_med =
      r.choice("t_med", {"first-times", "latest-times"}, released ? "latest-times" : "first-times");
  t.t_med = t_med.value_or("") == "latest-times" ? TMedRule::kLatestTimes : TMedRule::kFirstTimes;

  // A mini-batch must fit in the training part of a chunk, or a local epoch has no full step.
  if (batch && chunk && fraction && *batch > *chunk * *fraction) {
    r.error("batch_size", "batch_size " + std::to_string(*batch) +
                              " is larger than the training part of a chunk (chunk_size " +
                              std::to_string(*chunk) + " * train_fraction " +
                              format_number(*fraction) + " = " + format_number(*chunk * *fraction) +
                              "; accepted: batch_size <= chunk_size * train_fraction)");
  }

  const Json* stop = r.accept("stop");
  t.stop = read_stop(stop != nullptr ? *stop : empty_object(), accounting, diags, out["stop"]);
  r.finish();
  return t;
}

}  // namespace hermes::scenario
