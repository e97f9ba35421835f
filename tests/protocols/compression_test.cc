// Compression of pushed updates (docs/compression.md) in the runs of every protocol: the bytes the
// network carries, the default that is the run of before, the keys' names, columns and errors.
// The codecs themselves are pinned in tests/policies/update_compression_test.cc.
#include <gtest/gtest.h>

#include <string>

#include "models/nn/zoo.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/skeleton/update_compressor.h"
#include "tests/protocols/run_key_checks.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

// One worker and a fixed number of iterations: every run pulls as many chunks and models, so
// the network's bytes differ only by the pushes'.
scenario::Scenario one(const std::string& runs) {
  return hermes::testing::scenario_from_text(R"({
    "name": "one", "seed": 3,
    "cluster": {"ps": {"profile": "DS3_v2"}, "workers": [{"profile": "DS2_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1,
                 "stop": {"patience": 1000, "max_iterations": 12}},
    "runs": [)" + runs + "]}",
                                             "one");
}

scenario::Scenario three(const std::string& runs) {
  return hermes::testing::scenario_from_text(R"({
    "name": "three", "seed": 5,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "DS2_v2"}, {"profile": "F4s_v2", "count": 2}]},
    "training": {"chunk_size": 64, "local_epochs": 1, "batch_size": 16,
                 "stop": {"patience": 1000, "max_iterations": 24}},
    "runs": [)" + runs + "]}",
                                             "three");
}

std::vector<RunResult> run_all(const scenario::Scenario& sc) {
  const auto data = testing::blocks_split();
  std::vector<RunResult> out;
  for (const auto& r : sc.runs) out.push_back(run_protocol(sc, r, data));
  return out;
}

double params() {
  const auto data = testing::blocks_split();
  return static_cast<double>(nn::make_model(nn::model_spec("mlp", *data.train), 1).num_params());
}

bool same_losses(const RunResult& a, const RunResult& b) {
  if (a.global.size() != b.global.size()) return false;
  for (std::size_t i = 0; i < a.global.size(); ++i) {
    if (a.global[i].loss != b.global[i].loss) return false;
  }
  return true;
}

TEST(Compression, NoneIsTheRunOfBefore) {
  const auto sc = three(R"({"protocol": "bsp"},
    {"protocol": "bsp", "name": "explicit", "compression": "none"})");
  const auto r = run_all(sc);
  EXPECT_TRUE(same_losses(r[0], r[1]));
  EXPECT_EQ(r[0].sim_time, r[1].sim_time);
  EXPECT_EQ(r[0].bytes, r[1].bytes);
  EXPECT_EQ(r[0].pushed_bytes, 4 * params() * static_cast<double>(r[0].requests.pushes));
}

// Bytes on the wire: fp16/bf16 2 per value, top-k/random-k 8 per kept value (4 of value, 4 of
// index), k = round(fraction x n); and the network carries exactly those.
TEST(Compression, TheNetworkCarriesTheCompressedBytes) {
  const auto sc = one(R"({"protocol": "asp", "name": "none"},
    {"protocol": "asp", "name": "fp16", "compression": "fp16"},
    {"protocol": "asp", "name": "bf16", "compression": "bf16", "error_feedback": true},
    {"protocol": "asp", "name": "topk", "compression": "topk", "compression_fraction": 0.01},
    {"protocol": "asp", "name": "randk", "compression": "randk", "compression_fraction": 0.1,
     "error_feedback": true})");
  const auto r = run_all(sc);
  const double n = params();
  const double k1 = static_cast<double>(kept_count(static_cast<std::size_t>(n), 0.01));
  const double k10 = static_cast<double>(kept_count(static_cast<std::size_t>(n), 0.1));
  const double per_push[] = {4 * n, 2 * n, 2 * n, 8 * k1, 8 * k10};
  for (std::size_t i = 0; i < r.size(); ++i) {
    ASSERT_EQ(r[i].requests.pushes, 12) << sc.runs[i].name;
    EXPECT_EQ(r[i].pushed_bytes, 12 * per_push[i]) << sc.runs[i].name;
    // The same chunks and models: the network's total differs by the pushes' bytes only.
    EXPECT_DOUBLE_EQ(r[0].bytes - r[i].bytes, r[0].pushed_bytes - r[i].pushed_bytes)
        << sc.runs[i].name;
  }
  EXPECT_LT(r[3].sim_time, r[0].sim_time);  // fewer bytes, shorter pushes
}

