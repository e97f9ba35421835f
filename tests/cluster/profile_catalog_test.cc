// The shipped catalog and the validation of catalog files and per-node overrides.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "sim/cluster/compute_model.h"
#include "sim/cluster/profile.h"

namespace hermes::cluster {
namespace {

using nlohmann::json;

const ProfileCatalog& shipped() {
  static const ProfileCatalog catalog = ProfileCatalog::load(default_catalog_path());
  return catalog;
}

// The Diagnostic at `path`, or nullptr.
const Diagnostic* at(const Diagnostics& d, const std::string& path) {
  for (const auto& item : d.items()) {
    if (item.json_path == path) return &item;
  }
  return nullptr;
}

TEST(ProfileCatalog, ShippedCatalogHasAllSizesInFileOrder) {
  const std::vector<std::string> expected = {"B1s",    "B1ms",   "B2s",    "B2ms",
                                             "DS1_v2", "DS2_v2", "DS3_v2", "F2s_v2",
                                             "F4s_v2", "F8s_v2", "D2s_v3", "D4s_v3"};
  EXPECT_EQ(shipped().names(), expected);
  EXPECT_FALSE(shipped().calibration_notes().empty());
  EXPECT_EQ(catalog_path_in("/src"), "/src/scenarios/profiles/azure.json");
}

TEST(ProfileCatalog, PublishedNicBandwidthVcpuAndMemory) {
  struct Row {
    const char* name;
    int vcpus;
    double memory_gib;
    double nic_mbps;
  };
  const Row rows[] = {{"DS1_v2", 1, 3.5, 750}, {"DS2_v2", 2, 7, 1500},  {"DS3_v2", 4, 14, 3000},
                      {"F2s_v2", 2, 4, 5000},  {"F4s_v2", 4, 8, 10000}, {"F8s_v2", 8, 16, 12500},
                      {"D2s_v3", 2, 8, 1000},  {"D4s_v3", 4, 16, 2000}, {"B1ms", 1, 2, 250},
                      {"B2s", 2, 4, 500}};
  for (const auto& r : rows) {
    const NodeProfile* p = shipped().find(r.name);
    ASSERT_NE(p, nullptr) << r.name;
    EXPECT_EQ(p->vcpus, r.vcpus) << r.name;
    EXPECT_EQ(p->memory_gib, r.memory_gib) << r.name;
    EXPECT_EQ(p->nic_mbps, r.nic_mbps) << r.name;
    EXPECT_FALSE(p->notes.empty()) << r.name;
  }
}

TEST(ProfileCatalog, AzureBurstTable) {
  struct Row {
    const char* name;
    double baseline, per_hour, max, initial;
  };
  const Row rows[] = {{"B1s", 10, 6, 144, 30},
                      {"B1ms", 20, 12, 288, 30},
                      {"B2s", 40, 24, 576, 60},
                      {"B2ms", 60, 36, 864, 60}};
  for (const auto& r : rows) {
    const NodeProfile* p = shipped().find(r.name);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(p->burst.has_value()) << r.name;
    EXPECT_EQ(p->burst->baseline_pct, r.baseline) << r.name;
    EXPECT_EQ(p->burst->credits_per_hour, r.per_hour) << r.name;
    EXPECT_EQ(p->burst->max_credits, r.max) << r.name;
    EXPECT_EQ(p->burst->max_credits, 24 * p->burst->credits_per_hour) << r.name;
    EXPECT_EQ(p->burst->initial_credits, r.initial) << r.name;
  }
  EXPECT_FALSE(shipped().find("DS2_v2")->burst.has_value());
  EXPECT_FALSE(shipped().find("F4s_v2")->burst.has_value());
}

TEST(ProfileCatalog, LookupByShortOrAzureNameIgnoringCase) {
  const NodeProfile* by_short = shipped().find("B1ms");
  ASSERT_NE(by_short, nullptr);
  EXPECT_EQ(by_short->azure_name, "Standard_B1ms");
  EXPECT_EQ(shipped().find("Standard_B1ms"), by_short);
  EXPECT_EQ(shipped().find("standard_ds2_V2"), shipped().find("DS2_v2"));
  EXPECT_EQ(shipped().find("B1"), nullptr);
  EXPECT_EQ(shipped().find(""), nullptr);
}

TEST(ProfileCatalog, ReferenceJobIsTheSimulatorsDefaultChunk) {
  const auto& job = shipped().reference_job();
  ASSERT_TRUE(job.has_value());
  EXPECT_EQ(job->steps, 665);  // 5 epochs x ceil(2125 / 16) = 5 x 133
  // FLOPs as models/nn counts them for the MLP 784-128-64-10: multiply-add 2, bias add 1, no
  // input gradient in the first layer; the SGD update is 2 per parameter.
  const double forward = (2.0 * 784 * 128 + 128) + (2.0 * 128 * 64 + 64) + (2.0 * 64 * 10 + 10);
  const double backward = (2.0 * 784 * 128 + 128) + (4.0 * 128 * 64 + 64) + (4.0 * 64 * 10 + 10);
  const double params = 784.0 * 128 + 128 + 128.0 * 64 + 64 + 64.0 * 10 + 10;
  EXPECT_EQ(forward, 218'570.0);
  EXPECT_EQ(forward + backward, 454'804.0);
  EXPECT_EQ(2 * params, 218'772.0);
  EXPECT_EQ(job->flops, 2125.0 * 5 * (forward + backward) + 665 * 2 * params + 375 * forward);
  EXPECT_EQ(job->flops, 5'059'739'630.0);
  EXPECT_EQ(job->target_profile, "DS2_v2");
  EXPECT_EQ(job->target_seconds, 7.3);
  EXPECT_NE(job->description.find("2125 train"), std::string::npos) << job->description;
}

TEST(ProfileCatalog, Ds2v2PredictsThePaperMedianIteration) {
  // Calibration check against the data file: the paper's median iteration is ~7.3 s.
  const ReferenceJob& job = *shipped().reference_job();
  const NodeProfile& target = *shipped().find(job.target_profile);
  EXPECT_NEAR(full_speed_seconds(target.compute, job.flops, job.steps), job.target_seconds, 0.05);
  // 665 x 7.44 ms + 5,059,739,630 / 2.151e9 = 4.9476 + 2.352273 = 7.299873 s.
  EXPECT_NEAR(full_speed_seconds(shipped().find("DS2_v2")->compute, job.flops, job.steps), 7.299873,
              1e-6);
}

TEST(ProfileCatalog, GflopsFollowTheCalibrationFormula) {
  // gflops = 2.151 x (ACU per vCPU / 230) x (vcpus / 2)^0.5, rounded to 3 decimals (notes (a)).
  struct Row {
    const char* name;
    double acu;
  };
  const Row rows[] = {{"B1s", 175},      {"B1ms", 175},     {"B2s", 175},    {"B2ms", 175},
                      {"DS1_v2", 230},   {"DS2_v2", 230},   {"DS3_v2", 230}, {"F2s_v2", 202.5},
                      {"F4s_v2", 202.5}, {"F8s_v2", 202.5}, {"D2s_v3", 175}, {"D4s_v3", 175}};
  for (const auto& r : rows) {
    const NodeProfile& p = *shipped().find(r.name);
    const double expected = 2.151 * r.acu / 230 * std::sqrt(p.vcpus / 2.0);
    EXPECT_NEAR(p.compute.gflops, expected, 0.0005 + 1e-12) << r.name;
  }
}

TEST(ProfileCatalog, InferenceGflopsFollowTheCalibrationFormula) {
  // inference_gflops = cores x base GHz x 32 FLOP/cycle x 0.734 (the measured GEMM efficiency),
  // rounded to 3 decimals; eval_overhead_us 20000 everywhere (notes, "Inference").
  struct Row {
    const char* name;
    double cores, ghz;
  };
  const Row rows[] = {{"B1s", 0.5, 2.3},  {"B1ms", 0.5, 2.3}, {"B2s", 1, 2.3},
                      {"B2ms", 1, 2.3},   {"DS1_v2", 1, 2.4}, {"DS2_v2", 2, 2.4},
                      {"DS3_v2", 4, 2.4}, {"F2s_v2", 1, 2.7}, {"F4s_v2", 2, 2.7},
                      {"F8s_v2", 4, 2.7}, {"D2s_v3", 1, 2.3}, {"D4s_v3", 2, 2.3}};
  for (const auto& r : rows) {
    const NodeProfile& p = *shipped().find(r.name);
    EXPECT_NEAR(p.compute.inference_gflops, r.cores * r.ghz * 32 * 0.734, 0.0005 + 1e-12) << r.name;
    EXPECT_EQ(p.compute.eval_overhead_us, 20000) << r.name;
  }
  // The paper's PS evaluates the MLP's 10,000 test images (2.1857 GFLOP) in one call: ~29.7 ms.
  const TrainingJob eval{0, 0, 10000 * 218'570.0, 1};
  EXPECT_NEAR(full_speed_seconds(shipped().find("DS3_v2")->compute, eval), 0.02 + 2.1857 / 225.485,
              1e-6);
}

TEST(ProfileCatalog, FasterSizesAreFasterUnderTheModel) {
  auto t = [](const char* name) {
    const ReferenceJob& job = *shipped().reference_job();
    return full_speed_seconds(shipped().find(name)->compute, job.flops, job.steps);
  };
  EXPECT_LT(t("DS3_v2"), t("DS2_v2"));
  EXPECT_LT(t("DS2_v2"), t("DS1_v2"));
  EXPECT_LT(t("F8s_v2"), t("F4s_v2"));
  EXPECT_LT(t("F4s_v2"), t("F2s_v2"));
  // Sublinear: doubling vCPUs (DS2 -> DS3) saves far less than half the time.
  EXPECT_GT(t("DS3_v2"), 0.8 * t("DS2_v2"));
}

json valid_doc() {
  return json::parse(R"({
    "calibration": {"notes": ["n1"],
                    "reference_job": {"description": "tiny", "flops": 2e9, "steps": 100,
                                      "target_seconds_on": "standard_big", "target_seconds": 0.55}},
    "profiles": {
      "Small": {"azure_name": "Standard_Small", "vcpus": 1, "memory_gib": 2, "nic_mbps": 100,
                "compute": {"gflops": 1, "step_overhead_us": 1000, "jitter_cv": 0},
                "burst": {"baseline_pct": 20, "credits_per_hour": 12, "max_credits": 288,
                          "initial_credits": 30}},
      "Big": {"azure_name": "Standard_Big", "vcpus": 4, "memory_gib": 16, "nic_mbps": 1000,
              "compute": {"gflops": 4, "step_overhead_us": 500, "jitter_cv": 0.05}}
    }})");
}

TEST(ProfileCatalogParse, ValidDocument) {
  Diagnostics d;
  const ProfileCatalog c = ProfileCatalog::parse(valid_doc(), d);
  ASSERT_TRUE(d.ok()) << d.format();
  // nlohmann::json sorts keys; ordered_json keeps the document's order.
  EXPECT_EQ(c.names(), (std::vector<std::string>{"Big", "Small"}));
  EXPECT_EQ(c.calibration_notes(), std::vector<std::string>{"n1"});
  ASSERT_TRUE(c.reference_job().has_value());
  EXPECT_EQ(c.reference_job()->description, "tiny");
  EXPECT_EQ(c.reference_job()->flops, 2e9);
  EXPECT_EQ(c.reference_job()->steps, 100);
  EXPECT_EQ(c.reference_job()->target_profile, "Big");  // resolved from the Azure name
  EXPECT_EQ(c.reference_job()->target_seconds, 0.55);
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(valid_doc().dump());
  // dump() of a json sorts, so build an ordered document explicitly.
  nlohmann::ordered_json doc;
  doc["profiles"]["Small"] = ordered["profiles"]["Small"];
  doc["profiles"]["Big"] = ordered["profiles"]["Big"];
  Diagnostics d2;
  EXPECT_EQ(ProfileCatalog::parse(doc, d2).names(), (std::vector<std::string>{"Small", "Big"}));
  EXPECT_TRUE(d2.ok()) << d2.format();
}

TEST(ProfileCatalogParse, ReportsEveryErrorInOnePassWithPaths) {
  json doc = valid_doc();
  doc["profiles"]["Small"]["vcpus"] = 0;              // out of range
  doc["profiles"]["Small"]["color"] = "red";          // unknown key
  doc["profiles"]["Small"]["memory_gib"] = -1;        // negative
  doc["profiles"]["Big"]["nic_mbps"] = "fast";        // wrong type
  doc["profiles"]["Big"]["compute"]["gflops"] = -2;   // negative
  doc["profiles"]["Big"]["compute"]["turbo"] = true;  // unknown nested key
  doc["profiles"]["Big"]["vcpus"] = 2.5;              // not an integer
  doc["extra"] = 1;                                   // unknown top-level key
  Diagnostics d("cat.json");
  ProfileCatalog::parse(doc, d);
  EXPECT_EQ(d.count(), 8u) << d.format();
  ASSERT_NE(at(d, "/profiles/Small/vcpus"), nullptr) << d.format();
  EXPECT_NE(at(d, "/profiles/Small/vcpus")
                ->message.find("out of range (accepted: vcpus in [1, 1024]; got 0)"),
            std::string::npos);
  ASSERT_NE(at(d, "/profiles/Small/color"), nullptr);
  EXPECT_NE(at(d, "/profiles/Small/color")->message.find("unknown key"), std::string::npos);
  EXPECT_NE(at(d, "/profiles/Small/color")->message.find("azure_name"), std::string::npos);
  ASSERT_NE(at(d, "/profiles/Small/memory_gib"), nullptr);
  EXPECT_NE(at(d, "/profiles/Small/memory_gib")->message.find("> 0"), std::string::npos);
  ASSERT_NE(at(d, "/profiles/Big/nic_mbps"), nullptr);
  EXPECT_NE(at(d, "/profiles/Big/nic_mbps")->message.find("string"), std::string::npos);
  EXPECT_NE(at(d, "/profiles/Big/compute/gflops"), nullptr);
  EXPECT_NE(at(d, "/profiles/Big/compute/turbo"), nullptr);
  EXPECT_NE(at(d, "/profiles/Big/vcpus"), nullptr);
  EXPECT_NE(at(d, "/extra"), nullptr);
  EXPECT_NE(d.format().find("cat.json: /profiles/Small/vcpus: "), std::string::npos);
}

TEST(ProfileCatalogParse, MissingFieldsAndBurstRules) {
  json doc = valid_doc();
  doc["profiles"]["Big"].erase("compute");
  doc["profiles"]["Small"]["burst"]["credits_per_hour"] = 10;  // Azure: 20% => 12/h
  doc["profiles"]["Small"]["burst"]["initial_credits"] = 300;  // > max 288
  Diagnostics d;
  ProfileCatalog::parse(doc, d);
  EXPECT_EQ(d.count(), 3u) << d.format();
  EXPECT_NE(at(d, "/profiles/Big/compute"), nullptr);
  ASSERT_NE(at(d, "/profiles/Small/burst/credits_per_hour"), nullptr);
  EXPECT_NE(at(d, "/profiles/Small/burst/credits_per_hour")->message.find("12"), std::string::npos);
  EXPECT_NE(at(d, "/profiles/Small/burst/initial_credits"), nullptr);

  json over = valid_doc();
  over["profiles"]["Small"]["burst"] = {
      {"baseline_pct", 150}, {"credits_per_hour", 90}, {"max_credits", 10}, {"initial_credits", 0}};
  Diagnostics d2;
  ProfileCatalog::parse(over, d2);
  ASSERT_EQ(d2.count(), 1u) << d2.format();
  EXPECT_EQ(d2.items()[0].json_path, "/profiles/Small/burst/baseline_pct");  // 1 vCPU => <= 100
}

TEST(ProfileCatalogParse, ReferenceJobIsOptional) {
  json doc = valid_doc();
  doc["calibration"].erase("reference_job");
  Diagnostics d;
  const ProfileCatalog c = ProfileCatalog::parse(doc, d);
  EXPECT_TRUE(d.ok()) << d.format();
  EXPECT_FALSE(c.reference_job().has_value());
}

TEST(ProfileCatalogParse, BadReferenceJobReportsEveryFieldWithPaths) {
  json doc = valid_doc();
  json& job = doc["calibration"]["reference_job"];
  job["flops"] = -1;                  // out of range
  job["steps"] = 66.5;                // not an integer
  job["target_seconds_on"] = "Huge";  // not a profile of this catalog
  job["target_seconds"] = "7.3";      // wrong type
  job["gpu"] = true;                  // unknown key
  job.erase("description");           // missing
  doc["calibration"]["extra"] = 1;    // unknown key in calibration
  Diagnostics d("cat.json");
  const ProfileCatalog c = ProfileCatalog::parse(doc, d);
  EXPECT_EQ(d.count(), 7u) << d.format();
  EXPECT_FALSE(c.reference_job().has_value());
  const std::string p = "/calibration/reference_job/";
  ASSERT_NE(at(d, p + "flops"), nullptr) << d.format();
  EXPECT_NE(at(d, p + "flops")->message.find("> 0"), std::string::npos);
  ASSERT_NE(at(d, p + "steps"), nullptr);
  EXPECT_NE(at(d, p + "steps")->message.find("expected an integer (steps >= 0), got number 66.5"),
            std::string::npos);
  ASSERT_NE(at(d, p + "target_seconds_on"), nullptr);
  EXPECT_NE(at(d, p + "target_seconds_on")->message.find("unknown profile \"Huge\""),
            std::string::npos);
  EXPECT_NE(at(d, p + "target_seconds_on")->message.find("Big, Small"), std::string::npos);
  ASSERT_NE(at(d, p + "target_seconds"), nullptr);
  EXPECT_NE(at(d, p + "target_seconds")->message.find("got string"), std::string::npos);
  ASSERT_NE(at(d, p + "gpu"), nullptr);
  EXPECT_NE(at(d, p + "gpu")->message.find("(accepted: description, flops, steps"),
            std::string::npos);
  ASSERT_NE(at(d, p + "description"), nullptr);
  EXPECT_NE(at(d, p + "description")->message.find("missing"), std::string::npos);
  ASSERT_NE(at(d, "/calibration/extra"), nullptr);
  EXPECT_NE(at(d, "/calibration/extra")->message.find("notes, reference_job"), std::string::npos);

  // Not an object; negative steps.
  json not_object = valid_doc();
  not_object["calibration"]["reference_job"] = json::array();
  Diagnostics d2;
  ProfileCatalog::parse(not_object, d2);
  ASSERT_EQ(d2.count(), 1u) << d2.format();
  EXPECT_EQ(d2.items()[0].json_path, "/calibration/reference_job");
  json negative = valid_doc();
  negative["calibration"]["reference_job"]["steps"] = -3;
  Diagnostics d3;
  ProfileCatalog::parse(negative, d3);
  ASSERT_EQ(d3.count(), 1u) << d3.format();
  EXPECT_EQ(d3.items()[0].json_path, "/calibration/reference_job/steps");

  // A target naming a profile that has errors of its own is not reported a second time.
  json broken_target = valid_doc();
  broken_target["profiles"]["Big"]["vcpus"] = 0;
  Diagnostics d4;
  ProfileCatalog::parse(broken_target, d4);
  ASSERT_EQ(d4.count(), 1u) << d4.format();
  EXPECT_EQ(d4.items()[0].json_path, "/profiles/Big/vcpus");
}

TEST(ProfileCatalogParse, NameClashesAndBadShapes) {
  json doc = valid_doc();
  doc["profiles"]["Big"]["azure_name"] = "standard_small";           // clashes ignoring case
  doc["calibration"]["reference_job"]["target_seconds_on"] = "Big";  // still names a profile
  Diagnostics d;
  ProfileCatalog::parse(doc, d);
  ASSERT_EQ(d.count(), 1u) << d.format();
  EXPECT_NE(d.items()[0].message.find("clashes"), std::string::npos);

  Diagnostics d2;
  ProfileCatalog::parse(json::array(), d2);
  EXPECT_EQ(d2.count(), 1u);
  Diagnostics d3;
  ProfileCatalog::parse(json::object(), d3);
  ASSERT_EQ(d3.count(), 1u);
  EXPECT_EQ(d3.items()[0].json_path, "/profiles");
}

TEST(ProfileCatalogLoad, FileErrorsNameTheFile) {
  const std::string path = ::testing::TempDir() + "hermes_bad_catalog.json";
  {
    std::ofstream out(path);
    out << R"({"profiles": {"X": {"azure_name": "Standard_X", "vcpus": "two"}}})";
  }
  try {
    ProfileCatalog::load(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path + ": /profiles/X/vcpus: wrong type: expected an integer"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("/profiles/X/memory_gib: missing"), std::string::npos) << msg;
  }
  {
    std::ofstream out(path);
    out << "{not json";
  }
  EXPECT_THROW(ProfileCatalog::load(path), InputError);
  EXPECT_THROW(ProfileCatalog::load(path + ".does-not-exist"), InputError);
  std::remove(path.c_str());
}

TEST(ApplyOverrides, AppliesAcceptedKeys) {
  NodeProfile p = *shipped().find("B1ms");
  Diagnostics d;
  apply_overrides(p, json::parse(R"({"vcpus": 2, "nic_mbps": 900,
                                  "compute": {"gflops": 5.5},
                                  "burst": {"baseline_pct": 40, "credits_per_hour": 24}})"),
                  "/cluster/workers/3/overrides", d);
  ASSERT_TRUE(d.ok()) << d.format();
  EXPECT_EQ(p.vcpus, 2);
  EXPECT_EQ(p.nic_mbps, 900);
  EXPECT_EQ(p.compute.gflops, 5.5);
  EXPECT_EQ(p.compute.step_overhead_us, 6590);  // untouched
  EXPECT_EQ(p.burst->baseline_pct, 40);
  EXPECT_EQ(p.burst->max_credits, 288);  // untouched
  EXPECT_EQ(p.memory_gib, 2);

  Diagnostics d2;
  apply_overrides(p, json::parse(R"({"burst": null})"), "/o", d2);
  EXPECT_TRUE(d2.ok());
  EXPECT_FALSE(p.burst.has_value());
}

TEST(ApplyOverrides, RejectsAndLeavesProfileUnchanged) {
  const NodeProfile original = *shipped().find("B1ms");
  NodeProfile p = original;
  Diagnostics d;
  apply_overrides(p, json::parse(R"({"cores": 4, "vcpus": -1, "compute": {"jitter_cv": 2},
                                     "burst": {"baseline_pct": "high"}})"),
                  "/cluster/workers/0/overrides", d);
  EXPECT_EQ(d.count(), 4u) << d.format();
  ASSERT_NE(at(d, "/cluster/workers/0/overrides/cores"), nullptr);
  EXPECT_NE(at(d, "/cluster/workers/0/overrides/cores")
                ->message.find("(accepted: vcpus, memory_gib, nic_mbps, compute, burst)"),
            std::string::npos);
  EXPECT_NE(at(d, "/cluster/workers/0/overrides/vcpus"), nullptr);
  EXPECT_NE(at(d, "/cluster/workers/0/overrides/compute/jitter_cv"), nullptr);
  EXPECT_NE(at(d, "/cluster/workers/0/overrides/burst/baseline_pct"), nullptr);
  EXPECT_EQ(p.vcpus, original.vcpus);
  EXPECT_EQ(p.compute.jitter_cv, original.compute.jitter_cv);

  // Cross-field rule after applying: a lone baseline change contradicts credits_per_hour.
  Diagnostics d2;
  apply_overrides(p, json::parse(R"({"burst": {"baseline_pct": 30}})"), "/o", d2);
  ASSERT_EQ(d2.count(), 1u) << d2.format();
  EXPECT_EQ(d2.items()[0].json_path, "/o/burst/credits_per_hour");
  EXPECT_EQ(p.burst->baseline_pct, 20);

  // Making a non-burstable node burstable needs the whole burst object.
  NodeProfile ds2 = *shipped().find("DS2_v2");
  Diagnostics d3;
  apply_overrides(ds2, json::parse(R"({"burst": {"baseline_pct": 40}})"), "/o", d3);
  EXPECT_EQ(d3.count(), 3u) << d3.format();
  EXPECT_NE(at(d3, "/o/burst/max_credits"), nullptr);
  EXPECT_FALSE(ds2.burst.has_value());

  Diagnostics d4;
  apply_overrides(ds2, json::array(), "/o", d4);
  EXPECT_EQ(d4.count(), 1u);
}

TEST(CatalogTable, ShowsEveryProfileAndTheCalibration) {
  const std::string table = format_catalog_table(shipped());
  for (const auto& name : shipped().names()) {
    EXPECT_NE(table.find(name), std::string::npos) << name;
  }
  // DS2_v2 row: 665 x 7.44 ms + 5.05973963 GFLOP / 2.151 GFLOP/s = 7.2999 s.
  const auto row = table.find("DS2_v2 ");
  ASSERT_NE(row, std::string::npos);
  const std::string line = table.substr(row, table.find('\n', row) - row);
  EXPECT_NE(line.find("Standard_DS2_v2"), std::string::npos) << line;
  EXPECT_NE(line.find("1500"), std::string::npos) << line;
  EXPECT_NE(line.find("7.30"), std::string::npos) << line;
  EXPECT_NE(line.find(" - "), std::string::npos) << line;
  const auto b1ms = table.find("B1ms ");
  const std::string b1ms_line = table.substr(b1ms, table.find('\n', b1ms) - b1ms);
  EXPECT_NE(b1ms_line.find("20/12/288/30"), std::string::npos) << b1ms_line;
  // 665 x 6.59 ms + 5.05973963 / 1.157 = 8.7555 s; out of credits at 20% of one vCPU: 43.78 s.
  EXPECT_EQ(b1ms_line.substr(b1ms_line.size() - 18), "    8.76     43.78") << b1ms_line;
  EXPECT_NE(table.find("665 steps and 5.0597 GFLOP, calibrated to 7.3 s on DS2_v2.\n"),
            std::string::npos)
      << table;
  // All rows equally wide: columns are aligned.
  std::size_t start = 0;
  std::size_t first_width = table.find('\n');
  for (int i = 0; i <= static_cast<int>(shipped().names().size()); ++i) {
    const std::size_t end = table.find('\n', start);
    EXPECT_EQ(end - start, first_width) << table;
    start = end + 1;
  }
}

TEST(CatalogTable, WithoutAReferenceJobOmitsThePredictedTimes) {
  json doc = valid_doc();
  doc["calibration"].erase("reference_job");
  Diagnostics d;
  const std::string without = format_catalog_table(ProfileCatalog::parse(doc, d));
  ASSERT_TRUE(d.ok()) << d.format();
  EXPECT_EQ(without.find("chunk s"), std::string::npos) << without;
  EXPECT_EQ(without.find("capped s"), std::string::npos) << without;
  EXPECT_NE(without.find("no calibration reference_job"), std::string::npos) << without;

  Diagnostics d2;
  const std::string with = format_catalog_table(ProfileCatalog::parse(valid_doc(), d2));
  // Big: 100 x 0.5 ms + 2 GFLOP / 4 GFLOP/s = 0.55 s; Small: 0.1 + 2 = 2.10 s, capped at 20% of
  // one vCPU: 10.50 s.
  EXPECT_NE(with.find("  0.55         -\n"), std::string::npos) << with;
  EXPECT_NE(with.find("  2.10     10.50\n"), std::string::npos) << with;
}

}  // namespace
}  // namespace hermes::cluster
