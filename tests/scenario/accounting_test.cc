// The "accounting" preset: it gives the defaults of the released code's switches, each switch can
// still be set on its own, and a setting of the other counting or encoding is an error, never
// silently unused.
#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)

Scenario with(const char* patch) {
  Json doc = minimal_doc();
  doc.merge_patch(Json::parse(patch));
  Diagnostics diags;
  auto s = check_doc(doc, diags);
  EXPECT_TRUE(s) << diags.format();
  return s ? *s : Scenario{};
}

TEST(Accounting, CleanIsTheDefaultAndChangesNothing) {
  const Scenario s = with("{}");
  EXPECT_EQ(s.accounting, Accounting::kClean);
  EXPECT_EQ(s.training.epoch_order, EpochOrder::kReshuffle);
  EXPECT_FALSE(s.training.drop_first_row);
  EXPECT_EQ(s.training.t_med, TMedRule::kFirstTimes);
  EXPECT_EQ(s.training.stop.reported_accuracy, ReportedAccuracy::kBestLoss);
  EXPECT_EQ(s.transfers.chunk_delay, engine::SimTime{});
  EXPECT_EQ(s.transfers.chunk_encoding, ChunkEncoding::kFloat32);
  EXPECT_EQ(s.transfers.update_encoding, UpdateEncoding::kFloat32);
  EXPECT_EQ(s.transfers.model_encoding, ModelEncoding::kFloat32);
  EXPECT_FALSE(s.transfers.model_after_evaluation);
  EXPECT_EQ(s.api.counting, ApiCounting::kCalls);
  EXPECT_FALSE(s.document["transfers"].contains("chunk_gzip_ratio"));
}

TEST(Accounting, ReleasedCodeSetsEverySwitchToTheCodesBehaviour) {
  const Scenario s = with(R"({"accounting": "released-code"})");
  EXPECT_EQ(s.accounting, Accounting::kReleasedCode);
  EXPECT_EQ(s.training.epoch_order, EpochOrder::kFixed);
  EXPECT_TRUE(s.training.drop_first_row);
  EXPECT_EQ(s.training.t_med, TMedRule::kLatestTimes);
  EXPECT_EQ(s.training.stop.reported_accuracy, ReportedAccuracy::kBestLossAfterFirst);
  EXPECT_EQ(s.transfers.chunk_delay, engine::from_seconds(2));
  EXPECT_EQ(s.transfers.chunk_encoding, ChunkEncoding::kPickleGzip);
  EXPECT_DOUBLE_EQ(s.transfers.chunk_gzip_ratio, 0.0837);  // MNIST's, measured
  EXPECT_EQ(s.transfers.update_encoding, UpdateEncoding::kJson);
  EXPECT_EQ(s.transfers.model_encoding, ModelEncoding::kH5);
  EXPECT_DOUBLE_EQ(s.transfers.model_file_overhead_bytes, 20000);
  EXPECT_TRUE(s.transfers.model_after_evaluation);
  EXPECT_EQ(s.api.counting, ApiCounting::kReleasedCode);
  EXPECT_EQ(s.api.minor_iteration_requests, 18);
  EXPECT_EQ(s.api.major_iteration_requests, 25);
  EXPECT_EQ(s.api.master_requests_per_update, 2);
  EXPECT_DOUBLE_EQ(s.api.master_poll_rate, 2948);
  // The resolved document records every value used, so that the run can be repeated from it.
  EXPECT_EQ(s.document["training"]["epoch_order"], "fixed");
  EXPECT_EQ(s.document["transfers"]["chunk_gzip_ratio"], 0.0837);
  EXPECT_EQ(s.document["api"]["master_poll_rate_per_s"], 2948);
  EXPECT_FALSE(s.document["api"].contains("poll_interval_ms"));
}

