#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/number_text.h"
#include "sim/config/csv_reader.h"
#include "sim/metrics/atomic_file.h"
#include "sim/metrics/csv_writer.h"

namespace hermes::metrics {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& name) {
  fs::path d =
      fs::temp_directory_path() / ("hermes-metrics-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(CsvWriter, WritesHeaderRowsQuotingAndFixedNumbers) {
  std::ostringstream os;
  CsvWriter w(os, {"name", "n", "x"});
  w.field("a,b").field(3).field(2.0 / 3.0, 4).end_row();
  w.field("say \"hi\"").field(std::int64_t{-7}).field(-0.00001, 3).end_row();
  EXPECT_EQ(os.str(), "name,n,x\n\"a,b\",3,0.6667\n\"say \"\"hi\"\"\",-7,0.000\n");
  EXPECT_EQ(w.rows(), 2u);
}

TEST(CsvWriter, EveryFiniteDoublePrintsWhateverItsLength) {
  // A Hermes threshold of alpha -1e60 with 9 decimals is 71 characters: it used to overflow a
  // 64-byte buffer after the whole run.
  EXPECT_EQ(format_fixed(-1e60, 9),
            "-999999999999999949387135297074018866963645011013410073083904.000000000");
  const std::string max = format_fixed(1.7976931348623157e308, 9);
  EXPECT_EQ(max.size(), 309u + 1u + 9u);
  EXPECT_EQ(max.substr(0, 5), "17976");
  EXPECT_EQ(format_fixed(-5e-324, 300), "0." + std::string(300, '0'));  // -0 prints as 0
  EXPECT_EQ(format_fixed(2.5, 0), "2");
}

TEST(CsvWriter, RejectsRowsOfTheWrongWidth) {
  std::ostringstream os;
  CsvWriter w(os, {"a", "b"});
  w.field(1);
  EXPECT_THROW(w.end_row(), std::logic_error);
  std::ostringstream os2;
  CsvWriter w2(os2, {"a"});
  w2.field(1);
  EXPECT_THROW(w2.field(2), std::logic_error);
}

TEST(CsvWriter, OutputReadsBackWithTheCsvParser) {
  const fs::path dir = temp_dir("roundtrip");
  const std::string path = (dir / "t.csv").string();
  {
    AtomicFile f(path);
    CsvWriter w(f.stream(), {"worker", "time_s", "loss"});
    for (int i = 0; i < 3; ++i) {
      w.field("w" + std::to_string(i)).field(1.5 * i, 3).field(0.25, 2).end_row();
    }
    f.commit();
  }
  io::CSVReader<3> in(path);
  in.read_header(io::ignore_extra_column, "worker", "time_s", "loss");
  std::string worker;
  double t = 0, loss = 0;
  int rows = 0;
  while (in.read_row(worker, t, loss)) {
    EXPECT_EQ(worker, "w" + std::to_string(rows));
    EXPECT_DOUBLE_EQ(t, 1.5 * rows);
    EXPECT_DOUBLE_EQ(loss, 0.25);
    ++rows;
  }
  EXPECT_EQ(rows, 3);
  fs::remove_all(dir);
}

TEST(AtomicFile, NothingAppearsUntilCommitAndAbandonedWritesLeaveNoTrace) {
  const fs::path dir = temp_dir("atomic");
  const std::string path = (dir / "out.csv").string();
  {
    AtomicFile f(path);
    f.stream() << "partial";
    EXPECT_FALSE(fs::exists(path));  // readers never see the half-written file
  }                                  // destroyed without commit: as if the run had failed here
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::is_empty(dir));  // and no temporary is left behind
  write_file_atomically(path, "old");
  write_file_atomically(path, "complete\n");
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), "complete\n");
  fs::remove_all(dir);
}

TEST(AtomicFile, UnwritableDirectoryIsAClearError) {
  try {
    AtomicFile f("/nonexistent-dir-hermes/x.csv");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir-hermes/x.csv"), std::string::npos);
  }
}

}  // namespace
}  // namespace hermes::metrics
