// hermes-sim sweep end to end, on a tiny scenario and synthetic data (written as IDX files, read
// through --data-dir): the layout, byte-identical results whatever the number of threads (and
// MPI ranks), resuming after a crash, and refusing to resume another sweep.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sim/common/build_info.h"
#include "sim/sweep/math_check.h"
#include "tests/sweep/sweep_cli_fixture.h"

namespace hermes::sweep {
namespace {

TEST_F(SweepCli, WritesEveryPointTheSummaryAndTheManifest) {
  const auto r = sweep(dir("a"), "--jobs 2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("4 points (2 grid keys x 1 seed), 0 done before, 4 to run on 2 threads"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("point 0002 runs.hermes.alpha=-1 runs.hermes.beta=0.1 seed=11: bsp ok"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("4/4 points done (4 now; 3 of their runs reused)"), std::string::npos)
      << r.output;
  for (const char* point : {"0000", "0001", "0002", "0003"}) {
    for (const char* file : {"summary.csv", "global.csv", "workers.csv", "api.csv", "nodes.csv",
                             "scenario.json", "provenance.json"}) {
      EXPECT_TRUE(fs::exists(dir("a") + "/points/" + point + "/" + file)) << point << file;
    }
  }
  const std::string summary = slurp(dir("a") + "/summary.csv");
  EXPECT_EQ(summary.rfind("point,runs.hermes.alpha,runs.hermes.beta,run,protocol,"
                          "dynamic_allocation,barrier_timeout_s,staleness,",
                          0),
            0u)
      << summary;
  EXPECT_EQ(lines(summary), 1u + 4 * 2);
  EXPECT_NE(summary.find("\n0000,-0.5,0.1,bsp,bsp,false,0,,,,,,chunk,,1,,,,,,,,11,"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("\n0000,-0.5,0.1,hermes,hermes,"), std::string::npos) << summary;
  // The grid columns show a value as the run's params do: -1, not -1.0.
  EXPECT_NE(summary.find("\n0003,-1,0.2,hermes,hermes,true,,,,,,,,,,-1,0.2,"), std::string::npos)
      << summary;

  const auto manifest = Json::parse(slurp(dir("a") + "/sweep.json"));
  EXPECT_EQ(manifest["grid"].dump(),
            R"({"runs.hermes.alpha":["-0.5","-1.0"],"runs.hermes.beta":["0.1","0.2"]})");
  EXPECT_EQ(manifest["seeds"].dump(), "[11]");
  // The scenario document as loaded, sweep section included.
  EXPECT_EQ(manifest["scenario"]["sweep"]["grid"]["runs.hermes.beta"]["step"], 0.1);
  EXPECT_EQ(manifest["points"].size(), 4u);
  // A point's scenario.json is a plain run of that point.
  const auto point = Json::parse(slurp(dir("a") + "/points/0003/scenario.json"));
  EXPECT_FALSE(point.contains("sweep"));
  EXPECT_EQ(point["runs"][1]["alpha"], -1.0);
  EXPECT_EQ(point["runs"][1]["beta"], 0.2);

  // Each point records what computed it: the build, the sweep's command line, the point and the
  // checksums of the data it read.
  const auto provenance = Json::parse(slurp(dir("a") + "/points/0003/provenance.json"));
  EXPECT_FALSE(provenance["build"]["math_profile"].get<std::string>().empty());
  EXPECT_EQ(provenance["command_line"][1], "sweep");
  EXPECT_EQ(provenance["threads"], 1);
  EXPECT_EQ(
      provenance["sweep"].dump(),
      Json({{"dir", dir("a")}, {"point", "0003"}, {"jobs", 2}, {"rank", 0}, {"ranks", 1}}).dump());
  expect_synthetic_mnist(provenance);
}

TEST_F(SweepCli, RunRecordsTheDatasetChecksumsInProvenance) {
  const std::string out = dir("run");
  const auto r =
      run_command(std::string(HERMES_BINARY) + " run " + (*tmp_ / "tiny.json") +
                  " --runs bsp --threads 2 --data-dir " + (*tmp_ / "data") + " --out " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\ndata: mnist from " + (*tmp_ / "data/mnist") + " (--data-dir)\n"),
            std::string::npos)
      << r.output;
  const auto provenance = Json::parse(slurp(out + "/provenance.json"));
  EXPECT_EQ(provenance["threads"], 2);
  EXPECT_FALSE(provenance.contains("sweep"));
  expect_synthetic_mnist(provenance);
}

TEST_F(SweepCli, AnExplicitDataDirIsTheOnlyPlaceLookedAt) {
  // The points would find MNIST in <repo>/../shared/data; a --data-dir without it is an error.
  const auto r = run_command(std::string(HERMES_BINARY) + " sweep " + (*tmp_ / "tiny.json") +
                             " --data-dir " + (*tmp_ / "nodata") + " --out " + dir("nodata"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--data-dir " + (*tmp_ / "nodata") + ": " + (*tmp_ / "nodata/mnist") +
                          ": no such directory"),
            std::string::npos)
      << r.output;
  // The sweep created its directory, then failed before any point ran: nothing is left.
  EXPECT_FALSE(fs::exists(dir("nodata"))) << r.output;
  // A directory the user made stays, whatever the sweep wrote into it before failing.
  fs::create_directories(dir("made"));
  const auto again = run_command(std::string(HERMES_BINARY) + " sweep " + (*tmp_ / "tiny.json") +
                                 " --data-dir " + (*tmp_ / "nodata") + " --out " + dir("made"));
  EXPECT_EQ(again.status, 2) << again.output;
  EXPECT_TRUE(fs::is_directory(dir("made")));
  EXPECT_FALSE(fs::exists(dir("made") + "/points/0000"));
}

TEST_F(SweepCli, OneThreadAndTwoThreadsGiveTheSameBytes) {
  ASSERT_EQ(sweep(dir("j2"), "--jobs 2").status, 0);
  const auto r = sweep(dir("j1"), "--jobs 1");
  ASSERT_EQ(r.status, 0) << r.output;
  expect_identical(dir("j2"), dir("j1"));
}

TEST_F(SweepCli, ResumeRunsOnlyTheMissingPoints) {
  ASSERT_EQ(sweep(dir("full"), "--jobs 2").status, 0);
  ASSERT_EQ(sweep(dir("crashed"), "--jobs 2").status, 0);
  // What kill -9 leaves: a point that never committed (its directory absent, a half-written
  // temporary one instead) and a half-written summary.
  fs::remove_all(dir("crashed") + "/points/0002");
  fs::create_directories(dir("crashed") + "/points/0002.partial-99999");
  std::ofstream(dir("crashed") + "/points/0002.partial-99999/summary.csv") << "run,prot";
  std::ofstream(dir("crashed") + "/summary.csv.tmp-99999") << "point,";
  const auto r = sweep(dir("crashed"), "--jobs 2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("3 done before, 1 to run"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("point 0002 "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("point 0001 "), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir("crashed") + "/points/0002.partial-99999"));
  EXPECT_FALSE(fs::exists(dir("crashed") + "/summary.csv.tmp-99999"));
  expect_identical(dir("full"), dir("crashed"));

  // Nothing left to do: the same command only rewrites the summary.
  const auto again = sweep(dir("crashed"), "--jobs 2");
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("4 done before, 0 to run"), std::string::npos) << again.output;
  expect_identical(dir("full"), dir("crashed"));
}

TEST_F(SweepCli, RefusesToResumeAnotherSweepUnlessForced) {
  ASSERT_EQ(sweep(dir("b"), "--jobs 2").status, 0);
  auto r = sweep(dir("b"), "--grid runs.hermes.alpha=-0.5,-2");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("grid values of runs.hermes.alpha: -0.5,-1.0 (recorded) vs -0.5,-2 "
                          "(now)"),
            std::string::npos)
      << r.output;
  r = sweep(dir("b"), "--set training.chunk_size=70");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("scenario document differs at /training/chunk_size"), std::string::npos)
      << r.output;
  r = sweep(dir("b"), "--seeds 2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("seeds: 11 (recorded) vs 11,12 (now)"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir("b") + "/points/0003"));

  // --force discards the old points; --grid replaces the file's alpha values (one now).
  r = sweep(dir("b"), "--grid runs.hermes.alpha=-2 --force --jobs 2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("2 points (2 grid keys x 1 seed), 0 done before, 2 to run"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir("b") + "/points/0002"));
  EXPECT_EQ(lines(slurp(dir("b") + "/summary.csv")), 1u + 2 * 2);
}

TEST_F(SweepCli, RecordsTheBuildAndRefusesToMixMathProfiles) {
  ASSERT_EQ(sweep(dir("math"), "--jobs 2").status, 0);
  const std::string path = dir("math") + "/sweep.json";
  Json manifest = Json::parse(slurp(path));
  const BuildInfo& b = build_info();  // the binary's build: same sources, same build tree
  for (const auto& [key, value] : b.fields()) EXPECT_EQ(manifest["build"][key], value) << key;
  EXPECT_EQ(manifest["code_version"], b.code_version());

  // As if another math profile had computed the points so far.
  const MathBuild other = b.math_profile == "native" ? MathBuild{"reproducible", "x86-64-v3"}
                                                     : MathBuild{"native", "rocketlake"};
  manifest["build"]["math_profile"] = other.profile;
  manifest["build"]["math_arch"] = other.arch;
  std::ofstream(path) << manifest.dump(2);
  fs::remove_all(dir("math") + "/points/0001");
  auto r = sweep(dir("math"), "--jobs 2");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("this sweep's points were computed by math profile " + other.text() +
                          "; this binary is " + MathBuild::of(b).text() +
                          ": their outputs are not comparable byte for byte. Rebuild with "
                          "-DHERMES_MATH=" +
                          other.profile),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("or pass --allow-mixed-math to continue anyway"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir("math") + "/points/0001"));  // nothing ran

  r = sweep(dir("math"), "--jobs 2 --allow-mixed-math");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("note: --allow-mixed-math: this sweep's points were computed by math "
                          "profile " +
                          other.text()),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("3 done before, 1 to run"), std::string::npos) << r.output;
  manifest = Json::parse(slurp(path));
  EXPECT_EQ(manifest["mixed_math"].dump(),
            Json::array({{{"math_profile", b.math_profile}, {"math_arch", b.math_arch}}}).dump());
  // The new point records the math that computed it.
  const auto provenance = Json::parse(slurp(dir("math") + "/points/0001/provenance.json"));
  EXPECT_EQ(provenance["build"]["math_profile"], b.math_profile);
}

TEST_F(SweepCli, ResumesASweepWhoseManifestPredatesBuilds) {
  ASSERT_EQ(sweep(dir("old"), "--jobs 2").status, 0);
  const std::string path = dir("old") + "/sweep.json";
  Json manifest = Json::parse(slurp(path));
  manifest.erase("build");
  manifest["code_version"] = "0.1.0 (62337b3)";
  std::ofstream(path) << manifest.dump(2);
  fs::remove_all(dir("old") + "/points/0002");
  const auto r = sweep(dir("old"), "--jobs 2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("note: this sweep was started by hermes-sim 0.1.0 (62337b3)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("records no math profile"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("3 done before, 1 to run"), std::string::npos) << r.output;
}

TEST_F(SweepCli, SeedsMultiplyThePoints) {
  const auto r = sweep(dir("seeds"),
                       "--grid runs.hermes.alpha=-0.5 --grid runs.hermes.beta=0.1 "
                       "--seeds 2 --jobs 2");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string summary = slurp(dir("seeds") + "/summary.csv");
  EXPECT_NE(summary.find("\n0000,-0.5,0.1,bsp,bsp,false,0,,,,,,chunk,,1,,,,,,,,11,"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("\n0001,-0.5,0.1,bsp,bsp,false,0,,,,,,chunk,,1,,,,,,,,12,"),
            std::string::npos)
      << summary;
  EXPECT_EQ(lines(summary), 1u + 2 * 2);
}

TEST_F(SweepCli, MistakesAreReportedBeforeAnythingRuns) {
  auto r = sweep(dir("bad1"), "--grid runs.hermes.alpha=-1:-0.5");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--grid 'runs.hermes.alpha=-1:-0.5': a range is FROM:TO:STEP"),
            std::string::npos)
      << r.output;
  r = sweep(dir("bad2"), "--grid runs.hermez.alpha=-1,-2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("point 0000 (runs.hermes.alpha=-0.5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("runs.hermez.alpha"), std::string::npos) << r.output;
  r = sweep(dir("bad3"), "--grid runs.hermes.alpha=0.5");  // alpha must be < 0
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("/runs/1/alpha"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir("bad1")));
  EXPECT_FALSE(fs::exists(dir("bad3") + "/points"));

  fs::create_directories(dir("other"));
  std::ofstream(dir("other") + "/mine.txt") << "x";
  r = sweep(dir("other"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("is not a sweep directory"), std::string::npos) << r.output;
}

TEST_F(SweepCli, ExtremeValidValuesAreWrittenAfterTheRun) {
  // Hermes with alpha -1e60: its threshold (workers.csv) is 68 characters, which a 64-byte buffer
  // used to refuse after the whole run, losing every output. 2 simulated seconds are enough.
  const std::string out = dir("alpha-1e60");
  const auto r = run_command(std::string(HERMES_BINARY) + " run " + (*tmp_ / "tiny.json") +
                             " --data-dir " + (*tmp_ / "data") + " --out " + out +
                             " --runs hermes --set runs.hermes.alpha=-1e60 --threads 1 "
                             "--set training.stop.max_sim_time_s=2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(slurp(out + "/workers.csv")
                .find(",-999999999999999949387135297074018866963645011013410073083904.000000,"),
            std::string::npos);
  EXPECT_NE(slurp(out + "/scenario.json").find("\"alpha\": -1e+60"), std::string::npos);
}

TEST_F(SweepCli, AFailedPointIsReportedAndTheOthersFinish) {
  ASSERT_EQ(sweep(dir("fail"), "--jobs 2").status, 0);
  // Point 0002 cannot be written: a file stands where its directory goes.
  fs::remove_all(dir("fail") + "/points/0002");
  std::ofstream(dir("fail") + "/points/0002") << "in the way";
  fs::remove_all(dir("fail") + "/points/0001");
  const auto r = sweep(dir("fail"), "--jobs 2");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("1 point failed (run the same command again to retry them):\n  0002: "
                          "point directory"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("3/4 points done (1 now)"), std::string::npos) << r.output;
  EXPECT_EQ(lines(slurp(dir("fail") + "/summary.csv")), 1u + 3 * 2);
}

#ifdef HERMES_MPIRUN
TEST_F(SweepCli, TwoMpiRanksGiveTheSameBytesAsTheLocalSweep) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "Open MPI's runtime is not clean under LeakSanitizer; checked in Release";
#endif
  ASSERT_EQ(sweep(dir("local"), "--jobs 2").status, 0);
  const std::string mpirun =
      std::string(HERMES_MPIRUN) + " --allow-run-as-root --oversubscribe -n 2 ";
  const auto r = sweep(dir("mpi"), "--jobs 1", mpirun);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("to run on 2 ranks x 1 thread"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[rank 1]"), std::string::npos) << "rank 1 ran no point:\n" << r.output;
  expect_identical(dir("local"), dir("mpi"));

  // Resume works the same under MPI, and a failed point is reported whichever rank ran it.
  fs::remove_all(dir("mpi") + "/points/0001");
  fs::remove_all(dir("mpi") + "/points/0002");
  std::ofstream(dir("mpi") + "/points/0002") << "in the way";
  auto again = sweep(dir("mpi"), "--jobs 1", mpirun);
  EXPECT_NE(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("2 done before, 2 to run"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("0002: point directory"), std::string::npos) << again.output;
  fs::remove(dir("mpi") + "/points/0002");
  again = sweep(dir("mpi"), "--jobs 1", mpirun);
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("3 done before, 1 to run"), std::string::npos) << again.output;
  expect_identical(dir("local"), dir("mpi"));
}
#endif

}  // namespace
}  // namespace hermes::sweep
