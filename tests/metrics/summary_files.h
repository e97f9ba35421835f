// What the summary tests share (tests/metrics/*_test.cc of summary_csv, params_text, comparison and
// comparison_render): a scratch directory to write CSV files into, the committed paper
// reference, summary.csv's header, compact summaries expanded and a hand-made summary.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "sim/metrics/comparison.h"
#include "sim/metrics/summary_csv.h"
#include "tests/support/scratch_dir.h"

namespace hermes::metrics::testing {

inline const std::string kReferencePath =
    std::string(HERMES_SOURCE_DIR) + "/results/reference/paper-mnist.csv";
// summary.csv's header.
inline std::string header() {
  std::string h;
  for (const auto& c : summary_columns()) h += (h.empty() ? "" : ",") + c;
  return h + "\n";
}

// Tests write summaries compactly: the header below, parameters packed in one "key=value;..."
// cell (the others at their defaults), no final_loss (it is the loss), and cost_usd optional (a row
// without it has an empty cell). summary() expands such text into summary.csv's columns; fields
// hold no commas or quotes.
inline const std::string kHeader =
    "run,protocol,params,seed,status,stop_reason,iterations,local_iterations,sim_time_s,wi_avg,"
    "accuracy,loss,api_calls,bytes,major_updates,speedup_vs_bsp\n";

inline std::string summary(const std::string& compact) {
  std::istringstream in(compact);
  std::string line;
  std::getline(in, line);  // kHeader
  std::string out = header();
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::size_t pos = 0;
    for (std::size_t comma; (comma = line.find(',', pos)) != std::string::npos; pos = comma + 1) {
      f.push_back(line.substr(pos, comma - pos));
    }
    f.push_back(line.substr(pos));
    if (f.size() < 16) throw std::runtime_error("compact summary row with too few fields: " + line);
    // Like the simulator, every parameter the protocol takes has its cell: the compact text's
    // value, else the default ("-" leaves a cell empty).
    const ParamMap params = parse_params(f[2]);
    std::vector<std::string> row = {f[0], f[1]};
    for (const auto key : summary_param_columns()) {
      const auto it = params.find(std::string(key));
      const std::string cell = it == params.end() ? default_param_value(f[1], key) : it->second;
      row.push_back(cell == "-" ? "" : cell);
    }
    row.insert(row.end(), f.begin() + 3, f.begin() + 12);  // seed .. loss
    row.push_back(f[11]);                                  // final_loss
    row.insert(row.end(), f.begin() + 12, f.end());
    if (row.size() + 1 == summary_columns().size()) row.emplace_back();  // no cost_usd
    std::string text;
    for (const std::string& cell : row) text += (text.empty() ? "" : ",") + cell;
    out += text + "\n";
  }
  return out;
}

class SummaryFilesTest : public hermes::testing::ScratchDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) const {
    put(name, text);
    return path(name);
  }
  // A summary.csv from compact text (see summary()).
  std::string write_summary(const std::string& name, const std::string& compact) const {
    return write(name, summary(compact));
  }

  // The message of the InputError `fn` throws ("" if it does not throw one).
  template <class Fn>
  static std::string error_of(Fn fn) {
    try {
      fn();
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
};

inline Comparison compare_text(const std::string& summary_path) {
  return compare_with_reference(read_summary_csv(summary_path), read_reference_csv(kReferencePath));
}

inline const ComparisonRow& row_labelled(const Comparison& c, const std::string& label) {
  for (const auto& r : c.rows) {
    if (r.label == label) return r;
  }
  throw std::runtime_error("no row " + label);
}

// Hand-made: BSP 100 min, SSP 200 min, Hermes (the paper's alpha=-1.6, beta=0.15 plus the
// defaults the simulator records) 10 min, no speedup column values.
inline std::string hand_made_summary() {
  return summary(
      kHeader +
      "bsp,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,20000000,1e9,9600,\n"
      "ssp,ssp,staleness=125,1,ok,patience,20000,80000,12000,1,0.91,0.3,30000000,1e9,20000,\n"
      "h,hermes,alpha=-1.6;beta=0.15;lambda=5;window=10,1,ok,patience,2250,18000,600,8,0.975,"
      "0.08,12000000,1e9,2250,\n"
      "h13,hermes,alpha=-1.3;beta=0.1;lambda=5;window=10,1,ok,patience,2830,18000,750,7.9,0.98,"
      "0.07,13500000,1e9,2830,\n");
}

}  // namespace hermes::metrics::testing
