// The sweep directory: opening a new or resumed sweep, refusals, --force, the lock, temporaries
// of a killed sweep, and the summary rebuilt from the point directories.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/diagnostics.h"
#include "sim/common/owned_dirs.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/sweep_dir.h"
#include "sim/sweep/sweep_summary.h"
#include "tests/support/run_command.h"
#include "tests/support/test_files.h"

namespace hermes::sweep {
namespace {

namespace fs = std::filesystem;
using data::testing::TempDir;
using hermes::testing::file_text;

SweepDefinition definition(const char* alphas = "-1.6,-1.3") {
  SweepDefinition d;
  d.scenario_path = "s.json";
  d.scenario = Json::parse(R"({"name": "s"})");
  d.grid = {parse_grid_option(std::string("runs.h.alpha=") + alphas)};
  d.seeds = {1};
  d.points = expand_points(d.grid, d.seeds);
  return d;
}

// A build of version `version` with the reproducible math, or `profile` / `arch`.
BuildInfo build(const std::string& version, const std::string& profile = "reproducible",
                const std::string& arch = "x86-64-v3") {
  return {version, "abc123", profile, arch, "3.4.0", "GCC 12.2.0"};
}

void put(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// A finished point as a sweep leaves it: its marker listing its files.
void put_point(const std::string& dir) {
  put(dir + "/summary.csv", "run\nh\n");
  write_marker(dir, DirKind::kRun);
  append_run_manifest(dir, {"summary.csv"});
}

std::string open_error(SweepDir& dir, const Json& manifest, bool force) {
  try {
    dir.open(manifest, force);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

// Whether `text` holds `part`; a failure shows both.
::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' is not in: " << text;
}

TEST(SweepDir, NewSweepWritesItsManifest) {
  TempDir tmp;
  SweepDir dir(tmp / "s");
  const Json m = make_manifest(definition(), build("v1"));
  EXPECT_TRUE(dir.open(m, false).empty());
  EXPECT_EQ(Json::parse(file_text(dir.manifest_path())), m);
  EXPECT_TRUE(fs::is_directory(dir.points_dir()));
  EXPECT_EQ(dir.point_dir(1, 2), tmp / "s/points/0001");
  EXPECT_EQ(dir.finished_points(2), (std::vector<bool>{false, false}));
}

TEST(SweepDir, ResumeKeepsPointsAndRemovesTemporaries) {
  TempDir tmp;
  const Json m = make_manifest(definition(), build("v1"));
  {
    SweepDir dir(tmp / "s");
    dir.open(m, false);
  }
  put(tmp / "s/points/0001/summary.csv", "run\nh\n");
  put(tmp / "s/points/0000.partial-4242/summary.csv", "half");
  put(tmp / "s/summary.csv.tmp-4242", "half");
  SweepDir dir(tmp / "s");
  const auto notes = dir.open(make_manifest(definition(), build("v2")), false);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("started by hermes-sim v1 (abc123); resuming with v2 (abc123)"),
            std::string::npos)
      << notes[0];
  EXPECT_EQ(dir.finished_points(2), (std::vector<bool>{false, true}));
  EXPECT_FALSE(fs::exists(tmp / "s/points/0000.partial-4242"));
  EXPECT_FALSE(fs::exists(tmp / "s/summary.csv.tmp-4242"));
  EXPECT_EQ(Json::parse(file_text(dir.manifest_path()))["code_version"],
            "v1 (abc123)");  // original
}

TEST(SweepDir, AnotherSweepIsRefusedUnlessForced) {
  TempDir tmp;
  {
    SweepDir dir(tmp / "s");
    dir.open(make_manifest(definition(), build("v")), false);
  }
  put_point(tmp / "s/points/0000");
  const Json other = make_manifest(definition("-1.6,-1.3,-0.9"), build("v"));
  {
    SweepDir dir(tmp / "s");
    const std::string error = open_error(dir, other, false);
    EXPECT_TRUE(contains(error, "holds another sweep"));
    EXPECT_TRUE(
        contains(error, "grid values of runs.h.alpha: -1.6,-1.3 (recorded) vs -1.6,-1.3,-0.9"));
    EXPECT_TRUE(contains(error, "--force"));
    EXPECT_TRUE(fs::exists(tmp / "s/points/0000"));  // nothing touched
  }
  SweepDir dir(tmp / "s");
  EXPECT_EQ(open_error(dir, other, true), "");
  EXPECT_FALSE(fs::exists(tmp / "s/points/0000"));  // discarded
  EXPECT_EQ(Json::parse(file_text(dir.manifest_path())), other);
}

TEST(SweepDir, AResumeWithAnotherMathIsRefusedUnlessAllowed) {
  TempDir tmp;
  {
    SweepDir dir(tmp / "s");
    dir.open(make_manifest(definition(), build("v1")), false);
  }
  put(tmp / "s/points/0000/summary.csv", "run\nh\n");
  const Json native = make_manifest(definition(), build("v1", "native", "rocketlake"));
  {
    SweepDir dir(tmp / "s");
    const std::string error = open_error(dir, native, false);
    EXPECT_TRUE(contains(error,
                         "this sweep's points were computed by math profile reproducible "
                         "(x86-64-v3); this binary is native (rocketlake): their outputs "
                         "are not comparable byte for byte. Rebuild with "
                         "-DHERMES_MATH=reproducible"));
    EXPECT_NE(error.find("or pass --allow-mixed-math to continue anyway"), std::string::npos);
    EXPECT_TRUE(fs::exists(tmp / "s/points/0000"));  // nothing touched
  }
  {
    SweepDir dir(tmp / "s");
    const auto notes = dir.open(native, false, /*allow_mixed_math=*/true);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("note: --allow-mixed-math: this sweep's points were computed by math "
                            "profile reproducible (x86-64-v3); this binary is native "
                            "(rocketlake); the points computed now are not comparable"),
              std::string::npos)
        << notes[0];
    EXPECT_EQ(dir.finished_points(2), (std::vector<bool>{true, false}));
    const Json m = Json::parse(file_text(dir.manifest_path()));
    EXPECT_EQ(m["build"]["math_profile"], "reproducible");  // who started it
    EXPECT_EQ(m["mixed_math"].dump(),
              R"json([{"math_profile":"native","math_arch":"rocketlake"}])json");
  }
  // Now mixed: even the original math must say so to resume it.
  SweepDir dir(tmp / "s");
  const std::string error = open_error(dir, make_manifest(definition(), build("v1")), false);
  EXPECT_TRUE(contains(error,
                       "computed by math profiles reproducible (x86-64-v3) and native "
                       "(rocketlake); this binary is reproducible (x86-64-v3)"));
  EXPECT_TRUE(contains(error,
                       "The sweep is mixed already (resumed with --allow-mixed-math); pass --force "
                       "to recompute every point with this binary, or pass --allow-mixed-math"));
}

TEST(SweepDir, TwoNativeBuildsForDifferentCpusAreDifferentMaths) {
  TempDir tmp;
  {
    SweepDir dir(tmp / "s");
    dir.open(make_manifest(definition(), build("v", "native", "rocketlake")), false);
  }
  SweepDir dir(tmp / "s");
  const std::string error =
      open_error(dir, make_manifest(definition(), build("v", "native", "znver3")), false);
  EXPECT_TRUE(contains(error, "this binary is native (znver3)"));
  EXPECT_TRUE(contains(error,
                       "Resume it with a binary whose math is native (rocketlake) (a "
                       "native build on a machine with that CPU)"));
}

TEST(SweepDir, AnOldManifestWithoutABuildResumesWithANote) {
  TempDir tmp;
  Json old = make_manifest(definition(), build("v0"));
  old.erase("build");  // what hermes-sim wrote before it recorded builds
  put(tmp / "s/sweep.json", old.dump(2));
  SweepDir dir(tmp / "s");
  const auto notes = dir.open(make_manifest(definition(), build("v0")), false);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("records no math profile (started by hermes-sim v0 (abc123), before "
                          "builds were recorded)"),
            std::string::npos)
      << notes[0];
}

TEST(SweepDir, MixedMathsOfMpiRanksAreRecorded) {
  TempDir tmp;
  SweepDir dir(tmp / "s");
  dir.open(make_manifest(definition(), build("v")), false);
  dir.record_mixed_maths({{"native", "znver3"}, {"reproducible", "x86-64-v3"}});
  EXPECT_EQ(Json::parse(file_text(dir.manifest_path()))["mixed_math"].dump(),
            R"json([{"math_profile":"native","math_arch":"znver3"}])json");
}

TEST(SweepDir, ADirectoryThatIsNoSweepIsRefused) {
  TempDir tmp;
  put(tmp / "s/notes.txt", "mine");
  SweepDir dir(tmp / "s");
  const std::string error = open_error(dir, make_manifest(definition(), build("v")), false);
  EXPECT_TRUE(contains(error,
                       "is not a sweep directory hermes-sim wrote (no .hermes-sweep, no "
                       "sweep.json)"));
  // Not even --force discards what hermes-sim did not write, and nothing was written into it.
  EXPECT_EQ(open_error(dir, make_manifest(definition(), build("v")), true), error);
  EXPECT_TRUE(fs::exists(tmp / "s/notes.txt"));
  EXPECT_FALSE(fs::exists(tmp / "s/.sweep.lock"));
  EXPECT_FALSE(fs::exists(tmp / "s/.hermes-sweep"));
}

TEST(SweepDir, DiscardingNeverRemovesWhatTheSweepDidNotWrite) {
  TempDir tmp;
  {
    SweepDir dir(tmp / "s");
    dir.open(make_manifest(definition(), build("v")), false);
  }
  put_point(tmp / "s/points/0000");
  put(tmp / "s/notes.txt", "mine");
  put(tmp / "s/points/0000/plot.png", "mine");
  put(tmp / "s/points/extra/b.txt", "mine");
  // A point directory whose marker lists no files (copied, or a version before the lists).
  put(tmp / "s/points/0001/summary.csv", "run\nh\n");
  write_marker(tmp / "s/points/0001", DirKind::kRun);
  const Json other = make_manifest(definition("-1.6,-1.3,-0.9"), build("v"));
  SweepDir dir(tmp / "s");
  const std::string error = open_error(dir, other, true);
  EXPECT_TRUE(contains(error, "holds 'points/0000/plot.png', "));
  EXPECT_FALSE(contains(error, "notes.txt"));  // beside the sweep's files: kept
  EXPECT_TRUE(contains(error, "'points/0000/plot.png'"));
  EXPECT_TRUE(contains(error, "'points/extra/'"));
  EXPECT_TRUE(contains(error, "'points/0001/ (its .hermes-run lists no files"));
  EXPECT_TRUE(contains(error, "which hermes-sim did not write; --force would remove them"));
  // Nothing was removed, and the dry run's check says the same.
  for (const char* f : {"notes.txt", "points/0000/plot.png", "points/0000/summary.csv",
                        "points/extra/b.txt", "points/0001/summary.csv", "sweep.json"}) {
    EXPECT_TRUE(fs::exists(tmp / ("s/" + std::string(f)))) << f;
  }
  try {
    dir.check(other, true);
    ADD_FAILURE() << "check() accepted --force";
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), error);
  }
  // Once they are gone, --force discards the sweep, and keeps the notes.
  fs::remove(tmp / "s/points/0000/plot.png");
  fs::remove_all(tmp / "s/points/extra");
  fs::remove_all(tmp / "s/points/0001");
  EXPECT_EQ(open_error(dir, other, true), "");
  EXPECT_FALSE(fs::exists(tmp / "s/points/0000"));
  EXPECT_EQ(file_text(tmp / "s/notes.txt"), "mine");
}