// The PS applies what it decoded: every codec that loses something changes the run; top-k of
// every value (fraction 1) loses nothing, with or without error feedback (a residual of 0).
TEST(Compression, ThePsAppliesTheDecodedUpdate) {
  for (const char* p : {"bsp", "asp", "ssp", "ebsp", "hermes", "selsync", "local_sgd", "hybrid"}) {
    const std::string protocol = std::string(R"("protocol": ")") + p + R"(")";
    const auto sc = three("{" + protocol + R"(, "name": "plain"}, {)" + protocol +
                          R"(, "name": "all", "compression": "topk", "compression_fraction": 1,
                               "error_feedback": true}, {)" +
                          protocol + R"(, "name": "top", "compression": "topk",
                               "compression_fraction": 0.01}, {)" +
                          protocol + R"(, "name": "half", "compression": "bf16"})");
    const auto r = run_all(sc);
    EXPECT_TRUE(same_losses(r[0], r[1])) << p;
    EXPECT_FALSE(same_losses(r[0], r[2])) << p;
    EXPECT_FALSE(same_losses(r[0], r[3])) << p;
  }
}

TEST(Compression, SummaryColumnsOnlyWhereARunCompresses) {
  const std::string plain =
      testing::summary_header(three(R"({"protocol": "bsp"}, {"protocol": "asp"})"));
  EXPECT_EQ(plain.find("compression"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("error_feedback"), std::string::npos) << plain;
  const std::string half = testing::summary_header(
      three(R"({"protocol": "bsp"}, {"protocol": "bsp", "compression": "fp16"})"));
  EXPECT_NE(half.find(",compression,error_feedback,"), std::string::npos) << half;
  EXPECT_EQ(half.find("compression_fraction"), std::string::npos) << half;
  const std::string top =
      testing::summary_header(three(R"({"protocol": "hermes", "compression": "topk"})"));
  EXPECT_NE(top.find(",compression,compression_fraction,error_feedback,"), std::string::npos)
      << top;
}

TEST(Compression, DefaultNamesShowTheCodec) {
  const auto sc = three(R"({"protocol": "bsp", "compression": "fp16"},
    {"protocol": "hermes", "compression": "topk", "error_feedback": true},
    {"protocol": "asp", "compression": "randk", "compression_fraction": 0.1})");
  EXPECT_EQ(sc.runs[0].name, "bsp-fp16");
  EXPECT_EQ(sc.runs[1].name, "hermes-1.3-topk-ef");
  EXPECT_EQ(sc.runs[2].name, "asp-randk-f0.1");
}

TEST(Compression, BadKeysAreNamedWithWhatIsAccepted) {
  for (const char* fraction : {"0", "-0.5", "1.5"}) {
    const std::string e =
        testing::run_errors(std::string(R"({"protocol": "bsp", "compression": "topk",
                                                     "compression_fraction": )") +
                            fraction + "}");
    EXPECT_NE(e.find("compression_fraction"), std::string::npos) << e;
    EXPECT_NE(e.find("in (0, 1]"), std::string::npos) << e;
  }
  const std::string word = testing::run_errors(R"({"protocol": "asp", "compression": "zip"})");
  EXPECT_NE(word.find("compression"), std::string::npos) << word;
  EXPECT_NE(word.find("randk"), std::string::npos) << word;
  const std::string lonely = testing::run_errors(
      R"({"protocol": "asp", "compression": "fp16", "compression_fraction": 0.1})");
  EXPECT_NE(lonely.find("used only with \"compression\": \"topk\" or \"randk\""), std::string::npos)
      << lonely;
  const std::string feedback =
      testing::run_errors(R"({"protocol": "ssp", "error_feedback": true})");
  EXPECT_NE(feedback.find("error_feedback"), std::string::npos) << feedback;
  EXPECT_NE(feedback.find("used only with a \"compression\""), std::string::npos) << feedback;
  // The demo trains nothing: it takes no compression.
  const std::string demo = testing::run_errors(R"({"protocol": "demo", "compression": "fp16"})");
  EXPECT_NE(demo.find("compression"), std::string::npos) << demo;
  EXPECT_EQ(testing::run_errors(R"({"protocol": "selsync", "compression": "randk",
                         "compression_fraction": 1, "error_feedback": true})"),
            "");
}

// A worker back from an outage is a new process: its residual is gone (ProtocolRun::on_up), and
// its next push is compressed as a fresh worker's would be.
TEST(Compression, AWorkerThatComesBackStartsWithoutResidual) {
  const CompressionSpec spec{Compression::kTopK, 0.25, true};
  UpdateCompressor rejoined(spec, 1, 2);
  UpdateCompressor fresh(spec, 1, 2);
  std::vector<float> first{1.0f, -0.5f, 0.25f, 0.75f};
  EXPECT_EQ(rejoined.encode(1, first), 8.0);
  rejoined.forget(1);
  std::vector<float> a{0.5f, 0.0f, 0.25f, 0.4f};
  std::vector<float> b = a;
  rejoined.encode(1, a);
  fresh.encode(1, b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, (std::vector<float>{0.5f, 0, 0, 0}));  // without the forget: 0.75 + 0.4 at 3
}

}  // namespace
}  // namespace hermes::protocols
