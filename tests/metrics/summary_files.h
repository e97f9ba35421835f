// What the summary tests share (tests/metrics/*_test.cc of summary_csv, params_text, comparison and
// comparison_render): a scratch directory to write CSV files into, the committed paper
// reference, summary.csv's header and a hand-made summary.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "base/diagnostics.h"
#include "sim/metrics/comparison.h"
#include "sim/metrics/summary_csv.h"
#include "tests/support/scratch_dir.h"

namespace hermes::metrics::testing {

inline const std::string kReferencePath =
    std::string(HERMES_SOURCE_DIR) + "/results/reference/paper-mnist.csv";
inline const std::string kHeader =
    "run,protocol,params,seed,status,stop_reason,iterations,local_iterations,sim_time_s,wi_avg,"
    "accuracy,loss,api_calls,bytes,major_updates,speedup_vs_bsp\n";

class SummaryFilesTest : public hermes::testing::ScratchDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) const {
    put(name, text);
    return path(name);
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
  return kHeader +
         "bsp,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,20000000,1e9,9600,\n"
         "ssp,ssp,staleness=125,1,ok,patience,20000,80000,12000,1,0.91,0.3,30000000,1e9,20000,\n"
         "h,hermes,alpha=-1.6;beta=0.15;lambda=5;window=10,1,ok,patience,2250,18000,600,8,0.975,"
         "0.08,12000000,1e9,2250,\n"
         "h13,hermes,alpha=-1.3;beta=0.1;lambda=5;window=10,1,ok,patience,2830,18000,750,7.9,0.98,"
         "0.07,13500000,1e9,2830,\n";
}

}  // namespace hermes::metrics::testing