TEST(SweepDir, ASweepKilledInItsFirstMillisecondsStartsAfresh) {
  // What a sweep leaves when killed before its manifest is in place, by this version (the marker
  // first) or by one before markers: the lock, an empty points/, sweep.json's temporary.
  for (const bool with_marker : {false, true}) {
    TempDir tmp;
    put(tmp / "s/.sweep.lock", "");
    fs::create_directories(tmp / "s/points");
    put(tmp / "s/sweep.json.tmp-4242", "{\"half");
    if (with_marker) write_marker(tmp / "s", DirKind::kSweep);
    SweepDir dir(tmp / "s");
    const Json m = make_manifest(definition(), build("v"));
    EXPECT_EQ(open_error(dir, m, false), "") << with_marker;
    EXPECT_EQ(Json::parse(file_text(dir.manifest_path())), m);
    EXPECT_FALSE(fs::exists(tmp / "s/sweep.json.tmp-4242"));
    EXPECT_TRUE(has_marker(tmp / "s", DirKind::kSweep));
  }
}

TEST(SweepDir, ProtectedPlacesAndRunDirectoriesAreNoSweeps) {
  TempDir tmp;
  SweepDir here(".");
  EXPECT_NE(open_error(here, make_manifest(definition(), build("v")), true)
                .find("sweep directory '.' is the current directory"),
            std::string::npos);
  fs::create_directories(tmp / "run");
  write_marker(tmp / "run", DirKind::kRun);
  SweepDir run(tmp / "run");
  EXPECT_NE(open_error(run, make_manifest(definition(), build("v")), true)
                .find("is a run directory, not a sweep directory"),
            std::string::npos);
  put(tmp / "file", "x");
  SweepDir file(tmp / "file");
  EXPECT_NE(open_error(file, make_manifest(definition(), build("v")), true)
                .find("exists and is a regular file, not a directory"),
            std::string::npos);
  // A trailing slash names the same directory.
  SweepDir slash(tmp / "new/");
  EXPECT_EQ(open_error(slash, make_manifest(definition(), build("v")), false), "");
  EXPECT_EQ(slash.root(), tmp / "new");
}