TEST(Accounting, EachSwitchCanBeSetApartFromThePreset) {
  const Scenario s = with(R"({"accounting": "released-code",
      "training": {"epoch_order": "reshuffle", "stop": {"reported_accuracy": "best-loss"}},
      "transfers": {"chunk_delay_s": 0.5, "chunk_gzip_ratio": 0.5},
      "api": {"master_poll_rate_per_s": 100}})");
  EXPECT_EQ(s.training.epoch_order, EpochOrder::kReshuffle);
  EXPECT_TRUE(s.training.drop_first_row);  // still the preset's
  EXPECT_EQ(s.training.stop.reported_accuracy, ReportedAccuracy::kBestLoss);
  EXPECT_EQ(s.transfers.chunk_delay, engine::from_seconds(0.5));
  EXPECT_DOUBLE_EQ(s.transfers.chunk_gzip_ratio, 0.5);
  EXPECT_DOUBLE_EQ(s.api.master_poll_rate, 100);

  const Scenario clean = with(R"({"training": {"drop_first_row": true, "t_med": "latest-times"},
      "transfers": {"update_encoding": "json"}})");
  EXPECT_EQ(clean.accounting, Accounting::kClean);
  EXPECT_TRUE(clean.training.drop_first_row);
  EXPECT_EQ(clean.training.t_med, TMedRule::kLatestTimes);
  EXPECT_EQ(clean.transfers.update_encoding, UpdateEncoding::kJson);
  EXPECT_EQ(clean.transfers.model_encoding, ModelEncoding::kFloat32);
}

TEST(Accounting, TheGzipRatioFollowsTheDataset) {
  EXPECT_DOUBLE_EQ(with(R"({"accounting": "released-code", "dataset": {"name": "cifar10"}})")
                       .transfers.chunk_gzip_ratio,
                   0.3212);
  EXPECT_DOUBLE_EQ(with(R"({"accounting": "released-code", "dataset": {"name": "fashion-mnist"}})")
                       .transfers.chunk_gzip_ratio,
                   0.2061);
}

TEST(Accounting, SettingsOfTheOtherModeAreErrorsThatSayWhy) {
  Diagnostics diags;
  EXPECT_EQ(
      errors_after(R"({"accounting": "released-code", "api": {"poll_interval_ms": 2}})", diags),
      Paths{"/api/poll_interval_ms"});
  EXPECT_TRUE(Contains(only_message(diags), "only with counting \"calls\"")) << diags.format();
  EXPECT_EQ(errors_after(R"({"api": {"master_poll_rate_per_s": 5}})", diags),
            Paths{"/api/master_poll_rate_per_s"});
  EXPECT_TRUE(Contains(only_message(diags), "only with counting \"released-code\""));
  EXPECT_EQ(errors_after(R"({"transfers": {"chunk_gzip_ratio": 0.1}})", diags),
            Paths{"/transfers/chunk_gzip_ratio"});
  EXPECT_TRUE(Contains(only_message(diags), "only with chunk_encoding \"pickle-gzip\""));
  EXPECT_EQ(errors_after(R"({"transfers": {"model_file_overhead_bytes": 1}})"),
            Paths{"/transfers/model_file_overhead_bytes"});
  EXPECT_EQ(errors_after(R"({"accounting": "released"})", diags), Paths{"/accounting"});
  EXPECT_TRUE(Contains(only_message(diags), "clean, released-code")) << diags.format();
  EXPECT_EQ(errors_after(R"({"training": {"epoch_order": "sorted"}})"),
            Paths{"/training/epoch_order"});
  EXPECT_EQ(errors_after(R"({"training": {"t_med": "mean"}})"), Paths{"/training/t_med"});
  EXPECT_EQ(errors_after(R"({"training": {"stop": {"reported_accuracy": "last"}}})"),
            Paths{"/training/stop/reported_accuracy"});
  EXPECT_EQ(errors_after(R"({"transfers": {"chunk_delay_s": -1}})"),
            Paths{"/transfers/chunk_delay_s"});
  EXPECT_EQ(errors_after(R"({"transfers": {"zip": true}})"), Paths{"/transfers/zip"});
}

}  // namespace
}  // namespace hermes::scenario
