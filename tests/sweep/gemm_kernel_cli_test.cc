// --gemm-kernel (sim/cli/gemm_kernel_choice.h) end to end: `run` and `sweep` write the same bytes
// whichever kernel computes the products, provenance.json says which one did, and a kernel name
// that is not one is refused before anything is written.
#include <gtest/gtest.h>

#include <string>

#include "models/nn/gemm.h"
#include "models/nn/gemm_probe.h"
#include "tests/sweep/sweep_cli_fixture.h"

namespace hermes::sweep {
namespace {

const char* const kCsvs[] = {"summary.csv", "global.csv", "workers.csv", "api.csv", "nodes.csv"};

std::string widest_here() {
  return nn::gemm_kernel_runs_here(nn::GemmKernel::kAvx512) ? "avx512" : "avx2";
}

class GemmKernelCli : public SweepCli {
 protected:
  static testing::CommandResult run_with(const std::string& out, const std::string& kernel) {
    return run_command(std::string(HERMES_BINARY) + " run " + dir("tiny.json") + " --data-dir " +
                       dir("data") + " --out " + out + " --threads 2" +
                       (kernel.empty() ? "" : " --gemm-kernel " + kernel));
  }
};

TEST_F(GemmKernelCli, RunWritesTheSameBytesWithEveryKernel) {
  const auto first = run_with(dir("run-auto"), "");
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("gemm kernel: " + widest_here() +
                              " (the widest of this CPU's "
                              "kernels equal to the reference on the run's "),
            std::string::npos)
      << first.output;
  const Json auto_gemm = Json::parse(slurp(dir("run-auto") + "/provenance.json"))["gemm"];
  EXPECT_EQ(auto_gemm["kernel"], widest_here());
  EXPECT_EQ(auto_gemm["requested"], "auto");
  EXPECT_GT(auto_gemm["products"].get<int>(), 0);
  EXPECT_EQ(auto_gemm["kernels"][0]["kernel"], "avx512");
  EXPECT_EQ(auto_gemm["kernels"][0].value("matches_reference", false), widest_here() == "avx512");
  for (const std::string kernel : {"avx512", "avx2", "reference"}) {
    if (!nn::gemm_kernel_runs_here(*nn::gemm_kernel_from_name(kernel))) continue;
    const std::string out = dir("run-" + kernel);
    const auto r = run_with(out, kernel);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("gemm kernel: " + kernel + " (--gemm-kernel)"), std::string::npos)
        << r.output;
    const Json gemm = Json::parse(slurp(out + "/provenance.json"))["gemm"];
    EXPECT_EQ(gemm, (Json{{"kernel", kernel}, {"requested", kernel}}));
    for (const char* csv : kCsvs) {
      EXPECT_EQ(slurp(out + "/" + csv), slurp(dir("run-auto") + "/" + csv)) << kernel << " " << csv;
    }
  }
}

TEST_F(GemmKernelCli, SweepWritesTheSameBytesWithTheProfilesKernel) {
  const auto a = sweep(dir("sweep-auto"));
  ASSERT_EQ(a.status, 0) << a.output;
  EXPECT_NE(a.output.find("gemm kernel: " + widest_here()), std::string::npos) << a.output;
  const auto b = sweep(dir("sweep-avx2"), "--gemm-kernel avx2");
  ASSERT_EQ(b.status, 0) << b.output;
  expect_identical(dir("sweep-auto"), dir("sweep-avx2"));
  EXPECT_EQ(
      Json::parse(slurp(dir("sweep-avx2") + "/points/0000/provenance.json"))["gemm"]["kernel"],
      "avx2");
  EXPECT_EQ(
      Json::parse(slurp(dir("sweep-auto") + "/points/0003/provenance.json"))["gemm"]["kernel"],
      widest_here());
}

TEST_F(GemmKernelCli, AnUnknownKernelIsRefusedBeforeAnythingIsWritten) {
  for (const std::string& cmd :
       {std::string(HERMES_BINARY) + " run " + dir("tiny.json") + " --data-dir " + dir("data") +
            " --out " + dir("refused") + " --gemm-kernel sse2",
        SweepCli::sweep_command(dir("refused"), "--gemm-kernel sse2")}) {
    const auto r = run_command(cmd);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("--gemm-kernel: 'sse2' is not a kernel (accepted: auto, avx512, avx2, "
                            "reference)"),
              std::string::npos)
        << r.output;
    EXPECT_FALSE(fs::exists(dir("refused")));
  }
}

}  // namespace
}  // namespace hermes::sweep
