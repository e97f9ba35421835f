// hermes-sim train: central (single node, no cluster) training of a zoo model on a real dataset,
// or of a scenario's model on its dataset (its own layer list and dataset included), printing the
// training loss and the test loss/accuracy after every epoch, and the wall time. The accuracy
// reference that the distributed protocols should approach.
#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "models/data/loaders.h"
#include "models/nn/central_training.h"
#include "models/nn/model.h"
#include "models/nn/zoo.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/common/build_info.h"
#include "sim/parallel/thread_pool.h"
#include "sim/protocols/skeleton/workload.h"
#include "sim/scenario/scenario.h"

namespace hermes::cli {

namespace {

// One training run, with a line per epoch.
int train_one(const nn::ModelSpec& spec, const nn::CentralTrainConfig& cfg,
              const data::TrainTestSplit& split) {
  std::cout << std::setw(6) << "epoch" << std::setw(8) << "steps" << std::setw(12) << "train_loss"
            << std::setw(11) << "test_loss" << std::setw(10) << "test_acc" << std::setw(10)
            << "epoch_s" << '\n';
  double train_s = 0.0;
  const auto start = std::chrono::steady_clock::now();
  const auto results =
      nn::train_central(spec, cfg, *split.train, *split.test, [&](const nn::EpochResult& r) {
        train_s += r.seconds;
        std::cout << std::setw(6) << r.epoch << std::setw(8) << r.steps << std::setw(12)
                  << std::setprecision(4) << r.train_loss << std::setw(11) << r.test_loss
                  << std::setw(9) << std::setprecision(2) << 100.0 * r.test_accuracy << '%'
                  << std::setw(10) << r.seconds << std::endl;
      });
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "\nfinal test accuracy " << std::setprecision(2)
            << 100.0 * results.back().test_accuracy << "%, test loss " << std::setprecision(4)
            << results.back().test_loss << "\nwall time " << std::setprecision(2) << wall_s
            << " s (training " << train_s << " s, " << std::setprecision(0)
            << static_cast<double>(split.train->size()) * cfg.epochs / train_s
            << " samples/s; evaluation " << std::setprecision(2) << wall_s - train_s << " s)\n";
  return 0;
}

// One seed's line: its per-epoch test accuracies and the final one, which it returns (in %).
double train_seed(const nn::ModelSpec& spec, const nn::CentralTrainConfig& cfg,
                  const data::TrainTestSplit& split, std::ostream& os) {
  os << std::fixed << "seed " << std::setw(4) << cfg.seed << "  test accuracy per epoch";
  const auto results =
      nn::train_central(spec, cfg, *split.train, *split.test, [&os](const nn::EpochResult& r) {
        os << ' ' << std::setprecision(2) << 100.0 * r.test_accuracy << std::flush;
      });
  const double final_accuracy = 100.0 * results.back().test_accuracy;
  os << "  final " << final_accuracy << "%\n";
  return final_accuracy;
}

// Several runs that differ only in the seed (initial weights and shuffling): a line per seed with
// its per-epoch test accuracies, then the distribution of the final accuracy. The seeds train
// concurrently on `threads` threads (each seed on one), their lines printed in seed order: the
// output is the same for every thread count. One thread prints each accuracy as its epoch ends.
int train_seeds(const nn::ModelSpec& spec, const nn::CentralTrainConfig& cfg,
                const data::TrainTestSplit& split, int seeds, int threads) {
  std::vector<double> finals(static_cast<std::size_t>(seeds));
  std::vector<std::ostringstream> lines(static_cast<std::size_t>(seeds));
  const auto config_of = [&cfg](int i) {
    nn::CentralTrainConfig c = cfg;
    c.seed = cfg.seed + static_cast<std::uint64_t>(i);
    return c;
  };
  if (threads == 1) {
    for (int i = 0; i < seeds; ++i) finals[i] = train_seed(spec, config_of(i), split, std::cout);
  } else {
    parallel::ThreadPool pool(std::min(threads, seeds));
    std::vector<parallel::Task> tasks;
    for (int i = 0; i < seeds; ++i) {
      tasks.push_back(pool.submit(
          i, [&, i] { finals[i] = train_seed(spec, config_of(i), split, lines[i]); },
          parallel::TaskKind::kTraining));
    }
    for (int i = 0; i < seeds; ++i) {
      tasks[i].wait();
      std::cout << lines[i].str() << std::flush;
    }
  }
  std::vector<double> sorted = finals;
  std::sort(sorted.begin(), sorted.end());
  const auto n = static_cast<double>(sorted.size());
  double mean = 0.0;
  for (const double a : sorted) mean += a / n;
  double var = 0.0;
  for (const double a : sorted) var += (a - mean) * (a - mean) / (n - 1.0);
  const std::size_t mid = sorted.size() / 2;
  const double median = sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
  std::cout << "\nfinal test accuracy over " << seeds << " seeds: mean " << std::setprecision(2)
            << mean << "%, median " << median << "%, sd " << std::sqrt(var) << ", min "
            << sorted.front() << "%, max " << sorted.back() << "%\n";
  return 0;
}

}  // namespace

int cmd_train(const Args& args) {
  po::options_description desc(
      "hermes-sim train [options]\n\nTrains a model centrally with mini-batch SGD (the paper's "
      "settings by default) and prints per-epoch training loss, test loss and test accuracy");
  std::string dataset, model_name, data_dir, shuffle, scenario_file;
  std::vector<std::string> sets;
  nn::CentralTrainConfig cfg;
  int seeds = 1;
  int threads = default_threads();
  desc.add_options()("help,h", "show this help")(
      "dataset", po::value<std::string>(&dataset)->default_value("mnist"),
      "mnist, fashion-mnist or cifar10")(
      "model", po::value<std::string>(&model_name),
      "mlp or cnn (default: mlp for mnist/fashion-mnist, cnn for cifar10)")(
      "scenario", po::value<std::string>(&scenario_file),
      "train the model of this scenario file on its dataset (a layer list and a dataset of your "
      "own included, docs/models.md, docs/data.md) instead of --dataset and --model; the SGD "
      "settings are still the options below")(
      "epochs", po::value<int>(&cfg.epochs)->default_value(5), "passes over the training set")(
      "batch", po::value<int>(&cfg.batch)->default_value(16), "mini-batch size")(
      "lr", po::value<float>(&cfg.lr)->default_value(0.1f, "0.1"), "SGD learning rate")(
      "seed", po::value<std::uint64_t>(&cfg.seed)->default_value(1),
      "seed of the weight initialisation and of the shuffling")(
      "seeds", po::value<int>(&seeds)->default_value(1),
      "train this many times, with seeds seed, seed+1, ...; prints one line per seed and the "
      "distribution of the final test accuracy (run-to-run variation is ~0.2 points)")(
      "shuffle", po::value<std::string>(&shuffle)->default_value("on"),
      "on: reshuffle the training set every epoch (Keras' default); off: dataset order")(
      "eval-batch", po::value<int>(&cfg.eval_batch)->default_value(64),
      "batch size of the test-set evaluation (speed only)");
  add_set_option(desc, sets, " of the --scenario file");
  add_data_dir_option(desc, data_dir);
  desc.add_options()(
      "threads", po::value<int>(&threads)->default_value(threads),
      "threads running the training math (default: the machine's hardware threads): with "
      "--seeds, that many seeds train at once, each on one thread; one seed's SGD is one sequence "
      "of steps and uses one thread. Results are the same for every value");
  po::variables_map vm;
  if (!parse_options("train", args, desc, vm)) return 0;
  std::string errors;  // one line per bad option, all reported at once
  if (cfg.epochs < 1) errors += "--epochs must be >= 1\n";
  if (cfg.batch < 1) errors += "--batch must be >= 1\n";
  if (cfg.eval_batch < 1) errors += "--eval-batch must be >= 1\n";
  if (seeds < 1) errors += "--seeds must be >= 1\n";
  if (threads < 1 || threads > 1024) errors += "--threads must be in 1 .. 1024\n";
  if (!(cfg.lr > 0.0f)) errors += "--lr must be > 0\n";
  if (shuffle != "on" && shuffle != "off") {
    errors += "--shuffle: '" + shuffle + "' is not accepted; use on or off\n";
  }
  if (vm.count("model") && model_name != "mlp" && model_name != "cnn") {
    errors += "--model: unknown model '" + model_name + "'; accepted: mlp, cnn\n";
  }
  const bool from_scenario = vm.count("scenario") > 0;
  if (from_scenario && (!vm["dataset"].defaulted() || vm.count("model"))) {
    errors +=
        "--scenario takes the dataset and the model from the scenario: give either it or "
        "--dataset and --model\n";
  }
  if (!from_scenario && !sets.empty()) errors += "--set needs --scenario (it changes its keys)\n";
  if (!errors.empty()) throw InputError(errors);
  cfg.shuffle = shuffle == "on";

  std::optional<scenario::Scenario> sc;
  data::DatasetFiles files;
  if (from_scenario) {
    sc = scenario::load_scenario(scenario_file, sets, source_dir());
    files = sc->dataset.files;
    dataset = files.name;
  } else {
    files = data::dataset_files(dataset);
    if (model_name.empty()) model_name = nn::default_model_for(dataset);
  }
  const data::DataLocation location = data::locate_dataset(files, data_dir);
  std::cout << build_line(build_info()) << "\ndata: " << data::location_text(location) << std::endl;
  const auto load_start = std::chrono::steady_clock::now();
  const data::TrainTestSplit split = data::load_dataset(location);
  const double load_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  const nn::ModelSpec spec = sc ? protocols::scenario_model_spec(*sc, *split.train)
                                : nn::model_spec(model_name, *split.train);

  std::cout << "train " << dataset << " (" << split.train->size() << " train, "
            << split.test->size() << " test samples, loaded in " << std::fixed
            << std::setprecision(2) << load_s << " s)\n"
            << nn::Model(spec).summary() << "SGD lr " << cfg.lr << ", batch " << cfg.batch << ", "
            << cfg.epochs << " epochs, shuffle " << shuffle << ", seed " << cfg.seed;
  if (seeds > 1) {
    std::cout << " to " << cfg.seed + static_cast<std::uint64_t>(seeds) - 1 << "\n\n";
    return train_seeds(spec, cfg, split, seeds, threads);
  }
  std::cout << "\n\n";
  return train_one(spec, cfg, split);
}

}  // namespace hermes::cli