TEST(SweepDir, TwoSweepsCannotRunInOneDirectory) {
  TempDir tmp;
  const Json m = make_manifest(definition(), build("v"));
  SweepDir first(tmp / "s");
  first.open(m, false);
  SweepDir second(tmp / "s");
  EXPECT_NE(open_error(second, m, false).find("another hermes-sim sweep is running"),
            std::string::npos);
}

TEST(SweepSummary, RowsOfTheFinishedPointsWithTheirGridValues) {
  TempDir tmp;
  SweepDefinition d;
  d.grid = {parse_grid_option("runs.h.alpha=-1.6,-1.3"),
            parse_grid_option("runs.h.variant=a\"b,c")};
  d.seeds = {1};
  d.points = expand_points(d.grid, d.seeds);
  SweepDir dir(tmp / "s");
  dir.open(make_manifest(d, build("v")), false);
  EXPECT_EQ(sweep_summary_csv(dir, d.grid, d.points), "");
  EXPECT_EQ(write_sweep_summary(dir, d.grid, d.points), 0u);
  EXPECT_FALSE(fs::exists(dir.summary_path()));

  put(dir.point_dir(3, 4) + "/summary.csv", "run,protocol,seed\nh,hermes,1\nb,bsp,1\n");
  put(dir.point_dir(0, 4) + "/summary.csv", "run,protocol,seed\nh,hermes,1\nb,bsp,1\n");
  EXPECT_EQ(write_sweep_summary(dir, d.grid, d.points), 4u);
  EXPECT_EQ(file_text(dir.summary_path()),
            "point,runs.h.alpha,runs.h.variant,run,protocol,seed\n"
            "0000,-1.6,\"a\"\"b\",h,hermes,1\n"
            "0000,-1.6,\"a\"\"b\",b,bsp,1\n"
            "0003,-1.3,c,h,hermes,1\n"
            "0003,-1.3,c,b,bsp,1\n");

  // A point whose runs have other parameter columns (a grid key changed a run's protocol): the
  // union of the columns, empty where a point has none; quoted fields are kept as they were.
  put(dir.point_dir(1, 4) + "/summary.csv", "run,protocol,delta,seed\nh,selsync,\"0,3\",1\n");
  EXPECT_EQ(sweep_summary_csv(dir, d.grid, d.points),
            "point,runs.h.alpha,runs.h.variant,run,protocol,delta,seed\n"
            "0000,-1.6,\"a\"\"b\",h,hermes,,1\n"
            "0000,-1.6,\"a\"\"b\",b,bsp,,1\n"
            "0001,-1.6,c,h,selsync,\"0,3\",1\n"
            "0003,-1.3,c,h,hermes,,1\n"
            "0003,-1.3,c,b,bsp,,1\n");
  // A row that does not match its header is an error naming the file.
  put(dir.point_dir(1, 4) + "/summary.csv", "run,protocol,delta,seed\nh,selsync,1\n");
  try {
    (void)sweep_summary_csv(dir, d.grid, d.points);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("0001/summary.csv' line 2 has 3 fields, its header 4"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hermes::sweep
