// load_dataset: resolution, per-format loading, and the per-process cache.
//
// The cache maps the identity of the resolved files (canonical path, size and modification time
// of each) to weak pointers. Every worker of every simulated cluster in this process therefore
// shares one read-only copy, while a dataset nobody holds any more is freed; editing a file on
// disk changes its identity and so forces a reload.
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include "models/data/cifar10.h"
#include "models/data/data_dir.h"
#include "models/data/dataset_format.h"
#include "models/data/file_bytes.h"
#include "models/data/loaders.h"

namespace hermes::data {
namespace fs = std::filesystem;
namespace {

struct CacheEntry {
  std::mutex mutex;  // held while this entry's files load, so concurrent callers load once
  std::weak_ptr<const Dataset> train;
  std::weak_ptr<const Dataset> test;
};

std::mutex g_cache_mutex;  // guards g_cache only, never held while loading
std::map<std::string, std::shared_ptr<CacheEntry>> g_cache;

std::string file_identity(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  const auto size = fs::file_size(path, ec);
  const auto mtime = fs::last_write_time(path, ec).time_since_epoch().count();
  return (canonical.empty() ? path : canonical.string()) + '|' + std::to_string(size) + '|' +
         std::to_string(mtime);
}

std::shared_ptr<CacheEntry> cache_entry(const std::string& key) {
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  // Forget entries nobody uses any more (their datasets were freed; files may have changed), so a
  // long-running process that reloads edited files does not grow the map without bound. An entry
  // only the map holds cannot be locked by anyone else while g_cache_mutex is held.
  for (auto it = g_cache.begin(); it != g_cache.end();) {
    const bool unused =
        it->second.use_count() == 1 && it->second->train.expired() && it->second->test.expired();
    it = unused && it->first != key ? g_cache.erase(it) : std::next(it);
  }
  std::shared_ptr<CacheEntry>& slot = g_cache[key];
  if (!slot) slot = std::make_shared<CacheEntry>();
  return slot;
}

std::uint64_t max_file_bytes(const DatasetFiles& spec) {
  return spec.builtin ? kMaxDataFileBytes : kMaxOwnDataFileBytes;
}

// One part of any dataset, built-in or a scenario's own, through the one reader of its format
// (dataset_format.h). A standardised dataset's training set standardises itself; its test set
// reuses the training statistics.
DatasetPtr load_part(const DatasetFiles& spec, const std::vector<std::string>& paths,
                     const std::string& part, const Dataset* train) {
  auto ds =
      std::make_shared<Dataset>(read_dataset_part(spec.format, paths, part, spec.name + "/" + part,
                                                  spec.shape, spec.classes, max_file_bytes(spec)));
  if (spec.standardize) {
    const ChannelStats stats = train == nullptr
                                   ? compute_channel_stats(*ds)
                                   : ChannelStats{train->channel_mean, train->channel_stddev};
    standardize_channels(*ds, stats);
  }
  return ds;
}

}  // namespace

TrainTestSplit load_dataset(const std::string& dataset, const std::string& data_dir_flag) {
  return load_dataset(locate_dataset(dataset, data_dir_flag));
}

SampleCounts count_samples(const DataLocation& location) {
  const DatasetFiles& spec = location.spec;
  if (spec.train_size > 0 && spec.test_size > 0) {
    return {static_cast<std::uint64_t>(spec.train_size),
            static_cast<std::uint64_t>(spec.test_size)};
  }
  return {count_part_samples(spec.format, location.train_files, "train", spec.shape,
                             max_file_bytes(spec)),
          count_part_samples(spec.format, location.test_files, "test", spec.shape,
                             max_file_bytes(spec))};
}

TrainTestSplit load_dataset(const DataLocation& location) {
  const DatasetFiles& spec = location.spec;
  const std::vector<std::string>& train_paths = location.train_files;
  const std::vector<std::string>& test_paths = location.test_files;

  std::string key = description_key(spec);
  for (const auto* paths : {&train_paths, &test_paths}) {
    for (const auto& p : *paths) key += '\n' + file_identity(p);
  }
  const std::shared_ptr<CacheEntry> entry = cache_entry(key);

  std::lock_guard<std::mutex> lock(entry->mutex);
  TrainTestSplit split{entry->train.lock(), entry->test.lock()};
  if (!split.train) {
    split.train = load_part(spec, train_paths, "train", nullptr);
    entry->train = split.train;
  }
  if (!split.test) {
    split.test = load_part(spec, test_paths, "test", split.train.get());
    entry->test = split.test;
  }
  return split;
}

}  // namespace hermes::data
