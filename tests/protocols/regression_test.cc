// Frozen full output of a tiny scenario, one run per simulated protocol (the TESH idea of SimGrid,
// the refs of ASTRA-sim): any change of the event order, the compute or network model, the math
// or the CSV layout shows up here as a diff. After an intended change, regenerate with
//   HERMES_UPDATE_REFS=1 build/test_protocols --gtest_filter='Regression.*'
// and review the diff of tests/protocols/refs/ like code.
//
// The bytes hold for every build of this project on any x86-64-v3 machine: the reproducible
// and native math profiles, Release and the sanitizer build (-O1) alike. The math's sums have one
// order whatever the vector width (models/nn/gemm.h), the compiler never fuses a multiply and an
// add on its own (-ffp-contract=off), and no libm function whose last bit depends on the host
// enters a result (base/portable_math.h). A difference here on another machine is a
// reproducibility bug, not noise.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "base/random.h"
#include "models/nn/eigen_config.h"
#include "models/nn/gemm.h"
#include "tests/protocols/full_output.h"
#include "tests/protocols/tiny_bsp.h"

namespace hermes::protocols {
namespace {

const std::string kScenario = R"({
  "name": "tiny", "seed": 11,)" +
                              testing::kTinyCluster + R"(
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 15}},
  "runs": [{"name": "bsp", "protocol": "bsp"},
           {"name": "asp", "protocol": "asp"},
           {"name": "ssp-1", "protocol": "ssp", "staleness": 1},
           {"name": "hermes-ref", "protocol": "hermes", "alpha": -0.5},
           {"name": "hermes-paper", "protocol": "hermes", "alpha": -0.5, "variant": "paper"}]
})";

const std::string kRefPath = std::string(HERMES_SOURCE_DIR) + "/tests/protocols/refs/tiny.txt";

std::string frozen_reference() {
  std::ifstream in(kRefPath);
  EXPECT_TRUE(in) << "missing " << kRefPath << " (generate it with HERMES_UPDATE_REFS=1)";
  std::stringstream expected;
  expected << in.rdbuf();
  return expected.str();
}

TEST(Regression, TinyScenarioFullOutputIsFrozen) {
  const std::string got = testing::full_output(testing::scenario_from_text(kScenario));
  if (const char* update = std::getenv("HERMES_UPDATE_REFS");
      update && std::string(update) == "1") {
    std::ofstream(kRefPath) << got;
    GTEST_SKIP() << "reference rewritten: " << kRefPath;
  }
  EXPECT_EQ(got, frozen_reference())
      << "the tiny scenario's output changed; see the test's comment";
}

// Runs take the widest GEMM kernel that matches the reference at start (models/nn/gemm_probe.h),
// so every kernel must give the frozen bytes, with the math on worker threads as in a run.
TEST(Regression, TinyScenarioFullOutputIsTheSameWithEveryKernel) {
  const nn::GemmKernel before = nn::default_gemm_kernel();
  const scenario::Scenario sc = testing::scenario_from_text(kScenario);
  parallel::ThreadPool pool(2);
  for (const nn::GemmKernel kernel : nn::kGemmKernelsWidestFirst) {
    if (!nn::gemm_kernel_runs_here(kernel)) continue;
    nn::set_default_gemm_kernel(kernel);
    EXPECT_EQ(nn::default_gemm_kernel(), kernel);
    EXPECT_EQ(testing::full_output(sc, &pool), frozen_reference())
        << "kernel " << nn::gemm_kernel_name(kernel);
  }
  nn::set_default_gemm_kernel(before);
}

// Eigen's GEMM sizes its blocks from the cache sizes it detects on the host, and its block length
// enters the order of the sums. The simulator's math must not depend on them: with absurd sizes
// forced into Eigen, the output is still the frozen one.
TEST(Regression, TinyScenarioIgnoresTheCacheSizesEigenDetects) {
  const std::ptrdiff_t l1 = Eigen::l1CacheSize(), l2 = Eigen::l2CacheSize(),
                       l3 = Eigen::l3CacheSize();
  Eigen::setCpuCacheSizes(1024, 4096, 16384);
  const std::string got = testing::full_output(testing::scenario_from_text(kScenario));
  Eigen::setCpuCacheSizes(l1, l2, l3);
  EXPECT_EQ(got, frozen_reference());
}

// The control that gives the test above its teeth: the forced sizes do change the bits of
// Eigen's own GEMM on the MLP's first-layer product, so a model computed with Eigen's GEMM would
// fail it.
TEST(Regression, ForcedCacheSizesChangeEigensOwnGemm) {
  RandomStream rng(3, 0);
  Eigen::MatrixXf w(128, 784), x(784, 16);
  for (Eigen::Index i = 0; i < w.size(); ++i) w.data()[i] = static_cast<float>(rng.uniform(-1, 1));
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(rng.uniform(-1, 1));
  const Eigen::MatrixXf detected = w * x;
  const std::ptrdiff_t l1 = Eigen::l1CacheSize(), l2 = Eigen::l2CacheSize(),
                       l3 = Eigen::l3CacheSize();
  Eigen::setCpuCacheSizes(1024, 4096, 16384);
  const Eigen::MatrixXf forced = w * x;
  Eigen::setCpuCacheSizes(l1, l2, l3);
  EXPECT_NE(0, std::memcmp(detected.data(), forced.data(), sizeof(float) * detected.size()));
}

}  // namespace
}  // namespace hermes::protocols
